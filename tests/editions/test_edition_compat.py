"""Every edition already recorded still parses: the shipped files, the edition each golden game
pinned (its exact text, format 1 or 2) and a format-1 file upcast. A limit that refused one of them
would be wrong, not the file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.editions import EDITIONS_DIR, load_all
from companion.game.edition import content_hash, parse_edition

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
GOLDEN = sorted(p for p in FIXTURES.glob("*.json") if not p.name.endswith(".script.json"))


def test_every_shipped_edition_parses() -> None:
    assert set(load_all(EDITIONS_DIR)) >= {"inferno-base"}


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_every_golden_games_pinned_edition_still_parses(path: Path) -> None:
    export = json.loads(path.read_text(encoding="utf-8"))
    text = export["edition"]["content"]
    edition = parse_edition(text)
    assert edition.content_hash == content_hash(text)
    assert edition.raw["format_version"] in (1, 2)


def test_the_golden_games_cover_both_format_versions() -> None:
    versions = {
        json.loads(json.loads(p.read_text(encoding="utf-8"))["edition"]["content"])["format_version"] for p in GOLDEN
    }
    assert versions == {1, 2}
