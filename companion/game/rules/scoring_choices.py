"""Choices made at final scoring: where each pair of half diplomas becomes a diploma (RULES.md §7.2)."""

from __future__ import annotations

from companion.game.commands import PlaceHalfDiplomas
from companion.game.errors import RuleViolation
from companion.game.scoring import check_half_choice, score_state
from companion.game.state import GameState, Phase
from events.catalog import Event, HalfDiplomasPlaced

__all__ = ["decide_place_halves"]


def decide_place_halves(state: GameState, cmd: PlaceHalfDiplomas) -> list[Event]:
    """Place a player's extra diplomas once the game is over (TEACH; RULES.md §7.2 step 3)."""
    if state.phase is not Phase.OVER:
        raise RuleViolation("not_final_scoring", {})
    if not 0 <= cmd.player < len(state.players):
        raise RuleViolation("unknown_player", {"player": cmd.player})
    halves = score_state(state).players[cmd.player].half_diplomas
    check_half_choice(state.edition, state.p[cmd.player].diplomas, halves, cmd.tracks)
    return [HalfDiplomasPlaced(cmd.player, tuple(cmd.tracks))]
