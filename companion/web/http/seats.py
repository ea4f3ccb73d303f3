"""The seat this phone took in each game, as its signed session cookie holds it, and how the log names who acted."""

from __future__ import annotations

from flask import session

__all__ = ["actor_label", "seat_of", "set_seat"]


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


def actor_label(game_id: str) -> str:
    """How the log records who sent an action: ``seat:N`` or ``shared``."""
    seat = seat_of(game_id)
    return "shared" if seat is None else f"seat:{seat}"
