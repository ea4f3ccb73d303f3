"""The store on SQLite (through sqlite-utils): every role of ``events.store`` on one connection to one file.

The queries it shares with PostgreSQL are written once in ``events.sql``, one module per role;
``SqliteStore`` composes them with what is SQLite's own: the connection and its hooks
(``SqliteConnection``), the log's writes (``SqliteEventLog``: ``append`` runs in one
``BEGIN IMMEDIATE`` transaction, after the writers of this process queued on one lock per database
file) and presence's (``SqliteSharedPresence``). Connections use WAL, ``synchronous=FULL`` and a busy
timeout. The schema is created and migrated with sqlite-utils' ``Migrations``.
"""

from __future__ import annotations

import os
import sqlite3
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

import sqlite_utils
from sqlite_utils import Migrations

from events.background import run_in_background
from events.log import EVENT_COLUMNS, AppendResult, EventLog, EventRow, StoredEvent
from events.presence import SharedPresence
from events.sql.drafts import SqlDrafts
from events.sql.engine import SqlEngine
from events.sql.library import SqlEditionLibrary
from events.sql.log import SqlEventLog, Write
from events.sql.presence import SqlSharedPresence
from events.sql.schema import DRAFT_OWNER_COLUMNS, LIBRARY_INDEXES, OWNED_NAMES, TABLES
from events.store import Store

__all__ = [
    "WAL_ROOM_BYTES",
    "SqliteConnection",
    "SqliteEventLog",
    "SqliteSharedPresence",
    "SqliteStore",
    "connect",
    "make_wal_room",
]

BUSY_TIMEOUT_MS = 10_000
INSERT_EVENTS = f"INSERT INTO events ({', '.join(EVENT_COLUMNS)}) VALUES ({', '.join('?' for _ in EVENT_COLUMNS)})"

migrations = Migrations("inferno-companion")


def _create(db: sqlite_utils.Database, table: str, more: str = "") -> None:
    """``CREATE TABLE`` with the columns both engines share (``events.sql.schema.TABLES``), and ``more``."""
    db.execute(f"CREATE TABLE {table} ({TABLES[table]}{more}) STRICT")


@migrations()
def m001_events(db: sqlite_utils.Database) -> None:
    """The log, the games index and the content-addressed edition copies."""
    _create(db, "events")
    db.execute(
        "CREATE UNIQUE INDEX events_idempotency ON events (game_id, idempotency_key) WHERE idempotency_key IS NOT NULL"
    )
    _create(db, "games")
    _create(db, "editions")
    # The log is sacred: the database itself refuses to change or remove an event.
    db.execute(
        "CREATE TRIGGER events_no_update BEFORE UPDATE ON events "
        "BEGIN SELECT RAISE(ABORT, 'events are append-only'); END"
    )
    db.execute(
        "CREATE TRIGGER events_no_delete BEFORE DELETE ON events "
        "BEGIN SELECT RAISE(ABORT, 'events are append-only'); END"
    )


@migrations()
def m002_join_codes(db: sqlite_utils.Database) -> None:
    """A short code per game, for joining by typing it (10 characters, 50 bits)."""
    db.execute("ALTER TABLE games ADD COLUMN join_code TEXT")
    db.execute("CREATE UNIQUE INDEX games_join_code ON games (join_code) WHERE join_code IS NOT NULL")


@migrations()
def m003_edition_library(db: sqlite_utils.Database) -> None:
    """Editions saved under a name (content in ``editions``, by hash) and drafts being edited."""
    _create(db, "edition_names")
    _create(db, "edition_drafts")


@migrations()
def m004_snapshots(db: sqlite_utils.Database) -> None:
    """Rebuilt states kept beside the log: never events, only a shortcut that may be ignored."""
    _create(db, "snapshots")


@migrations()
def m005_presence(db: sqlite_utils.Database) -> None:
    """Who has a live page open, shared by every server process: never events, rows expire unless
    their process renews them (a process that dies leaves rows that simply age out)."""
    _create(db, "presence", ", seen_at REAL NOT NULL")
    db.execute("CREATE INDEX presence_seen_at ON presence (seen_at)")


@migrations()
def m006_phone_library(db: sqlite_utils.Database) -> None:
    """Drafts and named editions belong to the phone that made them (names unique per phone), a named
    edition may be shared by a token and published; a draft may be reused under a key. Names saved
    before keep the empty owner (the server's own, seen by every phone); drafts made before have no
    owner (no phone opens them) and expire."""
    db.execute("ALTER TABLE edition_names RENAME TO edition_names_m003")
    db.execute(f"CREATE TABLE edition_names ({OWNED_NAMES}) STRICT")
    db.execute(
        "INSERT INTO edition_names (name, hash, saved_at, owner) "
        "SELECT name, hash, saved_at, '' FROM edition_names_m003"
    )
    db.execute("DROP TABLE edition_names_m003")
    for column in DRAFT_OWNER_COLUMNS:
        db.execute(f"ALTER TABLE edition_drafts ADD COLUMN {column}")
    for index in LIBRARY_INDEXES:
        db.execute(index)


def connect(path: str | Path) -> sqlite3.Connection:
    """A connection with WAL, full durability and a busy timeout; autocommit mode."""
    conn = sqlite3.connect(
        str(path),
        isolation_level=None,
        timeout=BUSY_TIMEOUT_MS / 1000,
        check_same_thread=False,
    )
    conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA synchronous = FULL")
    conn.execute("PRAGMA foreign_keys = ON")
    return conn


WAL_ROOM_BYTES = 5 * 1024 * 1024
"""The room a server makes in the log's WAL file when it starts (``make_wal_room``): more than SQLite's automatic
checkpoint lets it hold (1,000 pages of 4 KB), so the file never has to grow while the server runs."""


_ROOM_MARGIN = (
    256 * 1024
)  # the pages still in the cache at the ROLLBACK, and each page's frame header: ``size`` at least


def make_wal_room(conn: sqlite3.Connection, size: int = WAL_ROOM_BYTES) -> int:
    """Make the WAL file of ``conn``'s database at least ``size`` bytes long, changing nothing in the database; returns
    its length (0 for a database that is not in WAL mode).

    A durable COMMIT ends with an ``fdatasync`` of the WAL. While the file grows, that sync also writes the file's new
    length to the file system's journal, and takes longer than one that writes over the file's own blocks
    (``bench/README.md`` has the figures). SQLite reuses its WAL from the start after each checkpoint and never
    shortens it (no ``journal_size_limit``), so a server that has run a while writes over it; one just started, on a
    WAL the last connection of the server before it deleted, grew it for its first ~1,000 pages of changes. Here a
    transaction writes ``size`` bytes there and is rolled back: its pages, spilled from a small page cache, are in the
    file but were never committed, and the COMMITs after it write over them. Keep the connection open (the pool's): the
    last connection of a database to close checkpoints it and deletes its WAL."""
    mode = conn.execute("PRAGMA journal_mode").fetchone()[0]
    name = conn.execute("PRAGMA database_list").fetchone()[2]
    if str(mode).lower() != "wal" or not name:
        return 0
    wal = Path(f"{name}-wal")
    if wal.exists() and wal.stat().st_size >= size:
        return wal.stat().st_size
    cache = conn.execute("PRAGMA cache_size").fetchone()[0]
    conn.execute("PRAGMA cache_size = -64")  # 64 KB: the transaction's pages spill into the WAL as it writes them
    try:
        conn.execute("BEGIN IMMEDIATE")
        try:
            conn.execute("CREATE TABLE wal_room (b BLOB)")
            conn.execute("INSERT INTO wal_room (b) VALUES (zeroblob(?))", (size + _ROOM_MARGIN,))
        finally:
            conn.execute("ROLLBACK")
    finally:
        conn.execute(f"PRAGMA cache_size = {int(cache)}")
    if not wal.exists():
        return 0
    fd = os.open(wal, os.O_RDONLY)
    try:
        os.fsync(fd)  # written now, not by the kernel later while the first taps wait on their own syncs
    finally:
        os.close(fd)
    return wal.stat().st_size


_WRITERS: dict[str, threading.Lock] = {}
_WRITERS_GUARD = threading.Lock()


def _writer_lock(conn: sqlite3.Connection) -> threading.Lock:
    """One lock per database file in this process: its writers queue in order.

    SQLite lets one writer in at a time; the others would sleep and retry in its busy handler,
    which under load lets some wait far longer than the rest. Queueing on a lock first keeps the
    waits short and fair; the busy timeout still covers writers in other processes.
    """
    name = conn.execute("PRAGMA database_list").fetchone()[2] or f"memory:{id(conn)}"
    with _WRITERS_GUARD:
        return _WRITERS.setdefault(name, threading.Lock())


_WHERE_AND_KEY = (
    "SELECT COALESCE(MAX(seq), 0), "
    "(SELECT seq FROM events WHERE game_id = ?1 AND idempotency_key = ?2), "
    "(SELECT command FROM events WHERE game_id = ?1 AND idempotency_key = ?2) "
    "FROM events WHERE game_id = ?1"
)
"""An append's look before it writes: the log's last seq, and the seq and command of the action recorded under the
key (the key is unique in a game: ``events_idempotency``)."""


class SqliteConnection(SqlEngine):
    """One connection to a SQLite file as every role's queries use it: the hooks of ``events.sql``, the write
    transaction (``BEGIN IMMEDIATE`` under the lock of the file's writers), migrations, and the wait for an append's
    COMMIT running in the background, which every other call makes first."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        self.db = sqlite_utils.Database(conn)
        self._writer = _writer_lock(conn)
        self._pending: Callable[[], None] | None = None  # an append's COMMIT running in the background (``settle``)

    def migrate(self) -> None:
        """Apply any pending schema migrations."""
        migrations.apply(self.db)

    def close(self) -> None:
        """Close the connection (once an append's COMMIT running in the background is over)."""
        try:
            self.settle()
        finally:
            self.conn.close()

    def settle(self) -> None:
        """Wait until the COMMIT of an append made ``background_commit`` is over (raising if it failed); at once
        without one."""
        if self._pending is not None:
            self._pending()

    def _execute(self, query: str, params: Sequence[Any] = ()) -> None:
        self.settle()
        self.conn.execute(query, params)

    def _one(self, query: str, params: Sequence[Any] = ()) -> tuple[Any, ...] | None:
        self.settle()
        row: tuple[Any, ...] | None = self.conn.execute(query, params).fetchone()
        return row

    def _all(self, query: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        self.settle()
        return self.conn.execute(query, params).fetchall()

    def _transaction(self) -> AbstractContextManager[object]:
        return self._immediate()

    @contextmanager
    def _immediate(self) -> Iterator[None]:
        self.settle()
        if self.conn.in_transaction:  # nested: the outer BEGIN IMMEDIATE already holds the lock
            yield
            return
        with self._writer:
            self.conn.execute("BEGIN IMMEDIATE")
            try:
                yield
            except BaseException:
                self.conn.execute("ROLLBACK")
                raise
            else:
                self.conn.execute("COMMIT")


class SqliteEventLog(SqliteConnection, SqlEventLog):
    """The event log's SQLite parts: its inserts, its creations and appends under the writers' lock (an append's
    COMMIT in the background when asked), and its read of what came since a seq."""

    CREATED_ORDER = "rowid"

    def _insert_events(self, rows: Sequence[EventRow]) -> None:
        self.settle()
        self.conn.executemany(INSERT_EVENTS, rows)

    def _creating(self, idempotency_key: str) -> AbstractContextManager[object]:
        return self._immediate()  # one writer at a time: a second creation with the key sees the first

    def read_past(self, game_id: str, seq: int) -> list[StoredEvent] | None:
        """``SqlEventLog.read_past`` as two statements: in this process a statement costs no round trip, and where the
        log stands is cheaper to read than the row at ``seq`` with its payload, on every request whose view is fresh
        (nearly all of them on one process)."""
        last = self.last_seq(game_id)
        if last < seq:
            return None
        return [] if last == seq else self.read(game_id, after=seq)

    def _append(self, write: Write, background_commit: bool = False) -> AppendResult:
        """One ``BEGIN IMMEDIATE`` transaction: the key looked up, then where the log stands, then the rows.

        ``background_commit``: the rows written, the COMMIT runs in the background, in a thread of its own
        (``events.background``), while the caller goes on (the web app draws its answer meanwhile: the ``fsync`` of a
        durable COMMIT is most of an append), the lock of this file's writers held until it is over; the result's
        ``settle`` waits for it. A COMMIT that fails is rolled back and ``settle`` raises its error: nothing was
        stored."""
        self.settle()
        if self.conn.in_transaction:  # nested: the outer BEGIN IMMEDIATE already holds the lock
            return self._write(write)
        # ``_immediate`` written out (an append is every tap's, and a generator's context is not free), its COMMIT
        # here unless it runs in the background
        self._writer.acquire()
        try:
            self.conn.execute("BEGIN IMMEDIATE")
            try:
                result = self._write(write)
            except BaseException:
                self.conn.execute("ROLLBACK")
                raise
            if not background_commit or result.duplicate:  # a duplicate wrote nothing: nothing to wait for
                self.conn.execute("COMMIT")
                self._writer.release()
                return result
        except BaseException:
            self._writer.release()
            raise
        wait = run_in_background(self._commit)
        outcome: list[BaseException | None] = []

        def settle() -> None:
            if not outcome:
                try:
                    wait()
                    outcome.append(None)
                except BaseException as exc:
                    outcome.append(exc)
                finally:
                    self._pending = None
                    self._writer.release()
            if outcome[0] is not None:
                raise outcome[0]

        self._pending = settle
        return replace(result, settle=settle)

    def _write(self, write: Write) -> AppendResult:
        # where the log stands and the action recorded under the key (if any), in one statement: each call into SQLite
        # has a cost of its own in a server, whatever it reads (the store's two reads, ``last_seq`` and
        # ``recorded_under_key``, each alone before; ``tests/events/test_store.py`` holds an append's answers)
        last, first, stored = self.conn.execute(_WHERE_AND_KEY, (write.game_id, write.idempotency_key)).fetchone()
        if first is not None:  # a repeated tap (or a key reused: ``again`` says which)
            last = self.conn.execute(
                "SELECT MAX(seq) FROM events WHERE game_id = ? AND action = ?", (write.game_id, first)
            ).fetchone()[0]
            return write.again(first, last, stored)
        return self._write_at(write, int(last))

    def _commit(self) -> None:
        """The COMMIT of an append made ``background_commit`` (in its own thread); rolled back if it fails."""
        try:
            self.conn.execute("COMMIT")
        except BaseException:
            if self.conn.in_transaction:
                self.conn.execute("ROLLBACK")
            raise


class SqliteSharedPresence(SqliteConnection, SqlSharedPresence):
    """Presence's SQLite writes, each under the lock of the file's writers."""

    def hold_presence(self, process: str, held: Sequence[tuple[str, str, str]], now: float) -> None:
        """Record (or renew, at ``now``) the open pages of ``process``: (holder, game_id, seat) each."""
        if not held:
            return
        with self._immediate():
            self.conn.executemany(
                "INSERT INTO presence (holder, process, game_id, seat, seen_at) VALUES (?, ?, ?, ?, ?) "
                "ON CONFLICT (holder) DO UPDATE SET seen_at = excluded.seen_at",
                [(holder, process, game_id, seat, now) for holder, game_id, seat in held],
            )

    def drop_presence(self, holders: Sequence[str], before: float) -> None:
        """Forget the pages ``holders`` (they closed) and every page not renewed since ``before``."""
        with self._immediate():
            self.conn.executemany("DELETE FROM presence WHERE holder = ?", [(h,) for h in holders])
            self.conn.execute("DELETE FROM presence WHERE seen_at < ?", (before,))


class SqliteStore(SqliteEventLog, SqlEditionLibrary, SqlDrafts, SqliteSharedPresence):
    """Every role in one SQLite file, on one connection: the log, the edition library, drafts and presence."""

    @classmethod
    def open(cls, path: str | Path) -> SqliteStore:
        """Open (creating and migrating if needed) the store at ``path``."""
        store = cls(connect(path))
        store.migrate()
        return store


def _contract(
    store: SqliteStore, log: SqliteEventLog, presence: SqliteSharedPresence
) -> tuple[Store, EventLog, SharedPresence]:
    """mypy checks the engine against the ``Store`` protocol here, and its role parts against theirs."""
    return store, log, presence
