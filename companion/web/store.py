"""One store connection per request, kept on ``g`` and closed at teardown (flaskr style)."""

from __future__ import annotations

from flask import Flask, current_app, g, request

from companion.service import GameService
from events.store import EventStore, connect

__all__ = ["close_store", "open_store", "service"]


def open_store(app: Flask) -> EventStore:
    """A new store connection for ``app``'s database."""
    return EventStore(connect(app.config["DATABASE"]))


def service() -> GameService:
    """The game service of this request (one per request; it records which seat sent each action)."""
    if "service" in g:
        svc: GameService = g.service
        return svc
    if "store" not in g:
        g.store = open_store(current_app)
    svc = GameService(g.store, current_app.extensions["companion.editions"])
    game_id = (request.view_args or {}).get("game_id") if request else None
    if game_id:
        from companion.web.seats import actor_label

        svc.default_actor = actor_label(game_id)
    g.service = svc
    return svc


def close_store(_exc: BaseException | None = None) -> None:
    """Close this request's connection, if one was opened."""
    g.pop("service", None)
    store = g.pop("store", None)
    if store is not None:
        store.close()
