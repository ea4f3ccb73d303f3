"""PostgreSQL live updates: every committed append is announced (LISTEN/NOTIFY) to listeners in any process."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from events.factory import open_store
from events.postgres_notify import Appended, Notifications, listen
from events.store import NewEvent, StaleSequence

ROOT = Path(__file__).resolve().parents[2]


def evt(n: int) -> NewEvent:
    return NewEvent("InfamyChanged", 1, {"player": 0, "amount": n, "reason": "test"})


def test_each_committed_append_is_announced_once_and_a_refused_one_never(pg_url: str) -> None:
    store = open_store(pg_url)
    with Notifications(pg_url) as feed:
        store.create_game("live-1", "game", "h" * 64, ("r", "w"), [evt(0)], "live-create")
        store.append("live-1", 1, [evt(1), evt(2)], "live-k1")
        with pytest.raises(StaleSequence):
            store.append("live-1", 1, [evt(3)], "live-k2")
        store.append("live-1", 3, [evt(1), evt(2)], "live-k1")  # a repeat stores nothing, says nothing
        heard: list[Appended] = []
        deadline = time.monotonic() + 5
        while len(heard) < 2 and time.monotonic() < deadline:
            heard += feed.poll(0.5)
        heard += feed.poll(0.2)  # anything more would arrive now
    store.close()
    assert heard == [Appended("live-1", 1), Appended("live-1", 3)]


WRITER = """
import sys
sys.path.insert(0, {root!r})
from events.factory import connect_store
from events.store import NewEvent
store = connect_store({url!r})
store.append("live-2", 1, [NewEvent("InfamyChanged", 1, {{"player": 0, "amount": 1, "reason": "x"}})], "other-process")
"""


def test_a_write_in_another_process_reaches_a_listener_here(pg_url: str) -> None:
    store = open_store(pg_url)
    store.create_game("live-2", "game", "h" * 64, ("r", "w"), [evt(0)], "live-create-2")
    heard: list[Appended] = []
    listening = threading.Event()
    done = threading.Event()

    def on_append(appended: Appended) -> None:
        heard.append(appended)
        if appended.last_seq == 2:
            done.set()

    def stop() -> bool:
        listening.set()  # checked once the LISTEN is in place, before the first wait
        return done.is_set()

    thread = threading.Thread(target=listen, args=(pg_url, on_append, stop, 0.2))
    thread.start()
    assert listening.wait(10)
    sent = time.monotonic()
    proc = subprocess.run([sys.executable, "-c", WRITER.format(root=str(ROOT), url=pg_url)], timeout=30, check=False)
    assert proc.returncode == 0
    assert done.wait(5)
    latency = time.monotonic() - sent
    thread.join(5)
    store.close()
    assert heard == [Appended("live-2", 2)] and not thread.is_alive()
    assert latency < 5
