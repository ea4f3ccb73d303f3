"""PostgreSQL connections per request, lent by one pool per process: a closed store leaves a clean
connection for the next one, never a dirty one; dead ones are replaced; a burst stays under the cap."""

from __future__ import annotations

import threading
import time
import uuid

import pytest

from events.factory import connect_store, open_store
from events.postgres import pool_max


def test_a_request_reuses_the_connection_the_last_one_left_clean(pg_url: str) -> None:
    open_store(pg_url).close()  # migrated
    first = connect_store(pg_url)
    conn = first.conn  # type: ignore[attr-defined]
    pid = conn.info.backend_pid
    first.close()
    second = connect_store(pg_url)
    assert second.conn is conn and second.conn.info.backend_pid == pid  # type: ignore[attr-defined]
    assert second.game_ids() == []
    second.close()


def test_a_clean_connection_is_lent_without_a_round_trip(pg_url: str, pg_server: str) -> None:
    """Lending a connection the last request left clean sends the server nothing (issue 27, item 5: that
    round trip was ~6 % of a worker's time at 300 tables): the server still shows its last statement."""
    import psycopg

    open_store(pg_url).close()
    first = connect_store(pg_url)
    conn = first.conn  # type: ignore[attr-defined]
    marker = f"lent-{uuid.uuid4().hex[:12]}"
    conn.execute(f"SELECT '{marker}'".encode())
    first.close()
    second = connect_store(pg_url)
    assert second.conn is conn  # type: ignore[attr-defined]
    with psycopg.connect(pg_server, autocommit=True) as admin:
        row = admin.execute("SELECT query FROM pg_stat_activity WHERE pid = %s", (conn.info.backend_pid,)).fetchone()
    assert row is not None and row[0] == f"SELECT '{marker}'"
    assert second.last_seq("none") == 0
    second.close()


def test_a_connection_the_server_ended_is_known_gone_without_a_round_trip(pg_url: str, pg_server: str) -> None:
    import psycopg

    from events.postgres import still_open

    open_store(pg_url).close()
    with psycopg.connect(pg_url, autocommit=True) as conn:
        assert still_open(conn)
        with psycopg.connect(pg_server, autocommit=True) as admin:
            admin.execute("SELECT pg_terminate_backend(%s, 5000)", (conn.info.backend_pid,))
        deadline = time.monotonic() + 5  # the end of the stream reaches the socket after the backend ends
        while still_open(conn) and time.monotonic() < deadline:
            time.sleep(0.01)
        assert not still_open(conn)
    with psycopg.connect(pg_url, autocommit=True) as busy:
        busy.execute("BEGIN")
        assert not still_open(busy)  # inside a transaction: not idle, not lent as it is


def test_a_connection_left_inside_a_transaction_is_closed_not_reused(pg_url: str) -> None:
    open_store(pg_url).close()
    dirty = connect_store(pg_url)
    conn = dirty.conn  # type: ignore[attr-defined]
    conn.execute("BEGIN")
    conn.execute("SELECT 1")
    dirty.close()
    assert conn.closed
    fresh = connect_store(pg_url)
    assert fresh.conn is not conn and fresh.last_seq("none") == 0  # type: ignore[attr-defined]
    fresh.close()


def test_a_kept_connection_the_server_closed_meanwhile_is_replaced(pg_url: str, pg_server: str) -> None:
    import psycopg

    open_store(pg_url).close()
    first = connect_store(pg_url)
    conn = first.conn  # type: ignore[attr-defined]
    pid = conn.info.backend_pid
    first.close()
    with psycopg.connect(pg_server, autocommit=True) as admin:  # a restart or failover, for this one connection
        admin.execute("SELECT pg_terminate_backend(%s, 5000)", (pid,))
    after = connect_store(pg_url)
    assert after.conn is not conn and after.last_seq("none") == 0  # type: ignore[attr-defined]
    after.close()


def test_after_a_restart_the_dead_idle_connections_are_all_replaced_at_once(
    pg_url: str, pg_server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    import psycopg
    import psycopg_pool.base

    # Handed the dead connections one by one, a request would wait a minute between two of them.
    monkeypatch.setattr(psycopg_pool.base.AttemptWithBackoff, "INITIAL_DELAY", 60.0)
    open_store(pg_url).close()
    lent = [connect_store(pg_url) for _ in range(5)]
    pids = [store.conn.info.backend_pid for store in lent]  # type: ignore[attr-defined]
    for store in lent:
        store.close()
    with psycopg.connect(pg_server, autocommit=True) as admin:  # a restart: every idle connection goes
        for pid in pids:
            admin.execute("SELECT pg_terminate_backend(%s, 5000)", (pid,))
    started = time.monotonic()
    after = connect_store(pg_url)
    assert after.last_seq("none") == 0 and after.conn.info.backend_pid not in pids  # type: ignore[attr-defined]
    after.close()
    assert time.monotonic() - started < 20


def test_a_burst_of_pages_never_holds_more_server_connections_than_the_cap(pg_url: str) -> None:
    import psycopg

    name = f"burst-{uuid.uuid4().hex[:12]}"
    url = f"{pg_url}&application_name={name}"  # a pool of its own, whose connections the server can count
    open_store(url).close()
    pages, cap = 200, pool_max()
    failures: list[BaseException] = []
    served: list[int] = []
    start = threading.Barrier(pages)

    def page() -> None:
        try:
            start.wait(60)
            store = connect_store(url)
            try:
                served.append(store.last_seq("none"))
                time.sleep(0.005)  # drawing the page, its connection held
            finally:
                store.close()
        except BaseException as exc:
            failures.append(exc)

    peak = 0
    with psycopg.connect(pg_url, autocommit=True) as watcher:

        def held() -> int:
            row = watcher.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE application_name = %s", (name,)
            ).fetchone()
            return 0 if row is None else int(row[0])

        threads = [threading.Thread(target=page) for _ in range(pages)]
        for t in threads:
            t.start()
        while any(t.is_alive() for t in threads):
            peak = max(peak, held())
            time.sleep(0.001)
        for t in threads:
            t.join()
        peak = max(peak, held())
    assert not failures, failures[:3]
    assert len(served) == pages
    assert 1 <= peak <= cap, f"{peak} server connections for a cap of {cap}"
