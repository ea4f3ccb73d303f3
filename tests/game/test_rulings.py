"""Issue 25, item 6: a ``source`` map names fields; statements go to ``rulings`` with their citation.

Seed 000 p.9 gives the grouping ("the first four / the last four tracks"); that these are circles
2–5 and 6–9 comes from the rules digest (RULES.md §4.6), so the circle numbers are a reference.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from companion.game.edition import SOURCE_GROUPS, EditionError, parse_edition
from tests.game.variants import shipped_raw, variant


def _maps(value: Any, path: str = "") -> list[tuple[str, dict[str, Any], dict[str, Any]]]:
    """Every (where, object, its source map) of the edition data."""
    found = []
    if isinstance(value, dict):
        if isinstance(value.get("source"), dict):
            found.append((path, value, value["source"]))
        for key, inner in value.items():
            if key not in ("source", "notes"):
                found += _maps(inner, f"{path}.{key}" if path else key)
    elif isinstance(value, list):
        for i, inner in enumerate(value):
            found += _maps(inner, f"{path}[{i}]")
    return found


def _ruling(raw: dict[str, Any], section: str, cites: str) -> list[str]:
    return [r["says"] for r in raw[section].get("rulings", []) if r["source"] == cites]


def test_the_circles_of_the_first_and_last_four_tracks_are_a_reference() -> None:
    tracks = shipped_raw()["tracks"]
    assert tracks["source"]["first_four"] == "reference: RULES.md §4.6"
    assert tracks["source"]["last_four"] == "reference: RULES.md §4.6"
    # and the grouping itself is the rulebook's, as a ruling with its page
    rulings = _ruling(shipped_raw(), "tracks", "rulebook: seed 000 p.9")
    assert any("first four" in s and "last four" in s for s in rulings)


def test_every_source_map_of_the_shipped_edition_names_its_fields() -> None:
    maps = _maps(shipped_raw())
    assert len(maps) > 20
    for where, obj, source in maps:
        for key in source:
            assert key in obj or key in SOURCE_GROUPS, f"{where}.source names {key!r}, not a field"


def test_the_statements_of_empty_shields_and_the_wall_are_rulings_with_their_pages() -> None:
    raw = shipped_raw()
    assert _ruling(raw, "empty_shield", "rulebook: seed 000 p.11")
    assert _ruling(raw, "empty_shield", "rulebook: seed 000 pp.16-17")
    assert _ruling(raw, "empty_shield", "rulebook: seed 000 pp.22-23")
    assert _ruling(raw, "empty_shield", "rulebook: seed 002 Red Guardian (Plutus)")
    assert _ruling(raw, "wall", "rulebook: seed 000 p.11")


def test_a_source_map_naming_no_field_is_refused() -> None:
    def typo(raw: dict[str, Any]) -> None:
        raw["limbo"]["source"] = {"circle": "estimated", "pagan_colur": "estimated"}

    with pytest.raises(EditionError) as info:
        variant(typo)
    assert info.value.code == "source_names_no_field"
    assert info.value.where == ("limbo", "source", "pagan_colur")


def test_a_ruling_needs_its_words_and_a_citation() -> None:
    def no_words(raw: dict[str, Any]) -> None:
        raw["wall"]["rulings"] = [{"source": "rulebook: seed 000 p.11"}]

    def bad_tag(raw: dict[str, Any]) -> None:
        raw["wall"]["rulings"] = [{"says": "A soul crosses with its own disc.", "source": "the box lid"}]

    with pytest.raises(EditionError) as info:
        variant(no_words)
    assert info.value.code == "missing" and info.value.where == ("wall", "rulings", 0)
    with pytest.raises(EditionError) as info:
        variant(bad_tag)
    assert info.value.code == "bad_source" and info.value.where == ("wall", "rulings", 0, "source")


def test_a_file_written_before_rulings_still_loads() -> None:
    # Games recorded earlier pin their own copy, which named statements in the source map.
    raw = shipped_raw()
    raw["wall"].pop("rulings", None)
    raw["wall"]["source"] = {"between": "reference: RULES.md §3.4", "needs_own_disc": "rulebook: seed 000 p.11"}
    assert parse_edition(json.dumps(raw)).wall == (5, 6)
