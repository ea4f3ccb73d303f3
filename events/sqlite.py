"""The append-only event log on SQLite (through sqlite-utils), keeping the contract of ``events.store``.

``append`` runs in one ``BEGIN IMMEDIATE`` transaction, after the writers of this process queued
on one lock per database file. Connections use WAL, ``synchronous=FULL`` and a busy timeout. The
schema is created and migrated with sqlite-utils' ``Migrations``.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import sqlite_utils
from sqlite_utils import Migrations

from events.store import (
    CREATE_RETRY_SECONDS,
    RESTORED_GAME_COLUMNS,
    AppendResult,
    KeyReused,
    NewEvent,
    Snapshot,
    StaleSequence,
    Store,
    StoredEvent,
    UnknownGame,
    _command_of,
    _now,
    stored_row,
)

__all__ = ["SqliteStore", "connect"]

BUSY_TIMEOUT_MS = 10_000

migrations = Migrations("inferno-companion")


@migrations()
def m001_events(db: sqlite_utils.Database) -> None:
    """The log, the games index and the content-addressed edition copies."""
    db.execute(
        """
        CREATE TABLE events (
            game_id TEXT NOT NULL,
            seq INTEGER NOT NULL,
            action INTEGER NOT NULL,
            type TEXT NOT NULL,
            version INTEGER NOT NULL,
            data TEXT NOT NULL,
            recorded_at TEXT NOT NULL,
            idempotency_key TEXT,
            command TEXT,
            actor TEXT,
            PRIMARY KEY (game_id, seq)
        ) STRICT
        """
    )
    db.execute(
        "CREATE UNIQUE INDEX events_idempotency ON events (game_id, idempotency_key) WHERE idempotency_key IS NOT NULL"
    )
    db.execute(
        """
        CREATE TABLE games (
            game_id TEXT PRIMARY KEY,
            kind TEXT NOT NULL,
            created_at TEXT NOT NULL,
            edition_hash TEXT NOT NULL,
            read_token TEXT NOT NULL,
            write_token TEXT NOT NULL
        ) STRICT
        """
    )
    db.execute(
        """
        CREATE TABLE editions (
            hash TEXT PRIMARY KEY,
            edition_id TEXT NOT NULL,
            content TEXT NOT NULL
        ) STRICT
        """
    )
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
    db.execute(
        """
        CREATE TABLE edition_names (
            name TEXT PRIMARY KEY,
            hash TEXT NOT NULL,
            saved_at TEXT NOT NULL
        ) STRICT
        """
    )
    db.execute(
        """
        CREATE TABLE edition_drafts (
            draft_id TEXT PRIMARY KEY,
            content TEXT NOT NULL,
            updated_at TEXT NOT NULL
        ) STRICT
        """
    )


@migrations()
def m004_snapshots(db: sqlite_utils.Database) -> None:
    """Rebuilt states kept beside the log: never events, only a shortcut that may be ignored."""
    db.execute(
        """
        CREATE TABLE snapshots (
            game_id TEXT NOT NULL,
            projection_version INTEGER NOT NULL,
            edition_hash TEXT NOT NULL,
            seq INTEGER NOT NULL,
            in_effect TEXT NOT NULL,
            state TEXT NOT NULL,
            created_at TEXT NOT NULL,
            PRIMARY KEY (game_id, projection_version, edition_hash, seq)
        ) STRICT
        """
    )


@migrations()
def m005_presence(db: sqlite_utils.Database) -> None:
    """Who has a live page open, shared by every server process: never events, rows expire unless
    their process renews them (a process that dies leaves rows that simply age out)."""
    db.execute(
        """
        CREATE TABLE presence (
            holder TEXT PRIMARY KEY,
            process TEXT NOT NULL,
            game_id TEXT NOT NULL,
            seat TEXT NOT NULL,
            seen_at REAL NOT NULL
        ) STRICT
        """
    )
    db.execute("CREATE INDEX presence_seen_at ON presence (seen_at)")


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


class SqliteStore:
    """The log of every game, in one SQLite file."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        self.db = sqlite_utils.Database(conn)
        self._writer = _writer_lock(conn)

    @classmethod
    def open(cls, path: str | Path) -> SqliteStore:
        """Open (creating and migrating if needed) the store at ``path``."""
        store = cls(connect(path))
        store.migrate()
        return store

    def migrate(self) -> None:
        """Apply any pending schema migrations."""
        migrations.apply(self.db)

    def close(self) -> None:
        """Close the connection."""
        self.conn.close()

    @contextmanager
    def _immediate(self) -> Iterator[None]:
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

    # ----------------------------------------------------------------- editions

    def keep_edition(self, content_hash: str, edition_id: str, content: str) -> None:
        """Keep a copy of an edition file's exact content, addressed by its hash."""
        self.conn.execute(
            "INSERT OR IGNORE INTO editions (hash, edition_id, content) VALUES (?, ?, ?)",
            (content_hash, edition_id, content),
        )

    def edition_content(self, content_hash: str) -> str | None:
        """The kept content of the edition with this hash, if any."""
        row = self.conn.execute("SELECT content FROM editions WHERE hash = ?", (content_hash,)).fetchone()
        return None if row is None else str(row[0])

    # ----------------------------------------------------------------- games

    def create_game(
        self,
        game_id: str,
        kind: str,
        edition_hash: str,
        tokens: tuple[str, str],
        events: Sequence[NewEvent],
        idempotency_key: str,
        command: dict[str, Any] | None = None,
        actor: str | None = None,
        retry_window: float = CREATE_RETRY_SECONDS,
    ) -> str:
        """Index a new game and append its first action, atomically.

        A repeated ``idempotency_key`` with the very same ``command`` within ``retry_window``
        seconds (a double tap on "create") returns the game the first request created, and
        creates nothing. Any other reuse of the key raises ``KeyReused``.
        """
        with self._immediate():
            row = self.conn.execute(
                "SELECT e.game_id, e.command, g.created_at FROM events e JOIN games g ON g.game_id = e.game_id "
                "WHERE e.seq = 1 AND e.idempotency_key = ? ORDER BY g.rowid LIMIT 1",
                (idempotency_key,),
            ).fetchone()
            if row is not None:
                first_game, stored, created_at = row
                age = (datetime.now(UTC) - datetime.fromisoformat(created_at)).total_seconds()
                if _command_of(stored) != command or not 0 <= age <= retry_window:
                    raise KeyReused()
                return str(first_game)
            self.conn.execute(
                "INSERT INTO games (game_id, kind, created_at, edition_hash, read_token, write_token) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (game_id, kind, _now(), edition_hash, tokens[0], tokens[1]),
            )
            self.append(game_id, 0, events, idempotency_key, command, actor)
        return game_id

    def import_game(
        self, game_id: str, kind: str, edition_hash: str, tokens: tuple[str, str], rows: Sequence[dict[str, Any]]
    ) -> None:
        """Store an exported log under a new game id (one transaction).

        No idempotency key is kept: a key is a secret of the phone that sent it, and an imported
        log must not answer to the keys of the game it was exported from.
        """
        with self._immediate():
            self.conn.execute(
                "INSERT INTO games (game_id, kind, created_at, edition_hash, read_token, write_token) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (game_id, kind, _now(), edition_hash, tokens[0], tokens[1]),
            )
            self.db["events"].insert_all(  # type: ignore[union-attr]
                {
                    "game_id": game_id,
                    "seq": int(r["seq"]),
                    "action": int(r["action"]),
                    "type": str(r["type"]),
                    "version": int(r["version"]),
                    "data": json.dumps(r["data"], sort_keys=True, separators=(",", ":")),
                    "recorded_at": str(r.get("recorded_at") or _now()),
                    "idempotency_key": None,
                    "command": json.dumps(r["command"], sort_keys=True) if r.get("command") is not None else None,
                    "actor": r.get("actor"),
                }
                for r in rows
            )

    def restore_game(self, game: dict[str, Any], rows: Sequence[StoredEvent]) -> None:
        """Store a game moved from another store exactly as it was: its index row (``game()``) and every
        event with its keys and times (one transaction; ``companion migrate`` uses it)."""
        with self._immediate():
            self.conn.execute(
                "INSERT INTO games (game_id, kind, created_at, edition_hash, read_token, write_token, join_code) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                tuple(game[k] for k in RESTORED_GAME_COLUMNS),
            )
            self.db["events"].insert_all(stored_row(game["game_id"], r) for r in rows)  # type: ignore[union-attr]

    def set_join_code(self, game_id: str, code: str) -> None:
        """Give a game its short join code (once; the games index is not part of the event log)."""
        self.conn.execute("UPDATE games SET join_code = ? WHERE game_id = ? AND join_code IS NULL", (code, game_id))

    def game_for(self, column: str, value: str) -> str | None:
        """The game whose ``join_code`` or ``read_token`` is ``value``."""
        if column not in ("join_code", "read_token", "write_token"):
            raise ValueError(column)
        row = self.conn.execute(f"SELECT game_id FROM games WHERE {column} = ?", (value,)).fetchone()
        return None if row is None else str(row[0])

    def game(self, game_id: str) -> dict[str, Any]:
        """The games-index row of ``game_id``; raises ``UnknownGame``."""
        row = self.conn.execute(
            "SELECT game_id, kind, created_at, edition_hash, read_token, write_token, join_code "
            "FROM games WHERE game_id = ?",
            (game_id,),
        ).fetchone()
        if row is None:
            raise UnknownGame(game_id)
        keys = ("game_id", "kind", "created_at", "edition_hash", "read_token", "write_token", "join_code")
        return dict(zip(keys, row, strict=True))

    def game_ids(self) -> list[str]:
        """Every game id, newest first."""
        rows = self.conn.execute("SELECT game_id FROM games ORDER BY created_at DESC, rowid DESC")
        return [str(r[0]) for r in rows]

    # ----------------------------------------------------------------- the log

    def last_seq(self, game_id: str) -> int:
        """The seq of the newest event of ``game_id`` (0 when it has none)."""
        row = self.conn.execute("SELECT COALESCE(MAX(seq), 0) FROM events WHERE game_id = ?", (game_id,)).fetchone()
        return int(row[0])

    def action_for_key(self, game_id: str, idempotency_key: str) -> int | None:
        """The action already recorded under this idempotency key, if any."""
        found = self.recorded_under_key(game_id, idempotency_key)
        return None if found is None else found[0]

    def recorded_under_key(self, game_id: str, idempotency_key: str) -> tuple[int, dict[str, Any] | None] | None:
        """The action recorded under this key in this game, and its command; ``None`` if the key is new."""
        row = self.conn.execute(
            "SELECT seq, command FROM events WHERE game_id = ? AND idempotency_key = ?", (game_id, idempotency_key)
        ).fetchone()
        return None if row is None else (int(row[0]), _command_of(row[1]))

    def append(
        self,
        game_id: str,
        expected_seq: int,
        events: Sequence[NewEvent],
        idempotency_key: str,
        command: dict[str, Any] | None = None,
        actor: str | None = None,
    ) -> AppendResult:
        """Append ``events`` as one action if the log is still at ``expected_seq``.

        A repeated ``idempotency_key`` with the same ``command`` returns the first append's result
        and stores nothing; with another command it raises ``KeyReused``.
        """
        if not events:
            raise ValueError("an action needs at least one event")
        if not idempotency_key:
            raise ValueError("an append needs an idempotency key")
        with self._immediate():
            found = self.recorded_under_key(game_id, idempotency_key)
            if found is not None:
                first, stored = found
                if stored != command:
                    raise KeyReused()
                last = self.conn.execute(
                    "SELECT MAX(seq) FROM events WHERE game_id = ? AND action = ?", (game_id, first)
                ).fetchone()[0]
                return AppendResult(first, int(last), duplicate=True)
            actual = self.last_seq(game_id)
            if actual != expected_seq:
                raise StaleSequence(game_id, expected_seq, actual)
            first = actual + 1
            recorded_at = _now()
            rows = []
            for i, evt in enumerate(events):
                head = i == 0
                rows.append(
                    {
                        "game_id": game_id,
                        "seq": first + i,
                        "action": first,
                        "type": evt.type,
                        "version": evt.version,
                        "data": json.dumps(evt.data, sort_keys=True, separators=(",", ":")),
                        "recorded_at": recorded_at,
                        "idempotency_key": idempotency_key if head else None,
                        "command": json.dumps(command, sort_keys=True) if head and command is not None else None,
                        "actor": actor if head else None,
                    }
                )
            self.db["events"].insert_all(rows)  # type: ignore[union-attr]
        return AppendResult(first, first + len(events) - 1, duplicate=False, recorded_at=recorded_at)

    def read(self, game_id: str, after: int = 0) -> list[StoredEvent]:
        """Every event of ``game_id`` with seq greater than ``after``, in order."""
        rows = self.conn.execute(
            "SELECT seq, action, type, version, data, recorded_at, idempotency_key, command, actor "
            "FROM events WHERE game_id = ? AND seq > ? ORDER BY seq",
            (game_id, after),
        ).fetchall()
        # one JSON parse for every payload, and one for every command: a long log reads in one go
        datas = json.loads("[" + ",".join(r[4] for r in rows) + "]")
        commands = iter(json.loads("[" + ",".join(r[7] for r in rows if r[7] is not None) + "]"))
        out = []
        for (seq, action, type_, version, _data, recorded_at, key, command, actor), data in zip(
            rows, datas, strict=True
        ):
            # the columns are STRICT-typed: the row fills the frozen dataclass as __init__ would
            row = object.__new__(StoredEvent)
            row.__dict__.update(
                seq=seq,
                action=action,
                type=type_,
                version=version,
                data=data,
                recorded_at=recorded_at,
                idempotency_key=key,
                command=None if command is None else next(commands),
                actor=actor,
            )
            out.append(row)
        return out

    # ----------------------------------------------------------------- snapshots

    def save_snapshot(
        self, game_id: str, seq: int, projection_version: int, edition_hash: str, in_effect: str, state: str
    ) -> None:
        """Keep a rebuilt state of ``game_id`` at ``seq`` (a second one for the same key is ignored)."""
        self.conn.execute(
            "INSERT OR IGNORE INTO snapshots (game_id, projection_version, edition_hash, seq, in_effect, state, "
            "created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (game_id, projection_version, edition_hash, seq, in_effect, state, _now()),
        )

    def latest_snapshot(
        self, game_id: str, projection_version: int, edition_hash: str, at_most: int
    ) -> Snapshot | None:
        """The newest snapshot of ``game_id`` at or before ``at_most`` made by this projection and edition."""
        row = self.conn.execute(
            "SELECT seq, in_effect, state FROM snapshots WHERE game_id = ? AND projection_version = ? "
            "AND edition_hash = ? AND seq <= ? ORDER BY seq DESC LIMIT 1",
            (game_id, projection_version, edition_hash, at_most),
        ).fetchone()
        return None if row is None else Snapshot(int(row[0]), str(row[1]), str(row[2]))

    # ----------------------------------------------------------------- the edition library

    def name_edition(self, name: str, content_hash: str, edition_id: str, content: str) -> None:
        """Keep an edition's content and list it under ``name`` (a name saved again points to the new content)."""
        with self._immediate():
            self.keep_edition(content_hash, edition_id, content)
            self.conn.execute(
                "INSERT INTO edition_names (name, hash, saved_at) VALUES (?, ?, ?) "
                "ON CONFLICT (name) DO UPDATE SET hash = excluded.hash, saved_at = excluded.saved_at",
                (name, content_hash, _now()),
            )

    def named_editions(self) -> list[tuple[str, str, str]]:
        """Every named edition as (name, hash, saved_at), newest first."""
        rows = self.conn.execute("SELECT name, hash, saved_at FROM edition_names ORDER BY saved_at DESC, name")
        return [(str(n), str(h), str(t)) for n, h, t in rows]

    def put_draft(self, draft_id: str, content: str) -> None:
        """Keep the current text of an edition being edited."""
        self.conn.execute(
            "INSERT INTO edition_drafts (draft_id, content, updated_at) VALUES (?, ?, ?) "
            "ON CONFLICT (draft_id) DO UPDATE SET content = excluded.content, updated_at = excluded.updated_at",
            (draft_id, content, _now()),
        )

    def draft(self, draft_id: str) -> str | None:
        """The text of a draft edition, if any."""
        row = self.conn.execute("SELECT content FROM edition_drafts WHERE draft_id = ?", (draft_id,)).fetchone()
        return None if row is None else str(row[0])

    # ----------------------------------------------------------------- presence (not game state)

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

    def presence_elsewhere(self, process: str, since: float) -> dict[str, Counter[str]]:
        """The open pages of every other process renewed since ``since``: seats counted by game."""
        rows = self.conn.execute(
            "SELECT game_id, seat, COUNT(*) FROM presence WHERE process <> ? AND seen_at >= ? GROUP BY game_id, seat",
            (process, since),
        )
        found: dict[str, Counter[str]] = {}
        for game_id, seat, count in rows:
            found.setdefault(str(game_id), Counter())[str(seat)] = int(count)
        return found


def _contract(store: SqliteStore) -> Store:
    """mypy checks the engine against the ``Store`` protocol here."""
    return store
