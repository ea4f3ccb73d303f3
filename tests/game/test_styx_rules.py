"""The River Styx through the Bonfire for 2 drachmas (seed 000 p.9; RULES.md §4.6)."""

from __future__ import annotations

from companion.game.commands import SendMember, UseGuardian, UseStyx
from events.catalog import (
    CoinsPaid,
    Corrected,
    GuardianUse,
    OptionTaken,
    SkullAdvanced,
    StyxCrossed,
    TurnQuarterSet,
)
from tests.builders import Table


def at_the_bonfire(table: Table, cemetery: tuple[int, ...], *given) -> Table:
    table.create(plague_card=cemetery).given(*given, TurnQuarterSet(0, "lily"))
    table.when(SendMember(0, "noble", "bonfire"))
    return table


def test_one_soul_gives_a_step_on_one_of_the_first_four_tracks(table: Table) -> None:
    at_the_bonfire(table, (5, 5, 5, 2))
    events = table.when(UseStyx(0, 5, 1, first_track=3))
    assert events == [
        OptionTaken(0, "bonfire", "underworld"),
        CoinsPaid(0, 0, 2, "styx"),
        StyxCrossed(0, 5, 1),
        SkullAdvanced(0, 3, 1, "styx"),
    ]
    assert table.state.cemetery == {5: 2, 2: 1}


def test_two_souls_give_a_step_on_one_of_the_last_four(table: Table) -> None:
    at_the_bonfire(table, (5, 5, 5, 2))
    assert table.when(UseStyx(0, 5, 2, last_track=7))[-1] == SkullAdvanced(0, 7, 1, "styx")


def test_three_souls_give_one_of_each(table: Table) -> None:
    at_the_bonfire(table, (5, 5, 5, 2))
    events = table.when(UseStyx(0, 5, 3, first_track=2, last_track=9))
    assert events[-2:] == [SkullAdvanced(0, 2, 1, "styx"), SkullAdvanced(0, 9, 1, "styx")]
    assert table.state.cemetery == {2: 1}


def test_the_track_must_belong_to_the_right_group(table: Table) -> None:
    at_the_bonfire(table, (5, 5, 5, 2))
    exc = table.refused(UseStyx(0, 5, 1, first_track=7), "styx_track_group")
    assert {c.params["track"] for c in exc.alternatives} == {2, 3, 4, 5}


def test_the_souls_must_be_of_one_colour_and_in_the_cemetery(table: Table) -> None:
    at_the_bonfire(table, (5, 5, 5, 2))
    table.refused(UseStyx(0, 2, 2, last_track=7), "styx_not_enough_souls")


def test_with_a_single_soul_only_the_one_soul_option_exists_and_the_cemetery_refills(table: Table) -> None:
    at_the_bonfire(table, (5,))
    table.refused(UseStyx(0, 5, 2, last_track=7), "styx_single_soul")
    table.when(UseStyx(0, 5, 1, first_track=4))
    assert table.state.cemetery == {} and table.state.needs_plague_card


def test_a_skull_never_passes_the_end_of_its_track(table: Table) -> None:
    top = table.edition.track_length
    at_the_bonfire(table, (5, 5), Corrected("skull", 0, "3", top, 0, "test"))
    exc = table.refused(UseStyx(0, 5, 1, first_track=3), "styx_track_at_end")
    assert 3 not in {c.params["track"] for c in exc.alternatives}


def test_the_styx_or_a_guardian_not_both(table: Table) -> None:
    at_the_bonfire(table, (5, 5))
    table.when(UseStyx(0, 5, 1, first_track=2))
    table.refused(UseGuardian(0, GuardianUse("medusa", "6a", effect=False)), "option_used")


def test_the_styx_costs_two_drachmas_or_a_loan(table: Table) -> None:
    at_the_bonfire(table, (5, 5), Corrected("resource", 0, "drachmas", 1, 3, "test"))
    table.refused(UseStyx(0, 5, 1, first_track=2), "needs_loan")
    table.when(UseStyx(0, 5, 1, first_track=2, borrow=True))
    assert table.state.p[0].ship == 1 and table.state.p[0].drachmas == 1
