"""The store on PostgreSQL (psycopg 3): every role of ``events.store`` on one connection to one database.

The queries it shares with SQLite are written once in ``events.sql``, one module per role; ``PostgresStore``
composes them with what is PostgreSQL's own: the connection and its hooks (``PostgresConnection``), the log's writes
(``PostgresEventLog``) and presence's (``PostgresSharedPresence``). The tables mirror the SQLite schema: ``events``
keyed ``(game_id, seq)``, ``games`` and the content-addressed ``editions``. A trigger refuses every UPDATE, DELETE
and TRUNCATE of an event. An append locks its game's row (``SELECT … FOR UPDATE``), so appends to one game queue in
order while other games write in parallel; a creation takes an advisory lock on its idempotency key. Each insert
into the log sends ``NOTIFY companion_events, '<game_id> <last_seq>'`` from a trigger, in its own transaction, so
listeners in any process hear of it exactly when it is committed (see ``events.postgres_notify``). An append is one
statement, one round trip: a function of the database (``companion_append``) locks the game's row, reads where the
log stands and what the key recorded, and inserts the whole action.

A request's store borrows its connection from one ``psycopg_pool.ConnectionPool`` per database and
process (``PostgresStore.connect``), at most ``COMPANION_PG_POOL_MAX`` (10) at once; ``open``, which
migrates, keeps a connection of its own. psycopg and psycopg_pool must be imported after gevent has
patched the standard library (the pool's maintenance threads are then greenlets): this module is
only imported where a PostgreSQL store is first asked for.
"""

from __future__ import annotations

import functools
import os
import select
import threading
from collections import OrderedDict
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from typing import Any

import psycopg
from psycopg import errors as pg_errors
from psycopg.pq import TransactionStatus
from psycopg.rows import TupleRow
from psycopg_pool import ConnectionPool

from events.log import EVENT_COLUMNS, AppendResult, EventLog, EventRow, KeyReused, StaleSequence
from events.postgres_notify import CHANNEL
from events.presence import SharedPresence
from events.sql.drafts import SqlDrafts
from events.sql.engine import SqlEngine, utc_now
from events.sql.library import SqlEditionLibrary
from events.sql.log import SqlEventLog, Write
from events.sql.presence import SqlSharedPresence
from events.sql.schema import DRAFT_OWNER_COLUMNS, LIBRARY_INDEXES, TABLES
from events.store import Store

__all__ = ["PostgresConnection", "PostgresEventLog", "PostgresSharedPresence", "PostgresStore"]

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
    (
        "m006_phone_library",
        [
            "ALTER TABLE edition_names ADD COLUMN owner TEXT NOT NULL DEFAULT '', "
            "ADD COLUMN published_at TEXT, ADD COLUMN share_token TEXT",
            "ALTER TABLE edition_names DROP CONSTRAINT edition_names_pkey, ADD PRIMARY KEY (owner, name)",
            *(f"ALTER TABLE edition_drafts ADD COLUMN {column}" for column in DRAFT_OWNER_COLUMNS),
            *LIBRARY_INDEXES,
        ],
    ),
    (
        # An append in one statement, one round trip (five before: BEGIN, the lock, where the log stands, the INSERT,
        # COMMIT). Each query of a VOLATILE function takes a snapshot of its own, so the log is read after the lock.
        "m007_append_in_one_statement",
        [
            """
            CREATE FUNCTION companion_append(
                g TEXT, expected INTEGER, k TEXT, seqs INTEGER[], actions INTEGER[], types TEXT[], versions INTEGER[],
                datas TEXT[], times TEXT[], keys TEXT[], commands TEXT[], actors TEXT[]
            ) RETURNS TABLE (log_seq INTEGER, key_action INTEGER, key_command TEXT, key_last INTEGER)
            LANGUAGE plpgsql VOLATILE AS $$
            BEGIN
                PERFORM 1 FROM games WHERE game_id = g FOR UPDATE;
                SELECT (SELECT COALESCE(MAX(e.seq), 0) FROM events e WHERE e.game_id = g), r.seq, r.command,
                       (SELECT MAX(e.seq) FROM events e WHERE e.game_id = g AND e.action = r.seq)
                  INTO log_seq, key_action, key_command, key_last
                  FROM (SELECT 1) AS one LEFT JOIN events r ON r.game_id = g AND r.idempotency_key = k;
                IF key_action IS NULL AND log_seq = expected THEN
                    INSERT INTO events (game_id, seq, action, type, version, data, recorded_at, idempotency_key,
                                        command, actor)
                    SELECT g, * FROM unnest(seqs, actions, types, versions, datas, times, keys, commands, actors);
                END IF;
                RETURN NEXT;
            END
            $$
            """,
        ],
    ),
]

# One statement for a whole action, whatever its length (one column array each): one round trip, one NOTIFY.
_INSERT_EVENTS = (
    f"INSERT INTO events ({', '.join(EVENT_COLUMNS)}) SELECT * FROM unnest("
    "%s::text[], %s::int[], %s::int[], %s::text[], %s::int[], %s::text[], %s::text[], %s::text[], %s::text[], "
    "%s::text[])"
)
# An append (``m007``): the game's row locked, where its log stands and what the key recorded, and the rows inserted
# when the key is new and the log stands where the screen was drawn; one column array each, after game_id.
_APPEND = (
    "SELECT * FROM companion_append(%s, %s, %s, %s::int[], %s::int[], %s::text[], %s::int[], %s::text[], "
    "%s::text[], %s::text[], %s::text[], %s::text[])"
)


def _columns(rows: Sequence[EventRow]) -> list[list[Any]]:
    """Rows of the events table as one list per column (for ``_INSERT_EVENTS``)."""
    return [list(column) for column in zip(*rows, strict=True)] if rows else [[] for _ in EVENT_COLUMNS]


@functools.cache
def _pg(query: str) -> bytes:
    """A shared query (parameters marked ``?``) in psycopg's style (``%s``)."""
    return query.replace("?", "%s").encode()


POOL_MAX = 10  # connections per process to one database, unless COMPANION_PG_POOL_MAX says otherwise
POOL_MAX_ENV = "COMPANION_PG_POOL_MAX"
POOL_TIMEOUT = 30.0  # seconds a request waits for a free connection, then PoolTimeout (an OperationalError)
POOL_MAX_LIFETIME = 30 * 60.0  # a connection is replaced after half an hour (a failover, the server's memory)
POOL_MAX_IDLE = 5 * 60.0  # a connection the load no longer needs is closed after five unused minutes
POOLS_KEPT = 4  # databases with a pool in one process: one in production; the oldest pool is closed past it


def pool_max() -> int:
    """The cap of connections per process and database: ``COMPANION_PG_POOL_MAX``, else ``POOL_MAX``."""
    cap = int(os.environ.get(POOL_MAX_ENV) or POOL_MAX)
    if cap < 2:  # the live notifier of a process keeps one for as long as pages listen
        raise ValueError(f"{POOL_MAX_ENV} must be at least 2, not {cap}")
    return cap


class _Pools:
    """One ``psycopg_pool.ConnectionPool`` per URL in this process, made on first use.

    A request borrows a connection (``PostgresStore.connect``) and gives it back (``close``): opening a
    connection takes a round trip or more to the server, and a burst of pages never holds more than the cap of server
    connections per process; past it a request waits for one to come back. Each connection is
    checked when lent (``still_open``; one the server closed meanwhile is replaced), and
    autocommit as before. A forked child never uses its parent's pools (they are left alone, their
    connections being the parent's): it makes its own when the pid changes.
    """

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.pid = os.getpid()
        self.by_url: OrderedDict[str, ConnectionPool[psycopg.Connection[TupleRow]]] = OrderedDict()
        self.inherited: list[ConnectionPool[psycopg.Connection[TupleRow]]] = []

    def after_fork(self) -> None:
        """In a forked child: a fresh lock (the parent's may have been held by another thread)."""
        self.lock = threading.Lock()

    def of(self, url: str) -> ConnectionPool[psycopg.Connection[TupleRow]]:
        """The pool of ``url`` in this process."""
        retired = None
        with self.lock:
            if self.pid != os.getpid():
                self.pid = os.getpid()
                self.inherited += self.by_url.values()
                self.by_url = OrderedDict()
            pool = self.by_url.get(url)
            if pool is None:
                pool = self.by_url[url] = _new_pool(url)
                if len(self.by_url) > POOLS_KEPT:
                    retired = self.by_url.popitem(last=False)[1]
            else:
                self.by_url.move_to_end(url)
        if retired is not None:
            retired.close()  # its idle connections now; those lent out when they come back
        return pool


def still_open(conn: psycopg.Connection[Any]) -> bool:
    """Whether an idle connection can be lent as it is, told without a round trip: the server sent it nothing since
    its last answer (its socket has nothing to read, looked at without waiting).

    A server that stops, restarts, fails over or ends the connection says so on the socket (a notice, then the end of
    the stream), so such a connection gets ``ConnectionPool.check_connection``'s round trip, which fails and has it
    replaced; a clean one is lent without it (the round trip would be paid once per request). A
    peer that vanished without a word would hold up that round trip too, until the network gives up on it."""
    if conn.closed or conn.pgconn.transaction_status != TransactionStatus.IDLE:
        return False
    try:
        readable, _, _ = select.select([conn.pgconn.socket], [], [], 0)
    except (OSError, ValueError, psycopg.Error):
        return False
    return not readable


def _new_pool(url: str) -> ConnectionPool[psycopg.Connection[TupleRow]]:
    """A pool for ``url``: no connection until asked, at most ``pool_max()``, each checked when lent."""

    def pre_ping(conn: psycopg.Connection[TupleRow]) -> None:
        """A connection the server sent nothing since its last answer (``still_open``) is lent as it is; any other gets
        ``ConnectionPool.check_connection``'s round trip. When that finds it gone, the server probably
        restarted or failed over and took every idle one with it: check them all now, so that the
        request is not handed the dead ones one by one (the pool waits 1, 2, 4… s between tries)."""
        if still_open(conn):
            return
        try:
            ConnectionPool.check_connection(conn)
        except psycopg.Error:
            pool.check()
            raise

    pool: ConnectionPool[psycopg.Connection[TupleRow]] = ConnectionPool(
        url,
        kwargs={"autocommit": True},
        min_size=0,
        max_size=pool_max(),
        open=True,
        timeout=POOL_TIMEOUT,
        max_lifetime=POOL_MAX_LIFETIME,
        max_idle=POOL_MAX_IDLE,
        check=pre_ping,
        name="companion-pg",
    )
    return pool


_POOLS = _Pools()
os.register_at_fork(after_in_child=_POOLS.after_fork)


class PostgresConnection(SqlEngine):
    """One connection to a PostgreSQL database as every role's queries use it: the hooks of ``events.sql`` (``?``
    turned into ``%s``), the write transaction, migrations, and giving a borrowed connection back to its pool."""

    def __init__(
        self, conn: psycopg.Connection[Any], lender: ConnectionPool[psycopg.Connection[TupleRow]] | None = None
    ) -> None:
        self.conn = conn
        self._lender = lender
        self._closed = False

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
        """Close the connection, or give a borrowed one back to its pool (closed first if it was left
        inside a transaction or broken: the pool replaces it, and no request gets a dirty one)."""
        if self._closed:
            return
        self._closed = True
        if self._lender is None:
            self.conn.close()
            return
        if self.conn.info.transaction_status != TransactionStatus.IDLE:
            self.conn.close()
        self._lender.putconn(self.conn)

    def _execute(self, query: str, params: Sequence[Any] = ()) -> None:
        self.conn.execute(_pg(query), params)

    def _one(self, query: str, params: Sequence[Any] = ()) -> tuple[Any, ...] | None:
        return self.conn.execute(_pg(query), params).fetchone()

    def _all(self, query: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        return self.conn.execute(_pg(query), params).fetchall()

    def _transaction(self) -> AbstractContextManager[object]:
        return self.conn.transaction()


class PostgresEventLog(PostgresConnection, SqlEventLog):
    """The event log's PostgreSQL parts: its inserts (one statement of column arrays), its creations under an
    advisory lock on the key, and its appends in one statement (``companion_append``)."""

    CREATED_ORDER = "created_order"

    def _insert_events(self, rows: Sequence[EventRow]) -> None:
        self.conn.execute(_INSERT_EVENTS, _columns(rows))

    @contextmanager
    def _creating(self, idempotency_key: str) -> Iterator[None]:
        with self.conn.transaction():
            # Two taps on "create" with one key queue here, so the second sees the first's game.
            self.conn.execute("SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))", (idempotency_key,))
            yield

    def settle(self) -> None:
        """Nothing to wait for: an append here commits before it returns."""

    def _append(self, write: Write, background_commit: bool = False) -> AppendResult:
        """One statement (``companion_append``), committed before it returns, ``background_commit`` or not: the
        game's row locked,
        then where the log stands and what the key recorded, and ``write``'s rows stored when the key is new and the
        log stands where its screen was drawn. Inside an open transaction, a savepoint keeps a refusal from spoiling
        it."""
        game_id, expected_seq = write.game_id, write.expected_seq
        params = (game_id, expected_seq, write.idempotency_key, *_columns(write.rows)[1:])
        try:
            if self.conn.info.transaction_status == TransactionStatus.IDLE:
                standing = self.conn.execute(_APPEND, params).fetchone()
            else:
                with self.conn.transaction():
                    standing = self.conn.execute(_APPEND, params).fetchone()
        except pg_errors.UniqueViolation as exc:  # a writer without the game row's lock got there first
            if exc.diag.constraint_name == "events_idempotency":
                found = self.recorded_under_key(game_id, write.idempotency_key)
                if found is not None and found[1] == write.command:
                    return self._append(write)
                raise KeyReused() from None
            raise StaleSequence(game_id, expected_seq, self.last_seq(game_id)) from None
        assert standing is not None  # one row, always
        actual, recorded, stored, recorded_last = standing
        if recorded is not None:
            return write.again(recorded, recorded_last, stored)
        if actual != expected_seq:
            raise StaleSequence(game_id, expected_seq, int(actual))
        return write.result()


class PostgresSharedPresence(PostgresConnection, SqlSharedPresence):
    """Presence's PostgreSQL writes, each one statement."""

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


class PostgresStore(PostgresEventLog, SqlEditionLibrary, SqlDrafts, PostgresSharedPresence):
    """Every role in one PostgreSQL database, on one connection: the log, the edition library, drafts and presence."""

    @classmethod
    def connect(cls, url: str) -> PostgresStore:
        """A store on an autocommit connection to ``url`` (no migration), borrowed from this process's
        pool for the URL (one per request, as the app does); ``close`` gives it back."""
        pool = _POOLS.of(url)
        return cls(pool.getconn(), lender=pool)

    @classmethod
    def open(cls, url: str) -> PostgresStore:
        """Open (creating and migrating if needed) the store at ``url``, on a connection of its own."""
        store = cls(psycopg.connect(url, autocommit=True))
        store.migrate()
        return store


def _contract(
    store: PostgresStore, log: PostgresEventLog, presence: PostgresSharedPresence
) -> tuple[Store, EventLog, SharedPresence]:
    """mypy checks the engine against the ``Store`` protocol here, and its role parts against theirs."""
    return store, log, presence
