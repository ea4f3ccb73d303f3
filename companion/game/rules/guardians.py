"""Guardians (seed 000 pp.22–23; RULES.md §4.5, §6; seed 002 for Plutus and Phlegyas).

Using a guardian moves its standee to an empty shield, then optionally applies its effect to
nearby souls (shields next to the new one: row neighbours and shields joined by a line). The
effect needs a move to a different shield, and never makes a soul descend beyond its colour's
circle. Each base guardian is defined in the edition data as primitives with conditions, so a
table can correct one without code: ``petrify`` (laid down in place, scores nothing),
``descend`` (falls along the lines, optionally across the Wall), ``shift`` (sideways to an
empty shield of its row), ``wall_pass`` (cross the Wall once without a disc).

Plutus moves and puts one of the user's two Desks right below a shield next to it (reusing a
Desk once both are out). Phlegyas never moves: the user takes a Bell instead.
"""

from __future__ import annotations

from typing import Any

from companion.game.errors import Choice, RuleViolation
from companion.game.projection import evolve
from companion.game.rules.economy import loans_to_pay
from companion.game.rules.hell import desk_tolls, soul_paths, toll_amount
from companion.game.state import GameState
from events.catalog import (
    BellTaken,
    CoinsPaid,
    DeskPlaced,
    Event,
    GuardianMoved,
    GuardianUse,
    SoulLaidDown,
    SoulMoved,
    SoulPetrified,
    SoulShifted,
    TollPaid,
    WallPassGranted,
)

__all__ = ["guardian_definition", "guardian_events"]


def guardian_definition(state: GameState, guardian: str) -> dict[str, Any]:
    """A base guardian's data from the edition (effect primitives and conditions)."""
    for g in state.edition.raw["guardians"]:
        if g["id"] == guardian:
            found: dict[str, Any] = g
            return found
    return {"id": guardian, "effect": [], "conditions": {}}


def _empty_targets(state: GameState, guardian: str, current: str) -> list[str]:
    return [s for s in state.side.shields if s != current and state.takes_standee(s, guardian)]


def _conditions_hold(state: GameState, definition: dict[str, Any], shield: str) -> bool:
    circle = state.side.shields[shield].circle
    conditions = definition.get("conditions", {})
    low = int(conditions.get("guardian_circle_at_least", min(state.edition.circles)))
    high = int(conditions.get("guardian_circle_at_most", max(state.edition.circles)))
    return low <= circle <= high


def _standing_near(state: GameState, shield: str) -> list[str]:
    return [s for s in state.side.adjacent(shield) if s in state.hell and not state.hell[s].laid]


def _effect_events(state: GameState, player: int, use: GuardianUse, definition: dict[str, Any]) -> list[Event]:
    events: list[Event] = []
    targets = list(use.targets)
    destinations = list(use.destinations)
    for step in definition["effect"]:
        primitive = step["primitive"]
        if primitive == "wall_pass":
            events.append(WallPassGranted(player, int(step.get("uses", 1))))
            continue
        count = int(step.get("count", 1))
        chosen, targets = targets[:count], targets[count:]
        if not chosen:
            raise RuleViolation(
                "guardian_needs_target",
                {"guardian": use.guardian, "primitive": primitive},
                [Choice("choice.target", {"shield": s}) for s in _standing_near(state, use.to_shield)],
            )
        for target in chosen:
            destination = destinations.pop(0) if destinations else ""
            step_events = _primitive(state, player, use, primitive, step, target, destination)
            events += step_events
            state = _apply(state, step_events)  # the next target sees this one's result
    if targets:
        raise RuleViolation("guardian_too_many_targets", {"guardian": use.guardian, "extra": targets})
    return events


def _primitive(
    state: GameState,
    player: int,
    use: GuardianUse,
    primitive: str,
    step: dict[str, Any],
    target: str,
    destination: str,
) -> list[Event]:
    near = _standing_near(state, use.to_shield)
    if target not in near:
        raise RuleViolation(
            "guardian_target_not_near",
            {"guardian": use.guardian, "shield": target},
            [Choice("choice.target", {"shield": s}) for s in near],
        )
    soul = state.hell[target]
    if primitive == "petrify":
        return [SoulPetrified(player, target)]
    if primitive == "shift":
        row = state.side.row(state.side.shields[target].circle)
        free = [s for s in row if not state.occupied(s)]
        if destination not in free:
            raise RuleViolation(
                "shift_needs_empty_shield",
                {"shield": destination},
                [Choice("choice.shield", {"shield": s}) for s in free],
            )
        return [SoulShifted(player, target, destination)]
    paths = soul_paths(state, player, target, soul.colour, free_wall=bool(step.get("cross_wall")), use_passes=False)
    if not paths:
        raise RuleViolation("guardian_cannot_push", {"shield": target, "colour": soul.colour})
    options = sorted(p for p, _ in paths)
    path = next((p for p in options if p[-1] == destination), None) if destination else options[0]
    if path is None:
        raise RuleViolation(
            "guardian_push_landing",
            {"shield": destination},
            [Choice("choice.land_on", {"shield": p[-1]}) for p in options],
        )
    out: list[Event] = []
    if state.edition.assumption("toll_on_guardian_push"):
        # Seed 002 charges "a player that moves a Soul" across a Desk; whether a guardian's push
        # counts is our reading (edition assumption toll_on_guardian_push, off by default).
        tolls = desk_tolls(state, player, target, path)
        amount = toll_amount(state)
        out += loans_to_pay(state, player, amount * len(tolls), True, None)
        out += [TollPaid(player, owner, shield, amount) for owner, shield in tolls]
    out.append(SoulMoved(player, target, path, False))
    if state.side.shields[path[-1]].circle == soul.colour:
        out.append(SoulLaidDown(player, path[-1], state.edition.circles[soul.colour].infamy))
    return out


def _apply(state: GameState, events: list[Event]) -> GameState:
    applied = state
    for evt in events:
        applied = evolve(applied, evt)
    return applied


def guardian_events(
    state: GameState, player: int, use: GuardianUse, cost: int, reason: str, borrow: bool = False, command: Any = None
) -> list[Event]:
    """The events of using a guardian (paying ``cost`` drachmas), or a refusal naming the rule."""
    current = state.guardians.get(use.guardian)
    if current is None:
        raise RuleViolation(
            "guardian_not_in_play",
            {"guardian": use.guardian},
            [Choice("choice.guardian", {"guardian": g}) for g in state.guardians],
        )
    events: list[Event] = list(loans_to_pay(state, player, cost, borrow, command)) if cost else []
    if cost:
        events.append(CoinsPaid(player, 0, cost, "guardian"))
    if use.guardian == "phlegyas":
        if use.to_shield not in ("", current):
            raise RuleViolation("phlegyas_does_not_move", {"shield": use.to_shield})
        return [*events, BellTaken(player)]
    free = _empty_targets(state, use.guardian, current)
    if use.to_shield not in free:
        code = "guardian_must_move" if use.to_shield == current else "guardian_needs_empty_shield"
        raise RuleViolation(
            code,
            {"guardian": use.guardian, "shield": use.to_shield},
            [Choice("choice.shield", {"shield": s}) for s in free],
        )
    events.append(GuardianMoved(player, use.guardian, current, use.to_shield, reason))
    if not use.effect:
        if use.targets or use.desk_below:
            raise RuleViolation("guardian_effect_off", {"guardian": use.guardian})
        return events
    moved = _apply(state, events)
    if use.guardian == "plutus":
        return events + _desk(moved, player, use)
    definition = guardian_definition(state, use.guardian)
    if not _conditions_hold(moved, definition, use.to_shield):
        raise RuleViolation(
            "guardian_conditions",
            {"guardian": use.guardian, "shield": use.to_shield, "conditions": definition.get("conditions", {})},
        )
    return events + _effect_events(moved, player, use, definition)


def _desk(state: GameState, player: int, use: GuardianUse) -> list[Event]:
    """Plutus: a Desk right below a shield next to the standee (seed 002)."""
    near = list(state.side.adjacent(use.to_shield))
    if use.desk_below not in near:
        raise RuleViolation(
            "desk_not_adjacent", {"shield": use.desk_below}, [Choice("choice.shield", {"shield": s}) for s in near]
        )
    desks = state.p[player].desks
    per_player = int(state.edition.section("expansion")["desks_per_player"])
    if use.desk_below in desks:
        raise RuleViolation("desk_already_there", {"shield": use.desk_below})
    if len(desks) >= per_player and use.desk_from not in desks:
        raise RuleViolation(
            "desk_reuse", {"desks": list(desks)}, [Choice("choice.desk_from", {"shield": d}) for d in desks]
        )
    if len(desks) < per_player and use.desk_from:
        raise RuleViolation("desk_not_yet_out", {"shield": use.desk_from})
    return [DeskPlaced(player, use.desk_below, use.desk_from)]
