"""Loans the player did not ask for: which loans a command would take, found before recording.

A command that would take a loan (a toll, Charon's fee, a bribe, a guardian's or the Styx's
cost) is judged against the current state without recording anything. If its events hold a
``LoanTaken``, ``check_loans`` raises ``LoanToConfirm``; the table confirms it first, and only a
resend with the confirmation records the command with ``borrow`` set. Otherwise it gives back the
events it judged, so the command is not judged a second time before it is recorded.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from companion.game.commands import ExchangeFlorins, TakeLoan
from companion.game.errors import RuleViolation
from companion.game.game_or_tally import decide_any
from companion.game.projection import evolve
from companion.game.rules.locations import OPTIONS
from companion.game.state import GameState, Phase
from events.catalog import Event, LoanTaken

__all__ = ["LoanToConfirm", "check_loans", "florins_instead"]


class LoanToConfirm(Exception):
    """The command would take loans the player has not confirmed."""

    def __init__(self, loans: list[LoanTaken], command: Any) -> None:
        super().__init__(f"{len(loans)} loan(s) to confirm")
        self.loans = loans
        self.command = command


def _with_borrow(command: Any) -> Any:
    fields = {f.name for f in dataclasses.fields(command)}
    return dataclasses.replace(command, borrow=True) if "borrow" in fields else command


def check_loans(state: Any, command: Any, confirmed: bool) -> tuple[Any, list[Event] | None]:
    """The command to record, with ``borrow`` once confirmed, and the events it makes on ``state`` when
    they were judged here (``None``: not judged); raises ``LoanToConfirm`` before the confirmation."""
    if confirmed:
        return _with_borrow(command), None
    if isinstance(command, TakeLoan) or not isinstance(state, GameState):
        return command, None
    judged = command
    try:
        events = decide_any(state, command)
    except RuleViolation as exc:
        if exc.code != "needs_loan":
            raise
        judged = _with_borrow(command)
        try:
            events = decide_any(state, judged)
        except RuleViolation:
            raise exc from None
    loans = [e for e in events if isinstance(e, LoanTaken)]
    if loans:
        raise LoanToConfirm(loans, command)
    return command, events if judged is command else None


def florins_instead(state: Any, command: Any) -> int:
    """The fewest florins to change into drachmas at this location (the Bonfire, the Wall) that let
    ``command`` be paid without a loan; 0 when the change is not offered here or cannot cover it."""
    if not isinstance(state, GameState) or state.phase is not Phase.ACTION:
        return 0
    here = state.action or ""
    if "exchange" not in OPTIONS.get(here, ()) or "exchange" in state.used:
        return 0
    player = getattr(command, "player", state.active)
    actions = state.edition.section("actions")
    limit = min(
        int(actions["bonfire_exchange_max" if here == "bonfire" else "wall_exchange_max"]), state.p[player].florins
    )
    for florins in range(1, limit + 1):
        after = state
        try:
            for event in decide_any(state, ExchangeFlorins(player, florins)):
                after = evolve(after, event)
            decide_any(after, command)
        except RuleViolation as exc:
            if exc.code == "needs_loan":
                continue
            return 0
        return florins
    return 0
