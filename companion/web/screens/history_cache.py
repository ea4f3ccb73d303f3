"""The history told so far of recently read games, per language, held by the process: a long
game's history page tells only the actions recorded since it was last shown."""

from __future__ import annotations

import threading

from flask import Flask, current_app

from companion.service import AnyView
from companion.service.caches import Lru
from companion.web.screens.history import Entry, HistoryFold

__all__ = ["FOLDS_KEY", "HistoryFolds", "folds", "install"]

FOLDS = 8  # (game, language) pairs; the history page is opened now and then, not on every tap


class HistoryFolds:
    """``HistoryFold`` by game and language, the least recently read dropped first; one fold is
    advanced at a time."""

    def __init__(self, size: int = FOLDS) -> None:
        self._folds: Lru[tuple[str, str], HistoryFold] = Lru(size)
        self._lock = threading.Lock()

    def entries(self, view: AnyView, language: str) -> list[Entry]:
        """Every entry of ``view`` (as ``history_entries`` gives them), telling only new actions."""
        with self._lock:
            fold = self._folds.update((view.game_id, language), lambda held: held or HistoryFold())
            if fold.actions <= len(view.timeline.actions):
                return fold.advance(view).entries(view)
        return HistoryFold().advance(view).entries(view)  # a view older than the fold: told afresh


FOLDS_KEY = "companion.history_folds"
"""Where ``app.extensions`` keeps the history told so far (``install``)."""


def install(app: Flask) -> None:
    """Give ``app`` its history folds."""
    app.extensions[FOLDS_KEY] = HistoryFolds()


def folds() -> HistoryFolds:
    """The current app's history folds."""
    found: HistoryFolds = current_app.extensions[FOLDS_KEY]
    return found
