"""``parts.compact`` takes out indentation and blank lines exactly as the pattern it replaces did."""

from __future__ import annotations

import random
import re
import sys
from pathlib import Path

from companion.web.screens.parts import compact

PATTERN = re.compile(r"[ \t]*\n\s*")  # what the markup was compacted with: a newline for each run


def as_the_pattern(html: str) -> str:
    return PATTERN.sub("\n", html)


def test_every_whitespace_character_is_one_to_both() -> None:
    """``str.lstrip`` and the pattern's ``\\s`` take the same characters: every code point of Unicode."""
    for point in range(sys.maxunicode + 1):
        c = chr(point)
        if point == 0x0A:
            continue
        text = f"a\n{c}b"
        assert compact(text) == as_the_pattern(text), hex(point)


def test_random_markup_is_compacted_as_the_pattern_does() -> None:
    alphabet = [" ", "\t", "\n", "\r", "\x0b", "\x0c", "\x1c", "\x85", "\xa0", "\u2003", "\u2028", "a", "<", ">"]
    rng = random.Random(27)
    for _ in range(50_000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 16)))
        assert compact(text) == as_the_pattern(text), repr(text)


def test_the_templates_are_compacted_as_the_pattern_does() -> None:
    templates = sorted((Path(__file__).parents[3] / "templates").rglob("*.html"))
    assert len(templates) > 20
    for template in templates:
        text = template.read_text(encoding="utf-8")
        assert compact(text) == as_the_pattern(text), template
