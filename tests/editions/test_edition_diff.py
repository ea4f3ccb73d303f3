"""The structured difference of two editions: each change once, with its kind, where, old and new,
and whether it changes a running game's play, its set-up, or only new games."""

from __future__ import annotations

import json
from typing import Any

from companion.editions import load_all
from companion.editions.diff import Difference, diff, scope

SHIPPED: dict[str, Any] = next(iter(load_all().values()))[1].raw


def _copy() -> dict[str, Any]:
    return json.loads(json.dumps(SHIPPED))


def test_the_same_edition_has_no_difference_and_provenance_is_none() -> None:
    other = _copy()
    other["circles"][2]["source"] = {"infamy": "checked"}
    other["checks"] = {"circles[2].infamy": "2026-11-30"}
    assert diff(SHIPPED, SHIPPED) == [] and diff(SHIPPED, other) == []


def test_each_change_is_one_difference_with_where_old_and_new() -> None:
    other = _copy()
    other["circles"][2]["infamy"] = 3
    other["phlegethon"]["scale"] = [1, 2, 3, 5, 8]
    other["loan_track"]["penalties"] = [0, 1, 2, 4, 6, 9, 15]
    row = other["sides"][0]["circles"]["2"]
    row[1]["quarter"], row[3]["quarter"] = row[3]["quarter"], row[1]["quarter"]
    other["sides"][0]["lines"]["2b"].append("3d")
    found = diff(SHIPPED, other)
    assert Difference("value", ("circles", 2, "infamy"), 2, 3) in found
    assert Difference("value", ("phlegethon", "scale"), [1, 2, 3, 4, 5], [1, 2, 3, 5, 8]) in found
    assert Difference("value", ("loan_track", "penalties"), [0, 1, 2, 4, 6, 9, 12], [0, 1, 2, 4, 6, 9, 15]) in found
    assert Difference("symbol", ("1-2", "2b"), "cross", "eagle") in found
    assert Difference("symbol", ("1-2", "2d"), "eagle", "cross") in found
    assert Difference("line", ("1-2", "2b", "3d"), False, True) in found
    assert len(found) == 6


def test_a_difference_says_whether_it_changes_this_game_its_set_up_or_new_games_only() -> None:
    other = _copy()
    other["circles"][2]["infamy"] = 3
    other["phlegethon"]["start"]["3"] = 0
    other["players"]["colours"][0]["hex"] = "#aa0000"
    other["sides"][1]["lines"]["1a"] = [*other["sides"][1]["lines"]["1a"], "2c"]
    other["default_guardians"]["ids"] = ["minos", "geryon"]
    scopes = {d.where: scope(d, "1-2") for d in diff(SHIPPED, other)}
    side = other["sides"][1]["id"]
    assert scopes[("circles", 2, "infamy")] == "game"
    assert scopes[("phlegethon", "start", "3")] == "setup"
    assert scopes[("players", "colours", 0, "hex")] == "new_games"
    assert scopes[(side, "1a", "2c")] == "new_games"  # the other board side
    assert scopes[("default_guardians", "ids")] == "new_games"
