"""One store connection per request, kept on ``g`` and closed at teardown (flaskr style)."""

from __future__ import annotations

from flask import Flask, current_app, g

from companion.service import GameService
from events.store import EventStore, connect

__all__ = ["close_store", "open_store", "service"]


def open_store(app: Flask) -> EventStore:
    """A new store connection for ``app``'s database."""
    return EventStore(connect(app.config["DATABASE"]))


def service() -> GameService:
    """The game service for this request."""
    if "store" not in g:
        g.store = open_store(current_app)
    return GameService(g.store, current_app.extensions["companion.editions"])


def close_store(_exc: BaseException | None = None) -> None:
    """Close this request's connection, if one was opened."""
    store = g.pop("store", None)
    if store is not None:
        store.close()
