"""What one server process keeps for an app between requests: the shipped editions, the caches of views and
drawn parts, and the pool of store connections.

``create_app`` makes one ``Process`` and keeps it on the app; every module reaches it through ``process()``.
The live rooms keep their own: ``live.notifier`` (who is live at each table), ``screens.parts.live_answers`` (live
refreshes drawn once), ``screens.history_cache`` (the history told so far). Nothing here is the truth: the log
is. Every cache may be dropped at any time, and a view is served only once the store's last seq for its game
was read and matches.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

from flask import Flask, current_app

from companion.game.edition import Edition
from companion.service import AnyView
from companion.service.caches import Memo, Slots, ViewCache
from events.factory import connect_store
from events.sqlite import SqliteStore
from events.store import Store

__all__ = ["KEY", "Process", "StorePool", "process"]

KEY = "companion"  # the one entry of ``app.extensions`` the app itself adds


POOL_IDLE = 8  # idle connections held per app; more requests at once open (and later close) their own


class StorePool:
    """Idle connections to one database file, each lent to one request at a time."""

    def __init__(self, app: Flask, held: int = POOL_IDLE) -> None:
        self.app = app
        self.held = held
        self._idle: list[SqliteStore] = []
        self._lock = threading.Lock()

    def take(self) -> Store:
        """An idle connection, or a new one."""
        with self._lock:
            if self._idle:
                return self._idle.pop()
        return connect_store(self.app.config["DATABASE"])

    def give(self, store: Store) -> None:
        """Take back a connection a request is done with (closed if it is not clean or not needed).

        Only SQLite connections are held here; the PostgreSQL store keeps its own clean connections.
        """
        if not isinstance(store, SqliteStore) or store.conn.in_transaction:
            store.close()
            return
        with self._lock:
            if len(self._idle) < self.held:
                self._idle.append(store)
                return
        store.close()


@dataclass(frozen=True)
class Process:
    """An app's memory in this process (each field names what holds it and why)."""

    editions: dict[str, tuple[str, Edition]]
    """The shipped editions by id, each with its file's text, validated at start (a broken one stops
    the app there)."""
    views: ViewCache[AnyView]
    """The latest rebuilt view of each recently read game, within ``VIEW_CACHE_BYTES`` (each view weighed)."""
    parts: Slots[tuple[str, ...], Any]
    """The game page's costly parts and the map's model, each with the inputs it was drawn from."""
    score_progress: Memo[tuple[str, int, str], dict[str, Any]]
    """The score page's infamy ledger and chart, by game, seq and language."""
    stores: StorePool
    """Idle SQLite connections, lent to one request at a time (closing the last one checkpoints)."""


def process(app: Flask | None = None) -> Process:
    """The ``Process`` of ``app`` (the current app by default)."""
    found: Process = (app or current_app).extensions[KEY]
    return found
