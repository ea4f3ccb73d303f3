"""PostgreSQL connections per request: a closed store leaves a clean connection for the next one, never a dirty one."""

from __future__ import annotations

from events.factory import connect_store, open_store


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
