"""docs/edition-format.md speaks for the validator: every key it reads is documented, and the
example in the doc validates."""

from __future__ import annotations

import json
import re
from pathlib import Path

from companion.editions import EDITIONS_DIR
from companion.game.edition import checks, loading, model, parse_edition, references, rows, schema

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "edition-format.md").read_text(encoding="utf-8")


# The modules that read an edition file: the loader, its types, the schema and the references between entries.
VALIDATOR = (loading, model, checks, schema, rows, references)


def _keys_the_validator_reads() -> set[str]:
    source = "\n".join(Path(str(module.__file__)).read_text(encoding="utf-8") for module in VALIDATOR)
    keys = set(re.findall(r'_need\([^,]+, "([a-z_]+)"', source))
    keys |= set(re.findall(r'\["([a-z_]+)"\]', source))
    # The rows of the reference table name an entry as a tuple of keys, and read their bounds with ``value_at`` and
    # the like.
    for path in re.findall(r'(?:_at|Unique|Limit|Equal|Among)\(\s*\(?((?:"[a-z_*]+",?\s*)+)', source):
        keys |= set(re.findall(r'"([a-z_]+)"', path))
    sections = re.findall(r"for section in \((.*?)\):", source, re.S)
    assert sections
    for listed in sections:
        keys |= set(re.findall(r'"([a-z_]+)"', listed))
    return keys


def test_every_key_the_validator_reads_is_documented() -> None:
    keys = _keys_the_validator_reads()
    assert {"lines", "gates", "above", "quarter", "infamy", "penalties", "scale"} <= keys
    missing = sorted(k for k in keys if f"`{k}`" not in DOC)
    assert missing == []


def test_the_docs_example_side_validates_in_the_shipped_edition() -> None:
    example = re.search(r"```json\n(.*?)```", DOC, re.S)
    assert example is not None
    raw = json.loads((EDITIONS_DIR / "inferno-base.json").read_text(encoding="utf-8"))
    raw["sides"][0] = json.loads(example.group(1))
    edition = parse_edition(json.dumps(raw))
    assert edition.sides["1-2"].rows[1] == ("1a", "1b", "1c", "1d")
