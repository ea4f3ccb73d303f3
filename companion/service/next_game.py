"""Play again: a new game for the same table (same players, seats, edition and expansion; the first
player rotated; the first plague card the table turned over), announced in the old game's log so
every open phone is offered it live."""

from __future__ import annotations

import hmac
import time

from companion.formats.bgstats import opaque_id
from companion.game.commands import CreateGame, StartNextGame
from companion.game.state import GameState
from companion.log_view import GameView, is_game
from companion.service.games import Conflict, GameService
from events.catalog import GameCreated, NextGameCreated, SeatSetup
from events.store import KeyReused

__all__ = ["link_proof", "next_edition_id", "next_game_key", "next_game_token", "rotated_seat", "start_next_game"]


def link_proof(secret: str, game_id: str, read_token: str) -> str:
    """The app's signature that ``read_token``'s game follows ``game_id``: keyed with ``secret``, the
    app's secret key, so no one without the key makes one."""
    return opaque_id(secret, "next-game", f"{game_id}>{read_token}")


def next_game_token(secret: str, view: GameView) -> str | None:
    """The read-only token of the game this table started after this one (the latest in effect,
    and only when the app itself recorded it for this game)."""
    token = None
    for event in view.timeline.effective_events():
        if isinstance(event, NextGameCreated) and hmac.compare_digest(
            event.proof, link_proof(secret, view.game_id, event.read_token)
        ):
            token = event.read_token
    return token


def rotated_seat(seat: int | None, players: int) -> int | None:
    """Where a seat sits in the next game, whose turn order starts one player later."""
    return None if seat is None or players == 0 else (seat - 1) % players


def next_game_key(secret: str, game_id: str) -> str:
    """The one creation key of the game that follows ``game_id``: every tap of "Same table, new game"
    sends the same, so taps at once create one game (keyed with the app's secret: no one else can
    claim it first)."""
    return opaque_id(secret, "next-game-key", game_id)


def next_edition_id(service: GameService, view: GameView) -> str:
    """The edition the next game plays by: this game's, or the first shipped one if it is gone."""
    shipped = service.library.shipped
    return view.edition.id if view.edition.id in shipped else next(iter(shipped))


def _next_command(
    service: GameService, view: GameView, state: GameState, key: str, plague: tuple[int, ...]
) -> tuple[CreateGame, str]:
    """The next game's set-up with the plague card the table turned over; its Florence layout follows
    from ``key`` (the same for every tap)."""
    created = next(e for e in view.timeline.effective_events() if isinstance(e, GameCreated))
    seats = [SeatSetup(p.name, p.colour) for p in state.players]
    edition_id = next_edition_id(service, view)
    edition = service.library.edition(edition_id)
    command = CreateGame(
        players=tuple(seats[1:] + seats[:1]),
        expansion=state.expansion,
        plague_card=plague,
        florence=service.deal_florence(edition, key) if created.florence else (),
        table_mode=state.table_mode,
    )
    return command, edition_id


def _linked_game(secret: str, service: GameService, game_id: str) -> str | None:
    """The next game this game's log names now, if any (read fresh from the store)."""
    fresh = service.view(game_id)
    token = next_game_token(secret, fresh) if is_game(fresh) else None
    return service.game_for_read_token(token) if token else None


def start_next_game(
    secret: str,
    service: GameService,
    view: GameView,
    key: str,
    plague: tuple[int, ...],
    actor: str | None = None,
    new_actor: str | None = None,
) -> str:
    """Create the next game with the first plague card ``plague`` and record it in this game's log; its
    id. ``actor`` is who tapped as this game's log names them, ``new_actor`` the same phone in the next
    game (its seats are rotated), whose first entry names it.

    One finished game has at most one next game: taps at once share its creation key (so one game is
    created) and the one link, and a tap that finds the link recorded meanwhile joins the game it
    names. A tap whose plague card differs from the one a tap at once already created the game with
    waits briefly for that link and joins it. ``key`` (the tap's own) serves only when the shared key's
    retry window has passed without a link."""
    state = view.state
    assert isinstance(state, GameState)
    shared = next_game_key(secret, view.game_id)
    command, edition_id = _next_command(service, view, state, shared, plague)
    try:
        game_id = service.create_game(command, f"{shared}-game", edition_id, new_actor)
    except KeyReused:
        for _ in range(10):  # a tap at once holds the shared key: its link follows within moments
            linked = _linked_game(secret, service, view.game_id)
            if linked is not None:
                return linked
            time.sleep(0.05)
        shared = key
        command, edition_id = _next_command(service, view, state, key, plague)
        game_id = service.create_game(command, f"{key}-game", edition_id, new_actor)
    token = service.view(game_id).read_token
    proof = link_proof(secret, view.game_id, token)
    seq = view.seq
    for _ in range(5):
        try:
            service.execute(view.game_id, seq, StartNextGame(token, proof), f"{shared}-link", actor)
            return game_id
        except Conflict as exc:  # another tap (or an entry) moved the log on: join the game it linked, if any
            seq = exc.view.seq
            linked = next_game_token(secret, exc.view) if is_game(exc.view) else None
            if linked is not None:
                return service.game_for_read_token(linked) or game_id
        except KeyReused:  # the link's key already names another game: join the game the log names
            return _linked_game(secret, service, view.game_id) or game_id
    raise Conflict(view, seq)
