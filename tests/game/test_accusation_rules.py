"""Accusations and Dante (seed 000 pp.14–15; RULES.md §3.6, §4.3): given / when Accuse / then…

Two players, the default layout (Key quarter: Bank + Market). Dante's two-player path in the
shipped edition: start, then diploma 2, diploma 3, diploma 4, diploma 5, diploma 6, fraud,
diploma 7, pagan, diploma 8, and the final step (treason, circle 9).
"""

from __future__ import annotations

from companion.game.commands import Accuse, BringSoul, EndTurn, SendMember
from companion.game.state import Phase
from events.catalog import (
    AccusationMade,
    AccuserToTower,
    BonusTileRevealed,
    CoinsGained,
    CoinsPaid,
    DanteMoved,
    DiplomaAwarded,
    EndTriggered,
    GameEnded,
    GuestTaken,
    InfamyChanged,
    MemberSent,
    MemberWentHome,
    Reward,
    SkullAdvanced,
    SoulAddedToCemetery,
    TurnEnded,
    TurnQuarterSet,
)
from tests.builders import Table
from tests.game.test_florence_rules import earlier

FLORINS = Reward("florins", 2)


def test_an_accusation_needs_a_member_already_there(table: Table) -> None:
    table.create().given(TurnQuarterSet(0, "key"))
    table.refused(Accuse(0, "bank", bonus=FLORINS), "no_member_there")


def test_a_special_location_needs_the_matching_guest(table: Table) -> None:
    table.create().given(*earlier(0, "noble", "market"), TurnQuarterSet(0, "key"))
    exc = table.refused(Accuse(0, "market", bonus=FLORINS), "needs_guest")
    assert exc.params["colour"] == 8


def test_outside_the_quarter_it_needs_the_bribe(table: Table) -> None:
    table.create().given(*earlier(0, "noble", "bank"), TurnQuarterSet(0, "lily"))
    table.refused(Accuse(0, "bank", bonus=FLORINS), "wrong_quarter_accuse")
    events = table.when(Accuse(0, "bank", bribe=True, bonus=FLORINS))
    assert events[:2] == [AccusationMade(0, "bank", "noble", True), CoinsPaid(0, 0, 2, "bribe")]


def test_the_five_steps_resolve_in_order(table: Table) -> None:
    table.create(starting_skulls=((2,), ())).given(
        *earlier(0, "noble", "bank"), *earlier(0, "noble", "haystack"), TurnQuarterSet(0, "key")
    )
    events = table.when(Accuse(0, "bank", bonus=FLORINS))
    assert events == [
        AccusationMade(0, "bank", "noble", False),
        AccuserToTower(0, "bank", "noble", 0),  # 1. the accuser to the tower
        MemberWentHome(0, "noble", "haystack", -1),  # 2. the other members home
        SoulAddedToCemetery(4, "accusation"),  # 3. a yellow (greed) soul to the Cemetery
        SkullAdvanced(0, 4, 1, "accusation"),  # 4. the skull rises, and the bonus tile pays
        BonusTileRevealed(4, FLORINS),
        CoinsGained(0, 2, 0, "bonus"),
        DanteMoved(0, 1, "diploma", 2),  # 5. Dante moves; his step awards the purple diploma
        DiplomaAwarded(0, 2, "dante"),
    ]
    state = table.state
    assert state.phase is Phase.DONE
    assert state.p[0].placed == () and state.p[0].home_nobles == 3
    assert state.cemetery[4] == 1 and state.dante == 1


def test_a_special_accusation_sends_the_accuser_to_the_guests_floor(table: Table) -> None:
    table.create().given(GuestTaken(0, 8, 0), *earlier(0, "noble", "market"), TurnQuarterSet(0, "key"))
    events = table.when(Accuse(0, "market", bonus=FLORINS))
    assert AccuserToTower(0, "market", "noble", 0) in events


def test_a_known_bonus_tile_pays_again_without_asking(table: Table) -> None:
    table.create().given(
        BonusTileRevealed(4, Reward("infamy", 3)), *earlier(0, "noble", "bank"), TurnQuarterSet(0, "key")
    )
    events = table.when(Accuse(0, "bank"))
    assert InfamyChanged(0, 3, "bonus") in events


def test_an_unknown_bonus_tile_must_be_entered(table: Table) -> None:
    table.create().given(*earlier(0, "noble", "bank"), TurnQuarterSet(0, "key"))
    exc = table.refused(Accuse(0, "bank"), "bonus_tile_unknown")
    assert "florins" in [c.params["kind"] for c in exc.alternatives]


def test_a_diploma_tie_gives_every_tied_player_a_diploma(table: Table) -> None:
    table.create(starting_skulls=((2,), (2,))).given(*earlier(0, "noble", "bank"), TurnQuarterSet(0, "key"))
    events = table.when(Accuse(0, "bank", bonus=FLORINS))
    assert [e for e in events if isinstance(e, DiplomaAwarded)] == [
        DiplomaAwarded(0, 2, "dante"),
        DiplomaAwarded(1, 2, "dante"),
    ]


def test_nobody_gets_a_diploma_without_a_skull_there(table: Table) -> None:
    table.create().given(*earlier(0, "noble", "bank"), TurnQuarterSet(0, "key"))
    events = table.when(Accuse(0, "bank", bonus=FLORINS))
    assert not any(isinstance(e, DiplomaAwarded) for e in events)


def test_nobody_gets_two_diplomas_on_one_track(table: Table) -> None:
    table.create(starting_skulls=((2,), ())).given(
        DiplomaAwarded(0, 2, "test"), *earlier(0, "noble", "bank"), TurnQuarterSet(0, "key")
    )
    events = table.when(Accuse(0, "bank", bonus=FLORINS))
    assert not any(isinstance(e, DiplomaAwarded) for e in events)


def test_the_last_step_scores_two_awards_treason_and_gives_the_others_one_more_turn(table: Table) -> None:
    table.create(plague_card=(2, 3, 5, 9), starting_skulls=((9,), (9,)))
    last = len(table.edition.section("dante")["paths"]["2"]) - 1
    table.given(DanteMoved(1, last - 1, "diploma", 8), *earlier(0, "noble", "bank"), TurnQuarterSet(0, "key"))
    events = table.when(Accuse(0, "bank", bonus=FLORINS))
    assert events[-5:] == [
        DanteMoved(0, last, "final", 9),
        InfamyChanged(0, 2, "dante"),
        DiplomaAwarded(0, 9, "dante"),
        DiplomaAwarded(1, 9, "dante"),
        EndTriggered(0),
    ]
    assert table.state.final_turns_left == 1
    assert table.when(EndTurn(0)) == [TurnEnded(0, 1)]  # Ben plays one more turn
    table.when(BringSoul(1, 5, "1a"))
    table.florence(1)
    assert table.when(EndTurn(1)) == [TurnEnded(1, 0), GameEnded("final_turns_done", 1)]
    assert table.state.phase is Phase.OVER


def test_with_four_players_each_other_player_takes_exactly_one_more_turn(table: Table) -> None:
    table.create(players=4, plague_card=(2, 3, 5, 9, 2, 3))
    path = table.edition.section("dante")["paths"]["4"]
    table.given(
        DanteMoved(0, len(path) - 2, "diploma", 8),
        MemberSent(0, "noble", "bank", False),
        *(TurnEnded(p, (p + 1) % 4) for p in range(4)),
        TurnQuarterSet(0, "key"),
    )
    table.when(Accuse(0, "bank", bonus=FLORINS))
    ended = [table.when(EndTurn(0))]
    for player in (1, 2, 3):
        table.when(BringSoul(player, min(table.state.cemetery, default=0), f"1{'abc'[player - 1]}"))
        table.florence(player)
        ended.append(table.when(EndTurn(player)))
    assert [len(e) for e in ended] == [1, 1, 1, 2]
    assert ended[-1][-1] == GameEnded("final_turns_done", 3)


def test_members_placed_before_are_the_ones_that_can_accuse(table: Table) -> None:
    table.create().given(TurnQuarterSet(0, "key"))
    table.when(SendMember(0, "noble", "bank"))
    table.refused(Accuse(0, "bank", bonus=FLORINS), "not_in_phase_florence")
