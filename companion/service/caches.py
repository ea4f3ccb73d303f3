"""One process's rebuilt games, kept between requests: a bounded, thread-safe LRU of views.

The log stays the only truth. A cached view is only ever served after the store's last seq
for its game was read and matches the view's seq; a view behind the log is brought forward
from the new rows, never trusted as it is. Dropping the whole cache is always safe.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Generic, Protocol, TypeVar

__all__ = ["DEFAULT_GAMES", "Memo", "Slots", "ViewCache"]

DEFAULT_GAMES = 64  # games kept per process (a 5,000-event view is ~9 MB, a whole game ~1-2 MB); the
# app setting VIEW_CACHE_GAMES (env COMPANION_VIEW_CACHE_GAMES) sizes it for a hosted service


class _Sequenced(Protocol):
    @property
    def seq(self) -> int: ...


V = TypeVar("V", bound=_Sequenced)


class ViewCache(Generic[V]):
    """The latest view built of each recently read game, least recently used dropped first."""

    def __init__(self, games: int = DEFAULT_GAMES) -> None:
        if games < 1:
            raise ValueError("a view cache holds at least one game")
        self.games = games
        self._views: OrderedDict[str, V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, game_id: str) -> V | None:
        """The view kept for ``game_id`` (at whatever seq it was built), if any."""
        with self._lock:
            view = self._views.get(game_id)
            if view is not None:
                self._views.move_to_end(game_id)
            return view

    def put(self, game_id: str, view: V) -> V:
        """Keep ``view`` unless a view further along the log is kept already; return the one kept."""
        with self._lock:
            kept = self._views.get(game_id)
            if kept is not None and kept.seq > view.seq:
                self._views.move_to_end(game_id)
                return kept
            self._views[game_id] = view
            self._views.move_to_end(game_id)
            while len(self._views) > self.games:
                self._views.popitem(last=False)
            return view

    def drop(self, game_id: str) -> None:
        """Forget ``game_id`` (the next read rebuilds it from the log)."""
        with self._lock:
            self._views.pop(game_id, None)

    def clear(self) -> None:
        """Forget every game."""
        with self._lock:
            self._views.clear()

    def __len__(self) -> int:
        with self._lock:
            return len(self._views)


K = TypeVar("K")
T = TypeVar("T")


class Memo(Generic[K, T]):
    """A bounded, thread-safe LRU of values made from a view (keyed by game, seq and whatever else
    they depend on): a page drawn again at the same seq is not worked out again."""

    def __init__(self, size: int = DEFAULT_GAMES) -> None:
        self.size = size
        self._values: OrderedDict[K, T] = OrderedDict()
        self._lock = threading.Lock()

    def get_or_make(self, key: K, make: Callable[[], T]) -> T:
        """The value kept for ``key``, or ``make()`` kept for it (made outside the lock)."""
        with self._lock:
            if key in self._values:
                self._values.move_to_end(key)
                return self._values[key]
        value = make()
        with self._lock:
            self._values[key] = value
            self._values.move_to_end(key)
            while len(self._values) > self.size:
                self._values.popitem(last=False)
        return value


class Slots(Generic[K, T]):
    """A bounded, thread-safe LRU of one value per slot, each kept with the inputs it was made from
    and reused only while the inputs asked for are equal (``==``) to them.

    For values whose inputs are not hashable (a game's souls, its players): the slot names the
    game and what is made, the inputs say from what; an unequal input makes the value again.
    """

    def __init__(self, size: int = 4096) -> None:
        self.size = size
        self._slots: OrderedDict[K, tuple[object, T]] = OrderedDict()
        self._lock = threading.Lock()
        self.made = 0  # values made (not reused) since the start: what a test or benchmark reads

    def get_or_make(self, slot: K, inputs: object, make: Callable[[], T]) -> T:
        """The value kept in ``slot`` if it was made from equal ``inputs``, else ``make()`` kept there."""
        with self._lock:
            kept = self._slots.get(slot)
            if kept is not None:
                self._slots.move_to_end(slot)
        if kept is not None and kept[0] == inputs:
            return kept[1]
        value = make()
        with self._lock:
            self.made += 1
            self._slots[slot] = (inputs, value)
            self._slots.move_to_end(slot)
            while len(self._slots) > self.size:
                self._slots.popitem(last=False)
        return value

    def clear(self) -> None:
        """Forget every value."""
        with self._lock:
            self._slots.clear()
