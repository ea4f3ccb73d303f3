"""The map of an edition's board with nothing on it, drawn by the game's own map component."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.game.edition import Edition
from companion.game.legal import turn_options
from companion.game.projection import initial_state
from companion.game.state import GameState
from companion.web.screens.hell_map import HellMap, build_map
from events.catalog import GameCreated, SeatSetup

__all__ = ["PreviewView", "preview_context"]


@dataclass(frozen=True)
class PreviewView:
    """Stands in for a game's view in the map template: no game, nothing to tap."""

    game_id: str = "preview"
    seq: int = 0


def empty_board(edition: Edition, side_id: str) -> GameState:
    """A table with no soul and no guardian on the given board side."""
    side = edition.sides[side_id]
    colours = list(edition.colours)
    seats = tuple(SeatSetup(f"P{i + 1}", colours[i % len(colours)]) for i in range(max(side.players)))
    created = GameCreated(edition.id, edition.content_hash, seats, side_id, False, (), (), (), ())
    return initial_state(edition, created)


def preview_context(edition: Edition, side_id: str) -> dict[str, Any]:
    """What ``screens/hell_board.html`` and ``screens/hell_map.html`` need to draw the edition's board, read-only."""
    state = empty_board(edition, side_id)
    hell_map: HellMap = build_map(state, turn_options(state), None, {}, interactive=False)
    return {"hell_map": hell_map, "state": state, "view": PreviewView(), "ferry": None, "new_key": lambda: ""}
