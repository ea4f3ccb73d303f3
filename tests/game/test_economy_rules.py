"""Loans (RULES.md §5): +2 drachmas, the Ship moves down, −5 infamy past the symbol, unlimited."""

from __future__ import annotations

from companion.game.commands import BringSoul, TakeLoan
from events.catalog import LoanTaken, SoulBroughtIn
from tests.builders import Table


def test_a_loan_gives_two_drachmas_and_moves_the_ship(table: Table) -> None:
    table.create()
    before = table.state.p[0].drachmas
    assert table.when(TakeLoan(0)) == [LoanTaken(0, 2, 0, 1, 0)]
    assert table.state.p[0].drachmas == before + 2
    assert table.state.p[0].ship == 1


def test_passing_the_loan_symbol_costs_five_infamy_at_once(table: Table) -> None:
    table.create()
    symbol_after = table.edition.section("loan_track")["symbol_after"]
    for _ in range(symbol_after):
        table.when(TakeLoan(0))
    assert table.state.p[0].infamy == 0
    passing = table.when(TakeLoan(0))[0]
    assert isinstance(passing, LoanTaken)
    assert (passing.ship_from, passing.ship_to, passing.infamy_penalty) == (symbol_after, symbol_after + 1, 5)
    assert table.state.p[0].infamy == -5


def test_loans_are_unlimited_and_the_last_space_repeats_the_penalty(table: Table) -> None:
    table.create()
    last = len(table.edition.loan_penalties) - 1
    for _ in range(last):
        table.when(TakeLoan(0))
    assert table.state.p[0].ship == last
    infamy = table.state.p[0].infamy
    again = table.when(TakeLoan(0))[0]
    assert isinstance(again, LoanTaken)
    assert (again.ship_from, again.ship_to, again.drachmas, again.infamy_penalty) == (last, last, 2, 5)
    assert table.state.p[0].infamy == infamy - 5


def test_only_the_active_player_takes_a_loan(table: Table) -> None:
    table.create()
    table.refused(TakeLoan(1), "not_your_turn")


def test_a_player_without_drachmas_must_take_a_loan_to_pay(table: Table) -> None:
    table.create(start_drachmas=(0, 0))
    exc = table.refused(BringSoul(0, 5, "1a"), "needs_loan")
    assert exc.params["cost"] == 1 and exc.params["drachmas"] == 0 and exc.params["loans"] == 1
    assert exc.alternatives[0].command == BringSoul(0, 5, "1a", borrow=True)


def test_paying_with_a_loan_records_the_loan_first(table: Table) -> None:
    table.create(start_drachmas=(0, 0))
    events = table.when(BringSoul(0, 5, "1a", borrow=True))
    assert events[0] == LoanTaken(0, 2, 0, 1, 0)
    assert events[1] == SoulBroughtIn(0, 5, "1a", 1)
    assert table.state.p[0].drachmas == 1
    assert table.state.p[0].ship == 1


def test_a_player_who_can_pay_takes_no_loan(table: Table) -> None:
    table.create(start_drachmas=(1, 1))
    events = table.when(BringSoul(0, 5, "1a", borrow=True))
    assert not any(isinstance(e, LoanTaken) for e in events)
    assert table.state.p[0].drachmas == 0
