"""The view cache is sized by memory: each view weighed by what it costs, the least recently used
dropped first once the budget is spent; the weight a view is given is what it measures."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest

from bench.games import play_random_game, store_game
from companion.editions import DEFAULT_EDITION, load_all
from companion.service import GameService
from companion.service.caches import Lru, ViewCache, deep_size, view_bytes
from events.sqlite import SqliteStore

EDITIONS = load_all()


class Seen:
    def __init__(self, seq: int) -> None:
        self.seq = seq


def test_the_view_cache_drops_the_least_recently_used_views_once_its_bytes_are_spent() -> None:
    cache: ViewCache[Seen] = ViewCache(budget_bytes=1_000, weigh=lambda v: v.seq)
    cache.put("a", Seen(400))
    cache.put("b", Seen(400))
    assert cache.get("a") is not None  # "a" is now the most recently used
    cache.put("c", Seen(300))
    assert cache.get("b") is None
    assert cache.get("a") is not None and cache.get("c") is not None
    assert cache.weight == 700
    cache.put("a", Seen(750))  # a view brought forward weighs what it weighs now
    assert cache.get("c") is None and cache.weight == 750 and len(cache) == 1
    cache.put("huge", Seen(5_000))  # one view over the whole budget is still kept, alone
    assert len(cache) == 1 and cache.get("huge") is not None and cache.weight == 5_000


def test_many_small_games_fit_where_few_long_ones_do() -> None:
    cache: ViewCache[Seen] = ViewCache(budget_bytes=20 * view_bytes(Seen(1_000)))
    for i in range(100):
        cache.put(f"long{i}", Seen(1_000))
    assert len(cache) == 20
    cache.clear()
    for i in range(100):
        cache.put(f"new{i}", Seen(30))
    assert len(cache) == 100  # new games are small: the budget, not a count, decides
    assert cache.weight == 100 * view_bytes(Seen(30))


def test_a_count_still_bounds_it_and_drop_gives_the_bytes_back() -> None:
    cache: ViewCache[Seen] = ViewCache(games=2)
    for name in "abc":
        cache.put(name, Seen(10))
    assert len(cache) == 2
    cache.drop("c")
    assert cache.weight == view_bytes(Seen(10))
    with pytest.raises(ValueError):
        Lru(4, budget=10)  # a budget needs a weight


@pytest.mark.parametrize("size", [10, 400])
def test_a_views_weight_is_what_it_measures(size: int) -> None:
    edition = EDITIONS[DEFAULT_EDITION][1]
    with tempfile.TemporaryDirectory() as tmp:
        store = SqliteStore.open(Path(tmp) / "bytes.sqlite3")
        try:
            game_id = store_game(store, EDITIONS, play_random_game(edition, 2024, size))
            view = GameService(store, EDITIONS, cache=ViewCache()).view(game_id)
        finally:
            store.close()
    measured = deep_size(view, [view.edition])
    assert 0.6 * measured <= view_bytes(view) <= 1.6 * measured, (view.seq, measured, view_bytes(view))


def test_deep_size_counts_what_is_reached_once_and_leaves_out_what_is_shared() -> None:
    shared = ["x" * 10_000]
    one = {"a": shared, "b": shared}
    assert deep_size(one) - deep_size({"a": [], "b": []}) >= 10_000  # counted once, not twice
    assert deep_size(one) - deep_size(one, [shared]) >= 10_000
