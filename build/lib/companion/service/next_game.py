"""Play again: a new game for the same table (same players, seats, edition and expansion; the first
player rotated), announced in the old game's log so every open phone is offered it live."""

from __future__ import annotations

import hmac

from companion.formats.bgstats import opaque_id
from companion.game.commands import CreateGame, StartNextGame
from companion.game.state import GameState
from companion.service import GameService, GameView
from events.catalog import GameCreated, NextGameCreated, SeatSetup

__all__ = ["link_proof", "next_game_token", "rotated_seat", "start_next_game"]


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


def _next_command(service: GameService, view: GameView, state: GameState) -> tuple[CreateGame, str]:
    created = next(e for e in view.timeline.effective_events() if isinstance(e, GameCreated))
    seats = [SeatSetup(p.name, p.colour) for p in state.players]
    edition_id = view.edition.id if view.edition.id in service.editions else next(iter(service.editions))
    edition = service.edition(edition_id)
    souls = edition.section("souls")
    plague = tuple(service.rng.randint(1, 9) for _ in range(int(souls["plague_card_souls"])))
    command = CreateGame(
        players=tuple(seats[1:] + seats[:1]),
        expansion=state.expansion,
        plague_card=plague,
        florence=service.deal_florence(edition) if created.florence else (),
        table_mode=state.table_mode,
    )
    return command, edition_id


def start_next_game(secret: str, service: GameService, view: GameView, key: str, actor: str | None = None) -> str:
    """Create the next game (once per ``key``) and record it in this game's log; its id."""
    state = view.state
    assert isinstance(state, GameState)
    command, edition_id = _next_command(service, view, state)
    game_id = service.create_game(command, f"{key}-game", edition_id, actor)
    token = service.view(game_id).read_token
    proof = link_proof(secret, view.game_id, token)
    service.execute(view.game_id, view.seq, StartNextGame(token, proof), f"{key}-link", actor)
    return game_id
