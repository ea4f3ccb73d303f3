"""Fraud cards still in hand at final scoring: scored only if the edition says so.

RULES.md §10.7 leaves open whether unplayed fraud cards score at the end (the solo bot's face-down
starting cards do). With the edition assumption ``fraud_in_hand_scores`` on, once the game is over
the table enters each card left in a player's hand by its end-game half (a ``PlayFraud`` from the
hand); it is recorded as played at the end, with no instant reward and no cost, and final scoring
applies it like any other. Off (the shipped choice), such an entry is refused.
"""

from __future__ import annotations

from dataclasses import replace

from companion.game.commands import PlayFraud
from companion.game.errors import Choice, RuleViolation
from companion.game.rules.fraud import check_endgame
from companion.game.state import GameState
from events.catalog import Event, FraudCardPlayed, Reward

__all__ = ["AT_END", "decide_hand_fraud_at_end"]

AT_END = "in_hand_at_end"  # the reason recorded on such a card


def decide_hand_fraud_at_end(state: GameState, cmd: PlayFraud) -> list[Event]:
    """Record a card left in hand for final scoring, or refuse naming why."""
    if not state.edition.assumption("fraud_in_hand_scores"):
        raise RuleViolation(
            "fraud_hand_not_scored",
            {},
        )
    if not 0 <= cmd.player < len(state.players):
        raise RuleViolation("unknown_player", {"player": cmd.player})
    if cmd.play.source != "hand":
        raise RuleViolation(
            "fraud_source", {"source": cmd.play.source}, [Choice("choice.fraud_source", {"source": "hand"})]
        )
    pl = state.p[cmd.player]
    if pl.hand_scored >= pl.fraud_hand:
        raise RuleViolation(
            "no_fraud_in_hand",
            {},
        )
    check_endgame(state, cmd.play.endgame)
    return [FraudCardPlayed(cmd.player, replace(cmd.play, reward=Reward("nothing")), 0, AT_END)]
