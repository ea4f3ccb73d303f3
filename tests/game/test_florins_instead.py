"""Issue 24: a loan at the Bonfire or the Wall has a free alternative when the florins changed there
cover the cost (RULES.md §3.7: the Bonfire changes up to 3 florins, the Wall up to 2; §5 loans)."""

from __future__ import annotations

from companion.game.commands import ExchangeFlorins, SendMember, UseStyx
from companion.game.loans import florins_instead
from events.catalog import CoinsPaid, TurnQuarterSet
from tests.builders import Table


def at_the_bonfire(table: Table, drachmas_spent: int) -> Table:
    table.create(plague_card=(5, 5, 5, 2)).given(CoinsPaid(0, 0, drachmas_spent, "bribe"), TurnQuarterSet(0, "lily"))
    table.when(SendMember(0, "noble", "bonfire"))
    return table


def test_the_styx_two_drachmas_short_is_paid_by_changing_two_florins(table: Table) -> None:
    at_the_bonfire(table, table.create().state.p[0].drachmas)
    florins = table.state.p[0].florins
    assert florins >= 2
    assert florins_instead(table.state, UseStyx(0, 5, 1, first_track=2)) == 2


def test_one_drachma_short_needs_one_florin(table: Table) -> None:
    at_the_bonfire(table, table.create().state.p[0].drachmas - 1)
    assert florins_instead(table.state, UseStyx(0, 5, 1, first_track=2)) == 1


def test_no_change_once_the_exchange_was_used_or_without_florins(table: Table) -> None:
    at_the_bonfire(table, table.create().state.p[0].drachmas)
    table.when(ExchangeFlorins(0, 1))  # the exchange of this visit is taken: 1 drachma, 1 short
    assert florins_instead(table.state, UseStyx(0, 5, 1, first_track=2)) == 0


def test_a_styx_refused_for_another_reason_offers_no_change(table: Table) -> None:
    at_the_bonfire(table, table.create().state.p[0].drachmas)
    assert florins_instead(table.state, UseStyx(0, 5, 1, first_track=7)) == 0  # track 7 is not a first-four track
