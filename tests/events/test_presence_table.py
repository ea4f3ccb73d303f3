"""The shared presence table, on both engines: each process sees the others' open pages (not its
own), a closed page is forgotten at once, and a page whose process stopped renewing it ages out."""

from __future__ import annotations

from collections import Counter

from events.factory import open_store


def test_each_process_sees_the_others_pages_and_closed_or_stale_ones_go(store_url: str) -> None:
    store = open_store(store_url)
    try:
        store.hold_presence("a", [("a:1", "g1", "shared"), ("a:2", "g1", "0")], 100.0)
        store.hold_presence("b", [("b:1", "g1", "shared"), ("b:2", "g2", "viewer")], 100.0)
        assert store.presence_elsewhere("a", 90.0) == {"g1": Counter(shared=1), "g2": Counter(viewer=1)}
        assert store.presence_elsewhere("b", 90.0) == {"g1": Counter({"shared": 1, "0": 1})}

        store.drop_presence(["b:1"], 0.0)  # a page closed
        assert store.presence_elsewhere("a", 90.0) == {"g2": Counter(viewer=1)}

        store.hold_presence("a", [("a:1", "g1", "shared")], 130.0)  # a renewed a:1 only
        assert store.presence_elsewhere("b", 120.0) == {"g1": Counter(shared=1)}
        store.drop_presence([], 120.0)  # rows not renewed since 120 are removed
        assert store.presence_elsewhere("b", 0.0) == {"g1": Counter(shared=1)}
        assert store.presence_elsewhere("a", 0.0) == {}
    finally:
        store.close()
