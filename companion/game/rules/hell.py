"""The Hell phase: exactly one soul move per turn (seed 000 p.11; RULES.md §3, §4.1).

A soul falls from its shield along a line to the next circle down; while the shield it
reaches is occupied it keeps falling along that shield's lines (the player chooses at
each branch). It never goes deeper than the circle of its colour; arriving there it is
laid down and the mover scores that circle's infamy. Crossing the Wall of Dis (circle 5
to 6) needs the mover's own safe-passage disc on the gate above the shield reached.
Bringing a soul in from the Cemetery costs 1 drachma and puts it on an empty Limbo shield.
The shield where the soul ends fixes the turn's Florence quarter.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from companion.game.commands import BringSoul, MoveSoul
from companion.game.errors import Choice, RuleViolation
from companion.game.rules.economy import loans_to_pay
from companion.game.rules.guards import require_turn
from companion.game.state import GameState, Phase
from events.catalog import Event, SoulBroughtIn, SoulLaidDown, SoulMoved, TollPaid, TurnQuarterSet

__all__ = ["HellMove", "any_hell_move", "decide_bring", "decide_move", "legal_hell_moves", "soul_paths", "why_stuck"]


@dataclass(frozen=True)
class HellMove:
    """One legal soul move for the active player, with everything it will cost and score."""

    kind: str  # "bring" from the Cemetery, or "move" a standing soul
    colour: int
    start: str | None
    path: tuple[str, ...]
    cost: int
    tolls: tuple[tuple[int, str], ...]  # (desk owner, shield the desk sits below)
    lays_down: bool
    infamy: int
    quarter: str
    wall_pass: bool
    toll_each: int = 1  # drachmas per Desk crossed (edition expansion.toll)

    @property
    def landing(self) -> str:
        """The shield where the soul ends."""
        return self.path[-1]

    @property
    def total_drachmas(self) -> int:
        """Charon's fee plus every toll."""
        return self.cost + len(self.tolls) * self.toll_each


def _crosses_wall(state: GameState, origin: str, target: str) -> bool:
    shields = state.side.shields
    return (shields[origin].circle, shields[target].circle) == state.edition.wall


def _has_disc(state: GameState, player: int, target: str) -> bool:
    gate = state.side.gate_above.get(target)
    return gate is not None and gate in state.p[player].discs


def soul_paths(
    state: GameState, player: int, start: str, colour: int, free_wall: bool = False, use_passes: bool = True
) -> list[tuple[tuple[str, ...], bool]]:
    """Every legal fall of a soul of ``colour`` from ``start``: (path, uses a wall pass).

    ``free_wall`` lets the fall cross the Wall without disc or pass (a guardian's effect);
    ``use_passes`` False ignores the player's wall passes (a guardian's push never spends one).
    """
    passes = state.p[player].wall_passes if use_passes else 0
    found: list[tuple[tuple[str, ...], bool]] = []
    _walk(state, player, colour, free_wall, passes > 0, start, (), False, found)
    return found


def _walk(
    state: GameState,
    player: int,
    colour: int,
    free_wall: bool,
    has_pass: bool,
    at: str,
    path: tuple[str, ...],
    used_pass: bool,
    found: list[tuple[tuple[str, ...], bool]],
) -> None:
    """``soul_paths``' fall from ``at``, depth first, into ``found``. A function of its own, not a closure calling
    itself: that closure was a reference cycle, left for the cyclic collector with every path it found (~150 objects
    a tap, a tenth of what a server's young collections sweep)."""
    side = state.side
    for nxt in side.lines.get(at, ()):
        if side.shields[nxt].circle > colour:
            continue
        needs_pass = False
        if _crosses_wall(state, at, nxt) and not free_wall and not _has_disc(state, player, nxt):
            if has_pass:
                needs_pass = True
            else:
                continue
        step = (*path, nxt)
        if state.occupied(nxt):
            _walk(state, player, colour, free_wall, has_pass, nxt, step, used_pass or needs_pass, found)
        else:
            found.append((step, used_pass or needs_pass))


def _tolls(state: GameState, player: int, start: str, path: tuple[str, ...]) -> tuple[tuple[int, str], ...]:
    """Desks of other players below every shield the soul leaves (seed 002, Plutus)."""
    left = (start, *path[:-1])
    return tuple(
        (owner, shield)
        for shield in left
        for owner, pl in enumerate(state.p)
        if owner != player
        for desk in pl.desks
        if desk == shield
    )


def desk_tolls(state: GameState, player: int, start: str, path: tuple[str, ...]) -> tuple[tuple[int, str], ...]:
    """The Desks a fall from ``start`` along ``path`` crosses (none without the expansion)."""
    return _tolls(state, player, start, path) if state.expansion else ()


def toll_amount(state: GameState) -> int:
    """Drachmas paid to a Desk's owner per crossing (seed 002)."""
    return int(state.edition.section("expansion")["toll"])


def _affordable(state: GameState, player: int, move: HellMove) -> bool:
    """Whether the move's tolls can be paid; a toll may force a loan unless the edition says not."""
    if not move.tolls or state.edition.assumption("loan_for_toll"):
        return True
    return state.p[player].drachmas >= move.total_drachmas


def _outcome(state: GameState, colour: int, landing: str) -> tuple[bool, int, str]:
    shield = state.side.shields[landing]
    lays = shield.circle == colour
    infamy = state.edition.circles[colour].infamy if lays else 0
    return lays, infamy, shield.quarter


def legal_hell_moves(
    state: GameState, player: int, check_tolls: bool = True, only_from: str | None = None
) -> list[HellMove]:
    """Every soul move ``player`` may make now: from the Cemetery and in Hell; with ``only_from``, only the moves
    of the soul standing on that shield (what judging one move asks: not every soul's paths and every bring).

    Seed 002 does not say whether a toll the mover cannot pay forces a loan: with the edition
    assumption ``loan_for_toll`` off, a move whose tolls exceed the mover's drachmas is not legal.
    """
    return list(_each_hell_move(state, player, check_tolls, only_from))


def any_hell_move(state: GameState, player: int) -> bool:
    """Whether ``player`` has any soul move now (``legal_hell_moves`` not empty), found at the first one: a bring
    from the Cemetery when it may be made, else the first soul with a path."""
    return next(_each_hell_move(state, player, True, None), None) is not None


def _each_hell_move(state: GameState, player: int, check_tolls: bool, only_from: str | None) -> Iterator[HellMove]:
    """``legal_hell_moves``'s moves, one at a time, in its order."""
    cost = state.edition.economy("bring_soul_cost")
    if not state.needs_plague_card and only_from is None:
        for colour in sorted(state.cemetery):
            for shield in state.empty_shields(state.edition.limbo):
                lays, infamy, quarter = _outcome(state, colour, shield)
                yield HellMove("bring", colour, None, (shield,), cost, (), lays, infamy, quarter, False)
    for start in state.side.shields if only_from is None else (only_from,):
        soul = state.hell.get(start)
        if soul is None or soul.laid:
            continue
        for path, used_pass in soul_paths(state, player, start, soul.colour):
            lays, infamy, quarter = _outcome(state, soul.colour, path[-1])
            tolls = desk_tolls(state, player, start, path)
            move = HellMove(
                "move", soul.colour, start, path, 0, tolls, lays, infamy, quarter, used_pass, toll_amount(state)
            )
            if not check_tolls or _affordable(state, player, move):
                yield move


def _finish(state: GameState, player: int, move: HellMove) -> list[Event]:
    out: list[Event] = []
    if move.lays_down:
        out.append(SoulLaidDown(player, move.landing, move.infamy))
    out.append(TurnQuarterSet(player, move.quarter))
    return out


def decide_bring(state: GameState, cmd: BringSoul) -> list[Event]:
    """Bring a soul in from the Cemetery (RULES.md §3.3, §4.1 B)."""
    require_turn(state, cmd.player, Phase.HELL)
    if state.cemetery.get(cmd.colour, 0) == 0:
        raise RuleViolation(
            "cemetery_has_no_such_soul",
            {"colour": cmd.colour, "cemetery": dict(state.cemetery)},
            [Choice("choice.bring", {"colour": c}) for c in sorted(state.cemetery)],
        )
    limbo = state.edition.limbo
    if state.side.shields.get(cmd.shield) is None or state.side.shields[cmd.shield].circle != limbo:
        raise RuleViolation(
            "not_a_limbo_shield",
            {"shield": cmd.shield},
            [Choice("choice.shield", {"shield": s}) for s in state.empty_shields(limbo)],
        )
    if state.occupied(cmd.shield):
        raise RuleViolation(
            "shield_occupied",
            {"shield": cmd.shield},
            [Choice("choice.shield", {"shield": s}) for s in state.empty_shields(limbo)],
        )
    cost = state.edition.economy("bring_soul_cost")
    events: list[Event] = list(loans_to_pay(state, cmd.player, cost, cmd.borrow, cmd))
    events.append(SoulBroughtIn(cmd.player, cmd.colour, cmd.shield, cost))
    lays, infamy, quarter = _outcome(state, cmd.colour, cmd.shield)
    move = HellMove("bring", cmd.colour, None, (cmd.shield,), cost, (), lays, infamy, quarter, False)
    return events + _finish(state, cmd.player, move)


def _explain_refusal(state: GameState, player: int, start: str, target: str) -> RuleViolation:
    """The first rule a fall from ``start`` to ``target`` breaks, with the legal landings."""
    soul = state.hell[start]
    legal = sorted({path[-1] for path, _ in soul_paths(state, player, start, soul.colour)})
    alternatives = [Choice("choice.land_on", {"shield": s}) for s in legal]
    shields = state.side.shields
    params = {"colour": soul.colour, "from": start, "to": target, "legal": legal}
    if target not in shields:
        return RuleViolation("unknown_shield", params, alternatives)
    if shields[target].circle > soul.colour:
        return RuleViolation(
            "beyond_colour_circle",
            {**params, "circle": soul.colour},
            alternatives,
        )
    routes: list[tuple[str, ...]] = []

    def walk(at: str, path: tuple[str, ...]) -> None:
        for nxt in state.side.lines.get(at, ()):
            if nxt == target:
                routes.append((*path, nxt))
            elif shields[nxt].circle < shields[target].circle:
                walk(nxt, (*path, nxt))

    walk(start, ())
    if not routes:
        return RuleViolation("not_below_on_lines", params, alternatives)
    if state.occupied(target):
        return RuleViolation(
            "shield_occupied",
            {**params, "shield": target},
            alternatives,
        )
    for route in routes:
        prev = start
        for shield in route:
            if _crosses_wall(state, prev, shield) and not _has_disc(state, player, shield):
                gate = state.side.gate_above.get(shield, "")
                return RuleViolation(
                    "wall_needs_disc",
                    {**params, "gate": gate, "shield": shield},
                    alternatives,
                )
            if shield != target and not state.occupied(shield):
                return RuleViolation(
                    "stops_earlier",
                    {**params, "stop": shield},
                    alternatives,
                )
            prev = shield
    return RuleViolation("illegal_move", params, alternatives)


def why_stuck(state: GameState, player: int, start: str) -> list[RuleViolation]:
    """Why the soul on ``start`` has no legal fall: one refusal per line leaving its shield."""
    soul = state.hell.get(start)
    if soul is None:
        return [RuleViolation("no_soul_there", {"shield": start})]
    if soul.laid:
        return [RuleViolation("soul_laid_down", {"shield": start, "colour": soul.colour})]
    reasons: dict[str, RuleViolation] = {}
    for target in state.side.lines.get(start, ()):
        exc = _explain_refusal(state, player, start, target)
        if exc.code == "shield_occupied":
            deeper = state.side.lines.get(target, ())
            exc = _explain_refusal(state, player, start, deeper[0]) if deeper else exc
        reasons.setdefault(exc.code, exc)
    return list(reasons.values())


def decide_move(state: GameState, cmd: MoveSoul) -> list[Event]:
    """Move a standing soul down along the lines (seed 000 p.11; RULES.md §4.1 A)."""
    require_turn(state, cmd.player, Phase.HELL)
    soul = state.hell.get(cmd.from_shield)
    standing = sorted(s for s, v in state.hell.items() if not v.laid)
    if soul is None:
        raise RuleViolation(
            "no_soul_there",
            {"shield": cmd.from_shield},
            [Choice("choice.soul_at", {"shield": s}) for s in standing],
        )
    if soul.laid:
        raise RuleViolation(
            "soul_laid_down",
            {"shield": cmd.from_shield, "colour": soul.colour},
            [Choice("choice.soul_at", {"shield": s}) for s in standing],
        )
    candidates = [
        m
        for m in legal_hell_moves(state, cmd.player, only_from=cmd.from_shield)
        if m.landing == cmd.to_shield and (not cmd.via or m.path == cmd.via)
    ]
    if not candidates:
        unaffordable = [
            m
            for m in legal_hell_moves(state, cmd.player, check_tolls=False, only_from=cmd.from_shield)
            if m.landing == cmd.to_shield and (not cmd.via or m.path == cmd.via)
        ]
        if unaffordable:
            raise RuleViolation(
                "toll_needs_drachmas",
                {"toll": min(m.total_drachmas for m in unaffordable), "drachmas": state.p[cmd.player].drachmas},
            )
        raise _explain_refusal(state, cmd.player, cmd.from_shield, cmd.to_shield)
    move = min(candidates, key=lambda m: (len(m.tolls), m.wall_pass, m.path))
    events: list[Event] = list(loans_to_pay(state, cmd.player, move.total_drachmas, cmd.borrow, cmd))
    events += [TollPaid(cmd.player, owner, shield, move.toll_each) for owner, shield in move.tolls]
    events.append(SoulMoved(cmd.player, cmd.from_shield, move.path, move.wall_pass))
    return events + _finish(state, cmd.player, move)
