"""The location actions after a family member is placed (RULES.md §3.7).

Free locations: the Haystack (an urchin joins), the Banquet (the next tower floor) and the
Bank (2 florins + 1 per guest) act at once when the member arrives (``florence``). The
Courtyard offers up to two effects (members home from the tower; rearrange the tower); the
Bonfire up to three (up to 3 florins to drachmas; a cube right OR a disc on a Wall gate;
1 drachma for a guardian OR 2 for the Styx); the Wall up to three (up to 2 florins; 2
drachmas for a fraud card; deliver a barrel for infamy). The Market and the Palace add a
barrel or a guest to an empty tower space, never two of one colour; the Palace pays florins
equal to that floor's height. Each effect is used at most once per visit.
"""

from __future__ import annotations

from companion.game.commands import (
    DeliverBarrel,
    ExchangeFlorins,
    MoveInTower,
    PlaceDisc,
    PlayFraud,
    RaiseCube,
    ReturnFromTower,
    TakeBarrel,
    TakeGuest,
    UseGuardian,
    UseStyx,
)
from companion.game.errors import Choice, RuleViolation
from companion.game.rules.florence import floor_space, floors_with_space
from companion.game.rules.fraud import fraud_events
from companion.game.rules.guardians import guardian_events
from companion.game.rules.guards import require_turn
from companion.game.rules.styx import styx_events
from companion.game.state import Floor, GameState, Phase, Piece
from events.catalog import (
    BarrelDelivered,
    BarrelTaken,
    CoinsGained,
    CubeMoved,
    DiscPlaced,
    Event,
    FlorinsExchanged,
    GuestTaken,
    InfamyChanged,
    MemberWentHome,
    OptionTaken,
    PieceMoved,
)

__all__ = ["OPTIONS", "decide_location"]

# The optional effects of each location, and which command uses each one.
OPTIONS: dict[str, tuple[str, ...]] = {
    "courtyard": ("home", "rearrange"),
    "bonfire": ("exchange", "passage", "underworld"),
    "wall": ("exchange", "fraud", "deliver"),
    "market": ("take",),
    "palace": ("take",),
}

LocationCommand = (
    ExchangeFlorins
    | RaiseCube
    | PlaceDisc
    | DeliverBarrel
    | TakeBarrel
    | TakeGuest
    | ReturnFromTower
    | MoveInTower
    | UseGuardian
    | UseStyx
    | PlayFraud
)


def _option_of(cmd: LocationCommand) -> tuple[tuple[str, ...], str]:
    match cmd:
        case ExchangeFlorins():
            return ("bonfire", "wall"), "exchange"
        case RaiseCube() | PlaceDisc():
            return ("bonfire",), "passage"
        case UseGuardian() | UseStyx():
            return ("bonfire",), "underworld"
        case PlayFraud():
            return ("wall",), "fraud"
        case DeliverBarrel():
            return ("wall",), "deliver"
        case TakeBarrel():
            return ("market",), "take"
        case TakeGuest():
            return ("palace",), "take"
        case ReturnFromTower():
            return ("courtyard",), "home"
        case MoveInTower():
            return ("courtyard",), "rearrange"
    raise RuleViolation("unknown_command", {})


def _space(state: GameState, player: int, floor: int) -> None:
    pl = state.p[player]
    if floor_space(state, pl, floor) == 0:
        raise RuleViolation(
            "floor_full",
            {"floor": floor},
            [Choice("choice.floor", {"floor": f}) for f in floors_with_space(state, pl)],
        )


def decide_location(state: GameState, cmd: LocationCommand) -> list[Event]:
    """One optional effect of the location where the player's member was just placed."""
    require_turn(state, cmd.player, Phase.ACTION)
    places, option = _option_of(cmd)
    here = state.action or ""
    if here not in places:
        offered = OPTIONS.get(here, ())
        raise RuleViolation(
            "not_at_this_location",
            {"location": here, "wanted": list(places), "option": option},
            [Choice("choice.option", {"option": o}) for o in offered if o not in state.used],
        )
    repeatable = option == "rearrange"
    if option in state.used and not repeatable:
        raise RuleViolation(
            "option_used",
            {"location": here, "option": option},
            [Choice("choice.option", {"option": o}) for o in OPTIONS[here] if o not in state.used],
        )
    head: list[Event] = [] if option in state.used else [OptionTaken(cmd.player, here, option)]
    return head + _effect(state, cmd, here)


def _effect(state: GameState, cmd: LocationCommand, here: str) -> list[Event]:
    pl = state.p[cmd.player]
    match cmd:
        case ExchangeFlorins():
            return _exchange(state, cmd, here)
        case RaiseCube():
            return _raise_cube(state, cmd)
        case PlaceDisc():
            return _place_disc(state, cmd)
        case DeliverBarrel():
            return _deliver_barrel(state, cmd)
        case TakeBarrel(colour=colour, floor=floor):
            if colour not in pl.market_barrels:
                raise RuleViolation(
                    "barrel_not_in_market",
                    {"colour": colour},
                    [Choice("choice.barrel", {"colour": c}) for c in sorted(pl.market_barrels)],
                )
            _space(state, cmd.player, floor)
            return [BarrelTaken(cmd.player, colour, floor)]
        case TakeGuest(colour=colour, floor=floor):
            if colour not in pl.palace_guests:
                raise RuleViolation(
                    "guest_not_in_palace",
                    {"colour": colour},
                    [Choice("choice.guest", {"colour": c}) for c in sorted(pl.palace_guests)],
                )
            _space(state, cmd.player, floor)
            height = pl.tower[floor].height
            return [GuestTaken(cmd.player, colour, floor), CoinsGained(cmd.player, height, 0, "palace")]
        case ReturnFromTower():
            return _return_home(state, cmd)
        case MoveInTower(kind=kind, colour=colour, from_floor=a, to_floor=b):
            if not (0 <= a < len(pl.tower)) or not any(
                p.kind == kind and p.colour == colour for p in pl.tower[a].pieces
            ):
                raise RuleViolation("no_piece_there", {"floor": a, "kind": kind})
            if a == b:
                raise RuleViolation("same_floor", {"floor": a})
            _space(state, cmd.player, b)
            return [PieceMoved(cmd.player, kind, colour, a, b)]
        case UseGuardian(use=use, borrow=borrow):
            return guardian_events(
                state, cmd.player, use, state.edition.economy("guardian_use"), "bonfire", borrow, cmd
            )
        case UseStyx():
            return styx_events(state, cmd)
        case PlayFraud(play=play, borrow=borrow):
            return fraud_events(state, cmd.player, play, state.edition.economy("fraud_at_wall"), borrow, cmd)
    raise RuleViolation("unknown_command", {})


def _exchange(state: GameState, cmd: ExchangeFlorins, here: str) -> list[Event]:
    """Florins for drachmas, at most the location's limit and the florins the player has."""
    pl = state.p[cmd.player]
    actions = state.edition.section("actions")
    limit = int(actions["bonfire_exchange_max" if here == "bonfire" else "wall_exchange_max"])
    n = cmd.florins
    if not 1 <= n <= min(limit, pl.florins):
        raise RuleViolation(
            "out_of_range",
            {"field": "florins", "value": n, "min": 1, "max": min(limit, pl.florins)},
        )
    return [FlorinsExchanged(cmd.player, n, n * state.edition.economy("florin_to_drachma"))]


def _raise_cube(state: GameState, cmd: RaiseCube) -> list[Event]:
    """A Phlegethon cube one space right, unless it is at the end."""
    circle = cmd.circle
    last = len(state.edition.section("phlegethon")["scale"]) - 1
    if circle not in state.phlegethon:
        raise RuleViolation("unknown_colour", {"colours": [circle]})
    if state.phlegethon[circle] >= last:
        raise RuleViolation(
            "cube_at_end",
            {"circle": circle},
            [Choice("choice.cube", {"circle": c}) for c, s in state.phlegethon.items() if s < last],
        )
    return [CubeMoved(cmd.player, circle, state.phlegethon[circle] + 1, "bonfire")]


def _place_disc(state: GameState, cmd: PlaceDisc) -> list[Event]:
    """One of the player's discs on a free gate of the Wall."""
    pl, gate = state.p[cmd.player], cmd.gate
    free = [g for g in state.side.gates if g not in pl.discs]
    if len(pl.discs) >= int(state.edition.section("discs")["per_player"]):
        raise RuleViolation("no_disc_left", {"placed": len(pl.discs)})
    if gate not in state.side.gates:
        raise RuleViolation("unknown_gate", {"gate": gate}, [Choice("choice.gate", {"gate": g}) for g in free])
    if gate not in free:
        raise RuleViolation("gate_taken", {"gate": gate}, [Choice("choice.gate", {"gate": g}) for g in free])
    return [DiscPlaced(cmd.player, gate)]


def _deliver_barrel(state: GameState, cmd: DeliverBarrel) -> list[Event]:
    """A barrel from the tower delivered, for the infamy the edition's table gives the player's next delivery."""
    pl, colour = state.p[cmd.player], cmd.colour
    floor = pl.floor_of("barrel", colour)
    if floor is None:
        raise RuleViolation(
            "no_such_barrel",
            {"colour": colour},
            [Choice("choice.barrel", {"colour": p.colour}) for p in pl.pieces("barrel")],
        )
    table = [int(v) for v in state.edition.section("actions")["barrel_delivery_infamy"]]
    infamy = table[min(len(pl.barrels_delivered), len(table) - 1)]
    return [BarrelDelivered(cmd.player, colour, floor), InfamyChanged(cmd.player, infamy, "barrel")]


def _return_home(state: GameState, cmd: ReturnFromTower) -> list[Event]:
    """Family members from the tower's floors back home, at most the courtyard's limit."""
    floors, kinds = cmd.floors, cmd.kinds
    limit = int(state.edition.section("actions")["courtyard_members_home"])
    if not 1 <= len(floors) <= limit or len(floors) != len(kinds):
        raise RuleViolation("out_of_range", {"field": "members", "value": len(floors), "min": 1, "max": limit})
    tower = list(state.p[cmd.player].tower)
    events: list[Event] = []
    for floor, kind in zip(floors, kinds, strict=True):
        pieces = list(tower[floor].pieces) if 0 <= floor < len(tower) else []
        if kind not in ("noble", "urchin") or not any(p.kind == kind for p in pieces):
            raise RuleViolation("no_member_on_floor", {"floor": floor, "kind": kind})
        pieces.remove(Piece(kind))
        tower[floor] = Floor(tower[floor].height, tuple(pieces))
        events.append(MemberWentHome(cmd.player, kind, "tower", floor))
    return events
