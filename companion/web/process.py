"""What one server process keeps for an app between requests, listed in one place.

``create_app`` makes one ``Process`` and keeps it on the app; every module reaches it through
``process()``. Nothing here is the truth: the log is. Every cache may be dropped at any time, and a
view is served only once the store's last seq for its game was read and matches.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from flask import Flask, current_app

from companion.service.caches import Shared

if TYPE_CHECKING:
    from companion.game.edition import Edition
    from companion.service import AnyView
    from companion.service.caches import Memo, Slots, ViewCache
    from companion.web.http.db import StorePool
    from companion.web.live.answers import AnswerKey, KeptAnswer
    from companion.web.live.notifier import Notifier
    from companion.web.screens.history_cache import HistoryFolds

__all__ = ["KEY", "Process", "process"]

KEY = "companion"  # the one entry of ``app.extensions`` the app itself adds


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
    history_folds: HistoryFolds
    """The history told so far of recently read games, by game and language."""
    stores: StorePool
    """Idle SQLite connections, lent to one request at a time (closing the last one checkpoints)."""
    notifier: Notifier
    """Wakes every open live page when its game's log moves or someone joins or leaves."""
    live_answers: Shared[AnswerKey, KeptAnswer] = field(default_factory=Shared)
    """The answers of live refreshes, drawn once for the phones of a game that hold the same parts."""


def process(app: Flask | None = None) -> Process:
    """The ``Process`` of ``app`` (the current app by default)."""
    found: Process = (app or current_app).extensions[KEY]
    return found
