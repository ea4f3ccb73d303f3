"""This phone, as the app knows it: a signed session cookie holding a stable random id (what its drafts
and saved editions belong to), the seat it took in each game, the games it remembers, and the edition
it chose last. Nothing here is listed publicly.

Seats: in ``shared`` mode any phone acts for the active player. In ``seats`` mode a phone acts only
for the player whose seat it took; undo and redo stay open to every seated phone. There a phone
without a seat is asked "Who are you?" (``seat_prompt``), a seat another open phone holds is said so
before it is taken (``live.notifier.held_elsewhere``, from who is live at the table), and a phone whose player is
not the active one waits (``waiting_for``). Viewer links (``/v/<read token>``) never reach a form.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator

from flask import session

from companion.game.edition import Edition, EditionError
from companion.game.state import GameState
from companion.service import AnyView, GameService
from companion.web.http.db import service
from companion.web.http.seats import actor_label, seat_of, set_seat

__all__ = [
    "SeatRefused",
    "actor_label",
    "check_seat",
    "chosen_edition",
    "phone_id",
    "remember_edition",
    "remember_game",
    "remembered_views",
    "seat_of",
    "seat_prompt",
    "set_seat",
    "waiting_for",
]


class SeatRefused(Exception):
    """A phone tried to act for a player whose seat it did not take."""

    def __init__(self, seat: int | None, player: int) -> None:
        super().__init__(f"seat {seat} may not act for player {player}")
        self.seat = seat
        self.player = player


def phone_id() -> str:
    """This phone's stable random id, made on its first visit and held in its signed cookie: the owner
    of its drafts and saved editions (never shown to anyone)."""
    found = session.get("phone")
    if isinstance(found, str) and len(found) >= 16:
        return found
    made = secrets.token_urlsafe(16)
    session["phone"] = made
    session.permanent = True
    return made


def check_seat(state: GameState, game_id: str, player: int | None) -> None:
    """Refuse an action for ``player`` from a phone that sits elsewhere (seats mode only)."""
    if state.table_mode != "seats":
        return
    seat = seat_of(game_id)
    if seat is None or (player is not None and seat != player):
        raise SeatRefused(seat, -1 if player is None else player)


def seat_prompt(state: GameState, game_id: str) -> bool:
    """Whether this phone must be asked "Who are you?" (seats mode, no seat taken, game not over)."""
    return state.table_mode == "seats" and state.ended is None and seat_of(game_id) is None


def waiting_for(state: GameState, game_id: str) -> int | None:
    """The active player this phone waits for: in seats mode, when its own seat is not the active one."""
    seat = seat_of(game_id)
    if state.table_mode != "seats" or state.ended is not None or seat is None or seat == state.active:
        return None
    return state.active


REMEMBERED = 12  # games a phone keeps in its list


def remember_game(game_id: str) -> None:
    """Keep a game in this phone's list (a signed cookie; games are never listed publicly)."""
    known = session.get("games", [])
    if known[:1] == [game_id]:
        return  # unchanged: the cookie is not written again (a live refresh must never overwrite a seat just taken)
    games = [g for g in known if g != game_id]
    session["games"] = [game_id, *games][:REMEMBERED]


def remembered_views() -> Iterator[AnyView]:
    """The games and quick tallies this phone remembers, newest first (gone ones skipped)."""
    svc = service()
    for game_id in session.get("games", []):
        try:
            yield svc.view(game_id)
        except LookupError:
            continue


def remember_edition(content_hash: str) -> None:
    """This phone's edition for its next new game (held in its signed cookie)."""
    session["edition"] = content_hash


def chosen_edition(svc: GameService, form_value: str | None) -> Edition:
    """The edition picked on the new-game form, else this phone's last one, else the shipped one: only an
    edition this phone may choose (shipped, the server's, its own, published)."""
    allowed = {h for h, _ in svc.library.edition_choices(phone_id())}
    for candidate in (form_value, session.get("edition")):
        if candidate and candidate in allowed:
            try:
                edition = svc.library.edition_by_hash(str(candidate))
            except (LookupError, EditionError):
                continue
            remember_edition(edition.content_hash)
            return edition
    return svc.library.edition(next(iter(svc.library.shipped)))
