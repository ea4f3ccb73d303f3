"""How the game went: infamy after every turn (for the chart) and where the infamy came from."""

from __future__ import annotations

from collections.abc import Iterable

from companion.game.edition import Edition
from companion.game.projection import evolve, initial_state
from events.catalog import Event, GameCreated, GameEnded, InfamyChanged, LoanTaken, SoulLaidDown, TurnEnded

__all__ = ["infamy_by_turn", "infamy_ledger"]


def infamy_by_turn(edition: Edition, events: Iterable[Event]) -> list[tuple[int, tuple[int, ...]]]:
    """Every player's infamy at the start (turn 0) and after each turn, from the effective events."""
    points: list[tuple[int, tuple[int, ...]]] = []
    state = None
    for evt in events:
        if isinstance(evt, GameCreated):
            state = initial_state(edition, evt)
            points.append((0, tuple(p.infamy for p in state.p)))
            continue
        if state is None:
            continue
        state = evolve(state, evt)
        if isinstance(evt, TurnEnded):
            points.append((state.turn - 1, tuple(p.infamy for p in state.p)))
        elif isinstance(evt, GameEnded):
            points.append((state.turn, tuple(p.infamy for p in state.p)))
    if state is not None and points[-1][1] != tuple(p.infamy for p in state.p):
        points.append((state.turn, tuple(p.infamy for p in state.p)))
    return points


def infamy_ledger(players: int, events: Iterable[Event]) -> list[dict[str, int]]:
    """Infamy scored during play per player, by source (souls, loan symbol, each reason)."""
    ledger: list[dict[str, int]] = [{} for _ in range(players)]

    def add(player: int, source: str, amount: int) -> None:
        if amount:
            ledger[player][source] = ledger[player].get(source, 0) + amount

    for evt in events:
        match evt:
            case SoulLaidDown(player=p, infamy=infamy):
                add(p, "souls", infamy)
            case InfamyChanged(player=p, amount=amount, reason=reason):
                add(p, reason, amount)
            case LoanTaken(player=p, infamy_penalty=penalty):
                add(p, "loan_symbol", -penalty)
    return ledger
