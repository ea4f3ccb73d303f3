"""Corrections keep the app true to the board: recorded with a reason, checked against the
physical ranges, undoable, and every later action is judged against the corrected state."""

from __future__ import annotations

from companion.game.commands import BringSoul, Correct, CorrectSoul, MoveSoul
from events.catalog import Corrected, SoulCorrected
from tests.builders import Table


def test_a_correction_records_the_value_it_replaces_and_the_reason(table: Table) -> None:
    table.create()
    events = table.when(Correct("resource", "we miscounted", player=1, key="drachmas", value=5))
    assert events == [Corrected("resource", 1, "drachmas", 5, 3, "we miscounted")]
    assert table.state.p[1].drachmas == 5


def test_later_actions_are_judged_against_the_corrected_state(table: Table) -> None:
    table.create()
    table.when(Correct("resource", "Ana spent her last drachma on the real board", player=0, key="drachmas", value=0))
    table.refused(BringSoul(0, 2, "1a"), "needs_loan")


def test_a_correction_needs_a_reason(table: Table) -> None:
    table.create()
    table.refused(Correct("resource", "  ", player=0, key="florins", value=1), "correction_needs_reason")


def test_a_value_outside_the_physical_range_is_refused(table: Table) -> None:
    table.create()
    exc = table.refused(Correct("skull", "typo", player=0, key="3", value=9), "out_of_range")
    assert exc.params["max"] == table.edition.track_length
    table.refused(Correct("resource", "typo", player=0, key="ship", value=12), "out_of_range")
    table.refused(Correct("resource", "typo", player=0, key="gold", value=1), "unknown_correction")


def test_skulls_diplomas_discs_cubes_and_the_cemetery_can_be_corrected(table: Table) -> None:
    table.create()
    table.when(Correct("skull", "family card", player=1, key="6", value=2))
    table.when(Correct("diploma", "missed", player=1, key="6", value=1))
    table.when(Correct("disc", "placed last turn", player=0, key="gate-6b", value=1))
    table.when(Correct("cube", "bumped the board", key="5", value=4))
    table.when(Correct("cemetery", "two reds fell in", key="7", value=2))
    table.when(Correct("guardian", "standee moved", key="medusa", shield="6a"))
    state = table.state
    assert state.p[1].skull(6) == 2 and 6 in state.p[1].diplomas and "gate-6b" in state.p[0].discs
    assert state.phlegethon[5] == 4 and state.cemetery[7] == 2 and state.guardians["medusa"] == "6a"


def test_a_soul_can_be_put_where_the_board_shows_it_then_moved(table: Table) -> None:
    table.create()
    assert table.when(CorrectSoul("2b", 7, "it was there all along")) == [
        SoulCorrected("2b", 7, False, False, "it was there all along")
    ]
    table.when(MoveSoul(0, "2b", "3b"))
    assert table.state.hell["3b"].colour == 7


def test_a_soul_is_never_corrected_below_its_circle(table: Table) -> None:
    table.create()
    table.refused(CorrectSoul("5a", 3, "typo"), "beyond_colour_circle")
