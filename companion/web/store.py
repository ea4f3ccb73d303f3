"""One store connection per request, kept on ``g`` and given back at teardown; the rebuilt games
are shared by every request of the process through the app's ``ViewCache``.

Connections are reused from a small per-app pool rather than opened and closed per request:
closing the last connection to a WAL database checkpoints and removes the WAL, an fsync paid
by every request that happened to be alone.
"""

from __future__ import annotations

import threading

from flask import Flask, abort, current_app, g, redirect, request, url_for
from werkzeug.wrappers import Response

from companion.service import GameService, GameView, UnknownGame
from companion.view_cache import DEFAULT_GAMES, ViewCache
from events.factory import connect_store
from events.sqlite import SqliteStore
from events.store import Store

__all__ = ["StorePool", "check_address", "close_store", "open_store", "recorded", "service", "store_pool", "view_cache"]

VIEWS = "companion.views"
POOL = "companion.store_pool"
POOL_KEPT = 8  # idle connections kept per app; more requests at once open (and later close) their own


class StorePool:
    """Idle connections to one database file, each lent to one request at a time."""

    def __init__(self, app: Flask, kept: int = POOL_KEPT) -> None:
        self.app = app
        self.kept = kept
        self._idle: list[SqliteStore] = []
        self._lock = threading.Lock()

    def take(self) -> Store:
        """An idle connection, or a new one."""
        with self._lock:
            if self._idle:
                return self._idle.pop()
        return open_store(self.app)

    def give(self, store: Store) -> None:
        """Take back a connection a request is done with (closed if it is not clean or not needed).

        Only SQLite connections are kept here; the PostgreSQL store keeps its own clean connections.
        """
        if not isinstance(store, SqliteStore) or store.conn.in_transaction:
            store.close()
            return
        with self._lock:
            if len(self._idle) < self.kept:
                self._idle.append(store)
                return
        store.close()


def store_pool(app: Flask) -> StorePool:
    """The connection pool of ``app`` in this process."""
    pool: StorePool = app.extensions.setdefault(POOL, StorePool(app))
    return pool


def view_cache(app: Flask) -> ViewCache[GameView]:
    """The one view cache of ``app`` in this process (made with the app, shared by its requests)."""
    if VIEWS not in app.extensions:
        app.extensions[VIEWS] = ViewCache(int(app.config.get("VIEW_CACHE_GAMES", DEFAULT_GAMES)))
    cache: ViewCache[GameView] = app.extensions[VIEWS]
    return cache


def open_store(app: Flask) -> Store:
    """A new store connection for ``app``'s database (a SQLite path or URL, or ``postgresql://…``)."""
    return connect_store(app.config["DATABASE"])


def service() -> GameService:
    """The game service of this request (one per request; it records which seat sent each action).

    Its views come from the process's cache, so a request replays nothing the log already held.
    """
    if "service" in g:
        svc: GameService = g.service
        return svc
    if "store" not in g:
        g.store = store_pool(current_app).take()
    svc = GameService(g.store, current_app.extensions["companion.editions"], cache=view_cache(current_app))
    game_id = (request.view_args or {}).get("game_id") if request else None
    if game_id:
        from companion.web.seats import actor_label

        svc.default_actor = actor_label(game_id)
    g.service = svc
    return svc


def close_store(_exc: BaseException | None = None) -> None:
    """Give this request's connection back to the pool, if one was taken."""
    g.pop("service", None)
    store = g.pop("store", None)
    if store is not None:
        store_pool(current_app).give(store)


# Pages under these prefixes show one kind of record; a link to the other kind is sent to its page.
PAGES_OF = {"/g/": "game", "/t/": "tally"}
HOME_OF = {"game": "play.game", "tally": "tally.page"}
ANY_KIND = frozenset({"data.export_json", "data.export_text", "data.clone"})


def recorded(game_id: str, kind: str = "game") -> GameView:
    """The view of the ``kind`` record at ``game_id``; a 404 page when there is none."""
    try:
        view = service().view(game_id)
    except UnknownGame:
        abort(404)
    if view.kind != kind:
        abort(404)
    return view


def check_address() -> Response | None:
    """Before any page of one game (``/g/<id>/…``, ``/t/<id>/…``): a 404 page for an unknown id,
    and for a game opened at a tally's address (or the other way round) its own page on GET and
    a 404 on a form post, so no page is ever drawn for the wrong kind of record."""
    game_id = (request.view_args or {}).get("game_id")
    prefix = request.path[:3]
    if not game_id or prefix not in PAGES_OF:
        return None
    try:
        view = service().view(game_id)
    except UnknownGame:
        abort(404)
    if view.kind == PAGES_OF[prefix] or request.endpoint in ANY_KIND:
        return None
    if request.method != "GET":
        abort(404)
    return redirect(url_for(HOME_OF[view.kind], game_id=game_id), 303)
