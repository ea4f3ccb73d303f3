"""Editing an edition one change at a time: each change does exactly what it says, the one
validator judges the result, and provenance tags are read whatever their vocabulary."""

from __future__ import annotations

import copy
import json

import pytest

from companion.editions import EDITIONS_DIR, board, check
from companion.editions import library as lib
from companion.editions.components import component
from companion.game.edition import EditionError

SHIPPED = json.loads((EDITIONS_DIR / "inferno-base.json").read_text(encoding="utf-8"))


def raw() -> dict:
    return copy.deepcopy(SHIPPED)


def test_a_tap_turns_a_shields_symbol_to_the_next_one_and_nothing_else() -> None:
    changed = board.set_symbol(raw(), 0, "1a", "key")  # the eagle becomes the key
    assert changed["sides"][0]["circles"]["1"][0]["quarter"] == "key"
    assert lib.diff_editions(SHIPPED, changed) == ["side 1-2: shield 1A shows key instead of eagle"]


def test_a_line_is_linked_then_unlinked() -> None:
    linked = lib.toggle_line(raw(), "1-2", "1a", "2c")
    assert linked["sides"][0]["lines"]["1a"] == ["2a", "2b", "2c"]
    assert lib.toggle_line(linked, "1-2", "1a", "2c")["sides"][0]["lines"]["1a"] == ["2a", "2b"]


def test_a_line_that_skips_a_circle_is_refused_by_the_validator_naming_it() -> None:
    with pytest.raises(EditionError, match=r"lines\['1a'\] -> '3a': a line must go exactly one circle down"):
        lib.validated(lib.toggle_line(raw(), "1-2", "1a", "3a"))


def test_a_gate_over_a_shield_that_is_not_on_circle_6_is_refused() -> None:
    with pytest.raises(EditionError, match=r"gate stands over no circle-6 shield \('5a'\)"):
        lib.validated(lib.toggle_gate(raw(), "1-2", "5a"))
    removed = lib.toggle_gate(raw(), "1-2", "6a")
    assert [g["above"] for g in removed["sides"][0]["gates"]] == ["6b", "6c", "6d"]


def test_a_shield_added_to_a_circle_is_joined_up_and_down_and_validates() -> None:
    text, edition = lib.validated(board.insert_shield(raw(), 0, 3, 5))
    side = edition.sides["1-2"]
    assert side.rows[3][-1] == "3f" and side.lines["3f"] == ("4e",) and "3f" in side.lines["2e"]
    assert lib.validated(board.remove_shield(json.loads(text), 0, "3f"))[1].sides["1-2"].rows[3][-1] == "3e"


def test_a_circle_without_shields_is_refused() -> None:
    with pytest.raises(EditionError, match=r"circle 9 has no shields"):
        emptied = raw()
        emptied["sides"][0]["circles"]["9"] = []
        lib.validated(emptied)


def test_numbers_are_set_from_typed_text_and_judged() -> None:
    loans = component(raw(), "loan_track")
    changed = check.apply_values(raw(), loans, {"v:loan_track.penalties": "0, 1, 3", "v:loan_track.symbol_after": "1"})
    assert changed["loan_track"]["penalties"] == [0, 1, 3]
    with pytest.raises(EditionError, match=r"loan_track\.penalties: space 0"):
        lib.validated(
            check.apply_values(raw(), loans, {"v:loan_track.penalties": "1, 2", "v:loan_track.symbol_after": "1"})
        )


def test_tags_are_read_generically_whatever_the_vocabulary() -> None:
    data = {"a": {"source": "reference", "b": [{"source": {"x": "assumption"}}]}, "c": {"y_source": "estimated"}}
    assert lib.tags(data) == [lib.Tag("a", "reference"), lib.Tag("a.b[0].x", "assumption"), lib.Tag("c.y", "estimated")]


def test_the_guided_check_counts_circles_and_values_and_records_the_date() -> None:
    done, total, left = lib.check_progress(raw())
    assert done == 0 and total == len(left) and "sides[0].circles['3']" in left and "circles[2].infamy" in left
    checked = lib.mark_checked(raw(), "circles[2].infamy", "2026-11-30")
    assert checked["circles"][2]["source"]["infamy"] == "checked"
    assert checked["checks"] == {"circles[2].infamy": "2026-11-30"}
    for n in range(1, 10):
        checked = lib.mark_checked(checked, f"sides[0].circles['{n}']", "2026-11-30")
    assert checked["sides"][0]["source"]["geometry"] == "checked"
    assert lib.check_progress(checked)[0] == 10
    lib.validated(checked)  # 'checked' is a tag the validator accepts


def test_a_name_gives_the_edition_its_id() -> None:
    named = lib.with_name(raw(), "Our copy, ES 2024")
    assert (named["id"], named["name"]) == ("our-copy-es-2024", "Our copy, ES 2024")


def test_guardian_start_and_effects_are_chosen_from_their_menus() -> None:
    medusa = component(raw(), "guardian-0")
    form = check.form_values(raw(), medusa)
    changed = check.apply_values(raw(), medusa, {**form, "v:guardians[0].start.position": "far_left"})
    assert changed["guardians"][0]["start"]["position"] == "far_left"
    with pytest.raises(check.ValuesRefused) as refused:
        check.apply_values(raw(), medusa, {**form, "v:guardians[0].effect[0].primitive": "teleport"})
    assert refused.value.problems["guardians[0].effect[0].primitive"].code == "not_on_menu"


def test_the_board_differences_are_told_in_words() -> None:
    changed = lib.toggle_gate(lib.toggle_line(board.insert_shield(raw(), 1, 3, 6), "1-2", "1a", "2b"), "1-2", "6a")
    told = lib.diff_editions(SHIPPED, changed)
    assert "side 1-2: the line 1A → 2B removed" in told
    assert "side 1-2: the gate over 6A removed" in told
    assert "side 3-4: circle 3 has 7 shields instead of 6" in told
