"""The queries both engines share, written once: ``SqlStore``, the base of ``SqliteStore`` and ``PostgresStore``.

A shared query marks its parameters with ``?``; each engine runs it through its own hooks
(``_execute``, ``_one``, ``_all``: PostgreSQL's turn ``?`` into ``%s``), inserts an action's rows
its own way (``_insert_events``), and keeps what really differs: connecting and migrating, the
transactions and locks of a write (``_transaction``, ``_creating``, ``_append``), and the presence
writes. Every row of the log is made by ``events.store.action_rows``.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import UTC, datetime
from itertools import groupby
from typing import Any, ClassVar

from events.store import (
    CREATE_RETRY_SECONDS,
    RESTORED_GAME_COLUMNS,
    AppendResult,
    Draft,
    EventRow,
    KeyReused,
    NamedEdition,
    NewEvent,
    Snapshot,
    StaleSequence,
    StoredEvent,
    UnknownGame,
    action_rows,
    stored_event,
)

__all__ = [
    "DRAFT_OWNER_COLUMNS",
    "LIBRARY_INDEXES",
    "OWNED_NAMES",
    "TABLES",
    "SqlStore",
    "Write",
    "command_of",
    "copied_rows",
    "utc_now",
]


@dataclass(frozen=True, slots=True)
class Write:
    """An action to append: stored after the log's last seq if the screen that sent it was drawn there
    (``expected_seq``), once under its ``idempotency_key``. Its rows, numbered from ``expected_seq + 1``, are made
    before any lock is taken; an engine's ``_append`` stores them under its lock (``SqlStore._write_at``), or sends
    them with the lock itself (PostgreSQL: one statement)."""

    game_id: str
    expected_seq: int
    idempotency_key: str
    command: dict[str, Any] | None
    rows: list[EventRow]
    recorded_at: str

    def result(self) -> AppendResult:
        """What the append answers once the rows are stored."""
        first = self.expected_seq + 1
        return AppendResult(first, first + len(self.rows) - 1, duplicate=False, recorded_at=self.recorded_at)

    def again(self, first: int, last: int, stored: str | None) -> AppendResult:
        """What the append answers when its key already recorded the action ``first``..``last`` with the command
        ``stored`` (as stored): that action's result, or ``KeyReused`` when it was another command."""
        if command_of(stored) != self.command:
            raise KeyReused()
        return AppendResult(int(first), int(last), duplicate=True)


# The columns of the tables both engines create, each as its migration made it, written once: an engine
# wraps them in its own CREATE TABLE (SQLite's are STRICT; PostgreSQL's games add ``created_order``,
# and its presence times are DOUBLE PRECISION where SQLite's are REAL). Applied migrations never
# change: a new column is a new migration in both engines.
TABLES = {
    "events": """
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
    """,
    "games": """
        game_id TEXT PRIMARY KEY,
        kind TEXT NOT NULL,
        created_at TEXT NOT NULL,
        edition_hash TEXT NOT NULL,
        read_token TEXT NOT NULL,
        write_token TEXT NOT NULL
    """,
    "editions": "hash TEXT PRIMARY KEY, edition_id TEXT NOT NULL, content TEXT NOT NULL",
    "edition_names": "name TEXT PRIMARY KEY, hash TEXT NOT NULL, saved_at TEXT NOT NULL",
    "edition_drafts": "draft_id TEXT PRIMARY KEY, content TEXT NOT NULL, updated_at TEXT NOT NULL",
    "snapshots": """
        game_id TEXT NOT NULL,
        projection_version INTEGER NOT NULL,
        edition_hash TEXT NOT NULL,
        seq INTEGER NOT NULL,
        in_effect TEXT NOT NULL,
        state TEXT NOT NULL,
        created_at TEXT NOT NULL,
        PRIMARY KEY (game_id, projection_version, edition_hash, seq)
    """,
    "presence": "holder TEXT PRIMARY KEY, process TEXT NOT NULL, game_id TEXT NOT NULL, seat TEXT NOT NULL",
}

# Migration m006 (both engines): drafts and named editions belong to a phone. ``edition_names`` gets its
# owner, its publication and its share token, and is keyed (owner, name); ``edition_drafts`` its owner and
# reuse key. SQLite rebuilds ``edition_names`` with these columns (in this order); PostgreSQL alters it.
OWNED_NAMES = """
        name TEXT NOT NULL,
        hash TEXT NOT NULL,
        saved_at TEXT NOT NULL,
        owner TEXT NOT NULL DEFAULT '',
        published_at TEXT,
        share_token TEXT,
        PRIMARY KEY (owner, name)
"""
DRAFT_OWNER_COLUMNS = ("owner TEXT NOT NULL DEFAULT ''", "reuse_key TEXT")
LIBRARY_INDEXES = (
    "CREATE UNIQUE INDEX edition_names_share_token ON edition_names (share_token) WHERE share_token IS NOT NULL",
    "CREATE INDEX edition_names_published ON edition_names (published_at) WHERE published_at IS NOT NULL",
    "CREATE INDEX edition_drafts_owner ON edition_drafts (owner, updated_at)",
    "CREATE INDEX edition_drafts_updated ON edition_drafts (updated_at)",
    "CREATE UNIQUE INDEX edition_drafts_reuse ON edition_drafts (owner, reuse_key) WHERE reuse_key IS NOT NULL",
)

INSERT_GAME = (
    "INSERT INTO games (game_id, kind, created_at, edition_hash, read_token, write_token) VALUES (?, ?, ?, ?, ?, ?)"
)
INSERT_RESTORED_GAME = (
    f"INSERT INTO games ({', '.join(RESTORED_GAME_COLUMNS)}) VALUES ({', '.join('?' for _ in RESTORED_GAME_COLUMNS)})"
)


def utc_now() -> str:
    """The time a row is recorded at: UTC, ISO 8601, to the millisecond."""
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def command_of(text: str | None) -> dict[str, Any] | None:
    """A stored command, parsed (``None`` stays ``None``)."""
    return None if text is None else dict(json.loads(text))


def copied_rows(game_id: str, rows: Sequence[StoredEvent]) -> Iterator[EventRow]:
    """The rows of a log copied as it was recorded, one action at a time through ``action_rows``.

    Rows that do not form actions as an append writes them (a head whose ``action`` is its own seq,
    then its followers numbered on, carrying no key, command or actor) raise ``ValueError``: a copy
    is never stored other than it was.
    """
    for action, grouped in groupby(rows, key=lambda row: row.action):
        group = list(grouped)
        head = group[0]
        made = action_rows(
            game_id,
            action,
            [NewEvent(row.type, row.version, row.data) for row in group],
            [row.recorded_at for row in group],
            head.idempotency_key,
            head.command,
            head.actor,
        )
        if [row.seq for row in group] != [r[1] for r in made] or any(
            (row.idempotency_key, row.command, row.actor) != (None, None, None) for row in group[1:]
        ):
            raise ValueError(f"game {game_id}: the rows of action {action} do not form one action")
        yield from made


_READ = (
    "SELECT seq, action, type, version, data, recorded_at, idempotency_key, command, actor "
    "FROM events WHERE game_id = ?"
)
_READ_AFTER = f"{_READ} AND seq > ? ORDER BY seq"
_READ_FROM = f"{_READ} AND seq >= ? ORDER BY seq"


def _stored(rows: Sequence[tuple[Any, ...]]) -> list[StoredEvent]:
    """Rows of ``_READ``'s columns as stored events."""
    # one JSON parse for every payload, and one for every command: a long log reads in one go
    datas = json.loads("[" + ",".join(r[4] for r in rows) + "]")
    commands = iter(json.loads("[" + ",".join(r[7] for r in rows if r[7] is not None) + "]"))
    out = []
    for (seq, action, type_, version, _data, recorded_at, key, command, actor), data in zip(rows, datas, strict=True):
        # the columns are typed (INTEGER, TEXT): the row fills the frozen dataclass as __init__ would
        stored = None if command is None else next(commands)
        out.append(stored_event(seq, action, type_, version, data, recorded_at, key, stored, actor))
    return out


class SqlStore(ABC):
    """What both engines do with the same SQL; each subclass supplies the hooks below."""

    # Beside ``created_at``, what orders games by creation: SQLite's rowid, PostgreSQL's identity column.
    CREATED_ORDER: ClassVar[str]

    # ----------------------------------------------------------------- the engine's hooks

    @abstractmethod
    def _execute(self, query: str, params: Sequence[Any] = ()) -> None:
        """Run ``query`` (parameters marked ``?``)."""

    @abstractmethod
    def _one(self, query: str, params: Sequence[Any] = ()) -> tuple[Any, ...] | None:
        """The first row ``query`` returns, if any."""

    @abstractmethod
    def _all(self, query: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """Every row ``query`` returns."""

    @abstractmethod
    def _insert_events(self, rows: Sequence[EventRow]) -> None:
        """Insert rows made by ``action_rows`` into the log (inside the caller's transaction)."""

    @abstractmethod
    def _transaction(self) -> AbstractContextManager[object]:
        """One write transaction (inside an open one, SQLite joins it and PostgreSQL makes a savepoint)."""

    @abstractmethod
    def _creating(self, idempotency_key: str) -> AbstractContextManager[object]:
        """The transaction of a creation, in which another creation with the same key waits its turn."""

    @abstractmethod
    def _append(self, write: Write, beside: bool = False) -> AppendResult:
        """Under the engine's lock: what the action already recorded under ``write``'s key answers
        (``Write.again``), else ``write`` stored after the log's last seq (``_write_at``; ``beside``: see
        ``append``; an engine may commit before returning all the same)."""

    # ----------------------------------------------------------------- editions

    def keep_edition(self, content_hash: str, edition_id: str, content: str) -> None:
        """Keep a copy of an edition file's exact content, addressed by its hash."""
        self._execute(
            "INSERT INTO editions (hash, edition_id, content) VALUES (?, ?, ?) ON CONFLICT (hash) DO NOTHING",
            (content_hash, edition_id, content),
        )

    def edition_content(self, content_hash: str) -> str | None:
        """The kept content of the edition with this hash, if any."""
        row = self._one("SELECT content FROM editions WHERE hash = ?", (content_hash,))
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
        with self._creating(idempotency_key):
            row = self._one(
                "SELECT e.game_id, e.command, g.created_at FROM events e JOIN games g ON g.game_id = e.game_id "
                f"WHERE e.seq = 1 AND e.idempotency_key = ? ORDER BY g.{self.CREATED_ORDER} LIMIT 1",
                (idempotency_key,),
            )
            if row is not None:
                first_game, stored, created_at = row
                age = (datetime.now(UTC) - datetime.fromisoformat(created_at)).total_seconds()
                if command_of(stored) != command or not 0 <= age <= retry_window:
                    raise KeyReused()
                return str(first_game)
            self._execute(INSERT_GAME, (game_id, kind, utc_now(), edition_hash, tokens[0], tokens[1]))
            self.append(game_id, 0, events, idempotency_key, command, actor)
        return game_id

    def import_game(
        self, game_id: str, kind: str, edition_hash: str, tokens: tuple[str, str], rows: Sequence[dict[str, Any]]
    ) -> None:
        """Store an exported log under a new game id (one transaction).

        No idempotency key is kept: a key is a secret of the phone that sent it, and an imported
        log must not answer to the keys of the game it was exported from. A row without its time
        is recorded now.
        """
        recorded_now = utc_now()
        imported = [
            StoredEvent(
                seq=int(r["seq"]),
                action=int(r["action"]),
                type=str(r["type"]),
                version=int(r["version"]),
                data=r["data"],
                recorded_at=str(r.get("recorded_at") or recorded_now),
                idempotency_key=None,
                command=r.get("command"),
                actor=r.get("actor"),
            )
            for r in rows
        ]
        made = list(copied_rows(game_id, imported))
        with self._transaction():
            self._execute(INSERT_GAME, (game_id, kind, recorded_now, edition_hash, tokens[0], tokens[1]))
            self._insert_events(made)

    def restore_game(self, game: dict[str, Any], rows: Sequence[StoredEvent]) -> None:
        """Store a game moved from another store exactly as it was: its index row (``game()``) and every
        event with its keys and times (one transaction; ``companion transfer`` uses it)."""
        made = list(copied_rows(game["game_id"], rows))
        with self._transaction():
            self._execute(INSERT_RESTORED_GAME, tuple(game[k] for k in RESTORED_GAME_COLUMNS))
            self._insert_events(made)

    def set_join_code(self, game_id: str, code: str) -> None:
        """Give a game its short join code (once; the games index is not part of the event log)."""
        self._execute("UPDATE games SET join_code = ? WHERE game_id = ? AND join_code IS NULL", (code, game_id))

    def game_for(self, column: str, value: str) -> str | None:
        """The game whose ``join_code`` or ``read_token`` is ``value``."""
        if column not in ("join_code", "read_token", "write_token"):
            raise ValueError(column)
        row = self._one(f"SELECT game_id FROM games WHERE {column} = ?", (value,))
        return None if row is None else str(row[0])

    def game(self, game_id: str) -> dict[str, Any]:
        """The games-index row of ``game_id``; raises ``UnknownGame``."""
        row = self._one(f"SELECT {', '.join(RESTORED_GAME_COLUMNS)} FROM games WHERE game_id = ?", (game_id,))
        if row is None:
            raise UnknownGame(game_id)
        return dict(zip(RESTORED_GAME_COLUMNS, row, strict=True))

    def game_ids(self) -> list[str]:
        """Every game id, newest first."""
        rows = self._all(f"SELECT game_id FROM games ORDER BY created_at DESC, {self.CREATED_ORDER} DESC")
        return [str(r[0]) for r in rows]

    # ----------------------------------------------------------------- the log

    def last_seq(self, game_id: str) -> int:
        """The seq of the newest event of ``game_id`` (0 when it has none)."""
        row = self._one("SELECT COALESCE(MAX(seq), 0) FROM events WHERE game_id = ?", (game_id,))
        return 0 if row is None else int(row[0])

    def action_for_key(self, game_id: str, idempotency_key: str) -> int | None:
        """The action already recorded under this idempotency key, if any."""
        found = self.recorded_under_key(game_id, idempotency_key)
        return None if found is None else found[0]

    def recorded_under_key(self, game_id: str, idempotency_key: str) -> tuple[int, dict[str, Any] | None] | None:
        """The action recorded under this key in this game, and its command; ``None`` if the key is new."""
        row = self._one(
            "SELECT seq, command FROM events WHERE game_id = ? AND idempotency_key = ?", (game_id, idempotency_key)
        )
        return None if row is None else (int(row[0]), command_of(row[1]))

    def append(
        self,
        game_id: str,
        expected_seq: int,
        events: Sequence[NewEvent],
        idempotency_key: str,
        command: dict[str, Any] | None = None,
        actor: str | None = None,
        beside: bool = False,
    ) -> AppendResult:
        """Append ``events`` as one action if the log is still at ``expected_seq``.

        A repeated ``idempotency_key`` with the same ``command`` returns the first append's result
        and stores nothing; with another command it raises ``KeyReused``.

        ``beside``: an engine that can (SQLite) returns once the rows are written and its COMMIT has begun in a
        thread of its own; the result's ``settle`` waits until they are durable. Until then the store's other
        calls wait for it too, and the engine's writers queue behind it.
        """
        if not events:
            raise ValueError("an action needs at least one event")
        if not idempotency_key:
            raise ValueError("an append needs an idempotency key")

        recorded_at = utc_now()
        rows = action_rows(game_id, expected_seq + 1, events, recorded_at, idempotency_key, command, actor)
        return self._append(Write(game_id, expected_seq, idempotency_key, command, rows, recorded_at), beside)

    def _write_at(self, write: Write, actual: int) -> AppendResult:
        """Under the engine's lock: ``write`` stored after the log's ``actual`` last seq, if its screen stood there."""
        if actual != write.expected_seq:
            raise StaleSequence(write.game_id, write.expected_seq, actual)
        self._insert_events(write.rows)
        return write.result()

    def read(self, game_id: str, after: int = 0) -> list[StoredEvent]:
        """Every event of ``game_id`` with seq greater than ``after``, in order."""
        return _stored(self._all(_READ_AFTER, (game_id, after)))

    def read_past(self, game_id: str, seq: int) -> list[StoredEvent] | None:
        """The events of ``game_id`` after ``seq``, in order, when its log holds ``seq`` (``None`` when it is shorter):
        where the log stands and what came since, in one statement (a view kept at ``seq`` is checked and brought
        forward with one round trip)."""
        if seq <= 0:
            return self.read(game_id)
        rows = self._all(_READ_FROM, (game_id, seq))
        if not rows or rows[0][0] != seq:
            return None
        return _stored(rows[1:])

    # ----------------------------------------------------------------- snapshots

    def save_snapshot(
        self, game_id: str, seq: int, projection_version: int, edition_hash: str, in_effect: str, state: str
    ) -> None:
        """Keep a rebuilt state of ``game_id`` at ``seq`` (a second one for the same key is ignored)."""
        self._execute(
            "INSERT INTO snapshots (game_id, projection_version, edition_hash, seq, in_effect, state, created_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
            (game_id, projection_version, edition_hash, seq, in_effect, state, utc_now()),
        )

    def latest_snapshot(
        self, game_id: str, projection_version: int, edition_hash: str, at_most: int
    ) -> Snapshot | None:
        """The newest snapshot of ``game_id`` at or before ``at_most`` made by this projection and edition."""
        row = self._one(
            "SELECT seq, in_effect, state FROM snapshots WHERE game_id = ? AND projection_version = ? "
            "AND edition_hash = ? AND seq <= ? ORDER BY seq DESC LIMIT 1",
            (game_id, projection_version, edition_hash, at_most),
        )
        return None if row is None else Snapshot(int(row[0]), str(row[1]), str(row[2]))

    # ----------------------------------------------------------------- the edition library

    def name_edition(self, owner: str, name: str, content_hash: str, edition_id: str, content: str) -> None:
        """Keep an edition's content and list it under this phone's ``name`` (saved again: the name points to
        the new content, keeping its share link and its publication)."""
        with self._transaction():
            self.keep_edition(content_hash, edition_id, content)
            self._execute(
                "INSERT INTO edition_names (owner, name, hash, saved_at) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (owner, name) DO UPDATE SET hash = excluded.hash, saved_at = excluded.saved_at",
                (owner, name, content_hash, utc_now()),
            )

    def named_editions(self, owner: str) -> list[NamedEdition]:
        """The editions ``owner`` saved, newest first."""
        return self._named("WHERE owner = ? ORDER BY saved_at DESC, name", (owner,))

    def named_edition(self, owner: str, name: str) -> NamedEdition | None:
        """The edition ``owner`` saved under ``name``, if any."""
        found = self._named("WHERE owner = ? AND name = ?", (owner, name))
        return found[0] if found else None

    def drop_named_edition(self, owner: str, name: str) -> None:
        """Forget ``owner``'s name (the content stays kept by hash: a game may play it)."""
        self._execute("DELETE FROM edition_names WHERE owner = ? AND name = ?", (owner, name))

    def share_edition(self, owner: str, name: str, token: str) -> str | None:
        """The share token of ``owner``'s ``name``: its existing one, else ``token`` (None: no such edition)."""
        with self._transaction():
            self._execute(
                "UPDATE edition_names SET share_token = ? WHERE owner = ? AND name = ? AND share_token IS NULL",
                (token, owner, name),
            )
            found = self.named_edition(owner, name)
        return None if found is None else found.share_token

    def shared_edition(self, token: str) -> NamedEdition | None:
        """The edition whose share link carries ``token``, if any."""
        found = self._named("WHERE share_token = ?", (token,))
        return found[0] if found else None

    def publish_edition(self, owner: str, name: str, published: bool) -> None:
        """Publish ``owner``'s ``name`` for every table (from now), or take it back."""
        self._execute(
            "UPDATE edition_names SET published_at = ? WHERE owner = ? AND name = ?",
            (utc_now() if published else None, owner, name),
        )

    def published_editions(self) -> list[NamedEdition]:
        """Every published edition, of every phone, newest first."""
        return self._named("WHERE published_at IS NOT NULL ORDER BY published_at DESC, name", ())

    def _named(self, where: str, params: Sequence[Any]) -> list[NamedEdition]:
        rows = self._all(
            f"SELECT owner, name, hash, saved_at, published_at, share_token FROM edition_names {where}", params
        )
        return [
            NamedEdition(str(o), str(n), str(h), str(t), None if p is None else str(p), None if k is None else str(k))
            for o, n, h, t, p, k in rows
        ]

    def put_draft(self, draft_id: str, owner: str, content: str, reuse_key: str | None = None) -> bool:
        """Keep the current text of ``owner``'s draft (a new one, or a new text of its own): whether it was
        kept (another phone's draft id keeps nothing)."""
        with self._transaction():
            self._execute(
                "INSERT INTO edition_drafts (draft_id, owner, content, updated_at, reuse_key) VALUES (?, ?, ?, ?, ?) "
                "ON CONFLICT (draft_id) DO UPDATE SET content = excluded.content, updated_at = excluded.updated_at "
                "WHERE edition_drafts.owner = excluded.owner",
                (draft_id, owner, content, utc_now(), reuse_key),
            )
            kept = self.draft(draft_id)
        return kept is not None and kept.owner == owner and kept.content == content

    def draft(self, draft_id: str) -> Draft | None:
        """A draft edition, if any."""
        found = self._drafts("WHERE draft_id = ?", (draft_id,))
        return found[0] if found else None

    def drafts_of(self, owner: str) -> list[Draft]:
        """``owner``'s drafts, the last changed first."""
        return self._drafts("WHERE owner = ? ORDER BY updated_at DESC, draft_id", (owner,))

    def draft_for_key(self, owner: str, reuse_key: str) -> Draft | None:
        """``owner``'s draft kept under ``reuse_key``, if any."""
        found = self._drafts("WHERE owner = ? AND reuse_key = ?", (owner, reuse_key))
        return found[0] if found else None

    def drop_draft(self, draft_id: str, owner: str) -> None:
        """Throw away ``owner``'s draft (drafts are not events: deleting one is fine)."""
        self._execute("DELETE FROM edition_drafts WHERE draft_id = ? AND owner = ?", (draft_id, owner))

    def drop_drafts_before(self, updated_before: str) -> None:
        """Throw away every draft last changed before ``updated_before`` (an ISO time, as ``utc_now``)."""
        self._execute("DELETE FROM edition_drafts WHERE updated_at < ?", (updated_before,))

    def _drafts(self, where: str, params: Sequence[Any]) -> list[Draft]:
        rows = self._all(f"SELECT draft_id, owner, content, updated_at, reuse_key FROM edition_drafts {where}", params)
        return [Draft(str(i), str(o), str(c), str(t), None if k is None else str(k)) for i, o, c, t, k in rows]

    # ----------------------------------------------------------------- presence (not game state)

    def presence_elsewhere(self, process: str, since: float) -> dict[str, Counter[str]]:
        """The open pages of every other process renewed since ``since``: seats counted by game."""
        rows = self._all(
            "SELECT game_id, seat, COUNT(*) FROM presence WHERE process <> ? AND seen_at >= ? GROUP BY game_id, seat",
            (process, since),
        )
        found: dict[str, Counter[str]] = {}
        for game_id, seat, count in rows:
            found.setdefault(str(game_id), Counter())[str(seat)] = int(count)
        return found
