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

import json
import os
import select
import threading
from collections import Counter
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

import psycopg
from psycopg import errors as pg_errors
from psycopg.pq import TransactionStatus

from events.postgres_notify import CHANNEL
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

__all__ = ["PostgresStore"]

MIGRATION_LOCK = 0x1F_E5_17  # one advisory lock id: concurrent starts migrate one at a time

MIGRATIONS: list[tuple[str, list[str]]] = [
    (
        "m001_events",
        [
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
            )
            """,
            "CREATE UNIQUE INDEX events_idempotency ON events (game_id, idempotency_key) "
            "WHERE idempotency_key IS NOT NULL",
            "CREATE INDEX events_creation_key ON events (idempotency_key) "
            "WHERE seq = 1 AND idempotency_key IS NOT NULL",
            """
            CREATE TABLE games (
                game_id TEXT PRIMARY KEY,
                kind TEXT NOT NULL,
                created_at TEXT NOT NULL,
                edition_hash TEXT NOT NULL,
                read_token TEXT NOT NULL,
                write_token TEXT NOT NULL,
                created_order BIGINT GENERATED ALWAYS AS IDENTITY
            )
            """,
            """
            CREATE TABLE editions (
                hash TEXT PRIMARY KEY,
                edition_id TEXT NOT NULL,
                content TEXT NOT NULL
            )
            """,
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
            "CREATE TABLE edition_names (name TEXT PRIMARY KEY, hash TEXT NOT NULL, saved_at TEXT NOT NULL)",
            "CREATE TABLE edition_drafts (draft_id TEXT PRIMARY KEY, content TEXT NOT NULL, updated_at TEXT NOT NULL)",
        ],
    ),
    (
        "m004_snapshots",
        [
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
            )
            """,
        ],
    ),
    (
        "m005_presence",
        [
            """
            CREATE TABLE presence (
                holder TEXT PRIMARY KEY,
                process TEXT NOT NULL,
                game_id TEXT NOT NULL,
                seat TEXT NOT NULL,
                seen_at DOUBLE PRECISION NOT NULL
            )
            """,
            "CREATE INDEX presence_seen_at ON presence (seen_at)",
        ],
    ),
]

_EVENT_COLUMNS = "game_id, seq, action, type, version, data, recorded_at, idempotency_key, command, actor"
# One statement for a whole action, whatever its length (one column array each): one round trip, one NOTIFY.
_INSERT_EVENTS = (
    f"INSERT INTO events ({_EVENT_COLUMNS}) SELECT * FROM unnest("
    "%s::text[], %s::int[], %s::int[], %s::text[], %s::int[], %s::text[], %s::text[], %s::text[], %s::text[], "
    "%s::text[])"
)
# Where the log of a game stands and what its key recorded, in one query (after the game's row is locked).
_STANDING = (
    "SELECT (SELECT COALESCE(MAX(seq), 0) FROM events WHERE game_id = %(g)s), k.seq, k.command, "
    "(SELECT MAX(seq) FROM events WHERE game_id = %(g)s AND action = k.seq) "
    "FROM (SELECT 1) AS one LEFT JOIN events k ON k.game_id = %(g)s AND k.idempotency_key = %(k)s"
)


def _columns(rows: Sequence[Sequence[Any]]) -> list[list[Any]]:
    """Rows of the events table as one list per column (for ``_INSERT_EVENTS``)."""
    return [list(column) for column in zip(*rows, strict=True)] if rows else [[] for _ in range(10)]


_INSERT_GAME = (
    "INSERT INTO games (game_id, kind, created_at, edition_hash, read_token, write_token) "
    "VALUES (%s, %s, %s, %s, %s, %s)"
)


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


def _data(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


class PostgresStore:
    """The log of every game, in one PostgreSQL database."""

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
                self.conn.execute("INSERT INTO companion_migrations (name, applied_at) VALUES (%s, %s)", (name, _now()))

    def close(self) -> None:
        """Close the connection (or, from ``connect``, leave it idle for the next request)."""
        if self._reuse_as is not None:
            _IDLE.give_back(self._reuse_as, self.conn)
        else:
            self.conn.close()

    # ----------------------------------------------------------------- editions

    def keep_edition(self, content_hash: str, edition_id: str, content: str) -> None:
        """Keep a copy of an edition file's exact content, addressed by its hash."""
        self.conn.execute(
            "INSERT INTO editions (hash, edition_id, content) VALUES (%s, %s, %s) ON CONFLICT (hash) DO NOTHING",
            (content_hash, edition_id, content),
        )

    def edition_content(self, content_hash: str) -> str | None:
        """The kept content of the edition with this hash, if any."""
        row = self.conn.execute("SELECT content FROM editions WHERE hash = %s", (content_hash,)).fetchone()
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
        """Index a new game and append its first action, atomically (see ``SqliteStore.create_game``)."""
        with self.conn.transaction():
            # Two taps on "create" with one key queue here, so the second sees the first's game.
            self.conn.execute("SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))", (idempotency_key,))
            row = self.conn.execute(
                "SELECT e.game_id, e.command, g.created_at FROM events e JOIN games g ON g.game_id = e.game_id "
                "WHERE e.seq = 1 AND e.idempotency_key = %s ORDER BY g.created_order LIMIT 1",
                (idempotency_key,),
            ).fetchone()
            if row is not None:
                first_game, stored, created_at = row
                age = (datetime.now(UTC) - datetime.fromisoformat(created_at)).total_seconds()
                if _command_of(stored) != command or not 0 <= age <= retry_window:
                    raise KeyReused()
                return str(first_game)
            self.conn.execute(_INSERT_GAME, (game_id, kind, _now(), edition_hash, tokens[0], tokens[1]))
            self.append(game_id, 0, events, idempotency_key, command, actor)
        return game_id

    def import_game(
        self, game_id: str, kind: str, edition_hash: str, tokens: tuple[str, str], rows: Sequence[dict[str, Any]]
    ) -> None:
        """Store an exported log under a new game id (one transaction); no idempotency key is kept."""
        with self.conn.transaction(), self.conn.cursor() as cur:
            cur.execute(_INSERT_GAME, (game_id, kind, _now(), edition_hash, tokens[0], tokens[1]))
            cur.execute(
                _INSERT_EVENTS,
                _columns(
                    [
                        (
                            game_id,
                            int(r["seq"]),
                            int(r["action"]),
                            str(r["type"]),
                            int(r["version"]),
                            _data(r["data"]),
                            str(r.get("recorded_at") or _now()),
                            None,
                            json.dumps(r["command"], sort_keys=True) if r.get("command") is not None else None,
                            r.get("actor"),
                        )
                        for r in rows
                    ]
                ),
            )

    def restore_game(self, game: dict[str, Any], rows: Sequence[StoredEvent]) -> None:
        """Store a game moved from another store exactly as it was (see ``SqliteStore.restore_game``)."""
        with self.conn.transaction(), self.conn.cursor() as cur:
            cur.execute(
                "INSERT INTO games (game_id, kind, created_at, edition_hash, read_token, write_token, join_code) "
                "VALUES (%s, %s, %s, %s, %s, %s, %s)",
                tuple(game[k] for k in RESTORED_GAME_COLUMNS),
            )
            cur.execute(_INSERT_EVENTS, _columns([tuple(stored_row(game["game_id"], r).values()) for r in rows]))

    def set_join_code(self, game_id: str, code: str) -> None:
        """Give a game its short join code (once; the games index is not part of the event log)."""
        self.conn.execute("UPDATE games SET join_code = %s WHERE game_id = %s AND join_code IS NULL", (code, game_id))

    def game_for(self, column: str, value: str) -> str | None:
        """The game whose ``join_code`` or ``read_token`` is ``value``."""
        if column not in ("join_code", "read_token", "write_token"):
            raise ValueError(column)
        query = f"SELECT game_id FROM games WHERE {column} = %s"
        row = self.conn.execute(query.encode(), (value,)).fetchone()
        return None if row is None else str(row[0])

    def game(self, game_id: str) -> dict[str, Any]:
        """The games-index row of ``game_id``; raises ``UnknownGame``."""
        row = self.conn.execute(
            "SELECT game_id, kind, created_at, edition_hash, read_token, write_token, join_code "
            "FROM games WHERE game_id = %s",
            (game_id,),
        ).fetchone()
        if row is None:
            raise UnknownGame(game_id)
        keys = ("game_id", "kind", "created_at", "edition_hash", "read_token", "write_token", "join_code")
        return dict(zip(keys, row, strict=True))

    def game_ids(self) -> list[str]:
        """Every game id, newest first."""
        rows = self.conn.execute("SELECT game_id FROM games ORDER BY created_at DESC, created_order DESC")
        return [str(r[0]) for r in rows]

    # ----------------------------------------------------------------- the log

    def last_seq(self, game_id: str) -> int:
        """The seq of the newest event of ``game_id`` (0 when it has none)."""
        row = self.conn.execute("SELECT COALESCE(MAX(seq), 0) FROM events WHERE game_id = %s", (game_id,)).fetchone()
        return 0 if row is None else int(row[0])

    def action_for_key(self, game_id: str, idempotency_key: str) -> int | None:
        """The action already recorded under this idempotency key, if any."""
        found = self.recorded_under_key(game_id, idempotency_key)
        return None if found is None else found[0]

    def recorded_under_key(self, game_id: str, idempotency_key: str) -> tuple[int, dict[str, Any] | None] | None:
        """The action recorded under this key in this game, and its command; ``None`` if the key is new."""
        row = self.conn.execute(
            "SELECT seq, command FROM events WHERE game_id = %s AND idempotency_key = %s", (game_id, idempotency_key)
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
        """Append ``events`` as one action if the log is still at ``expected_seq`` (see ``SqliteStore.append``)."""
        if not events:
            raise ValueError("an action needs at least one event")
        if not idempotency_key:
            raise ValueError("an append needs an idempotency key")
        try:
            with self.conn.transaction():
                return self._append_locked(game_id, expected_seq, events, idempotency_key, command, actor)
        except pg_errors.UniqueViolation as exc:  # a writer without the game row's lock got there first
            if exc.diag.constraint_name == "events_idempotency":
                found = self.recorded_under_key(game_id, idempotency_key)
                if found is not None and found[1] == command:
                    return self.append(game_id, expected_seq, events, idempotency_key, command, actor)
                raise KeyReused() from None
            raise StaleSequence(game_id, expected_seq, self.last_seq(game_id)) from None

    def _append_locked(
        self,
        game_id: str,
        expected_seq: int,
        events: Sequence[NewEvent],
        idempotency_key: str,
        command: dict[str, Any] | None,
        actor: str | None,
    ) -> AppendResult:
        self.conn.execute("SELECT 1 FROM games WHERE game_id = %s FOR UPDATE", (game_id,))
        standing = self.conn.execute(_STANDING, {"g": game_id, "k": idempotency_key}).fetchone()
        assert standing is not None  # one row, always
        actual, recorded, stored, recorded_last = standing
        if recorded is not None:
            if _command_of(stored) != command:
                raise KeyReused()
            return AppendResult(int(recorded), int(recorded_last), duplicate=True)
        if actual != expected_seq:
            raise StaleSequence(game_id, expected_seq, actual)
        first = actual + 1
        recorded_at = _now()
        rows = [
            (
                game_id,
                first + i,
                first,
                evt.type,
                evt.version,
                _data(evt.data),
                recorded_at,
                idempotency_key if i == 0 else None,
                json.dumps(command, sort_keys=True) if i == 0 and command is not None else None,
                actor if i == 0 else None,
            )
            for i, evt in enumerate(events)
        ]
        last = first + len(events) - 1
        self.conn.execute(_INSERT_EVENTS, _columns(rows))
        return AppendResult(first, last, duplicate=False, recorded_at=recorded_at)

    def read(self, game_id: str, after: int = 0) -> list[StoredEvent]:
        """Every event of ``game_id`` with seq greater than ``after``, in order."""
        cursor = self.conn.execute(
            "SELECT seq, action, type, version, data, recorded_at, idempotency_key, command, actor "
            "FROM events WHERE game_id = %s AND seq > %s ORDER BY seq",
            (game_id, after),
        )
        return [
            StoredEvent(
                seq=int(seq),
                action=int(action),
                type=str(type_),
                version=int(version),
                data=json.loads(data),
                recorded_at=str(recorded_at),
                idempotency_key=key,
                command=None if command is None else json.loads(command),
                actor=actor,
            )
            for seq, action, type_, version, data, recorded_at, key, command, actor in cursor
        ]

    # ----------------------------------------------------------------- snapshots

    def save_snapshot(
        self, game_id: str, seq: int, projection_version: int, edition_hash: str, in_effect: str, state: str
    ) -> None:
        """Keep a rebuilt state of ``game_id`` at ``seq`` (a second one for the same key is ignored)."""
        self.conn.execute(
            "INSERT INTO snapshots (game_id, projection_version, edition_hash, seq, in_effect, state, created_at) "
            "VALUES (%s, %s, %s, %s, %s, %s, %s) ON CONFLICT DO NOTHING",
            (game_id, projection_version, edition_hash, seq, in_effect, state, _now()),
        )

    def latest_snapshot(
        self, game_id: str, projection_version: int, edition_hash: str, at_most: int
    ) -> Snapshot | None:
        """The newest snapshot of ``game_id`` at or before ``at_most`` made by this projection and edition."""
        row = self.conn.execute(
            "SELECT seq, in_effect, state FROM snapshots WHERE game_id = %s AND projection_version = %s "
            "AND edition_hash = %s AND seq <= %s ORDER BY seq DESC LIMIT 1",
            (game_id, projection_version, edition_hash, at_most),
        ).fetchone()
        return None if row is None else Snapshot(int(row[0]), str(row[1]), str(row[2]))

    # ----------------------------------------------------------------- the edition library

    def name_edition(self, name: str, content_hash: str, edition_id: str, content: str) -> None:
        """Keep an edition's content and list it under ``name`` (a name saved again points to the new content)."""
        with self.conn.transaction():
            self.keep_edition(content_hash, edition_id, content)
            self.conn.execute(
                "INSERT INTO edition_names (name, hash, saved_at) VALUES (%s, %s, %s) "
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
            "INSERT INTO edition_drafts (draft_id, content, updated_at) VALUES (%s, %s, %s) "
            "ON CONFLICT (draft_id) DO UPDATE SET content = excluded.content, updated_at = excluded.updated_at",
            (draft_id, content, _now()),
        )

    def draft(self, draft_id: str) -> str | None:
        """The text of a draft edition, if any."""
        row = self.conn.execute("SELECT content FROM edition_drafts WHERE draft_id = %s", (draft_id,)).fetchone()
        return None if row is None else str(row[0])

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

    def presence_elsewhere(self, process: str, since: float) -> dict[str, Counter[str]]:
        """The open pages of every other process renewed since ``since``: seats counted by game."""
        rows = self.conn.execute(
            "SELECT game_id, seat, COUNT(*) FROM presence WHERE process <> %s AND seen_at >= %s GROUP BY game_id, seat",
            (process, since),
        ).fetchall()
        found: dict[str, Counter[str]] = {}
        for game_id, seat, count in rows:
            found.setdefault(str(game_id), Counter())[str(seat)] = int(count)
        return found


def _contract(store: PostgresStore) -> Store:
    """mypy checks the engine against the ``Store`` protocol here."""
    return store
