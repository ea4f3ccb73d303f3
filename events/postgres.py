"""The append-only event log on PostgreSQL (psycopg 3), keeping the same contract as the SQLite store.

The tables mirror the SQLite schema: ``events`` keyed ``(game_id, seq)``, ``games`` and the
content-addressed ``editions``. A trigger refuses every UPDATE, DELETE and TRUNCATE of an event.
An append locks its game's row (``SELECT … FOR UPDATE``), so appends to one game queue in order
while other games write in parallel; a creation takes an advisory lock on its idempotency key.
Each insert into the log sends ``NOTIFY companion_events, '<game_id> <last_seq>'`` from a trigger,
in its own transaction, so listeners in any process hear of it exactly when it is committed
(see ``events.postgres_notify``). An append is five round trips: BEGIN, the lock, one query for where the log
stands and what the key recorded, one INSERT of the whole action, and COMMIT.
"""

from __future__ import annotations

import functools
import os
import select
import threading
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from typing import Any

import psycopg
from psycopg import errors as pg_errors
from psycopg.pq import TransactionStatus

from events.postgres_notify import CHANNEL
from events.sql import TABLES, SqlStore, Write, command_of, utc_now
from events.store import EVENT_COLUMNS, AppendResult, EventRow, KeyReused, StaleSequence, Store

__all__ = ["PostgresStore"]

MIGRATION_LOCK = 0x1F_E5_17  # one advisory lock id: concurrent starts migrate one at a time

MIGRATIONS: list[tuple[str, list[str]]] = [
    (
        "m001_events",
        [
            f"CREATE TABLE events ({TABLES['events']})",
            "CREATE UNIQUE INDEX events_idempotency ON events (game_id, idempotency_key) "
            "WHERE idempotency_key IS NOT NULL",
            "CREATE INDEX events_creation_key ON events (idempotency_key) "
            "WHERE seq = 1 AND idempotency_key IS NOT NULL",
            f"CREATE TABLE games ({TABLES['games']}, created_order BIGINT GENERATED ALWAYS AS IDENTITY)",
            f"CREATE TABLE editions ({TABLES['editions']})",
            # The log is sacred: the database itself refuses to change or remove an event.
            """
            CREATE FUNCTION events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                RAISE EXCEPTION 'events are append-only';
            END
            $$
            """,
            "CREATE TRIGGER events_no_change BEFORE UPDATE OR DELETE ON events "
            "FOR EACH ROW EXECUTE FUNCTION events_append_only()",
            "CREATE TRIGGER events_no_truncate BEFORE TRUNCATE ON events "
            "FOR EACH STATEMENT EXECUTE FUNCTION events_append_only()",
            # Every insert announces each game it moved, delivered when (and only if) it commits.
            f"""
            CREATE FUNCTION events_announce() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                PERFORM pg_notify('{CHANNEL}', game_id || ' ' || MAX(seq)) FROM appended GROUP BY game_id;
                RETURN NULL;
            END
            $$
            """,
            "CREATE TRIGGER events_announce AFTER INSERT ON events REFERENCING NEW TABLE AS appended "
            "FOR EACH STATEMENT EXECUTE FUNCTION events_announce()",
        ],
    ),
    (
        "m002_join_codes",
        [
            "ALTER TABLE games ADD COLUMN join_code TEXT",
            "CREATE UNIQUE INDEX games_join_code ON games (join_code) WHERE join_code IS NOT NULL",
        ],
    ),
    (
        "m003_edition_library",
        [
            f"CREATE TABLE edition_names ({TABLES['edition_names']})",
            f"CREATE TABLE edition_drafts ({TABLES['edition_drafts']})",
        ],
    ),
    (
        "m004_snapshots",
        [
            f"CREATE TABLE snapshots ({TABLES['snapshots']})",
        ],
    ),
    (
        "m005_presence",
        [
            f"CREATE TABLE presence ({TABLES['presence']}, seen_at DOUBLE PRECISION NOT NULL)",
            "CREATE INDEX presence_seen_at ON presence (seen_at)",
        ],
    ),
]

# One statement for a whole action, whatever its length (one column array each): one round trip, one NOTIFY.
_INSERT_EVENTS = (
    f"INSERT INTO events ({', '.join(EVENT_COLUMNS)}) SELECT * FROM unnest("
    "%s::text[], %s::int[], %s::int[], %s::text[], %s::int[], %s::text[], %s::text[], %s::text[], %s::text[], "
    "%s::text[])"
)
# Where the log of a game stands and what its key recorded, in one query (after the game's row is locked).
_STANDING = (
    "SELECT (SELECT COALESCE(MAX(seq), 0) FROM events WHERE game_id = %(g)s), k.seq, k.command, "
    "(SELECT MAX(seq) FROM events WHERE game_id = %(g)s AND action = k.seq) "
    "FROM (SELECT 1) AS one LEFT JOIN events k ON k.game_id = %(g)s AND k.idempotency_key = %(k)s"
)


def _columns(rows: Sequence[EventRow]) -> list[list[Any]]:
    """Rows of the events table as one list per column (for ``_INSERT_EVENTS``)."""
    return [list(column) for column in zip(*rows, strict=True)] if rows else [[] for _ in EVENT_COLUMNS]


@functools.cache
def _pg(query: str) -> bytes:
    """A shared query (parameters marked ``?``) in psycopg's style (``%s``)."""
    return query.replace("?", "%s").encode()


IDLE_CONNECTIONS = 16  # kept open per process for the next request, across all URLs


class _IdleConnections:
    """Connections a closed store left open for the next request of this process (connecting costs ~5 ms).

    Only a connection idle outside any transaction is kept; one the server has closed meanwhile is
    not handed out; a forked child never reuses its parent's (the list is dropped when the pid
    changes), and the oldest is closed past the cap.
    """

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.pid = os.getpid()
        self.idle: list[tuple[str, psycopg.Connection[Any]]] = []

    def take(self, url: str) -> psycopg.Connection[Any]:
        with self.lock:
            if self.pid != os.getpid():
                self.pid, self.idle = os.getpid(), []
            found = None
            for i in range(len(self.idle) - 1, -1, -1):
                if self.idle[i][0] == url:
                    found = self.idle.pop(i)[1]
                    break
        if found is not None and _still_open(found):
            return found
        if found is not None:
            found.close()
        return psycopg.connect(url, autocommit=True)

    def give_back(self, url: str, conn: psycopg.Connection[Any]) -> None:
        oldest = None
        if conn.closed or conn.broken or conn.info.transaction_status != TransactionStatus.IDLE:
            oldest = conn
        else:
            with self.lock:
                if self.pid != os.getpid():
                    return
                self.idle.append((url, conn))
                if len(self.idle) > IDLE_CONNECTIONS:
                    oldest = self.idle.pop(0)[1]
        if oldest is not None:
            oldest.close()


_IDLE = _IdleConnections()


def _still_open(conn: psycopg.Connection[Any]) -> bool:
    """Whether an idle connection can serve a request: nothing may arrive on an idle socket but the
    server's goodbye (a restart, a failover, an idle timeout), so a readable socket means gone."""
    if conn.closed or conn.broken:
        return False
    try:
        readable, _, _ = select.select([conn.fileno()], [], [], 0)
    except (OSError, ValueError):
        return False
    return not readable


class PostgresStore(SqlStore):
    """The log of every game, in one PostgreSQL database."""

    CREATED_ORDER = "created_order"

    def __init__(self, conn: psycopg.Connection[Any], reuse_as: str | None = None) -> None:
        self.conn = conn
        self._reuse_as = reuse_as

    @classmethod
    def connect(cls, url: str) -> PostgresStore:
        """A store on an autocommit connection to ``url`` (no migration): an idle one of this process if
        any, else a new one; ``close`` leaves it for the next request (one per request, as the app does)."""
        return cls(_IDLE.take(url), reuse_as=url)

    @classmethod
    def open(cls, url: str) -> PostgresStore:
        """Open (creating and migrating if needed) the store at ``url``, on a connection of its own."""
        store = cls(psycopg.connect(url, autocommit=True))
        store.migrate()
        return store

    def migrate(self) -> None:
        """Apply any pending schema migrations, one process at a time."""
        with self.conn.transaction():
            self.conn.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
            self.conn.execute(
                "CREATE TABLE IF NOT EXISTS companion_migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)"
            )
            done = {str(r[0]) for r in self.conn.execute("SELECT name FROM companion_migrations")}
            for name, statements in MIGRATIONS:
                if name in done:
                    continue
                for statement in statements:
                    self.conn.execute(statement.encode())
                self.conn.execute(
                    "INSERT INTO companion_migrations (name, applied_at) VALUES (%s, %s)", (name, utc_now())
                )

    def close(self) -> None:
        """Close the connection (or, from ``connect``, leave it idle for the next request)."""
        if self._reuse_as is not None:
            _IDLE.give_back(self._reuse_as, self.conn)
        else:
            self.conn.close()

    # ----------------------------------------------------------------- the hooks of SqlStore

    def _execute(self, query: str, params: Sequence[Any] = ()) -> None:
        self.conn.execute(_pg(query), params)

    def _one(self, query: str, params: Sequence[Any] = ()) -> tuple[Any, ...] | None:
        return self.conn.execute(_pg(query), params).fetchone()

    def _all(self, query: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        return self.conn.execute(_pg(query), params).fetchall()

    def _insert_events(self, rows: Sequence[EventRow]) -> None:
        self.conn.execute(_INSERT_EVENTS, _columns(rows))

    def _transaction(self) -> AbstractContextManager[object]:
        return self.conn.transaction()

    @contextmanager
    def _creating(self, idempotency_key: str) -> Iterator[None]:
        with self.conn.transaction():
            # Two taps on "create" with one key queue here, so the second sees the first's game.
            self.conn.execute("SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))", (idempotency_key,))
            yield

    # ----------------------------------------------------------------- the log

    def _append(
        self, game_id: str, expected_seq: int, idempotency_key: str, command: dict[str, Any] | None, write: Write
    ) -> AppendResult:
        """The game's row locked, then one query for where the log stands and what the key recorded."""
        try:
            with self.conn.transaction():
                self.conn.execute("SELECT 1 FROM games WHERE game_id = %s FOR UPDATE", (game_id,))
                standing = self.conn.execute(_STANDING, {"g": game_id, "k": idempotency_key}).fetchone()
                assert standing is not None  # one row, always
                actual, recorded, stored, recorded_last = standing
                if recorded is not None:
                    if command_of(stored) != command:
                        raise KeyReused()
                    return AppendResult(int(recorded), int(recorded_last), duplicate=True)
                return write(actual)
        except pg_errors.UniqueViolation as exc:  # a writer without the game row's lock got there first
            if exc.diag.constraint_name == "events_idempotency":
                found = self.recorded_under_key(game_id, idempotency_key)
                if found is not None and found[1] == command:
                    return self._append(game_id, expected_seq, idempotency_key, command, write)
                raise KeyReused() from None
            raise StaleSequence(game_id, expected_seq, self.last_seq(game_id)) from None

    # ----------------------------------------------------------------- presence (not game state)

    def hold_presence(self, process: str, held: Sequence[tuple[str, str, str]], now: float) -> None:
        """Record (or renew, at ``now``) the open pages of ``process``: (holder, game_id, seat) each."""
        if not held:
            return
        holders, games, seats = (list(column) for column in zip(*held, strict=True))
        self.conn.execute(
            "INSERT INTO presence (holder, process, game_id, seat, seen_at) "
            "SELECT h, %s, g, s, %s FROM unnest(%s::text[], %s::text[], %s::text[]) AS t(h, g, s) "
            "ON CONFLICT (holder) DO UPDATE SET seen_at = excluded.seen_at",
            (process, now, holders, games, seats),
        )

    def drop_presence(self, holders: Sequence[str], before: float) -> None:
        """Forget the pages ``holders`` (they closed) and every page not renewed since ``before``."""
        self.conn.execute(
            "DELETE FROM presence WHERE holder = ANY(%s::text[]) OR seen_at < %s", (list(holders), before)
        )


def _contract(store: PostgresStore) -> Store:
    """mypy checks the engine against the ``Store`` protocol here."""
    return store
