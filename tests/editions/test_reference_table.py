"""The table of references between an edition's entries: each row raises a known code, and its sentence names
only the params it gives (a row with a typo would otherwise fail only on the one file that breaks it)."""

from __future__ import annotations

import pytest

from companion.game.edition import ERROR_CODES
from companion.game.edition.references import REFERENCES
from companion.game.edition.rows import Among, Equal, Limit, Unique

ROWS = [row for row in REFERENCES if isinstance(row, Limit | Equal | Among | Unique)]
WORDED = [row for row in ROWS if not isinstance(row, Unique)]


def test_most_checks_are_rows_of_the_table() -> None:
    assert len(ROWS) >= 2 * (len(REFERENCES) - len(ROWS))


@pytest.mark.parametrize("row", WORDED, ids=[f"{row.code}-{i}" for i, row in enumerate(WORDED)])
def test_each_row_raises_a_known_code_with_a_sentence_its_params_fill(row: Limit | Equal | Among) -> None:
    assert row.code in ERROR_CODES
    names = [row.name] if isinstance(row, Among) else [param.partition("=")[0] for param in row.params]
    row.sentence.format(**dict.fromkeys(names, 1))
