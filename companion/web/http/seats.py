"""Seats: which player a phone sits for (kept in its signed session cookie), and who may act.

In ``shared`` mode any phone acts for the active player. In ``seats`` mode a phone acts only
for the player whose seat it took; undo and redo stay open to every seated phone. Viewer
links (``/v/<read token>``) never reach a form at all.
"""

from __future__ import annotations

from flask import session

from companion.game.state import GameState

__all__ = ["SeatRefused", "actor_label", "check_seat", "seat_of", "set_seat"]


class SeatRefused(Exception):
    """A phone tried to act for a player whose seat it did not take."""

    def __init__(self, seat: int | None, player: int) -> None:
        super().__init__(f"seat {seat} may not act for player {player}")
        self.seat = seat
        self.player = player


def seat_of(game_id: str) -> int | None:
    """The seat this phone took in ``game_id`` (None when it took none)."""
    seat = session.get("seats", {}).get(game_id)
    return seat if isinstance(seat, int) else None


def set_seat(game_id: str, seat: int | None) -> None:
    """Sit this phone at ``seat`` (None: leave the seat)."""
    seats = dict(session.get("seats", {}))
    if seat is None:
        seats.pop(game_id, None)
    else:
        seats[game_id] = seat
    session["seats"] = dict(list(seats.items())[-20:])


def check_seat(state: GameState, game_id: str, player: int | None) -> None:
    """Refuse an action for ``player`` from a phone that sits elsewhere (seats mode only)."""
    if state.table_mode != "seats":
        return
    seat = seat_of(game_id)
    if seat is None or (player is not None and seat != player):
        raise SeatRefused(seat, -1 if player is None else player)


def actor_label(game_id: str) -> str:
    """How the log records who sent an action: ``seat:N`` or ``shared``."""
    seat = seat_of(game_id)
    return "shared" if seat is None else f"seat:{seat}"
