"""The Florence phase: sending a family member, and the family council (seed 000 p.12; RULES.md §4.2).

Send a noble or an urchin from home (never from the tower) to a location in the quarter of
the shield where this turn's soul ended, or pay 2 drachmas for any quarter. Locations never
block: your own or others' pieces may already be there. A noble pays 1 florin to enter a
special location; an urchin enters free. The location's action follows (``locations``).
When no member can be sent and no accusation is possible, the family council is the only
choice: −2 infamy, then one member, guest or barrel comes back.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from companion.game.commands import HoldCouncil, SendMember
from companion.game.errors import Choice, RuleViolation
from companion.game.projection import evolve
from companion.game.rules.economy import loans_to_pay
from companion.game.rules.guards import require_turn
from companion.game.state import GameState, Phase, PlayerState
from events.catalog import (
    BarrelReturned,
    CoinsGained,
    CoinsPaid,
    CouncilHeld,
    Event,
    GuestReturned,
    InfamyChanged,
    MemberSent,
    MemberWentHome,
    TowerFloorBuilt,
    UrchinJoined,
)

__all__ = [
    "Batch",
    "decide_council",
    "decide_send",
    "floor_space",
    "floors_with_space",
    "lacks_tower_space",
    "location",
    "locations",
]

KINDS = ("noble", "urchin")


@dataclass
class Batch:
    """Events being decided, with the state they lead to (later steps see earlier ones)."""

    state: GameState
    events: list[Event]

    def add(self, *events: Event) -> None:
        """Record events and move the running state on."""
        for evt in events:
            self.events.append(evt)
            self.state = evolve(self.state, evt)


def locations(state: GameState) -> dict[str, dict[str, Any]]:
    """The edition's location tiles by id (read only: kept by the edition, ``Edition.locations_by_id``)."""
    return state.edition.locations_by_id


def location(state: GameState, loc: str) -> dict[str, Any]:
    """One location tile, or a refusal naming the known ones."""
    info = locations(state).get(loc)
    if info is None:
        raise RuleViolation(
            "unknown_location",
            {"location": loc},
            [Choice("choice.location", {"location": x}) for x in locations(state)],
        )
    return info


def floor_space(state: GameState, pl: PlayerState, floor: int) -> int:
    """Empty spaces on tower ``floor``."""
    per_floor = int(state.edition.section("tower")["spaces_per_floor"])
    return per_floor - len(pl.tower[floor].pieces) if 0 <= floor < len(pl.tower) else 0


def floors_with_space(state: GameState, pl: PlayerState) -> list[int]:
    """Tower floors with at least one empty space, lowest first."""
    return [i for i in range(len(pl.tower)) if floor_space(state, pl, i) > 0]


# The locations whose action puts a piece on an empty space of the tower (RULES.md §3.7).
TOWER_TAKERS = ("market", "palace")


def lacks_tower_space(state: GameState, pl: PlayerState, loc: str) -> bool:
    """True when ``loc``'s action needs an empty tower space and ``pl``'s tower has none: the
    Market's barrel and the Palace's guest go on an empty space (RULES.md §3.7), so a member is
    not sent there (nor a florin paid) for an action that cannot be done."""
    return loc in TOWER_TAKERS and not floors_with_space(state, pl)


def _automatic_action(state: GameState, player: int, loc: str) -> list[Event]:
    """The Haystack, the Banquet and the Bank act at once (RULES.md §3.7)."""
    pl = state.p[player]
    actions = state.edition.section("actions")
    if loc == "haystack":
        return [UrchinJoined(player, loc)] if pl.reserve_urchins > 0 else []
    if loc == "banquet":
        heights = [int(h) for h in state.edition.section("tower")["heights"]]
        return [TowerFloorBuilt(player, heights[len(pl.tower)])] if len(pl.tower) < len(heights) else []
    if loc == "bank":
        florins = int(actions["bank_base"]) + int(actions["bank_per_guest"]) * len(pl.pieces("guest"))
        return [CoinsGained(player, florins, 0, "bank")]
    return []


def decide_send(state: GameState, cmd: SendMember) -> list[Event]:
    """Send a family member from home to a location (seed 000 p.12; RULES.md §4.2.1)."""
    require_turn(state, cmd.player, Phase.FLORENCE)
    info = location(state, cmd.location)
    pl = state.p[cmd.player]
    home = {"noble": pl.home_nobles, "urchin": pl.home_urchins}
    if cmd.kind not in KINDS or home[cmd.kind] == 0:
        raise RuleViolation(
            "no_member_home",
            {"kind": cmd.kind, "nobles": pl.home_nobles, "urchins": pl.home_urchins},
            [Choice("choice.send_kind", {"kind": k}) for k in KINDS if home[k] > 0],
        )
    if lacks_tower_space(state, pl, cmd.location):
        open_here = [loc for loc, q in state.florence.items() if q == state.quarter]
        here = [loc for loc in open_here if not lacks_tower_space(state, pl, loc)]
        raise RuleViolation(
            "no_tower_space",
            {"location": cmd.location},
            [Choice("choice.location", {"location": loc}) for loc in here],
        )
    quarter = state.florence[cmd.location]
    needs_bribe = quarter != state.quarter
    if needs_bribe and not cmd.bribe:
        here = [loc for loc, q in state.florence.items() if q == state.quarter]
        raise RuleViolation(
            "wrong_quarter",
            {
                "location": cmd.location,
                "quarter": quarter,
                "turn_quarter": state.quarter,
                "bribe": state.edition.economy("bribe_any_quarter"),
            },
            [Choice("choice.location", {"location": loc}) for loc in here]
            + [Choice("choice.bribe", {"cost": state.edition.economy("bribe_any_quarter")}, replace(cmd, bribe=True))],
        )
    special = info["kind"] == "special"
    entry = state.edition.economy("special_entry_noble") if special and cmd.kind == "noble" else 0
    if entry and pl.florins < entry:
        raise RuleViolation(
            "needs_florin",
            {"location": cmd.location, "florins": pl.florins, "cost": entry},
            [Choice("choice.send_kind", {"kind": "urchin"})] if pl.home_urchins else [],
        )
    batch = Batch(state, [])
    bribe = state.edition.economy("bribe_any_quarter") if needs_bribe else 0
    batch.add(*loans_to_pay(state, cmd.player, bribe, cmd.borrow, cmd))
    batch.add(MemberSent(cmd.player, cmd.kind, cmd.location, needs_bribe))
    if bribe:
        batch.add(CoinsPaid(cmd.player, 0, bribe, "bribe"))
    if entry:
        batch.add(CoinsPaid(cmd.player, entry, 0, "special_entry"))
    batch.add(*_automatic_action(batch.state, cmd.player, cmd.location))
    return batch.events


def council_options(state: GameState, player: int) -> list[HoldCouncil]:
    """Every way the family council can bring something back (RULES.md §4.2.3)."""
    pl = state.p[player]
    options: list[HoldCouncil] = []
    for kind in KINDS:
        if pl.floor_of(kind) is not None:
            options.append(HoldCouncil(player, "member", "tower", kind))
    for loc, kind in dict.fromkeys(pl.placed):
        options.append(HoldCouncil(player, "member", loc, kind))
    options += [HoldCouncil(player, "guest", colour=p.colour) for p in pl.pieces("guest")]
    options += [HoldCouncil(player, "barrel", colour=p.colour) for p in pl.pieces("barrel")]
    return options or [HoldCouncil(player, "none")]


def decide_council(state: GameState, cmd: HoldCouncil, accusations_possible: bool) -> list[Event]:
    """The family council: only when no member can be sent and no accusation is possible."""
    require_turn(state, cmd.player, Phase.FLORENCE)
    pl = state.p[cmd.player]
    if pl.at_home > 0 or accusations_possible:
        raise RuleViolation(
            "council_not_forced",
            {"at_home": pl.at_home},
        )
    options = council_options(state, cmd.player)
    if cmd not in options:
        raise RuleViolation(
            "council_choice",
            {"choice": cmd.choice},
            [
                Choice(
                    "choice.council", {"choice": o.choice, "source": o.source, "kind": o.kind, "colour": o.colour}, o
                )
                for o in options
            ],
        )
    events: list[Event] = [
        CouncilHeld(cmd.player),
        InfamyChanged(cmd.player, -state.edition.economy("council_infamy"), "council"),
    ]
    match cmd.choice:
        case "member":
            floor = pl.floor_of(cmd.kind) if cmd.source == "tower" else -1
            events.append(MemberWentHome(cmd.player, cmd.kind, cmd.source, -1 if floor is None else floor))
        case "guest":
            events.append(GuestReturned(cmd.player, cmd.colour, pl.floor_of("guest", cmd.colour) or 0))
        case "barrel":
            events.append(BarrelReturned(cmd.player, cmd.colour, pl.floor_of("barrel", cmd.colour) or 0))
    return events


def next_state(state: GameState, events: list[Event]) -> GameState:
    """The state after ``events``."""
    for evt in events:
        state = evolve(state, evt)
    return state
