"""The live notifier: one watcher per process wakes every listener of a game, at once after a write
in this process, and within one cheap check after a write from another connection."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.web import create_app
from companion.web.live.notifier import Listener, Notifier, notifier_of
from events.sqlite import SqliteStore
from events.store import NewEvent

START = NewEvent("GameStarted", 1, {})
SLOW_CHECK = 30.0  # so long that only a poke can explain a prompt wake-up


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SqliteStore]:
    store = SqliteStore.open(tmp_path / "notify.sqlite3")
    for game in ("g1", "g2"):
        store.create_game(game, "game", "hash", (f"read-{game}", f"write-{game}"), [START], f"create-{game}")
    yield store
    store.close()


def database(store: SqliteStore) -> str:
    return str(store.conn.execute("PRAGMA database_list").fetchone()[2])


def write(store: SqliteStore, game_id: str, key: str) -> int:
    result = store.append(game_id, store.last_seq(game_id), [NewEvent("LoanTaken", 1, {"player": 0})], key)
    return result.last_seq


def woken_within(listeners: list[Listener], seconds: float) -> list[bool]:
    """Wait for every listener in its own thread, as each live stream does; who woke in time."""
    woke = [False] * len(listeners)
    start = threading.Barrier(len(listeners) + 1)

    def wait(i: int) -> None:
        start.wait()
        woke[i] = listeners[i].wait(seconds)

    threads = [threading.Thread(target=wait, args=(i,), daemon=True) for i in range(len(listeners))]
    for t in threads:
        t.start()
    start.wait()
    for t in threads:
        t.join(seconds + 1)
    return woke


def settle(listeners: list[Listener]) -> None:
    for listener in listeners:
        listener.wait(0)


def test_one_write_poked_in_this_process_wakes_every_listener_of_its_game_at_once(store: SqliteStore) -> None:
    notifier = Notifier(database(store), check_seconds=SLOW_CHECK)
    table = [notifier.subscribe("g1", "shared") for _ in range(60)]
    elsewhere = notifier.subscribe("g2", "viewer")
    notifier.note_seq("g1", store.last_seq("g1"))
    time.sleep(0.05)  # the watcher's first look
    settle([*table, elsewhere])
    seq = write(store, "g1", "poke-0001")
    started = time.monotonic()
    notifier.poke()
    woke = woken_within(table, 1.0)
    assert all(woke) and len(woke) == 60
    assert time.monotonic() - started < 1.0
    assert notifier.seq("g1") == seq
    assert not elsewhere.wait(0.05), "a listener of another game was woken"
    for listener in [*table, elsewhere]:
        notifier.unsubscribe(listener)


def test_a_write_from_another_connection_is_found_by_the_cheap_check(store: SqliteStore) -> None:
    notifier = Notifier(database(store), check_seconds=0.05)
    listeners = [notifier.subscribe("g1", "shared") for _ in range(200)]
    notifier.note_seq("g1", store.last_seq("g1"))
    time.sleep(0.1)
    settle(listeners)
    other = SqliteStore.open(database(store))  # another connection, as another process would write
    seq = write(other, "g1", "elsewhere-0001")
    other.close()
    checks_before = notifier.checks
    started = time.monotonic()
    woke = woken_within(listeners[:20], 2.0)
    elapsed = time.monotonic() - started
    assert all(woke) and notifier.seq("g1") == seq
    assert elapsed < 1.0
    # one look at the database per tick for the whole process, not one per listener
    time.sleep(0.3)
    looks = notifier.checks - checks_before
    assert 1 <= looks <= (elapsed + 0.3) / 0.05 + 3, looks
    for listener in listeners:
        notifier.unsubscribe(listener)


def test_a_join_and_a_leave_wake_the_other_listeners_and_count_right(store: SqliteStore) -> None:
    notifier = Notifier(database(store), check_seconds=SLOW_CHECK)
    first = notifier.subscribe("g1", "0")
    settle([first])
    second = notifier.subscribe("g1", "shared")
    assert first.wait(1.0), "the first page did not hear the join"
    version, seats = notifier.seats("g1")
    assert seats == {"0": 1, "shared": 1}
    notifier.unsubscribe(second)
    notifier.unsubscribe(second)  # a stream closed twice leaves once
    assert first.wait(1.0), "the first page did not hear the leave"
    later, seats = notifier.seats("g1")
    assert seats == {"0": 1} and later > version
    notifier.unsubscribe(first)
    assert notifier.listeners() == 0 and notifier.seats("g1")[1] == {}


def test_the_watcher_ends_when_nobody_listens_and_starts_again(store: SqliteStore) -> None:
    notifier = Notifier(database(store), check_seconds=0.02)
    listener = notifier.subscribe("g1", "shared")
    notifier.unsubscribe(listener)
    deadline = time.monotonic() + 2
    while time.monotonic() < deadline and any(t.name == "companion-live-notifier" for t in threading.enumerate()):
        time.sleep(0.02)
    checks = notifier.checks
    time.sleep(0.1)
    assert notifier.checks == checks, "the database is still read with nobody listening"
    again = notifier.subscribe("g1", "shared")
    notifier.note_seq("g1", store.last_seq("g1"))
    time.sleep(0.05)
    settle([again])
    seq = write(store, "g1", "again-0001")
    assert again.wait(2.0) and notifier.seq("g1") == seq
    notifier.unsubscribe(again)


def test_a_successful_write_request_pokes_the_notifier(tmp_path: Path) -> None:
    app = create_app(
        {
            "TESTING": True,
            "DATABASE": str(tmp_path / "hook.sqlite3"),
            "SECRET_KEY": "t",
            "WTF_CSRF_ENABLED": False,
            "LIVE_CHECK_SECONDS": SLOW_CHECK,
        }
    )
    client = app.test_client()
    created = client.post(
        "/games", data={"key": "hook-create-01", "name": ["Ana"], "colour": ["crimson"], "plague": ["2"]}
    )
    game = created.headers["Location"].rsplit("/", 1)[-1]
    notifier = notifier_of(app)
    listener = notifier.subscribe(game, "shared")
    with app.app_context():
        seq = SqliteStore.open(app.config["DATABASE"]).last_seq(game)
    notifier.note_seq(game, seq)
    time.sleep(0.05)
    settle([listener])
    started = time.monotonic()
    answer = client.post(f"/g/{game}/loan", data={"seq": seq, "key": "hook-loan-0001", "player": "0"})
    assert answer.status_code in (200, 303)
    assert listener.wait(1.0) and time.monotonic() - started < 1.0
    assert notifier.seq(game) == seq + 1
    notifier.unsubscribe(listener)
