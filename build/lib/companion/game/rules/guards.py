"""Who may act now: the checks every game command starts with (RULES.md §4)."""

from __future__ import annotations

from companion.game.errors import Choice, RuleViolation
from companion.game.state import GameState, Phase

__all__ = ["require_active", "require_turn"]

NOT_IN_PHASE = {
    Phase.HELL: "not_in_phase_hell",
    Phase.FLORENCE: "not_in_phase_florence",
    Phase.ACTION: "not_in_phase_action",
    Phase.DONE: "not_in_phase_done",
    Phase.OVER: "not_in_phase_over",
}


def require_active(state: GameState, player: int) -> None:
    """Refuse when the game is over, a plague card is due, or ``player`` is not active."""
    if state.phase is Phase.OVER:
        raise RuleViolation("game_over", {"reason": state.ended})
    if state.needs_plague_card:
        raise RuleViolation(
            "plague_card_due",
            {},
            [Choice("choice.reveal_plague")],
        )
    if not 0 <= player < len(state.players):
        raise RuleViolation("unknown_player", {"player": player})
    if player != state.active:
        raise RuleViolation(
            "not_your_turn",
            {"player": player, "active": state.active},
        )


def require_turn(state: GameState, player: int, phase: Phase) -> None:
    """Refuse unless ``player`` is active and their turn stands at ``phase``."""
    require_active(state, player)
    if state.phase is not phase:
        raise RuleViolation(
            NOT_IN_PHASE[phase],
            {"phase": state.phase.value, "wanted": phase.value},
        )
