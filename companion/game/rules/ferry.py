"""Phlegyas's ferry (seed 002, Black Guardian): at the start of a turn, instead of the usual soul
move, a player returns a Bell to summon the ferryman.

The standee moves to an empty shield; a soul standing in that circle goes sideways to any
empty shield of the same circle (the standee moved first, so the shield it left counts as
empty: "empty" is ``GameState.occupied`` on the board after the standee's move); then that
same soul makes the mandatory regular Hell move to an empty shield in a circle below. The
sideways move is refused when no regular move would follow it. The regular move obeys every
Hell rule (lines, colour limit, Wall of Dis, tolls) and sets the turn's quarter.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.game.commands import MoveSoul, SummonFerryman
from companion.game.errors import Choice, RuleViolation
from companion.game.projection import evolve
from companion.game.rules.guards import require_turn
from companion.game.rules.hell import decide_move, legal_hell_moves
from companion.game.state import GameState, Phase
from events.catalog import BellReturned, Event, GuardianMoved, SoulShifted

__all__ = ["FerryOption", "decide_ferry", "ferry_options"]


@dataclass(frozen=True)
class FerryOption:
    """One way to use the ferry: Phlegyas's shield, the soul, its sideways shield, its landings."""

    phlegyas_to: str
    soul_from: str
    soul_to: str
    landings: tuple[str, ...]


def _after_standee(state: GameState, player: int, phlegyas_to: str) -> GameState:
    """The board once the Bell is back and Phlegyas stands on ``phlegyas_to``: the standee moves
    first (seed 002), so the shield it left is empty for the soul's sideways move."""
    current = state.guardians["phlegyas"]
    for evt in (BellReturned(player), GuardianMoved(player, "phlegyas", current, phlegyas_to, "ferry")):
        state = evolve(state, evt)
    return state


def _after_shift(state: GameState, player: int, phlegyas_to: str, soul_from: str, soul_to: str) -> GameState:
    current = state.guardians["phlegyas"]
    for evt in (
        BellReturned(player),
        GuardianMoved(player, "phlegyas", current, phlegyas_to, "ferry"),
        SoulShifted(player, soul_from, soul_to),
    ):
        state = evolve(state, evt)
    return state


def _landings(state: GameState, player: int, shield: str) -> tuple[str, ...]:
    return tuple(sorted({m.landing for m in legal_hell_moves(state, player, only_from=shield)}))


def ferry_options(state: GameState, player: int, phlegyas_to: str | None = None) -> list[FerryOption]:
    """Every legal ferry for ``player`` now (optionally with Phlegyas going to one shield)."""
    if "phlegyas" not in state.guardians or state.p[player].bells == 0:
        return []
    current = state.guardians["phlegyas"]
    targets = [phlegyas_to] if phlegyas_to else list(state.side.shields)
    options = []
    for ph in targets:
        if ph == current or not state.takes_standee(ph, "phlegyas"):
            continue
        moved = _after_standee(state, player, ph)
        row = state.side.row(state.side.shields[ph].circle)
        for soul_from in row:
            soul = state.hell.get(soul_from)
            if soul is None or soul.laid:
                continue
            for soul_to in row:
                if soul_to == soul_from or moved.occupied(soul_to):
                    continue
                landings = _landings(_after_shift(state, player, ph, soul_from, soul_to), player, soul_to)
                if landings:
                    options.append(FerryOption(ph, soul_from, soul_to, landings))
    return options


def decide_ferry(state: GameState, cmd: SummonFerryman) -> list[Event]:
    """Return a Bell, move Phlegyas, shift a soul, then its mandatory regular Hell move."""
    require_turn(state, cmd.player, Phase.HELL)
    if "phlegyas" not in state.guardians:
        raise RuleViolation("guardian_not_in_play", {"guardian": "phlegyas"})
    if state.p[cmd.player].bells == 0:
        raise RuleViolation("no_bell", {})
    current = state.guardians["phlegyas"]
    if cmd.phlegyas_to == current or not state.takes_standee(cmd.phlegyas_to, "phlegyas"):
        free = [s for s in state.side.shields if s != current and state.takes_standee(s, "phlegyas")]
        raise RuleViolation(
            "guardian_needs_empty_shield",
            {"guardian": "phlegyas", "shield": cmd.phlegyas_to},
            [Choice("choice.shield", {"shield": s}) for s in free],
        )
    circle = state.side.shields[cmd.phlegyas_to].circle
    row = state.side.row(circle)
    soul = state.hell.get(cmd.soul_from)
    if cmd.soul_from not in row or soul is None or soul.laid:
        standing = [s for s in row if s in state.hell and not state.hell[s].laid]
        raise RuleViolation(
            "ferry_soul_not_in_circle",
            {"shield": cmd.soul_from, "circle": circle},
            [Choice("choice.soul_at", {"shield": s}) for s in standing],
        )
    moved = _after_standee(state, cmd.player, cmd.phlegyas_to)
    if cmd.soul_to not in row or cmd.soul_to == cmd.soul_from or moved.occupied(cmd.soul_to):
        raise RuleViolation(
            "ferry_sideways_not_empty",
            {"shield": cmd.soul_to, "circle": circle},
        )
    shifted = _after_shift(state, cmd.player, cmd.phlegyas_to, cmd.soul_from, cmd.soul_to)
    if not _landings(shifted, cmd.player, cmd.soul_to):
        good = ferry_options(state, cmd.player, cmd.phlegyas_to)
        raise RuleViolation(
            "ferry_no_follow_up",
            {"shield": cmd.soul_to},
            [Choice("choice.ferry_side", {"shield": o.soul_to}) for o in good if o.soul_from == cmd.soul_from],
        )
    head: list[Event] = [
        BellReturned(cmd.player),
        GuardianMoved(cmd.player, "phlegyas", current, cmd.phlegyas_to, "ferry"),
        SoulShifted(cmd.player, cmd.soul_from, cmd.soul_to),
    ]
    move = decide_move(shifted, MoveSoul(cmd.player, cmd.soul_to, cmd.landing, cmd.via, cmd.borrow))
    return head + move
