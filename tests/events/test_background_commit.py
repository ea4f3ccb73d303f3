"""An append made ``background_commit`` on SQLite: its COMMIT runs in the background, in a thread of its own, while
the caller
goes on (the web app draws its answer meanwhile), and ``settle`` waits until the rows are durable.

What must hold: nothing is durable, nor seen by another connection, before the COMMIT is over; the caller is not held
up by it; every other call of the store waits for it; the writers of the file queue behind it; a COMMIT that fails
stores nothing, says so at ``settle``, and lets the next writer in; and it all works in a gevent server's process,
whose ``threading`` is made of greenlets."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from events.sqlite import SqliteStore
from events.store import NewEvent, StaleSequence

SLOW = 0.3  # seconds a COMMIT is made to take, well above a tap's own time


def evt(n: int) -> NewEvent:
    return NewEvent("InfamyChanged", 1, {"reason": "test", "amount": n, "player": 0})


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "background.sqlite3"


@pytest.fixture
def store(path: Path) -> Iterator[SqliteStore]:
    s = SqliteStore.open(path)
    s.create_game("g", "game", "h" * 64, ("r", "w"), [evt(0)], "create", {"type": "C"}, "seat-0")
    yield s
    s.close()


def _rows_seen_elsewhere(path: Path) -> list[int]:
    """The seqs another connection reads: only what is committed."""
    other = sqlite3.connect(path)
    try:
        return [int(r[0]) for r in other.execute("SELECT seq FROM events WHERE game_id = 'g' ORDER BY seq")]
    finally:
        other.close()


@pytest.fixture
def slow_commit(monkeypatch: pytest.MonkeyPatch) -> None:
    real = SqliteStore._commit

    def slow(self: SqliteStore) -> None:
        time.sleep(SLOW)
        real(self)

    monkeypatch.setattr(SqliteStore, "_commit", slow)


def test_an_append_committed_in_the_background_is_the_same_append_once_settled(store: SqliteStore, path: Path) -> None:
    result = store.append("g", 1, [evt(1), evt(2)], "k1", {"type": "X"}, "seat-0", background_commit=True)
    assert result.settle is not None
    result.settle()
    result.settle()  # at once, the second time
    assert (result.first_seq, result.last_seq, result.duplicate) == (2, 3, False)
    assert _rows_seen_elsewhere(path) == [1, 2, 3]
    assert [e.data["amount"] for e in store.read("g")] == [0, 1, 2]
    again = store.append("g", 1, [evt(1), evt(2)], "k1", {"type": "X"}, "seat-0", background_commit=True)
    assert again.duplicate and again.settle is None  # nothing written: nothing to wait for


@pytest.mark.usefixtures("slow_commit")
def test_the_caller_goes_on_while_the_commit_runs_and_nothing_is_durable_before(store: SqliteStore, path: Path) -> None:
    started = time.perf_counter()
    result = store.append("g", 1, [evt(1)], "k1", {"type": "X"}, "seat-0", background_commit=True)
    assert time.perf_counter() - started < SLOW / 2  # not held up by the COMMIT
    assert _rows_seen_elsewhere(path) == [1]  # not committed yet: no one else sees it
    assert result.settle is not None
    result.settle()
    assert time.perf_counter() - started >= SLOW
    assert _rows_seen_elsewhere(path) == [1, 2]


@pytest.mark.usefixtures("slow_commit")
def test_every_other_call_of_the_store_waits_for_the_commit(store: SqliteStore) -> None:
    started = time.perf_counter()
    store.append("g", 1, [evt(1)], "k1", {"type": "X"}, "seat-0", background_commit=True)
    assert store.last_seq("g") == 2  # it waited for the COMMIT, then read
    assert time.perf_counter() - started >= SLOW
    store.settle()  # over already: at once
    assert [e.seq for e in store.read("g")] == [1, 2]


@pytest.mark.usefixtures("slow_commit")
def test_the_writers_of_the_file_queue_behind_a_commit_in_the_background(store: SqliteStore, path: Path) -> None:
    other = SqliteStore.open(path)
    done: list[tuple[str, float]] = []
    result = store.append("g", 1, [evt(1)], "k1", {"type": "X"}, "seat-0", background_commit=True)

    def write_too() -> None:
        try:
            other.append("g", 1, [evt(9)], "k2", {"type": "Y"}, "seat-1")
            done.append(("written", time.perf_counter()))
        except StaleSequence:
            done.append(("stale", time.perf_counter()))

    writer = threading.Thread(target=write_too)
    writer.start()
    time.sleep(SLOW / 3)
    assert done == []  # queued behind the COMMIT still running
    assert result.settle is not None
    result.settle()
    settled = time.perf_counter()
    writer.join(5)
    other.close()
    assert [what for what, _ in done] == ["stale"]  # it saw the log moved on: never two actions at one seq
    assert done[0][1] >= settled - 0.05
    assert _rows_seen_elsewhere(path) == [1, 2]


def test_a_commit_that_fails_stores_nothing_says_so_and_lets_the_next_writer_in(
    store: SqliteStore, path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = SqliteStore._commit

    def failing(self: SqliteStore) -> None:
        self.conn.execute("ROLLBACK")  # as SQLite leaves a COMMIT that could not write
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(SqliteStore, "_commit", failing)
    result = store.append("g", 1, [evt(1)], "k1", {"type": "X"}, "seat-0", background_commit=True)
    assert result.settle is not None
    with pytest.raises(sqlite3.OperationalError, match="disk I/O error"):
        result.settle()
    with pytest.raises(sqlite3.OperationalError):  # said again to whoever asks
        result.settle()
    assert _rows_seen_elsewhere(path) == [1]
    monkeypatch.setattr(SqliteStore, "_commit", real)
    store.settle()  # the failed one is not waited for again
    assert store.last_seq("g") == 1
    fine = store.append("g", 1, [evt(2)], "k2", {"type": "X"}, "seat-0", background_commit=True)  # the lock was let go
    assert fine.settle is not None
    fine.settle()
    assert _rows_seen_elsewhere(path) == [1, 2]


GEVENT_SCRIPT = """
from gevent import monkey
monkey.patch_all()
import sys, time
sys.setswitchinterval({interval})
sys.path.insert(0, {root!r})
from events.sqlite import SqliteStore
from events.store import NewEvent
real_sleep = monkey.get_original("time", "sleep")
real_commit = SqliteStore._commit
def slow(self):
    real_sleep(0.3)
    real_commit(self)
SqliteStore._commit = slow
s = SqliteStore.open({path!r})
e = lambda n: NewEvent("InfamyChanged", 1, {{"reason": "t", "amount": n, "player": 0}})
s.create_game("g", "game", "h" * 64, ("r", "w"), [e(0)], "create", {{"type": "C"}}, "seat-0")
for n in range(1, 4):
    t = time.perf_counter()
    r = s.append("g", n, [e(n)], f"k{{n}}", {{"type": "X"}}, "seat-0", background_commit=True)
    returned = time.perf_counter() - t
    r.settle()
    settled = time.perf_counter() - t
    print(f"{{returned:.3f}} {{settled:.3f}}")
print(s.last_seq("g"))
"""


@pytest.mark.parametrize("interval", [0.005, 0.0002])  # Python's default (the app's server keeps it), and a short one
def test_in_a_gevent_process_the_commit_runs_in_a_thread_of_its_own(path: Path, interval: float) -> None:
    """gevent's ``patch_all`` makes ``threading`` greenlets: the COMMIT must still run in the background, in a real
    thread."""
    root = str(Path(__file__).resolve().parents[2])
    script = GEVENT_SCRIPT.format(root=root, path=str(path), interval=interval)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=True)
    lines = done.stdout.split()
    *pairs, last = lines
    assert last == "4"
    for returned, settled in zip(pairs[::2], pairs[1::2], strict=True):
        assert float(returned) < 0.15 and float(settled) >= 0.3
