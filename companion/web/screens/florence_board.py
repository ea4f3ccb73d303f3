"""Florence as the templates draw it: quarters, location tiles, who stands where, and what an
accusation about to be made will do. No rules here: legality comes from ``legal`` and
``rules.accusation``."""

from __future__ import annotations

from dataclasses import dataclass

from companion.game.rules.accusation import dante_path, dante_step
from companion.game.rules.florence import floors_with_space, locations
from companion.game.state import GameState
from companion.service.caches import Lru
from events.catalog import Reward

__all__ = ["AccusePrep", "LocationTile", "accuse_prep", "florence_board"]


@dataclass(frozen=True)
class LocationTile:
    """One location tile on the board, with the pieces standing there."""

    id: str
    circle: int
    special: bool
    quarter: str
    pieces: tuple[tuple[int, str], ...]  # (player, kind)


@dataclass(frozen=True)
class AccusePrep:
    """What the accusation form needs to show and ask."""

    location: str
    circle: int
    special: bool
    members: tuple[str, ...]
    floors: tuple[int, ...]
    bonus: Reward | None  # the track's known bonus tile
    dante_kind: str | None
    dante_circle: int
    others_home: tuple[tuple[str, str], ...]
    skull_to: int
    needs_bribe: bool


def florence_board(state: GameState) -> tuple[tuple[str, tuple[LocationTile, ...]], ...]:
    """The four quarters, each with its two location tiles (free first); worked out once for each layout and the
    family members standing in Florence (every answer asks for it, most taps move no one there)."""
    key = (state.edition.content_hash, tuple(state.florence.items()), tuple(p.placed for p in state.p))
    held = _BOARDS.get(key)
    if held is None:
        held = _BOARDS.put(key, _board(state))
    return held


_BOARDS: Lru[tuple[object, ...], tuple[tuple[str, tuple[LocationTile, ...]], ...]] = Lru(512)


def _board(state: GameState) -> tuple[tuple[str, tuple[LocationTile, ...]], ...]:
    info = locations(state)
    board: list[tuple[str, tuple[LocationTile, ...]]] = []
    for quarter in state.edition.quarters:
        tiles = []
        for loc, q in state.florence.items():
            if q != quarter:
                continue
            pieces = tuple((i, kind) for i, p in enumerate(state.p) for where, kind in p.placed if where == loc)
            tiles.append(LocationTile(loc, int(info[loc]["circle"]), info[loc]["kind"] == "special", q, pieces))
        tiles.sort(key=lambda t: t.special)
        board.append((quarter, tuple(tiles)))
    return tuple(board)


def accuse_prep(state: GameState, player: int, loc: str) -> AccusePrep | None:
    """The preview of an accusation at ``loc`` (None when the player has no member there)."""
    pl = state.p[player]
    members = pl.members_at(loc)
    info = locations(state).get(loc)
    if not members or info is None:
        return None
    circle = int(info["circle"])
    special = info["kind"] == "special"
    floors = (pl.floor_of("guest", circle),) if special else tuple(floors_with_space(state, pl))
    position = state.dante + 1
    kind: str | None = None
    dante_circle = 0
    if position < len(dante_path(state)):
        step = dante_step(state, position)
        kind = str(step["kind"])
        circle_of_step = step.get("circle", 0)
        dante_circle = int(circle_of_step) if isinstance(circle_of_step, int | str) else 0
    accuser = "noble" if "noble" in members else "urchin"
    others = list(pl.placed)
    others.remove((loc, accuser))
    return AccusePrep(
        location=loc,
        circle=circle,
        special=special,
        members=tuple(dict.fromkeys(members)),
        floors=tuple(f for f in floors if f is not None),
        bonus=state.bonus_tiles.get(circle),
        dante_kind=kind,
        dante_circle=dante_circle,
        others_home=tuple(others),
        skull_to=min(pl.skull(circle) + 1, state.edition.track_length),
        needs_bribe=state.florence[loc] != state.quarter,
    )
