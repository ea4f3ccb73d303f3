"""docs/edition-format.md speaks for the validator: every key it reads is documented, and the
example in the doc validates."""

from __future__ import annotations

import json
import re
from pathlib import Path

from companion.editions import EDITIONS_DIR
from companion.game import edition as edition_module
from companion.game.edition import parse_edition

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "edition-format.md").read_text(encoding="utf-8")


def _keys_the_validator_reads() -> set[str]:
    source = Path(edition_module.__file__).read_text(encoding="utf-8")
    keys = set(re.findall(r'_need\([^,]+, "([a-z_]+)"', source))
    keys |= set(re.findall(r'\["([a-z_]+)"\]', source))
    sections = re.search(r"for section in \((.*?)\):", source, re.S)
    assert sections is not None
    keys |= set(re.findall(r'"([a-z_]+)"', sections.group(1)))
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
