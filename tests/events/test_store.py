"""The log, for real, on both engines (a SQLite file in a temp folder, a PostgreSQL schema):
append-only, optimistic, idempotent, durable. Each test taking ``store`` or ``store_url`` runs once per engine."""

from __future__ import annotations

import re
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from events.factory import connect_store, is_postgres, open_store
from events.sqlite import connect
from events.store import KeyReused, NewEvent, StaleSequence, Store

ROOT = Path(__file__).resolve().parents[2]


def evt(n: int) -> NewEvent:
    return NewEvent("InfamyChanged", 1, {"player": 0, "amount": n, "reason": "test"})


@pytest.fixture
def store(store_url: str) -> Iterator[Store]:
    s = open_store(store_url)
    yield s
    s.close()


def refusal(store_url: str) -> type[Exception]:
    """What the engine raises when its trigger refuses a change to the log."""
    if is_postgres(store_url):
        import psycopg

        return psycopg.errors.RaiseException
    return sqlite3.DatabaseError


@pytest.fixture
def game(store: Store) -> str:
    store.create_game("g1", "game", "h" * 64, ("r", "w"), [evt(0)], "create-key")
    return "g1"


def test_the_connection_uses_wal_full_sync_and_a_busy_timeout(db_path: Path) -> None:
    conn = connect(db_path)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    assert conn.execute("PRAGMA busy_timeout").fetchone()[0] >= 1000


def test_append_numbers_events_and_groups_them_as_one_action(store: Store, game: str) -> None:
    result = store.append(game, 1, [evt(1), evt(2)], "k1", {"type": "X", "data": {}}, "seat-0")
    assert (result.first_seq, result.last_seq, result.duplicate) == (2, 3, False)
    rows = store.read(game)
    assert [(r.seq, r.action) for r in rows] == [(1, 1), (2, 2), (3, 2)]
    assert rows[1].idempotency_key == "k1" and rows[2].idempotency_key is None
    assert rows[1].command == {"type": "X", "data": {}} and rows[1].actor == "seat-0"
    assert rows[2].data["amount"] == 2


def test_read_past_gives_what_came_after_a_seq_the_log_holds_and_nothing_for_one_it_does_not(
    store: Store, game: str
) -> None:
    store.append(game, 1, [evt(1), evt(2)], "k1", {"type": "X", "data": {}}, "seat-0")
    store.append(game, 3, [evt(3)], "k2")
    assert [r.seq for r in store.read_past(game, 0) or []] == [1, 2, 3, 4]
    assert [(r.seq, r.data["amount"]) for r in store.read_past(game, 2) or []] == [(3, 2), (4, 3)]
    assert store.read_past(game, 2) == store.read(game, after=2)  # the same rows, commands and all
    assert store.read_past(game, 4) == []  # the log has not moved past the view
    assert store.read_past(game, 5) is None  # a log shorter than the view (another file put in its place)
    assert store.read_past("no-such-game", 3) is None


def test_a_stale_expected_seq_is_a_typed_conflict(store: Store, game: str) -> None:
    store.append(game, 1, [evt(1)], "k1")
    with pytest.raises(StaleSequence) as info:
        store.append(game, 1, [evt(2)], "k2")
    assert (info.value.expected, info.value.actual) == (1, 2)
    assert store.last_seq(game) == 2


def test_a_repeated_idempotency_key_stores_once_and_returns_the_first_result(store: Store, game: str) -> None:
    first = store.append(game, 1, [evt(1), evt(2)], "tap")
    again = store.append(game, 1, [evt(1), evt(2)], "tap")  # the double tap, same screen
    assert (again.first_seq, again.last_seq, again.duplicate) == (first.first_seq, first.last_seq, True)
    assert store.last_seq(game) == 3


def test_the_same_key_in_another_game_is_independent(store: Store, game: str) -> None:
    store.create_game("g2", "game", "h" * 64, ("r", "w"), [evt(0)], "other-create")
    store.append(game, 1, [evt(1)], "same")
    assert store.append("g2", 1, [evt(1)], "same").duplicate is False


def test_creating_twice_with_one_key_creates_one_game(store: Store) -> None:
    a = store.create_game("a", "game", "h" * 64, ("r", "w"), [evt(0)], "create-twice", {"type": "C", "data": {}})
    b = store.create_game("b", "game", "h" * 64, ("r", "w"), [evt(0)], "create-twice", {"type": "C", "data": {}})
    assert a == b == "a"
    assert store.game_ids() == ["a"]


def test_a_creation_key_reused_with_another_command_is_refused_and_names_no_game(store: Store) -> None:
    command = {"type": "C", "data": {"n": 1}}
    store.create_game("game-a", "game", "h" * 64, ("read-a", "write-a"), [evt(0)], "create-once", command)
    with pytest.raises(KeyReused) as info:
        store.create_game("game-b", "game", "h" * 64, ("r", "w"), [evt(0)], "create-once", {"type": "C", "data": {}})
    assert not any(secret in repr(info.value.__dict__) + str(info.value) for secret in ("game-a", "read-a", "write-a"))
    assert store.game_ids() == ["game-a"]


def test_a_creation_retry_is_honoured_only_within_the_retry_window(store: Store) -> None:
    command = {"type": "C", "data": {}}
    store.create_game("a", "game", "h" * 64, ("r", "w"), [evt(0)], "create-late", command)
    with pytest.raises(KeyReused):
        store.create_game("b", "game", "h" * 64, ("r", "w"), [evt(0)], "create-late", command, retry_window=0)
    assert store.game_ids() == ["a"]


def test_a_key_reused_for_another_command_is_refused_and_stores_nothing(store: Store, game: str) -> None:
    store.append(game, 1, [evt(1)], "tap", {"type": "TakeLoan", "data": {"player": 0}})
    with pytest.raises(KeyReused):
        store.append(game, 2, [evt(2)], "tap", {"type": "EndTurn", "data": {"player": 0}})
    assert store.last_seq(game) == 2
    again = store.append(game, 2, [evt(1)], "tap", {"type": "TakeLoan", "data": {"player": 0}})
    assert again.duplicate and (again.first_seq, again.last_seq) == (2, 2)


def test_an_imported_log_keeps_no_idempotency_key(store: Store) -> None:
    rows = [
        {
            "seq": 1,
            "action": 1,
            "type": "InfamyChanged",
            "version": 1,
            "data": evt(0).data,
            "idempotency_key": "someone-elses-key",
            "command": {"type": "C", "data": {}},
            "actor": None,
        },
    ]
    store.import_game("imp", "game", "h" * 64, ("r", "w"), rows)
    assert [r.idempotency_key for r in store.read("imp")] == [None]
    assert store.action_for_key("imp", "someone-elses-key") is None


def test_two_threads_appending_at_the_same_seq_exactly_one_wins(store_url: str, game: str) -> None:
    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def writer(key: str) -> None:
        store = connect_store(store_url)
        barrier.wait()
        try:
            store.append(game, 1, [evt(9)], key)
            outcomes.append("won")
        except StaleSequence:
            outcomes.append("conflict")
        finally:
            store.close()

    threads = [threading.Thread(target=writer, args=(k,)) for k in ("t1", "t2")]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    assert sorted(outcomes) == ["conflict", "won"]
    reader = connect_store(store_url)
    assert reader.last_seq(game) == 2
    reader.close()


def test_twenty_concurrent_submits_on_one_seq_exactly_one_lands(
    store_url: str, game: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    writers = 20
    # each writer holds its own connection at the barrier: twenty at once, past the default cap of a
    # process's PostgreSQL pool (its pool for this URL is made in the first writer, after this)
    monkeypatch.setenv("COMPANION_PG_POOL_MAX", str(writers))
    barrier = threading.Barrier(writers)
    outcomes: list[str] = []
    lock = threading.Lock()

    def writer(n: int) -> None:
        store = connect_store(store_url)
        try:
            barrier.wait(10)
            try:
                store.append(game, 1, [evt(n), evt(n)], f"submit-{n:02d}", {"type": "X", "data": {"n": n}})
                outcome = f"won-{n}"
            except StaleSequence as exc:
                outcome = f"conflict-at-{exc.actual}"
            with lock:
                outcomes.append(outcome)
        finally:
            store.close()

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(writers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(15)
    winners = [o for o in outcomes if o.startswith("won")]
    assert len(outcomes) == writers and len(winners) == 1
    assert sorted(set(outcomes) - set(winners)) == ["conflict-at-3"]
    reader = connect_store(store_url)
    rows = reader.read(game)
    reader.close()
    assert [(r.seq, r.action) for r in rows] == [(1, 1), (2, 2), (3, 2)]
    assert rows[1].idempotency_key == f"submit-{winners[0].removeprefix('won-').zfill(2)}"


def test_a_double_tap_racing_itself_stores_one_action(store_url: str, game: str) -> None:
    barrier = threading.Barrier(8)
    results: list[tuple[int, int]] = []

    def tap() -> None:
        store = connect_store(store_url)
        try:
            barrier.wait(10)
            result = store.append(game, 1, [evt(5)], "one-tap", {"type": "X", "data": {}})
            results.append((result.first_seq, result.last_seq))
        finally:
            store.close()

    threads = [threading.Thread(target=tap) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(15)
    assert results == [(2, 2)] * 8
    reader = connect_store(store_url)
    assert reader.last_seq(game) == 2
    reader.close()


def test_an_append_waiting_for_the_lock_reads_the_log_as_the_holder_left_it(store_url: str, game: str) -> None:
    """The tap and its double: the second waits for the first's lock, then finds its key recorded (a duplicate, not a
    conflict), because where the log stands is read after the lock is taken, not when the statement began."""
    holder = connect_store(store_url)
    results: list[tuple[int, int, bool]] = []

    def double_tap() -> None:
        store = connect_store(store_url)
        try:
            result = store.append(game, 1, [evt(5)], "the-tap", {"type": "X", "data": {}})
            results.append((result.first_seq, result.last_seq, result.duplicate))
        finally:
            store.close()

    with holder._transaction():  # type: ignore[attr-defined]
        first = holder.append(game, 1, [evt(5)], "the-tap", {"type": "X", "data": {}})
        waiting = threading.Thread(target=double_tap)
        waiting.start()
        if is_postgres(store_url):  # hold on until the double really waits for the game's row
            import psycopg

            pid = holder.conn.info.backend_pid  # type: ignore[attr-defined]
            waits = "SELECT count(*) FROM pg_stat_activity WHERE %s = ANY(pg_blocking_pids(pid))"
            with psycopg.connect(store_url, autocommit=True) as watcher:  # the holder's own view of it stands still
                deadline = time.monotonic() + 10
                while not watcher.execute(waits, (pid,)).fetchone()[0]:  # type: ignore[index]
                    if time.monotonic() > deadline:
                        pytest.fail("the double tap never waited for the first tap's lock")
                    time.sleep(0.01)
        else:
            time.sleep(0.3)
    waiting.join(15)
    holder.close()
    assert (first.first_seq, first.last_seq, first.duplicate) == (2, 2, False)
    assert results == [(2, 2, True)]


def test_opening_a_store_twice_migrates_once(store_url: str) -> None:
    first = open_store(store_url)
    first.create_game("kept", "game", "h" * 64, ("r", "w"), [evt(0)], "create-kept")
    first.close()
    again = open_store(store_url)
    again.migrate()
    assert again.game_ids() == ["kept"]
    again.close()


def test_join_codes_are_set_once_and_unique(store: Store, game: str) -> None:
    store.create_game("g2", "game", "h" * 64, ("r2", "w2"), [evt(0)], "create-g2")
    store.set_join_code(game, "CODE-ONE")
    store.set_join_code(game, "CODE-TWO")  # a game keeps its first code
    assert store.game(game)["join_code"] == "CODE-ONE"
    assert store.game_for("join_code", "CODE-ONE") == game and store.game_for("join_code", "CODE-TWO") is None
    with pytest.raises(Exception, match=r"(?i)unique"):
        store.set_join_code("g2", "CODE-ONE")
    assert store.game_for("read_token", "r2") == "g2"


def test_edition_contents_are_kept_by_hash_once(store: Store) -> None:
    store.keep_edition("a" * 64, "inferno-base", '{"v": 1}')
    store.keep_edition("a" * 64, "inferno-base", '{"v": 2}')  # the same hash is the same content: first kept
    assert store.edition_content("a" * 64) == '{"v": 1}'
    assert store.edition_content("b" * 64) is None


def test_events_can_never_be_updated_or_deleted(store_url: str, store: Store, game: str) -> None:
    conn = store.conn  # type: ignore[attr-defined]  # the engine's own connection, past the store's code
    with pytest.raises(refusal(store_url), match="append-only"):
        conn.execute(f"UPDATE events SET data = '{{}}' WHERE game_id = '{game}'")
    with pytest.raises(refusal(store_url), match="append-only"):
        conn.execute(f"DELETE FROM events WHERE game_id = '{game}'")
    if is_postgres(store_url):
        with pytest.raises(refusal(store_url), match="append-only"):
            conn.execute("TRUNCATE events")
    assert len(store.read(game)) == 1


def test_no_code_updates_or_deletes_events() -> None:
    pattern = re.compile(r"\b(UPDATE\s+events|DELETE\s+FROM\s+events)\b", re.IGNORECASE)
    offenders = []
    for folder in ("companion", "events"):
        for path in (ROOT / folder).rglob("*.py"):
            text = path.read_text(encoding="utf-8")
            for match in pattern.finditer(text):
                line = text[: match.start()].count("\n") + 1
                if "RAISE(ABORT" not in text.splitlines()[line - 1]:
                    offenders.append(f"{path.name}:{line}")
    assert offenders == []


CRASHER = """
import os, sys
sys.path.insert(0, {root!r})
from events.factory import connect_store
from events.store import NewEvent
store = connect_store({url!r})
store.append("g1", 1, [NewEvent("InfamyChanged", 1, {{"player": 0, "amount": 1, "reason": "a"}})], "first")
store.conn.execute("BEGIN")
store.conn.execute(
    "INSERT INTO events (game_id, seq, action, type, version, data, recorded_at) "
    "VALUES ('g1', 3, 3, 'InfamyChanged', 1, '{{}}', 'now')")
os._exit(137)  # the process dies between two appends, mid-transaction
"""


def test_a_crash_between_two_appends_leaves_the_log_readable(store_url: str, store: Store, game: str) -> None:
    script = CRASHER.format(root=str(ROOT), url=store_url)
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, timeout=30)
    assert proc.returncode == 137, proc.stderr
    fresh = connect_store(store_url)
    rows = fresh.read(game)
    assert [r.seq for r in rows] == [1, 2]
    assert fresh.append(game, 2, [evt(3)], "after-crash").first_seq == 3
    fresh.close()
