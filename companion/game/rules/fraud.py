"""Fraud cards (RULES.md §4.7): played at the Wall (2 drachmas) or on Dante's fraud step.

From hand, from the face-up line-up or from the deck top (+1 drachma when not from hand; a
card from hand is replaced, so the hand keeps its size). The instant half needs the barrel
colour(s) it shows somewhere in the player's tower (checked, not spent) and grants one
reward from the edition's menu; without those barrels the card can still be played for its
end-game half, with no instant reward. The end-game half is kept for final scoring.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from companion.game.errors import Choice, RuleViolation
from companion.game.projection import evolve
from companion.game.rules.economy import loans_to_pay
from companion.game.rules.rewards import reward_events
from companion.game.state import GameState
from events.catalog import EndgameHalf, Event, FraudCardPlayed, FraudPlay, Reward

__all__ = ["check_endgame", "fraud_events"]

SOURCES = ("hand", "lineup", "deck")


def check_endgame(state: GameState, half: EndgameHalf) -> None:
    """Refuse an end-game half whose requirement or effect is not on the edition's menus."""
    menus = state.edition.section("menus")
    requirements = {r["id"]: r for r in menus["endgame_requirements"]}
    effects = {e["id"]: e for e in menus["endgame_effects"]}
    if half.requirement not in requirements:
        raise RuleViolation(
            "endgame_requirement_not_on_menu",
            {"requirement": half.requirement},
            [Choice("choice.requirement", {"requirement": r}) for r in requirements],
        )
    if half.effect not in effects:
        raise RuleViolation(
            "endgame_effect_not_on_menu",
            {"effect": half.effect},
            [Choice("choice.effect", {"effect": e}) for e in effects],
        )
    tracks = state.edition.track_circles
    if requirements[half.requirement].get("track") and half.track not in tracks:
        raise RuleViolation("reward_needs_track", {"kind": half.requirement})
    needs_track = effects[half.effect].get("track") or effects[half.effect].get("circle")
    if needs_track and half.effect_track not in tracks:
        raise RuleViolation("reward_needs_track", {"kind": half.effect})
    if requirements[half.requirement].get("colours") and not half.colours:
        raise RuleViolation("endgame_needs_colours", {})
    for key, value in (("amount", half.amount), ("effect_amount", half.effect_amount)):
        entry = requirements[half.requirement] if key == "amount" else effects[half.effect]
        if "amount" in entry:
            low, high = entry["amount"]
            if not int(low) <= value <= int(high):
                raise RuleViolation("out_of_range", {"field": key, "value": value, "min": low, "max": high})


def fraud_events(
    state: GameState, player: int, play: FraudPlay, cost: int, borrow: bool, command: Any, reason: str = "wall"
) -> list[Event]:
    """The events of playing a fraud card: payment, the card, then its instant reward."""
    if play.source not in SOURCES:
        raise RuleViolation(
            "fraud_source", {"source": play.source}, [Choice("choice.fraud_source", {"source": s}) for s in SOURCES]
        )
    if play.source == "hand" and state.p[player].fraud_hand == 0:
        raise RuleViolation(
            "no_fraud_in_hand",
            {},
            [Choice("choice.fraud_source", {"source": s}) for s in ("lineup", "deck")],
        )
    limit = int(state.edition.section("fraud")["barrels_required_max"])
    if not 1 <= len(play.barrels) <= limit or any(c not in state.edition.track_circles for c in play.barrels):
        raise RuleViolation(
            "fraud_barrels",
            {"count": len(play.barrels), "max": limit},
        )
    missing = [c for c in play.barrels if not state.p[player].has_in_tower("barrel", c)]
    # The rulebook seeds are silent on a card whose barrels you lack: by default (edition
    # assumption ``fraud_without_barrels``) it may be played for its end-game half alone.
    without = state.edition.assumption("fraud_without_barrels")
    if missing and (play.reward.kind != "nothing" or not without):
        raise RuleViolation(
            "fraud_needs_barrels",
            {"colours": missing},
            [Choice("choice.fraud_without_reward", {}, _without_reward(command))] if without else [],
        )
    check_endgame(state, play.endgame)
    total = cost + (0 if play.source == "hand" else state.edition.economy("fraud_not_from_hand"))
    events: list[Event] = list(loans_to_pay(state, player, total, borrow, command)) if total else []
    events.append(FraudCardPlayed(player, play, total, reason))
    after = state
    for evt in events:
        after = evolve(after, evt)
    return events + reward_events(after, player, play.reward, "fraud")


def _without_reward(command: Any) -> Any:
    """The same command with the card's instant reward set to nothing."""
    if command is None:
        return None
    for name in ("play", "dante_fraud"):
        play = getattr(command, name, None)
        if isinstance(play, FraudPlay):
            return replace(command, **{name: replace(play, reward=Reward("nothing"))})
    return None
