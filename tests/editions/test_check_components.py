"""The guided check as a table with the box open uses it: a question per circle of each board side
and per component, every value of the board asked once, any symbol changeable and swappable, a
shield added or removed at any place, typed values refused field by field, and an edit made outside
the check unchecking what it changed."""

from __future__ import annotations

import copy
import json
from itertools import permutations

import pytest

from companion.editions import EDITIONS_DIR, board, check
from companion.editions import library as lib
from companion.editions.components import APP_SETTINGS, asked_units, component, components, covered, questions

SHIPPED = json.loads((EDITIONS_DIR / "inferno-base.json").read_text(encoding="utf-8"))
DAY = "2026-12-01"


def raw() -> dict:
    return copy.deepcopy(SHIPPED)


def test_every_value_a_board_shows_is_asked_by_exactly_one_question_and_no_app_setting_is_asked() -> None:
    units = asked_units(lib.check_units(raw()))
    asked = [c for c, _ok in questions(raw(), units)]
    for path, _ok in units:
        owners = [c.key for c in asked if covered(path, c.covers)]
        if path == "wall.gates" or path.startswith("circles["):  # printed on every side's circle
            assert owners and all(o.startswith("circle-") for o in owners), (path, owners)
        else:
            assert len(owners) == 1, (path, owners)
    assert not any(covered(p, APP_SETTINGS) for p, _ in units)
    # 9 circles on each of the two sides, then the components: few enough for ten minutes
    assert len(asked) <= 38 and sum(c.kind == "circle" for c in asked) == 18


def test_matching_every_question_checks_every_value() -> None:
    data = raw()
    for comp, _ok in questions(data, asked_units(lib.check_units(data))):
        data = check.match(data, comp, DAY)
    done = check.progress(data)
    assert done.done == done.total and done.left == () and lib.validated(data)
    assert data["checks"]["wall.gates"] == DAY


def test_the_wall_gates_are_checked_only_once_circle_6_matched_on_every_side() -> None:
    data = check.match(raw(), component(raw(), "circle-0-6"), DAY)
    assert "wall.gates" not in data["checks"]
    data = check.match(data, component(data, "circle-1-6"), DAY)
    assert data["checks"]["wall.gates"] == DAY


@pytest.mark.parametrize("side", [0, 1])
def test_any_symbol_of_any_shield_can_be_set_and_any_two_swapped_once_the_circle_is_left_whole(side: int) -> None:
    quarters = [q["id"] for q in SHIPPED["quarters"]]
    for number, row in SHIPPED["sides"][side]["circles"].items():
        for entry in row:
            for q in quarters:
                changed = board.set_symbol(raw(), side, entry["id"], q)
                assert (
                    changed["sides"][side]["circles"][number][[e["id"] for e in row].index(entry["id"])]["quarter"] == q
                )
        for a, b in permutations([e["id"] for e in row], 2):
            swapped = board.swap_symbols(raw(), side, a, b)
            lib.validated(swapped)  # a swap keeps every symbol of the circle: still a valid board


def test_a_shield_added_in_the_middle_takes_its_place_and_the_later_ones_move_along_with_their_lines() -> None:
    data = board.insert_shield(raw(), 0, 3, 1)
    row = [e["id"] for e in data["sides"][0]["circles"]["3"]]
    assert row == ["3a", "3b", "3c", "3d", "3e", "3f"]
    old_3b_lines = SHIPPED["sides"][0]["lines"]["3b"]
    assert data["sides"][0]["lines"]["3c"] == old_3b_lines  # the old 3B is now the third shield
    assert data["sides"][0]["lines"]["3b"]  # the new one has a line down
    lib.validated(data)
    back = board.remove_shield(data, 0, "3b")
    assert back["sides"][0]["circles"]["3"] == SHIPPED["sides"][0]["circles"]["3"]
    assert back["sides"][0]["lines"]["3b"] == old_3b_lines


def test_a_shield_removed_from_circle_6_takes_its_gate_and_renames_the_next_gate() -> None:
    data = board.remove_shield(raw(), 0, "6a")
    aboves = [g["above"] for g in data["sides"][0]["gates"]]
    assert "6d" not in aboves and all(a in {e["id"] for e in data["sides"][0]["circles"]["6"]} for a in aboves)
    assert all(g["id"] == f"gate-{g['above']}" for g in data["sides"][0]["gates"])


def test_the_last_shield_of_a_circle_cannot_be_removed() -> None:
    data = raw()
    for sid in ["9b", "9c", "9d"]:
        data = board.remove_shield(data, 0, "9a" if sid else sid)
    with pytest.raises(ValueError):
        board.remove_shield(data, 0, "9a")


def test_typed_values_are_kept_when_every_field_reads_and_refused_field_by_field_otherwise() -> None:
    comp = component(raw(), "phlegethon")
    form = {"v:phlegethon.scale": "1 2 3 5 8", **{f"v:phlegethon.start:{c}": "1" for c in "23456789"}}
    data = check.apply_values(raw(), comp, form)
    assert data["phlegethon"]["scale"] == [1, 2, 3, 5, 8] and data["phlegethon"]["start"]["7"] == 1
    with pytest.raises(check.ValuesRefused) as refused:
        check.apply_values(raw(), comp, {**form, "v:phlegethon.scale": "1 two 3", "v:phlegethon.start:4": "9"})
    assert refused.value.problems["phlegethon.scale"].code == "not_numbers"
    assert refused.value.problems["phlegethon.start"].code == "out_of_range"


def test_every_field_of_every_component_reads_back_its_own_value() -> None:
    """Opening any component and confirming it unchanged keeps the edition exactly as it was."""
    data = raw()
    for comp in components(data):
        again = check.apply_values(data, comp, check.form_values(data, comp))
        assert lib.to_text(again) == lib.to_text(data), comp.key


def test_an_edit_outside_the_check_unchecks_what_it_changed_and_only_that() -> None:
    data = check.match(raw(), component(raw(), "purse"), DAY)
    comp = component(data, "purse")
    edited = check.apply_values(
        data,
        comp,
        {"v:economy.start_florins": "5", "v:economy.start_drachmas": "3", "v:economy.florin_to_drachma": "1"},
    )
    after = check.uncheck_changed(data, edited, comp)
    units = dict(lib.check_units(after))
    assert units["economy.start_florins"] is False and units["economy.start_drachmas"] is True


def test_a_quarter_symbol_renamed_is_renamed_on_every_shield_and_in_the_florence_layout() -> None:
    comp = component(raw(), "quarters")
    data = check.apply_values(
        raw(),
        comp,
        {
            "v:quarters[0].id": "rose",
            "v:quarters[1].id": "eagle",
            "v:quarters[2].id": "key",
            "v:quarters[3].id": "cross",
        },
    )
    assert "rose" in data["default_layout"]["quarters"] and lib.validated(data)
    with pytest.raises(check.ValuesRefused):
        check.apply_values(
            raw(),
            comp,
            {
                "v:quarters[0].id": "eagle",
                "v:quarters[1].id": "eagle",
                "v:quarters[2].id": "key",
                "v:quarters[3].id": "cross",
            },
        )


def test_a_dante_step_removed_leaves_paths_that_still_name_steps() -> None:
    data = check.remove_step(raw(), 3)
    assert len(data["dante"]["steps"]) == len(SHIPPED["dante"]["steps"]) - 1
    lib.validated(data)
    assert lib.validated(check.add_step(raw()))


def test_a_circle_takes_no_more_shields_than_the_map_can_draw() -> None:
    data = raw()
    while len(data["sides"][0]["circles"]["9"]) < board.MAX_SHIELDS:
        data = board.insert_shield(data, 0, 9, 0)
    lib.validated(data)
    with pytest.raises(ValueError):
        board.insert_shield(data, 0, 9, 0)


def test_every_estimated_value_can_be_changed_on_the_phone() -> None:
    """Asked or an app setting, every value tagged estimated has a control that edits it."""
    data = raw()
    comps = components(data)
    for path, _ok in lib.check_units(data):
        owners = [c for c in comps if covered(path, c.covers)]
        assert owners, path
        editable = any(
            c.kind == "circle"
            or any(
                f.path == path or f.path.startswith((path + ".", path + "[")) or path.startswith(f.path)
                for f in c.fields
            )
            for c in owners
        )
        assert editable, path
