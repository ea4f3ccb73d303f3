"""Applying Florence's events: family members, towers, accusations, Dante, the end trigger.

Part of ``projection.evolve`` (split out by concept); like it, it holds no rules and never
rejects an event.
"""

from __future__ import annotations

from dataclasses import replace

from companion.game.state import GameState, Phase, Piece, tower_with, tower_without, without_one
from events.catalog import (
    AccusationMade,
    AccuserToTower,
    BarrelDelivered,
    BarrelReturned,
    BarrelTaken,
    BonusTileRevealed,
    CouncilHeld,
    DanteMoved,
    EndTriggered,
    Event,
    GuestReturned,
    GuestTaken,
    MemberSent,
    MemberWentHome,
    OptionTaken,
    PieceMoved,
    SoulAddedToCemetery,
    SupplyExhausted,
    TowerFloorBuilt,
    UrchinJoined,
)

__all__ = ["FLORENCE_EVENTS", "evolve_florence"]

FLORENCE_EVENTS = (
    MemberSent,
    OptionTaken,
    UrchinJoined,
    TowerFloorBuilt,
    MemberWentHome,
    PieceMoved,
    BarrelTaken,
    GuestTaken,
    BarrelDelivered,
    GuestReturned,
    BarrelReturned,
    CouncilHeld,
    AccusationMade,
    AccuserToTower,
    SoulAddedToCemetery,
    SupplyExhausted,
    BonusTileRevealed,
    DanteMoved,
    EndTriggered,
)


def _home(state: GameState, p: int, kind: str, delta: int) -> GameState:
    pl = state.p[p]
    if kind == "noble":
        return state.with_player(p, home_nobles=pl.home_nobles + delta)
    return state.with_player(p, home_urchins=pl.home_urchins + delta)


def evolve_florence(state: GameState, event: Event) -> GameState:
    """Apply one Florence event."""
    match event:
        case MemberSent(player=p, kind=kind, location=loc):
            state = _home(state, p, kind, -1)
            state = state.with_player(p, placed=(*state.p[p].placed, (loc, kind)))
            return replace(state, phase=Phase.ACTION, action=loc, used=frozenset())
        case OptionTaken(option=option):
            return replace(state, used=state.used | {option})
        case UrchinJoined(player=p, location=loc):
            pl = state.p[p]
            state = state.with_player(p, reserve_urchins=pl.reserve_urchins - 1)
            if loc == "home":
                return _home(state, p, "urchin", 1)
            return state.with_player(p, placed=(*state.p[p].placed, (loc, "urchin")))
        case TowerFloorBuilt(player=p, height=height):
            from companion.game.state import Floor

            return state.with_player(p, tower=(*state.p[p].tower, Floor(height)))
        case MemberWentHome(player=p, kind=kind, source=source, floor=floor):
            pl = state.p[p]
            if source == "tower":
                state = state.with_player(p, tower=tower_without(pl.tower, floor, kind))
            else:
                state = state.with_player(p, placed=without_one(pl.placed, source, kind))
            return _home(state, p, kind, 1)
        case PieceMoved(player=p, kind=kind, colour=colour, from_floor=a, to_floor=b):
            tower = tower_without(state.p[p].tower, a, kind, colour)
            return state.with_player(p, tower=tower_with(tower, b, Piece(kind, colour)))
        case BarrelTaken(player=p, colour=colour, floor=floor):
            pl = state.p[p]
            return state.with_player(
                p,
                tower=tower_with(pl.tower, floor, Piece("barrel", colour)),
                market_barrels=pl.market_barrels - {colour},
            )
        case GuestTaken(player=p, colour=colour, floor=floor):
            pl = state.p[p]
            return state.with_player(
                p, tower=tower_with(pl.tower, floor, Piece("guest", colour)), palace_guests=pl.palace_guests - {colour}
            )
        case BarrelDelivered(player=p, colour=colour, floor=floor):
            pl = state.p[p]
            return state.with_player(
                p,
                tower=tower_without(pl.tower, floor, "barrel", colour),
                barrels_delivered=pl.barrels_delivered | {colour},
            )
        case GuestReturned(player=p, colour=colour, floor=floor):
            pl = state.p[p]
            return state.with_player(
                p, tower=tower_without(pl.tower, floor, "guest", colour), palace_guests=pl.palace_guests | {colour}
            )
        case BarrelReturned(player=p, colour=colour, floor=floor):
            pl = state.p[p]
            return state.with_player(
                p, tower=tower_without(pl.tower, floor, "barrel", colour), market_barrels=pl.market_barrels | {colour}
            )
        case CouncilHeld():
            return replace(state, phase=Phase.DONE, action=None)
        case AccusationMade():
            return replace(state, phase=Phase.DONE, action=None)
        case AccuserToTower(player=p, location=loc, kind=kind, floor=floor):
            pl = state.p[p]
            return state.with_player(
                p, placed=without_one(pl.placed, loc, kind), tower=tower_with(pl.tower, floor, Piece(kind))
            )
        case SoulAddedToCemetery(colour=colour):
            cemetery = {**state.cemetery, colour: state.cemetery.get(colour, 0) + 1}
            supply = {**state.supply, colour: state.supply.get(colour, 0) - 1}
            return replace(state, cemetery=cemetery, supply={c: n for c, n in supply.items() if n > 0})
        case SupplyExhausted():
            return state
        case BonusTileRevealed(track=track, reward=reward):
            return replace(state, bonus_tiles={**state.bonus_tiles, track: reward})
        case DanteMoved(position=position):
            return replace(state, dante=position)
        case EndTriggered(player=p):
            return replace(state, end_trigger=p, final_turns_left=len(state.players) - 1)
    raise ValueError(f"not a Florence event: {type(event).__name__}")
