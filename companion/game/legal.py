"""What the active player may do now: the menu the phone shows, computed from the rules.

Templates render these options; they never decide legality themselves. Every option here
is something ``rules.decide`` accepts (tests check that property on random games).
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.game.rules.economy import loan
from companion.game.rules.hell import HellMove, legal_hell_moves
from companion.game.state import GameState, Phase
from events.catalog import LoanTaken

__all__ = ["TurnOptions", "turn_options"]


@dataclass(frozen=True)
class TurnOptions:
    """The active player's choices at this moment."""

    player: int
    phase: Phase
    hell_moves: tuple[HellMove, ...]
    next_loan: LoanTaken | None
    can_end_turn: bool
    plague_due: bool

    @property
    def bring_moves(self) -> tuple[HellMove, ...]:
        """Souls that can come in from the Cemetery, one entry per colour and Limbo shield."""
        return tuple(m for m in self.hell_moves if m.kind == "bring")

    @property
    def soul_moves(self) -> tuple[HellMove, ...]:
        """Falls of standing souls already in Hell."""
        return tuple(m for m in self.hell_moves if m.kind == "move")

    def moves_from(self, shield: str) -> tuple[HellMove, ...]:
        """The legal falls of the soul on ``shield``."""
        return tuple(m for m in self.hell_moves if m.start == shield)

    @property
    def movable(self) -> tuple[str, ...]:
        """Shields whose soul has at least one legal fall."""
        return tuple(dict.fromkeys(m.start for m in self.soul_moves if m.start is not None))


def turn_options(state: GameState) -> TurnOptions:
    """The options of the active player (nothing when the game is over)."""
    player = state.active
    over = state.phase is Phase.OVER
    in_hell = state.phase is Phase.HELL and not state.needs_plague_card and not over
    return TurnOptions(
        player=player,
        phase=state.phase,
        hell_moves=tuple(legal_hell_moves(state, player)) if in_hell else (),
        next_loan=None if over else loan(state, player),
        can_end_turn=state.phase is Phase.DONE and not state.needs_plague_card,
        plague_due=state.needs_plague_card and not over,
    )
