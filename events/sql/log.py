"""The queries of the event log both engines share: ``SqlEventLog`` (games and codes, appends and reads, snapshots).

An engine's log inserts an action's rows its own way (``_insert_events``) and keeps the transactions
and locks of a write (``_creating``, ``_append``) and the wait for a COMMIT in the background
(``settle``). Every row of the log is made by ``events.log.action_rows``.
"""

from __future__ import annotations

import json
from abc import abstractmethod
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import UTC, datetime
from itertools import groupby
from typing import Any, ClassVar

from events.log import (
    CREATE_RETRY_SECONDS,
    RESTORED_GAME_COLUMNS,
    AppendResult,
    EventRow,
    KeyReused,
    NewEvent,
    Snapshot,
    StaleSequence,
    StoredEvent,
    UnknownGame,
    action_rows,
    stored_event,
)
from events.sql.engine import SqlEngine, command_of, utc_now

__all__ = ["SqlEventLog", "Write", "copied_rows"]


@dataclass(frozen=True, slots=True)
class Write:
    """An action to append: stored after the log's last seq if the screen that sent it was drawn there
    (``expected_seq``), once under its ``idempotency_key``. Its rows, numbered from ``expected_seq + 1``, are made
    before any lock is taken; an engine's ``_append`` stores them under its lock (``SqlEventLog._write_at``), or sends
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


INSERT_GAME = (
    "INSERT INTO games (game_id, kind, created_at, edition_hash, read_token, write_token) VALUES (?, ?, ?, ?, ?, ?)"
)
INSERT_RESTORED_GAME = (
    f"INSERT INTO games ({', '.join(RESTORED_GAME_COLUMNS)}) VALUES ({', '.join('?' for _ in RESTORED_GAME_COLUMNS)})"
)


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


class SqlEventLog(SqlEngine):
    """What both engines' logs do with the same SQL; each engine supplies the hooks below."""

    # After ``created_at``, what orders games by creation: SQLite's rowid, PostgreSQL's identity column.
    CREATED_ORDER: ClassVar[str]

    # ----------------------------------------------------------------- the engine's hooks

    @abstractmethod
    def _insert_events(self, rows: Sequence[EventRow]) -> None:
        """Insert rows made by ``action_rows`` into the log (inside the caller's transaction)."""

    @abstractmethod
    def _creating(self, idempotency_key: str) -> AbstractContextManager[object]:
        """The transaction of a creation, in which another creation with the same key waits its turn."""

    @abstractmethod
    def _append(self, write: Write, background_commit: bool = False) -> AppendResult:
        """Under the engine's lock: what the action already recorded under ``write``'s key answers
        (``Write.again``), else ``write`` stored after the log's last seq (``_write_at``; ``background_commit``: see
        ``append``; an engine may commit before returning all the same)."""

    @abstractmethod
    def settle(self) -> None:
        """Wait until an append whose COMMIT runs in the background is durable (at once without one)."""

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
        background_commit: bool = False,
    ) -> AppendResult:
        """Append ``events`` as one action if the log is still at ``expected_seq``.

        A repeated ``idempotency_key`` with the same ``command`` returns the first append's result
        and stores nothing; with another command it raises ``KeyReused``.

        ``background_commit``: an engine that can (SQLite) returns once the rows are written and its COMMIT has begun
        in the
        background, in a thread of its own (``events.background``); the result's ``settle`` waits until they are
        durable. Until then the store's other calls wait for it too, and the engine's writers queue behind it.
        """
        if not events:
            raise ValueError("an action needs at least one event")
        if not idempotency_key:
            raise ValueError("an append needs an idempotency key")

        recorded_at = utc_now()
        rows = action_rows(game_id, expected_seq + 1, events, recorded_at, idempotency_key, command, actor)
        return self._append(
            Write(game_id, expected_seq, idempotency_key, command, rows, recorded_at), background_commit
        )

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
