"""Loans the player did not ask for: which loans a command would take, found before recording.

A command that would take a loan (a toll, Charon's fee, a bribe, a guardian's or the Styx's
cost) is judged against the current state without recording anything. If its events hold a
``LoanTaken``, ``check_loans`` raises ``LoanToConfirm``; the table confirms it first, and only a
resend with the confirmation records the command with ``borrow`` set.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from companion.game.any_log import decide_any
from companion.game.commands import TakeLoan
from companion.game.errors import RuleViolation
from companion.game.state import GameState
from events.catalog import LoanTaken

__all__ = ["LoanToConfirm", "check_loans"]


class LoanToConfirm(Exception):
    """The command would take loans the player has not confirmed."""

    def __init__(self, loans: list[LoanTaken], command: Any) -> None:
        super().__init__(f"{len(loans)} loan(s) to confirm")
        self.loans = loans
        self.command = command


def _with_borrow(command: Any) -> Any:
    fields = {f.name for f in dataclasses.fields(command)}
    return dataclasses.replace(command, borrow=True) if "borrow" in fields else command


def check_loans(state: Any, command: Any, confirmed: bool) -> Any:
    """The command to record: with ``borrow`` once confirmed; raises ``LoanToConfirm`` before that."""
    if confirmed:
        return _with_borrow(command)
    if isinstance(command, TakeLoan) or not isinstance(state, GameState):
        return command
    try:
        events = decide_any(state, command)
    except RuleViolation as exc:
        if exc.code != "needs_loan":
            raise
        borrowing = _with_borrow(command)
        try:
            events = decide_any(state, borrowing)
        except RuleViolation:
            raise exc from None
    loans = [e for e in events if isinstance(e, LoanTaken)]
    if loans:
        raise LoanToConfirm(loans, command)
    return command
