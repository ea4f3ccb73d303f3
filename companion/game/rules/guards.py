"""Who may act now: the checks every game command starts with (RULES.md §4)."""

from __future__ import annotations

from companion.game.errors import Choice, RuleViolation
from companion.game.state import GameState, Phase

__all__ = ["require_active", "require_turn"]


def require_active(state: GameState, player: int) -> None:
    """Refuse when the game is over, a plague card is due, or ``player`` is not active."""
    if state.phase is Phase.OVER:
        raise RuleViolation("game_over", {"reason": state.ended}, rule="RULES.md §7")
    if state.needs_plague_card:
        raise RuleViolation(
            "plague_card_due",
            {},
            [Choice("choice.reveal_plague")],
            rule="RULES.md §4.4: an empty Cemetery is refilled from the plague deck",
        )
    if not 0 <= player < len(state.players):
        raise RuleViolation("unknown_player", {"player": player})
    if player != state.active:
        raise RuleViolation(
            "not_your_turn",
            {"player": player, "active": state.active},
            rule="RULES.md §4: players take turns clockwise",
        )


def require_turn(state: GameState, player: int, phase: Phase) -> None:
    """Refuse unless ``player`` is active and their turn stands at ``phase``."""
    require_active(state, player)
    if state.phase is not phase:
        raise RuleViolation(
            f"not_in_phase_{phase.value}",
            {"phase": state.phase.value, "wanted": phase.value},
            rule="RULES.md §4: the Hell phase, then the Florence phase",
        )
