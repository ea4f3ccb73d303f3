"""The edition file: validated on load, each error naming the offending entry."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from companion.editions import EDITIONS_DIR, load_all, load_file
from companion.game.edition import EditionError, content_hash, parse_edition

BASE = EDITIONS_DIR / "inferno-base.json"


@pytest.fixture
def raw() -> dict:
    return json.loads(BASE.read_text(encoding="utf-8"))


def broken(raw: dict, message: str) -> None:
    with pytest.raises(EditionError) as info:
        parse_edition(json.dumps(raw))
    assert message in str(info.value)


def side(raw: dict, sid: str) -> dict:
    return next(s for s in raw["sides"] if s["id"] == sid)


def test_the_shipped_edition_loads(raw: dict) -> None:
    edition = parse_edition(BASE.read_text(encoding="utf-8"))
    assert edition.id == "inferno-base"
    assert sorted(edition.circles) == list(range(1, 10))
    assert set(edition.sides) == {"1-2", "3-4"}
    assert edition.content_hash == content_hash(BASE.read_text(encoding="utf-8"))


def test_every_circle_of_every_side_holds_every_quarter_symbol(raw: dict) -> None:
    edition = parse_edition(json.dumps(raw))
    for s in edition.sides.values():
        for circle, row in s.rows.items():
            assert {s.shields[x].quarter for x in row} == set(edition.quarters), (s.id, circle)


def test_every_value_carries_its_provenance(raw: dict) -> None:
    for section in ("players", "tracks", "phlegethon", "economy", "loan_track", "dante", "family", "tower"):
        assert raw[section]["source"]
    for circle in raw["circles"]:
        assert set(circle["source"]) >= {"colour", "sin", "infamy"}
    assert all(s["source"]["geometry"] == "estimated" for s in raw["sides"])


def test_a_line_to_an_unknown_shield(raw: dict) -> None:
    side(raw, "1-2")["lines"]["2a"] = ["3z"]
    broken(raw, "sides[1-2].lines['2a']: a line to unknown shield '3z'")


def test_a_line_that_skips_a_circle(raw: dict) -> None:
    side(raw, "3-4")["lines"]["4a"] = ["6a"]
    broken(
        raw,
        "sides[3-4].lines['4a'] -> '6a': a line must go exactly one circle down (from circle 4, "
        "this one reaches circle 6)",
    )


def test_a_line_going_up(raw: dict) -> None:
    side(raw, "1-2")["lines"]["3a"] = ["2a"]
    broken(raw, "a line must go exactly one circle down")


def test_a_circle_without_shields(raw: dict) -> None:
    side(raw, "1-2")["circles"]["7"] = []
    broken(raw, "sides[1-2].circles['7']: circle 7 has no shields")


def test_a_gate_over_no_shield(raw: dict) -> None:
    side(raw, "1-2")["gates"][0]["above"] = "5a"
    broken(raw, "sides[1-2].gates[gate-6a]: gate stands over no circle-6 shield ('5a')")


def test_a_missing_quarter_symbol(raw: dict) -> None:
    for shield in side(raw, "3-4")["circles"]["2"]:
        if shield["quarter"] == "key":
            shield["quarter"] = "lily"
    broken(raw, "sides[3-4].circles['2']: circle 2 lacks quarter symbol(s) ['key']")


def test_an_unknown_quarter_symbol(raw: dict) -> None:
    side(raw, "1-2")["circles"]["1"][0]["quarter"] = "moon"
    broken(raw, "shield '1a' has unknown quarter symbol 'moon'")


def test_a_value_without_provenance(raw: dict) -> None:
    del raw["economy"]["source"]
    broken(raw, "economy: missing 'source'")


def test_a_provenance_outside_the_vocabulary(raw: dict) -> None:
    raw["circles"][2]["source"]["infamy"] = "guess"
    broken(raw, "circles[2].source: 'guess' is not 'rulebook: seed NNN <page>'")


def test_a_bare_rulebook_tag_no_longer_passes(raw: dict) -> None:
    raw["economy"]["source"]["council_infamy"] = "rulebook"
    broken(raw, "economy.source: 'rulebook' is not 'rulebook: seed NNN <page>'")


def test_a_shield_without_a_line_down(raw: dict) -> None:
    del side(raw, "1-2")["lines"]["8d"]
    broken(raw, "shield '8d' has no line down")


def test_a_phlegethon_start_off_the_scale(raw: dict) -> None:
    raw["phlegethon"]["start"]["5"] = 9
    broken(raw, "phlegethon.start['5']: space 9 is off the scale")


def test_not_json(tmp_path: Path) -> None:
    with pytest.raises(EditionError, match="not valid JSON"):
        parse_edition("{oops")


def test_a_broken_file_is_reported_with_its_name_when_the_app_starts(tmp_path: Path, raw: dict) -> None:
    bad = copy.deepcopy(raw)
    side(bad, "1-2")["lines"]["2a"] = ["3z"]
    (tmp_path / "mine.json").write_text(json.dumps(bad), encoding="utf-8")
    with pytest.raises(EditionError, match=r"mine\.json: sides\[1-2\]"):
        load_all(tmp_path)
    with pytest.raises(EditionError, match=r"mine\.json"):
        load_file(tmp_path / "mine.json")


def test_the_values_read_once_per_edition_are_each_editions_own(raw: dict) -> None:
    """``wall`` and the players' colours are read from the edition's text once and kept on the edition: another
    edition with other colours gets its own, and a caller changing the colours it was given changes nothing kept."""
    base = parse_edition(json.dumps(raw))
    other = copy.deepcopy(raw)
    colour = other["players"]["colours"][0]
    colour["hex"] = "#123456"
    changed = parse_edition(json.dumps(other))
    assert base.wall == changed.wall == tuple(int(c) for c in raw["wall"]["between"])
    assert changed.player_hex(str(colour["id"])) == "#123456" != base.player_hex(str(colour["id"]))
    given = base.player_hexes()
    given[str(colour["id"])] = "#000000"
    assert base.player_hex(str(colour["id"])) == str(raw["players"]["colours"][0]["hex"])
    assert base.player_hexes() == {str(c["id"]): str(c["hex"]) for c in raw["players"]["colours"]}
