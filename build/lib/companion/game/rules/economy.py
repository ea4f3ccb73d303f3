"""Money rules: loans, and paying drachmas when a player is short (RULES.md §5).

A loan moves the Ship one space down the loan track and gives 2 drachmas; moving past the
penalty symbol costs 5 infamy at once, and so does every loan taken while the Ship already
sits on the last space. Loans are unlimited. A player who must pay more drachmas than they
hold must take loans first (TEACH; RULES.md §4.1 "No money").
"""

from __future__ import annotations

from dataclasses import replace

from companion.game.errors import Choice, RuleViolation
from companion.game.state import GameState
from events.catalog import LoanTaken

__all__ = ["loan", "loans_to_pay"]


def loan(state: GameState, player: int) -> LoanTaken:
    """The loan ``player`` takes now: Ship one space down, 2 drachmas, maybe the -5 symbol."""
    track = state.edition.section("loan_track")
    last = len(track["penalties"]) - 1
    ship = state.p[player].ship
    ship_to = min(ship + 1, last)
    passes_symbol = ship == int(track["symbol_after"]) and ship_to != ship
    stays_on_last = ship == last
    penalty = int(track["instant_penalty"]) if passes_symbol or stays_on_last else 0
    return LoanTaken(
        player=player,
        drachmas=state.edition.economy("loan_drachmas"),
        ship_from=ship,
        ship_to=ship_to,
        infamy_penalty=penalty,
    )


def loans_to_pay(state: GameState, player: int, amount: int, borrow: bool, command: object) -> list[LoanTaken]:
    """The loans ``player`` must take to pay ``amount`` drachmas (none if they can pay).

    Without ``borrow`` a shortfall is refused, offering the same command with a loan.
    """
    held = state.p[player].drachmas
    if held >= amount:
        return []
    loans: list[LoanTaken] = []
    while held < amount:
        taken = loan(state, player)
        loans.append(taken)
        held += taken.drachmas
        state = state.with_player(player, ship=taken.ship_to)
    if not borrow:
        penalty = sum(t.infamy_penalty for t in loans)
        raise RuleViolation(
            "needs_loan",
            {"cost": amount, "drachmas": state.p[player].drachmas, "loans": len(loans), "penalty": penalty},
            [Choice("choice.borrow_and_pay", {"loans": len(loans), "penalty": penalty}, replace(command, borrow=True))],  # type: ignore[type-var]
        )
    return loans
