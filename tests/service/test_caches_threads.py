"""``Lru.get`` reads without the lock: a reader racing writers sees whole values, the cache keeps its bounds and its
weight, and a key dropped between the read and the move to the end is simply not made recent."""

from __future__ import annotations

import functools
import sys
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from companion.service.caches import Lru, Slots, ViewCache


class Seen:
    def __init__(self, key: str, seq: int) -> None:
        self.key = key
        self.seq = seq


def _race(work: list[tuple[Callable[[int], None], int]]) -> None:
    """Run each function in that many threads at once (given 0, 1, ...), switching as often as the interpreter lets
    them, until all are done."""
    before = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        threads = [threading.Thread(target=f, args=(n,)) for f, count in work for n in range(count)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(before)


def test_a_key_dropped_between_the_read_and_the_move_is_read_but_not_kept() -> None:
    cache: Lru[str, str] = Lru(4)
    cache.put("a", "A")
    cache.put("b", "B")

    class DroppedMeanwhile(OrderedDict[str, str]):
        """Another thread's update drops the key right after this reader found it."""

        def get(self, key: str, default: Any = None) -> Any:
            value = super().get(key, default)
            self.pop(key, None)
            return value

    cache._items = DroppedMeanwhile(cache._items)
    assert cache.get("a") == "A"  # what was kept when it was read
    assert list(cache._items) == ["b"]  # not put back by the reader
    assert cache.get("zzz") is None


def test_readers_racing_writers_see_whole_values_and_the_bounds_hold() -> None:
    cache: ViewCache[Seen] = ViewCache(games=8, budget_bytes=10 * 1_000, weigh=lambda v: 1_000 + v.seq % 7)
    errors: list[BaseException] = []
    wrong: list[tuple[str, Any]] = []

    def write(offset: int) -> None:
        try:
            for i in range(3_000):
                key = f"g{(i * 7 + offset) % 24}"
                cache.put(key, Seen(key, i))
                if i % 11 == 0:
                    cache.drop(f"g{(i + offset) % 24}")
        except BaseException as exc:  # reported below
            errors.append(exc)

    def read(offset: int) -> None:
        try:
            for i in range(6_000):
                key = f"g{(i + offset) % 24}"
                found = cache.get(key)
                if found is not None and found.key != key:
                    wrong.append((key, found.key))
        except BaseException as exc:  # reported below
            errors.append(exc)

    _race([(write, 3), (read, 4)])
    assert errors == [] and wrong == []
    assert len(cache) <= 8
    kept = list(cache._items.values())
    assert cache.weight == sum(1_000 + v.seq % 7 for v in kept)  # every put and drop counted once
    assert cache.weight <= 10 * 1_000


def _pair(slot: str, inputs: int) -> tuple[str, int]:
    return slot, inputs


def test_slots_read_by_many_threads_make_each_value_from_its_own_inputs() -> None:
    slots: Slots[str, tuple[str, int]] = Slots(size=6)
    wrong: list[Any] = []

    def ask(offset: int) -> None:
        for i in range(3_000):
            slot, inputs = f"s{(i + offset) % 10}", (i + offset) % 3
            value = slots.get_or_make(slot, inputs, functools.partial(_pair, slot, inputs), depth=2)
            if value != (slot, inputs):
                wrong.append((slot, inputs, value))

    _race([(ask, 4)])
    assert wrong == []
    assert len(slots._slots) <= 6
