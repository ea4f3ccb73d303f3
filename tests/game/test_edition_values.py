"""The rules follow the edition's values: correct one for your copy and the game changes with it.

Each test loads the shipped edition with one value changed (``tests/game/variants.py``) and
shows a rule following it; the shipped value's behaviour is shown beside it where it helps.
"""

from __future__ import annotations

from typing import Any

import pytest

from companion.game.commands import (
    BringSoul,
    CreateGame,
    EnterPlayer,
    MoveSoul,
    StartTally,
    UseStyx,
)
from companion.game.edition import EditionError, dante_path_of
from companion.game.errors import RuleViolation
from companion.game.rules import decide_create
from companion.game.rules.accusation import dante_path
from companion.game.rules.guardians import _standing_near
from companion.game.scoring import BoardFacts, PlayerFacts, score
from companion.game.tally import decide_start_tally, decide_tally, replay_tally
from events.catalog import DiscPlaced, SkullAdvanced
from tests.builders import Table, place, seats
from tests.game.variants import variant

RED, ORANGE = 7, 6
TRACKS = (2, 3, 4, 5, 6, 7, 8, 9)


def wall_between_6_and_7(raw: dict[str, Any]) -> None:
    raw["wall"]["between"] = [6, 7]
    for side in raw["sides"]:
        side["gates"] = [{"id": f"gate-{s['id']}", "above": s["id"]} for s in side["circles"]["7"]]


def test_the_wall_of_dis_stands_where_the_edition_puts_it(table: Table) -> None:
    # Given an edition whose Wall stands between circles 6 and 7
    table.edition = variant(wall_between_6_and_7)
    table.create().given(place("5a", ORANGE), place("6c", RED))
    # When an orange soul falls from circle 5 into circle 6: no disc is needed any more
    table.when(MoveSoul(0, "5a", "6a"))
    # Then crossing from 6 to 7 is what needs the player's own disc
    assert table.state.hell["6a"].laid


def test_crossing_the_moved_wall_needs_a_disc(table: Table) -> None:
    table.edition = variant(wall_between_6_and_7)
    table.create().given(place("6c", RED))
    table.refused(MoveSoul(0, "6c", "7c"), "wall_needs_disc")
    table.given(DiscPlaced(0, "gate-7c"))
    table.when(MoveSoul(0, "6c", "7c"))
    assert table.state.hell["7c"].laid


def test_with_the_shipped_wall_circle_5_to_6_needs_the_disc(table: Table) -> None:
    table.create().given(place("5a", ORANGE))
    table.refused(MoveSoul(0, "5a", "6a"), "wall_needs_disc")


def _sheet(edition, cube: int, empty: int, players: list[PlayerFacts]):
    board = BoardFacts(empty={c: 0 for c in TRACKS} | {5: empty}, cubes={c: 2 for c in TRACKS} | {5: cube})
    return score(edition, board, players)


def _player(name: str, **kw: Any) -> PlayerFacts:
    base: dict[str, Any] = {"infamy": 0, "skulls": {}, "diplomas": frozenset(), "half_diplomas": 0, "ship": 0}
    return PlayerFacts(name=name, **(base | kw))


def test_the_phlegethon_minimum_follows_the_edition(edition) -> None:
    # Given a minimum value of 2 instead of 1
    changed = variant(lambda raw: raw["phlegethon"].__setitem__("minimum_value", 2))
    ana = _player("Ana", skulls={5: 1}, diplomas=frozenset({5}))
    # When circle 5's cube (space 2, value 3) meets five empty shields
    # Then it stops on space 1, worth 2, where the shipped edition lets it reach value 1
    assert next(c for c in _sheet(changed, 2, 5, [ana]).circles if c.circle == 5).after == 2
    assert next(c for c in _sheet(edition, 2, 5, [ana]).circles if c.circle == 5).after == 1


def test_a_cube_already_below_the_minimum_is_not_pushed_up() -> None:
    changed = variant(lambda raw: raw["phlegethon"].__setitem__("minimum_value", 2))
    ana = _player("Ana", skulls={5: 1}, diplomas=frozenset({5}))
    assert next(c for c in _sheet(changed, 0, 3, [ana]).circles if c.circle == 5).after == 1


def test_a_minimum_no_space_reaches_is_refused() -> None:
    with pytest.raises(EditionError, match=r"phlegethon\.minimum_value"):
        variant(lambda raw: raw["phlegethon"].__setitem__("minimum_value", 9))


@pytest.mark.parametrize(
    ("breakers", "places"),
    [
        ([], [1, 1]),  # the shipped edition: no tie-breaker, the place is shared
        (["most_drachmas"], [2, 1]),
        (["most_florins"], [1, 2]),
        (["most_florins", "most_drachmas"], [1, 2]),
    ],
)
def test_tie_breakers_follow_the_edition(breakers: list[str], places: list[int]) -> None:
    # Given Ana and Ben tied on 10 points; Ana holds more florins, Ben more drachmas
    changed = variant(lambda raw: raw["scoring"].__setitem__("tie_breakers", breakers))
    ana = _player("Ana", infamy=10, florins=5, drachmas=1)
    ben = _player("Ben", infamy=10, florins=2, drachmas=4)
    # When they are ranked, then the edition's tie-breakers decide (or the place is shared)
    assert [p.place for p in _sheet(changed, 2, 0, [ana, ben]).players] == places


def test_an_unknown_tie_breaker_is_refused() -> None:
    with pytest.raises(EditionError, match=r"scoring\.tie_breakers"):
        variant(lambda raw: raw["scoring"].__setitem__("tie_breakers", ["youngest"]))


def test_the_adjacency_rule_follows_the_edition(table: Table) -> None:
    table.create()
    assert set(table.edition.sides["1-2"].adjacent("2b")) == {"2a", "2c", "3b", "3c", "1a", "1b"}
    rows_only = variant(lambda raw: raw["adjacency"].__setitem__("rule", "row"))
    assert set(rows_only.sides["1-2"].adjacent("2b")) == {"2a", "2c"}
    lines_only = variant(lambda raw: raw["adjacency"].__setitem__("rule", "lines"))
    assert set(lines_only.sides["1-2"].adjacent("2b")) == {"3b", "3c", "1a", "1b"}
    rows = Table(rows_only).create().given(place("3b", RED)).state
    assert _standing_near(rows, "2b") == []


def _path(edition, players: int) -> list[int]:
    return list(dante_path(Table(edition).create(players).state))


def test_the_three_player_shortcut_comes_from_the_edition(edition) -> None:
    # Given the shipped shortcut: three players walk the four-player path without steps 5 and 7
    four = _path(edition, 4)
    assert _path(edition, 3) == [i for i in four if i not in (5, 7)]
    # When a table corrects the steps the Shortcut tile covers, the three-player path follows
    changed = variant(lambda raw: raw["dante"]["shortcut"].__setitem__("skips", [1, 3, 9]))
    assert _path(changed, 3) == [i for i in four if i not in (1, 3, 9)]
    assert _path(changed, 4) == four


def test_dante_path_has_one_home_for_play_validation_and_a_switch(edition) -> None:
    """The path a game walks (``Edition.dante_path``), the one validation requires for every player count and the one a
    switch of edition checks Dante against are ``dante_path_of``: a count with neither its own path nor the shortcut
    has none (an empty path there, a refusal at validation)."""
    dante = edition.section("dante")
    players = edition.section("players")
    for count in range(players["min"], players["max"] + 1):
        assert edition.dante_path(count) == dante_path_of(dante, count) != ()
    assert dante_path_of(dante, 9) is None and edition.dante_path(9) == ()
    own = variant(lambda raw: raw["dante"]["paths"].__setitem__("3", [0, 2, 4]))
    assert own.dante_path(3) == (0, 2, 4)  # a count's own path wins over the shortcut
    without = {**dante, "shortcut": {"players": [], "skips": []}}
    assert dante_path_of(without, 3) == (None if "3" not in dante["paths"] else dante_path_of(dante, 3))


def test_the_brown_circle_sets_plutus_start(table: Table) -> None:
    changed = variant(lambda raw: raw["expansion"].__setitem__("brown_circle", 3))
    state = Table(changed).create(2, expansion=True).state
    assert state.guardians["plutus"] == "3a"
    assert table.create(2, expansion=True).state.guardians["plutus"] == "4a"


def test_bonus_tiles_must_be_one_per_track() -> None:
    with pytest.raises(EditionError, match=r"tracks\.bonus_tiles"):
        variant(lambda raw: raw["tracks"]["bonus_tiles"].__setitem__("silver", 5))


def test_halves_per_diploma_follow_the_edition() -> None:
    three = variant(lambda raw: raw["scoring"].__setitem__("halves_per_diploma", 3))
    ana = _player("Ana", half_diplomas=5, skulls={5: 2})
    sheet = _sheet(three, 2, 0, [ana])
    assert (sheet.players[0].half_tracks, sheet.players[0].half_leftover) == ((5,), 2)


def test_styx_gains_follow_the_edition(table: Table) -> None:
    # Given an edition where one soul gives a step on the last four tracks instead
    table.edition = variant(lambda raw: raw["styx"]["gains"].__setitem__("1", ["last_four"]))
    table.create(plague_card=(4, 4))
    from companion.game.rules.styx import styx_events

    events = styx_events(table.state, UseStyx(0, 4, 1, last_track=7, borrow=True))
    assert isinstance(events[-1], SkullAdvanced) and events[-1].track == 7
    with pytest.raises(RuleViolation):
        styx_events(table.state, UseStyx(0, 4, 1, first_track=2, borrow=True))


def test_starting_skulls_follow_the_setup_section() -> None:
    one = variant(lambda raw: raw["setup"].__setitem__("starting_skulls_max", 1))
    with pytest.raises(RuleViolation) as info:
        decide_create(one, CreateGame(seats(2), plague_card=(2,), starting_skulls=((2, 3), ())))
    assert info.value.code == "starting_skulls"


def test_the_tally_ranges_come_from_the_edition(edition) -> None:
    wide = variant(lambda raw: raw["ranges"].__setitem__("infamy", [-50, 2000]))
    for ed, infamy, ok in ((edition, 1500, False), (wide, 1500, True), (wide, -100, False)):
        state = replay_tally(ed, decide_start_tally(ed, StartTally(("Ana", "Ben"))))
        try:
            decide_tally(state, EnterPlayer(0, infamy, (0,) * 8))
            accepted = True
        except RuleViolation:
            accepted = False
        assert accepted is ok, (infamy, ok)
    # Half diplomas: up to halves_per_diploma x tracks (2 x 8 = 16)
    state = replay_tally(edition, decide_start_tally(edition, StartTally(("Ana", "Ben"))))
    decide_tally(state, EnterPlayer(0, 0, (0,) * 8, half_diplomas=16))
    with pytest.raises(RuleViolation):
        decide_tally(state, EnterPlayer(0, 0, (0,) * 8, half_diplomas=17))


def test_souls_enter_hell_in_the_editions_limbo_circle(table: Table) -> None:
    # Given an edition whose souls enter on circle 2 (a table correcting its copy)
    table.edition = variant(lambda raw: raw["limbo"].__setitem__("circle", 2))
    table.create(plague_card=(3,))
    # Then a circle-1 shield is refused and a circle-2 shield accepted
    table.refused(BringSoul(0, 3, "1a"), "not_a_limbo_shield")
    table.when(BringSoul(0, 3, "2a"))
    assert "2a" in table.state.hell
