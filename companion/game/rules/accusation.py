"""Accusations and Dante's descent (seed 000 pp.14–15; RULES.md §3.6, §4.3).

Allowed only where the player already has a family member, meets the location's entry
requirement (seed 000 pp.14–15; what it is, a guest of the location's colour in the tower at a
special location, comes from RULES.md §3.7 and §4.3, after TEACH), and the location
is in the turn's quarter, or for 2 drachmas. Resolved in exactly this order, each step an
event: the accuser goes to the tower (to the matching guest's floor at a special location);
the player's other members in Florence go home; a soul of the location's colour goes from the
supply to the Cemetery, owned by no one; the skull rises on that track and its bonus tile
pays; Dante moves one step and his step's reward applies.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from companion.game.commands import Accuse
from companion.game.errors import Choice, RuleViolation
from companion.game.rules.economy import loans_to_pay
from companion.game.rules.florence import Batch, floor_space, floors_with_space, location
from companion.game.rules.fraud import fraud_events
from companion.game.rules.guardians import guardian_events
from companion.game.rules.guards import require_turn
from companion.game.rules.rewards import reward_events, skull_step
from companion.game.state import GameState, Phase
from events.catalog import (
    AccusationMade,
    AccuserToTower,
    BonusTileRevealed,
    CoinsPaid,
    DanteMoved,
    DiplomaAwarded,
    EndTriggered,
    Event,
    InfamyChanged,
    MemberWentHome,
    SoulAddedToCemetery,
    SupplyExhausted,
)

__all__ = ["AccusationCheck", "accusation_checks", "dante_step", "decide_accuse"]


@dataclass(frozen=True)
class AccusationCheck:
    """Whether ``player`` may accuse at ``location`` now, and if not, why."""

    location: str
    allowed: bool
    needs_bribe: bool
    refusal: RuleViolation | None


def dante_path(state: GameState) -> tuple[int, ...]:
    """The step indexes Dante walks for this player count (with the 3-player shortcut).

    A player count listed under ``dante.shortcut.players`` walks the path of ``path_of`` players
    with the Shortcut tile over the steps in ``skips`` (RULES.md §2 step 7), unless the edition
    gives that count a path of its own (``Edition.dante_path``, worked out once per count).
    """
    return state.edition.dante_path(len(state.players))


def dante_step(state: GameState, position: int) -> dict[str, object]:
    """The step at ``position`` on this game's path."""
    steps = state.edition.section("dante")["steps"]
    step: dict[str, object] = steps[dante_path(state)[position]]
    return step


def _check(state: GameState, player: int, loc: str, member: str = "", bribe: bool = True) -> tuple[str, int, bool]:
    """The accuser's kind, its tower floor and whether a bribe is due; or a refusal."""
    info = location(state, loc)
    pl = state.p[player]
    members = pl.members_at(loc)
    if not members:
        here = sorted({x for x, _ in pl.placed})
        raise RuleViolation(
            "no_member_there",
            {"location": loc},
            [Choice("choice.accuse_at", {"location": x}) for x in here],
        )
    kind = member or ("noble" if "noble" in members else "urchin")
    if kind not in members:
        raise RuleViolation(
            "no_such_member_there",
            {"location": loc, "kind": kind},
            [Choice("choice.accuser", {"kind": k}) for k in dict.fromkeys(members)],
        )
    circle = int(info["circle"])
    if info["kind"] == "special" and not pl.has_in_tower("guest", circle):
        raise RuleViolation(
            "needs_guest",
            {"location": loc, "colour": circle},
        )
    needs_bribe = state.florence[loc] != state.quarter
    if needs_bribe and not bribe:
        raise RuleViolation(
            "wrong_quarter_accuse",
            {
                "location": loc,
                "quarter": state.florence[loc],
                "turn_quarter": state.quarter,
                "bribe": state.edition.economy("bribe_any_quarter"),
            },
        )
    if info["kind"] == "special":
        floor = pl.floor_of("guest", circle)
        assert floor is not None
        if floor_space(state, pl, floor) == 0:
            raise RuleViolation(
                "guest_floor_full",
                {"location": loc, "floor": floor},
            )
    else:
        free = floors_with_space(state, pl)
        if not free:
            raise RuleViolation(
                "tower_full",
                {"location": loc},
            )
        floor = free[0]
    return kind, floor, needs_bribe


def accusation_checks(state: GameState, player: int) -> list[AccusationCheck]:
    """For every location where the player has a member: may they accuse there now?"""
    checks = []
    for loc in dict.fromkeys(x for x, _ in state.p[player].placed):
        try:
            _kind, _floor, bribe = _check(state, player, loc)
            checks.append(AccusationCheck(loc, True, bribe, None))
        except RuleViolation as exc:  # kept without its traceback, whose frames (this one among them) hold the check
            checks.append(AccusationCheck(loc, False, False, exc.with_traceback(None)))
    return checks


def _to_cemetery(state: GameState, colour: int, reason: str) -> Event:
    if state.supply.get(colour, 0) > 0:
        return SoulAddedToCemetery(colour, reason)
    return SupplyExhausted(colour, reason)


def _majority(state: GameState, circle: int, reason: str) -> list[Event]:
    """The diploma of ``circle`` to the highest skull(s) there; ties all win, none twice, none without a skull."""
    first = state.edition.first_level
    best = max((p.skull(circle, first) for p in state.p), default=first)
    if best == first:
        return []
    return [
        DiplomaAwarded(i, circle, reason)
        for i, p in enumerate(state.p)
        if p.skull(circle, first) == best and circle not in p.diplomas
    ]


def decide_accuse(state: GameState, cmd: Accuse) -> list[Event]:
    """Accuse, then resolve the five steps in order (seed 000 pp.14–15)."""
    require_turn(state, cmd.player, Phase.FLORENCE)
    kind, floor, needs_bribe = _check(state, cmd.player, cmd.location, cmd.member, cmd.bribe)
    pl = state.p[cmd.player]
    circle = int(location(state, cmd.location)["circle"])
    if cmd.floor >= 0 and location(state, cmd.location)["kind"] == "free":
        if floor_space(state, pl, cmd.floor) == 0:
            raise RuleViolation(
                "floor_full",
                {"floor": cmd.floor},
                [Choice("choice.floor", {"floor": f}) for f in floors_with_space(state, pl)],
            )
        floor = cmd.floor
    batch = Batch(state, [])
    bribe = state.edition.economy("bribe_any_quarter") if needs_bribe else 0
    batch.add(*loans_to_pay(state, cmd.player, bribe, cmd.borrow, cmd))
    batch.add(AccusationMade(cmd.player, cmd.location, kind, needs_bribe))
    if bribe:
        batch.add(CoinsPaid(cmd.player, 0, bribe, "bribe"))
    # 1. The accuser moves to the tower.
    batch.add(AccuserToTower(cmd.player, cmd.location, kind, floor))
    # 2. The player's other family members in Florence go home.
    for loc, other in batch.state.p[cmd.player].placed:
        batch.add(MemberWentHome(cmd.player, other, loc, -1))
    # 3. A soul of the location's colour goes to the Cemetery, owned by no one.
    batch.add(_to_cemetery(batch.state, circle, "accusation"))
    # 4. The skull rises on that colour's track, and the track's bonus tile pays.
    batch.add(*skull_step(batch.state, cmd.player, circle, "accusation"))
    tile = batch.state.bonus_tiles.get(circle)
    if tile is None:
        if cmd.bonus is None:
            raise RuleViolation(
                "bonus_tile_unknown",
                {"track": circle},
                [Choice("choice.reward", {"kind": r["id"]}) for r in state.edition.section("menus")["rewards"]],
            )
        batch.add(BonusTileRevealed(circle, cmd.bonus))
        tile = cmd.bonus
    elif cmd.bonus is not None and cmd.bonus != tile:
        raise RuleViolation(
            "bonus_tile_known",
            {"track": circle, "kind": tile.kind, "amount": tile.amount},
            [Choice("choice.bonus_known", {"kind": tile.kind}, replace(cmd, bonus=None))],
        )
    batch.add(*reward_events(batch.state, cmd.player, tile, "bonus"))
    # 5. Dante moves one step and his step's reward applies.
    batch.add(*_dante(batch, cmd))
    return batch.events


def _dante(batch: Batch, cmd: Accuse) -> list[Event]:
    state = batch.state
    position = state.dante + 1
    if position >= len(dante_path(state)):
        return []  # Dante already stands at the Purgatory gate (only in the final turns)
    step = dante_step(state, position)
    kind = str(step["kind"])
    circle = int(step.get("circle", 0))  # type: ignore[call-overload]
    inner = Batch(state, [])
    inner.add(DanteMoved(cmd.player, position, kind, circle))
    if kind != "pagan" and cmd.dante_guardian is not None:
        raise RuleViolation("dante_no_guardian", {"kind": kind})
    if kind != "fraud" and cmd.dante_fraud is not None:
        raise RuleViolation("dante_no_fraud", {"kind": kind})
    match kind:
        case "pagan":
            inner.add(_to_cemetery(inner.state, state.edition.pagan_colour, "dante"))
            if cmd.dante_guardian is not None:
                inner.add(*guardian_events(inner.state, cmd.player, cmd.dante_guardian, cost=0, reason="dante"))
        case "fraud":
            # RULES.md §3.6 says the step plays a fraud card; whether a player may decline it is
            # not said (edition assumption ``dante_fraud_optional``).
            if cmd.dante_fraud is None and not state.edition.assumption("dante_fraud_optional"):
                raise RuleViolation(
                    "dante_fraud_required",
                    {},
                )
            if cmd.dante_fraud is not None:
                inner.add(
                    *fraud_events(
                        inner.state, cmd.player, cmd.dante_fraud, cost=0, borrow=cmd.borrow, command=cmd, reason="dante"
                    )
                )
        case "diploma":
            inner.add(*_majority(inner.state, circle, "dante"))
        case "final":
            inner.add(InfamyChanged(cmd.player, state.edition.economy("dante_final_infamy"), "dante"))
            inner.add(*_majority(inner.state, circle, "dante"))
            inner.add(EndTriggered(cmd.player))
    return inner.events
