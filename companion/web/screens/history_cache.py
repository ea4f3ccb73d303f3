"""The history told so far of recently read games, per language, kept by the process: a long
game's history page tells only the actions recorded since it was last shown."""

from __future__ import annotations

import threading
from collections import OrderedDict

from flask import Flask

from companion.service import GameView
from companion.web.screens.history import Entry, HistoryFold

__all__ = ["HistoryFolds", "history_folds"]

FOLDS_KEPT = 8  # (game, language) pairs; the history page is opened now and then, not on every tap
HISTORY_FOLDS = "companion.history_folds"


class HistoryFolds:
    """A bounded LRU of ``HistoryFold`` by game and language; a fold is advanced under a lock."""

    def __init__(self, kept: int = FOLDS_KEPT) -> None:
        self.kept = kept
        self._folds: OrderedDict[tuple[str, str], HistoryFold] = OrderedDict()
        self._lock = threading.Lock()

    def entries(self, view: GameView, language: str) -> list[Entry]:
        """Every entry of ``view`` (as ``history_entries`` gives them), telling only new actions."""
        key = (view.game_id, language)
        with self._lock:
            fold = self._folds.get(key)
            if fold is None:
                fold = self._folds[key] = HistoryFold()
            self._folds.move_to_end(key)
            while len(self._folds) > self.kept:
                self._folds.popitem(last=False)
            if fold.actions <= len(view.timeline.actions):
                return fold.advance(view).entries(view)
        return HistoryFold().advance(view).entries(view)  # a view older than the fold: told afresh


def history_folds(app: Flask) -> HistoryFolds:
    """The history folds of ``app`` in this process."""
    folds: HistoryFolds = app.extensions.setdefault(HISTORY_FOLDS, HistoryFolds())
    return folds
