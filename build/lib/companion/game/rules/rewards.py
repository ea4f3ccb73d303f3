"""What a bonus tile, a fraud card's instant half or a Family card gives, as events.

Their texts are not public, so the table records each one by what it gives, chosen from the
edition's bounded menu (``menus.rewards``); this module checks the choice and turns it into
the events that apply it. Skulls never pass the end of their track (RULES.md §3.5: the track
length is an estimate in the edition data; the same limit for every advance).
"""

from __future__ import annotations

from typing import Any

from companion.game.errors import Choice, RuleViolation
from companion.game.state import GameState
from events.catalog import (
    CoinsGained,
    CubeMoved,
    DiscPlaced,
    Event,
    HalfDiplomaGained,
    InfamyChanged,
    Reward,
    SkullAdvanced,
    TowerFloorBuilt,
    UrchinJoined,
)

__all__ = ["check_reward", "reward_events", "skull_step"]


def _menu(state: GameState) -> dict[str, dict[str, Any]]:
    return {item["id"]: item for item in state.edition.section("menus")["rewards"]}


def check_reward(state: GameState, player: int, reward: Reward) -> None:
    """Refuse a reward that is not on the edition's menu or out of its range."""
    menu = _menu(state)
    entry = menu.get(reward.kind)
    if entry is None:
        raise RuleViolation(
            "reward_not_on_menu",
            {"kind": reward.kind},
            [Choice("choice.reward", {"kind": k}) for k in menu],
        )
    if "amount" in entry:
        low, high = (int(v) for v in entry["amount"])
        if not int(low) <= reward.amount <= int(high):
            raise RuleViolation("out_of_range", {"field": reward.kind, "value": reward.amount, "min": low, "max": high})
    if (entry.get("track") or entry.get("circle")) and reward.track not in state.edition.track_circles:
        raise RuleViolation(
            "reward_needs_track",
            {"kind": reward.kind},
            [Choice("choice.track", {"track": t}) for t in state.edition.track_circles],
        )
    if reward.kind == "disc":
        free = [g for g in state.side.gates if g not in state.p[player].discs]
        if reward.gate not in free:  # no such gate, or a disc of yours already there
            raise RuleViolation(
                "reward_needs_gate", {"gate": reward.gate}, [Choice("choice.gate", {"gate": g}) for g in free]
            )


def skull_step(state: GameState, player: int, track: int, reason: str) -> list[Event]:
    """One skull level up on ``track``, unless the skull already stands at the track's end."""
    level = state.p[player].skull(track, state.edition.first_level)
    if level >= state.edition.track_length:
        return []
    return [SkullAdvanced(player, track, level + 1, reason)]


def reward_events(state: GameState, player: int, reward: Reward, reason: str) -> list[Event]:
    """The events that give ``reward`` to ``player`` (checked first)."""
    check_reward(state, player, reward)
    pl = state.p[player]
    match reward.kind:
        case "florins":
            return [CoinsGained(player, reward.amount, 0, reason)]
        case "drachmas":
            return [CoinsGained(player, 0, reward.amount, reason)]
        case "infamy":
            return [InfamyChanged(player, reward.amount, reason)]
        case "skull":
            return skull_step(state, player, reward.track, reason)
        case "half_diploma":
            return [HalfDiplomaGained(player, reason)]
        case "tower_floor":
            heights = [int(h) for h in state.edition.section("tower")["heights"]]
            return [TowerFloorBuilt(player, heights[len(pl.tower)])] if len(pl.tower) < len(heights) else []
        case "urchin":
            return [UrchinJoined(player, "home")] if pl.reserve_urchins > 0 else []
        case "cube_right":
            last = len(state.edition.section("phlegethon")["scale"]) - 1
            space = state.phlegethon[reward.track]
            return [CubeMoved(player, reward.track, space + 1, reason)] if space < last else []
        case "disc":
            return [DiscPlaced(player, reward.gate)]
    return []
