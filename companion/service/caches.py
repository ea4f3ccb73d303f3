"""What a process caches between requests, each on one bounded, thread-safe LRU: rebuilt games
(``ViewCache``), values made from them (``Memo``) and values held with their inputs (``Slots``).

The log stays the only truth. A cached view is only ever served after the store's last seq
for its game was read and matches the view's seq; a view behind the log is brought forward
from the new rows, never trusted as it is. Dropping the whole cache is always safe.
"""

from __future__ import annotations

import functools
import sys
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable
from typing import Any, Generic, Protocol, TypeVar

__all__ = [
    "DEFAULT_GAMES",
    "DEFAULT_VIEW_BYTES",
    "MAX_GAMES",
    "VIEW_BASE_BYTES",
    "VIEW_EVENT_BYTES",
    "Lru",
    "Memo",
    "Shared",
    "Slots",
    "ViewCache",
    "deep_size",
    "view_bytes",
]

DEFAULT_GAMES = 256  # games whose drawn parts and memos are cached per process (app setting VIEW_CACHE_GAMES,
# env COMPANION_VIEW_CACHE_GAMES; was 64, and the views too); the views themselves are bounded by bytes (below)
DEFAULT_VIEW_BYTES = 150 * 1024 * 1024  # the views one process caches, in bytes (app setting VIEW_CACHE_BYTES,
# env COMPANION_VIEW_CACHE_BYTES)
MAX_GAMES = 4096  # and never more games than this, however small
VIEW_BASE_BYTES = 60_000  # what a view costs (``deep_size``, its edition left out): this much, plus
VIEW_EVENT_BYTES = 1_700  # this much per event of its log: ~1.7 MB at 1,000 events (tests/service/test_caches_bytes.py)


K = TypeVar("K")
T = TypeVar("T")


class Lru(Generic[K, T]):
    """A bounded, thread-safe mapping that drops its least recently used entry first: the base of
    every cache a process holds (views, memos, drawn parts, the history told so far)."""

    def __init__(self, size: int, budget: int | None = None, weigh: Callable[[T], int] | None = None) -> None:
        """At most ``size`` entries and, when ``budget`` is given, at most ``budget`` of what ``weigh``
        says the entries cost (bytes), the most recent entry always held."""
        if size < 1:
            raise ValueError("a cache holds at least one entry")
        if budget is not None and weigh is None:
            raise ValueError("a budget needs a weight for each entry")
        self.size = size
        self.budget = budget
        self._weigh = weigh
        self._weights: dict[K, int] = {}
        self.weight = 0  # what the entries held cost now (0 without ``weigh``)
        self._items: OrderedDict[K, T] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: K) -> T | None:
        """The value held for ``key`` (now the most recently used), if any.

        Read without the lock (an answer reads the caches many times; under gevent a lock is Python code): the
        read and the move to the end are each one call into the ``OrderedDict`` (whole under the interpreter's
        lock, the keys being text, numbers and tuples of them), so a reader sees the value before or after a
        writer's change, never half of it. A key another thread drops in between is not made recent
        (``tests/service/test_caches_threads.py``)."""
        items = self._items
        value = items.get(key)
        if value is not None:
            try:  # noqa: SIM105 - ``contextlib.suppress`` costs a context manager on every read
                items.move_to_end(key)
            except KeyError:  # dropped by another thread's update meanwhile: nothing to make recent
                pass
        return value

    def put(self, key: K, value: T) -> T:
        """Hold ``value`` for ``key``; the least recently used entries go past the size."""
        return self.update(key, lambda _held: value)

    def update(self, key: K, choose: Callable[[T | None], T]) -> T:
        """Hold for ``key`` what ``choose`` makes of the value held now (None when none), atomically."""
        with self._lock:
            value = choose(self._items.get(key))
            self._items[key] = value
            self._items.move_to_end(key)
            if self._weigh is not None:
                weight = self._weigh(value)
                self.weight += weight - self._weights.get(key, 0)
                self._weights[key] = weight
            over = self.budget is not None and self.weight > self.budget
            while len(self._items) > self.size or (over and len(self._items) > 1):
                gone, _ = self._items.popitem(last=False)
                self.weight -= self._weights.pop(gone, 0)
                over = self.budget is not None and self.weight > self.budget
            return value

    def drop(self, key: K) -> None:
        """Forget ``key``."""
        with self._lock:
            self._items.pop(key, None)
            self.weight -= self._weights.pop(key, 0)

    def clear(self) -> None:
        """Forget everything."""
        with self._lock:
            self._items.clear()
            self._weights.clear()
            self.weight = 0

    def __len__(self) -> int:
        with self._lock:
            return len(self._items)


class _Sequenced(Protocol):
    @property
    def seq(self) -> int: ...


V = TypeVar("V", bound=_Sequenced)


def view_bytes(view: _Sequenced) -> int:
    """What a view of a log of ``view.seq`` events costs in memory, as measured (``deep_size``)."""
    return VIEW_BASE_BYTES + VIEW_EVENT_BYTES * view.seq


class ViewCache(Lru[str, V]):
    """The latest view built of each recently read game, least recently used dropped first, within a
    budget of bytes (``budget_bytes``, each view weighed by ``weigh``: ``view_bytes``) and a count."""

    def __init__(
        self,
        games: int = MAX_GAMES,
        budget_bytes: int | None = DEFAULT_VIEW_BYTES,
        weigh: Callable[[V], int] = view_bytes,
    ) -> None:
        if games < 1:
            raise ValueError("a view cache holds at least one game")
        super().__init__(games, budget_bytes, weigh)

    @property
    def games(self) -> int:
        """How many games it holds."""
        return self.size

    def put(self, game_id: str, view: V) -> V:
        """Hold ``view`` unless a view further along the log is held already; return the one held."""
        return self.update(game_id, lambda held: held if held is not None and held.seq > view.seq else view)


class Memo(Lru[K, T]):
    """Values made from a view (keyed by game, seq and whatever else they depend on): a page drawn
    again at the same seq is not worked out again."""

    def __init__(self, size: int = DEFAULT_GAMES) -> None:
        super().__init__(size)

    def get_or_make(self, key: K, make: Callable[[], T]) -> T:
        """The value held for ``key``, or ``make()`` held for it (made outside the lock)."""
        held = self.get(key)
        return held if held is not None else self.put(key, make())


class Slots(Generic[K, T]):
    """Values per slot, each held with the inputs it was made from and reused only while the
    inputs asked for are equal (``==``) to them.

    For values whose inputs are not hashable (a game's souls, its players): the slot names the
    game and what is made, the inputs say from what; an unequal input makes the value again.
    A slot holds its latest value, or up to ``depth`` of them (the most recently used first) when
    its inputs come back: a game's turn title for each player and phase, round after round.
    """

    def __init__(self, size: int = 4096) -> None:
        self._slots: Lru[K, tuple[tuple[object, T], ...]] = Lru(size)
        self.made = 0  # values made (not reused) since the start: what a test or benchmark reads

    @property
    def size(self) -> int:
        """How many slots it holds."""
        return self._slots.size

    def latest(self, slot: K) -> tuple[object, T] | None:
        """What ``slot`` holds last, with the inputs it was made from (None when empty): for a value made again
        from the one before (``screens.parts``: the shields of a map that changed, from the last map's)."""
        entries = self._slots.get(slot)
        return entries[0] if entries else None

    def get_or_make(self, slot: K, inputs: object, make: Callable[[], T], depth: int = 1) -> T:
        """The value held in ``slot`` if it was made from equal ``inputs``, else ``make()`` held there, with
        at most ``depth - 1`` of the values it held before (the least recently used goes first)."""
        entries = self._slots.get(slot)
        if entries:
            if entries[0][0] == inputs:
                return entries[0][1]
            for found in entries[1:]:
                if found[0] == inputs:  # now the most recently used of the slot
                    self._slots.update(slot, functools.partial(_first, found, depth))
                    return found[1]
        made = make()

        def hold(now: tuple[tuple[object, T], ...] | None) -> tuple[tuple[object, T], ...]:
            if now and now[0][0] == inputs:  # a twin request held an equal value first: hold that one
                return now
            self.made += 1  # counted under the cache's lock
            return ((inputs, made), *(now or ())[: depth - 1])

        self._slots.update(slot, hold)
        return made

    def clear(self) -> None:
        """Forget every value."""
        self._slots.clear()


def _first(
    entry: tuple[object, T], depth: int, now: tuple[tuple[object, T], ...] | None
) -> tuple[tuple[object, T], ...]:
    """A slot's values with ``entry`` first (``Slots``: the most recently used), at most ``depth`` of them (others
    may have held values in between)."""
    return (entry, *(held for held in now or () if held is not entry))[:depth]


class Shared(Generic[K, T]):
    """Values made once per key while the others asking the same wait: many requests asking for the
    same value at once (the phones of a game fetching after one event) make it once.

    A request that finds the value being made waits for it (at most ``wait_seconds``), then makes it
    itself if it is still missing (the first one failed or is slow). Bounded (an ``Lru`` of ``size``)."""

    def __init__(self, size: int = 512, wait_seconds: float = 1.0) -> None:
        self._values: Lru[K, T] = Lru(size)
        self._making: dict[K, threading.Event] = {}
        self._lock = threading.Lock()
        self.wait_seconds = wait_seconds
        self.made = 0  # values made since the start (not shared): what a test or benchmark reads
        self.shared = 0  # values handed out again

    def get_or_make(self, key: K, make: Callable[[], T]) -> T:
        """The value held for ``key``; else the one another request is making, once made; else
        ``make()`` held for it."""
        found = self._values.get(key)
        if found is None:
            with self._lock:
                busy = self._making.get(key)
                if busy is None:
                    self._making[key] = threading.Event()
            if busy is None:
                try:
                    value = self._values.put(key, make())
                    self.made += 1
                    return value
                finally:
                    with self._lock:
                        self._making.pop(key).set()
            busy.wait(self.wait_seconds)
            found = self._values.get(key)
            if found is None:
                return make()
        self.shared += 1
        return found

    def clear(self) -> None:
        """Forget every value."""
        self._values.clear()

    def __len__(self) -> int:
        return len(self._values)


_LEAVES = (str, bytes, int, float, bool, complex, type(None))


def deep_size(root: object, leave_out: Iterable[object] = ()) -> int:
    """The bytes of ``root`` and of everything it reaches (``sys.getsizeof`` of each object once: its
    containers' items, its attributes and slots), the objects ``leave_out`` and what only they reach
    not counted (an edition every game shares). A measure, for tests and the benchmark: it walks
    every object."""
    seen: set[int] = {id(o) for o in leave_out}
    total = 0
    stack: list[Any] = [root]
    while stack:
        obj = stack.pop()
        if id(obj) in seen or isinstance(obj, type):
            continue
        seen.add(id(obj))
        total += sys.getsizeof(obj)
        if isinstance(obj, _LEAVES):
            continue
        if isinstance(obj, dict):
            stack.extend(obj.keys())
            stack.extend(obj.values())
            continue
        if isinstance(obj, (list, tuple, set, frozenset)):
            stack.extend(obj)
            continue
        attrs = getattr(obj, "__dict__", None)
        if attrs is not None:
            stack.append(attrs)
        for klass in type(obj).__mro__:
            for name in getattr(klass, "__slots__", ()):
                if isinstance(name, str) and hasattr(obj, name):
                    stack.append(getattr(obj, name))
    return total
