"""Guardians (seed 000 pp.22–23; RULES.md §4.5, §6), each defined in the edition as primitives.

Board: the 1–2 player side. Default guardians: Medusa on 6D, the Minotaur on 7A.
"""

from __future__ import annotations

from companion.game.commands import CreateGame, MoveSoul, SendMember, UseGuardian
from events.catalog import (
    CoinsPaid,
    GuardianMoved,
    GuardianSetup,
    GuardianUse,
    OptionTaken,
    SoulLaidDown,
    SoulMoved,
    SoulPetrified,
    TurnEnded,
    TurnQuarterSet,
    WallPassGranted,
)
from tests.builders import Table, place

RED, GREEN = 7, 3


def at_the_bonfire(table: Table, *given, guardians: tuple[GuardianSetup, ...] = ()) -> Table:
    table.create(guardians=guardians).given(*given, TurnQuarterSet(0, "lily"))
    table.when(SendMember(0, "noble", "bonfire"))
    return table


def test_a_guardian_may_move_without_its_effect(table: Table) -> None:
    at_the_bonfire(table)
    events = table.when(UseGuardian(0, GuardianUse("medusa", "6a", effect=False)))
    assert events == [
        OptionTaken(0, "bonfire", "underworld"),
        CoinsPaid(0, 0, 1, "guardian"),
        GuardianMoved(0, "medusa", "6d", "6a", "bonfire"),
    ]
    assert table.state.guardians["medusa"] == "6a"


def test_the_effect_needs_a_move_to_a_different_shield(table: Table) -> None:
    at_the_bonfire(table, place("5c", RED))
    table.refused(UseGuardian(0, GuardianUse("medusa", "6d", targets=("5c",))), "guardian_must_move")


def test_a_guardian_moves_only_to_an_empty_shield(table: Table) -> None:
    at_the_bonfire(table, place("6b", RED, laid=True))
    exc = table.refused(UseGuardian(0, GuardianUse("medusa", "6b", effect=False)), "guardian_needs_empty_shield")
    assert "6b" not in {c.params["shield"] for c in exc.alternatives}


def test_medusa_petrifies_a_nearby_soul_where_it_stands(table: Table) -> None:
    at_the_bonfire(table, place("5c", RED))
    events = table.when(UseGuardian(0, GuardianUse("medusa", "6c", targets=("5c",))))
    assert events[-1] == SoulPetrified(0, "5c")
    soul = table.state.hell["5c"]
    assert soul.laid and soul.petrified and table.state.p[0].infamy == 0


def test_an_effect_reaches_only_souls_next_to_the_new_shield(table: Table) -> None:
    at_the_bonfire(table, place("2a", RED))
    table.refused(UseGuardian(0, GuardianUse("medusa", "6c", targets=("2a",))), "guardian_target_not_near")


MINOS = (GuardianSetup("minos", "2a"), GuardianSetup("cerberus", "3a"))


def test_a_push_never_sends_a_soul_beyond_its_colour_circle(table: Table) -> None:
    # Minos moves to 1A; next to it, a green soul on 2B whose circle-3 shields below are both taken.
    at_the_bonfire(table, place("2b", GREEN), place("3b", 2, laid=True), place("3c", 2, laid=True), guardians=MINOS)
    exc = table.refused(UseGuardian(0, GuardianUse("minos", "1a", targets=("2b",))), "guardian_cannot_push")
    assert exc.params["colour"] == GREEN


def test_a_push_into_the_souls_own_circle_lays_it_down_for_the_user(table: Table) -> None:
    at_the_bonfire(table, place("2b", GREEN), guardians=MINOS)
    events = table.when(UseGuardian(0, GuardianUse("minos", "1a", targets=("2b",), destinations=("3c",))))
    assert events[-2:] == [SoulMoved(0, "2b", ("3c",), False), SoulLaidDown(0, "3c", 2)]
    assert table.state.p[0].infamy == 2


def test_the_minotaur_pushes_across_the_wall_without_a_disc(table: Table) -> None:
    at_the_bonfire(table, place("5b", RED))
    events = table.when(UseGuardian(0, GuardianUse("minotaur", "5a", targets=("5b",), destinations=("6b",))))
    assert events[-1] == SoulMoved(0, "5b", ("6b",), False)


def test_a_guardians_conditions_are_data_and_are_checked(table: Table) -> None:
    # The Minotaur's effect works only from circle 5 down (edition data, estimated).
    at_the_bonfire(table, place("2b", RED))
    exc = table.refused(UseGuardian(0, GuardianUse("minotaur", "1a", targets=("2b",))), "guardian_conditions")
    assert exc.params["conditions"] == {"guardian_circle_at_least": 5}


def test_cerberus_grants_one_wall_crossing_without_a_disc(table: Table) -> None:
    at_the_bonfire(table, place("5b", RED), place("5c", RED), guardians=MINOS)
    assert table.when(UseGuardian(0, GuardianUse("cerberus", "4a")))[-1] == WallPassGranted(0, 1)
    table.given(TurnEnded(0, 1), TurnEnded(1, 0))
    events = table.when(MoveSoul(0, "5b", "6b"))
    assert events[0] == SoulMoved(0, "5b", ("6b",), True)
    assert table.state.p[0].wall_passes == 0
    table.given(TurnEnded(0, 1), TurnEnded(1, 0))
    table.refused(MoveSoul(0, "5c", "6c"), "wall_needs_disc")  # the pass was good for one crossing


def test_a_guardian_not_in_play_is_refused(table: Table) -> None:
    at_the_bonfire(table)
    exc = table.refused(UseGuardian(0, GuardianUse("geryon", "1a", effect=False)), "guardian_not_in_play")
    assert {c.params["guardian"] for c in exc.alternatives} == {"medusa", "minotaur"}


def test_any_two_of_the_six_guardians_can_be_chosen_at_set_up(table: Table) -> None:
    setup = (GuardianSetup("geryon", "8d"), GuardianSetup("centaurs", "7d"))
    table.create(guardians=setup)
    assert table.state.guardians == {"geryon": "8d", "centaurs": "7d"}
    assert isinstance(CreateGame, type)
