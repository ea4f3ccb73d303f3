"""``decide(state, command)``: every rule, one module per command family.

Returns the events that record the command, or raises ``RuleViolation``. Game creation
has no state yet and goes through ``decide_create(edition, command)``.
"""

from __future__ import annotations

from typing import assert_never

from companion.game.commands import (
    BringSoul,
    Command,
    CreateGame,
    EndTurn,
    MoveSoul,
    PlaceHalfDiplomas,
    RevealPlagueCard,
    TakeLoan,
)
from companion.game.errors import RuleViolation
from companion.game.rules.economy import loan
from companion.game.rules.guards import require_active
from companion.game.rules.hell import decide_bring, decide_move
from companion.game.rules.scoring_choices import decide_place_halves
from companion.game.rules.setup import decide_create
from companion.game.rules.turns import decide_end_turn, decide_plague
from companion.game.state import GameState
from events.catalog import Event

__all__ = ["decide", "decide_create"]


def decide(state: GameState, command: Command) -> list[Event]:
    """The events ``command`` records in ``state``, or a ``RuleViolation``."""
    match command:
        case TakeLoan():
            require_active(state, command.player)
            return [loan(state, command.player)]
        case BringSoul():
            return decide_bring(state, command)
        case MoveSoul():
            return decide_move(state, command)
        case EndTurn():
            return decide_end_turn(state, command)
        case RevealPlagueCard():
            return decide_plague(state, command)
        case PlaceHalfDiplomas():
            return decide_place_halves(state, command)
        case CreateGame():
            raise RuleViolation("game_exists", {})
        case _:
            assert_never(command)
