"""The contract of the append-only event log, whatever the engine: ``EventLog``, its errors and records.

One table, ``events``, keyed ``(game_id, seq)``. Rows are only ever inserted: there is no
UPDATE or DELETE of an event anywhere in this project. A batch of events appended together
is one *action*: its first row carries the idempotency key (unique per game), the command
that produced it, and who sent it; every row of the batch carries ``action`` = the first
row's seq. An append is one transaction: a stale expected seq raises ``StaleSequence``; a
repeated idempotency key with the same command returns the original result and stores nothing
new, and with another command raises ``KeyReused``. A key belongs to one game; a creation key
is honoured again only for the very same command, shortly after, so an old key never opens a
game (imported logs keep no keys at all).

The log's role also holds the ``games`` index (a game's kind, edition, tokens and join code) and
``snapshots``: disposable rebuilt states (tagged with the projection's code version and the
edition's hash) so a cold start of a long game folds only the events after one; they are never
the truth.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

__all__ = [
    "CREATE_RETRY_SECONDS",
    "EVENT_COLUMNS",
    "RESTORED_GAME_COLUMNS",
    "AppendResult",
    "EventLog",
    "EventRow",
    "KeyReused",
    "NewEvent",
    "Snapshot",
    "StaleSequence",
    "StoredEvent",
    "UnknownGame",
    "action_rows",
    "stored_event",
]

CREATE_RETRY_SECONDS = 600  # a double tap or a network retry comes back within minutes, not days


class StaleSequence(Exception):
    """The caller drew its screen at ``expected`` but the log is already at ``actual``."""

    def __init__(self, game_id: str, expected: int, actual: int) -> None:
        super().__init__(f"game {game_id}: expected seq {expected}, log is at {actual}")
        self.game_id = game_id
        self.expected = expected
        self.actual = actual


class KeyReused(Exception):
    """An idempotency key already recorded a different request (or is too old to retry); nothing was stored.

    The message names no game: a refused key learns nothing about what it was used for.
    """

    def __init__(self) -> None:
        super().__init__("this idempotency key was already used for a different request")


class UnknownGame(LookupError):
    """No game with this id exists in the store."""


@dataclass(frozen=True)
class NewEvent:
    """An event ready to be stored: its type, version and JSON-ready data."""

    type: str
    version: int
    data: dict[str, Any]

    @property
    def text(self) -> str:
        """``data`` as the log stores it (compact JSON, keys sorted), written when the append's rows are made
        (``action_rows``, its one reader, reads it once): not cached on the event."""
        return _compact_json(self.data)


@dataclass(frozen=True)
class StoredEvent:
    """One row of the log."""

    seq: int
    action: int
    type: str
    version: int
    data: dict[str, Any]
    recorded_at: str
    idempotency_key: str | None
    command: dict[str, Any] | None
    actor: str | None


def stored_event(
    seq: int,
    action: int,
    type_: str,
    version: int,
    data: dict[str, Any],
    recorded_at: str,
    idempotency_key: str | None,
    command: dict[str, Any] | None,
    actor: str | None,
) -> StoredEvent:
    """``StoredEvent(...)`` with its fields filled as its ``__init__`` fills them, but directly rather than through
    ``object.__setattr__`` field by field (as a frozen dataclass's ``__init__`` does): it makes every row a log reads
    and every event an append keeps."""
    row = object.__new__(StoredEvent)
    row.__dict__.update(
        seq=seq,
        action=action,
        type=type_,
        version=version,
        data=data,
        recorded_at=recorded_at,
        idempotency_key=idempotency_key,
        command=command,
        actor=actor,
    )
    return row


@dataclass(frozen=True)
class Snapshot:
    """A rebuilt state saved at ``seq``: what was in effect then, and the state (both as JSON text)."""

    seq: int
    in_effect: str
    state: str


@dataclass(frozen=True)
class AppendResult:
    """What an append stored: the seq range of its events, and whether it was a replay."""

    first_seq: int
    last_seq: int
    duplicate: bool
    recorded_at: str = ""  # when a new append stored its rows (empty for a duplicate)
    # an append whose COMMIT runs in the background (``background_commit``): wait until its rows are durable (raising
    # if the
    # commit failed and nothing was stored); None when they were durable before ``append`` returned
    settle: Callable[[], None] | None = field(default=None, compare=False, repr=False)


class EventLog(Protocol):
    """The event log of every game, whatever the engine: the games index and join codes, appends and reads of the
    log, and the snapshots rebuilt from it.

    Every engine keeps the same guarantees: events are only ever inserted (the database itself
    refuses UPDATE and DELETE), ``(game_id, seq)`` is unique, a stale ``expected_seq`` raises
    ``StaleSequence``, idempotency keys are scoped per game (a creation key is honoured again only
    for the same command within the retry window; a key reused for another command raises
    ``KeyReused``), and join codes are unique.
    """

    # ----------------------------------------------------------------- games and their codes

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
    ) -> str: ...

    def import_game(
        self, game_id: str, kind: str, edition_hash: str, tokens: tuple[str, str], rows: Sequence[dict[str, Any]]
    ) -> None: ...

    def restore_game(self, game: dict[str, Any], rows: Sequence[StoredEvent]) -> None: ...

    def set_join_code(self, game_id: str, code: str) -> None: ...

    def game_for(self, column: str, value: str) -> str | None: ...

    def game(self, game_id: str) -> dict[str, Any]: ...

    def game_ids(self) -> list[str]: ...

    # ----------------------------------------------------------------- appends and reads

    def last_seq(self, game_id: str) -> int: ...

    def action_for_key(self, game_id: str, idempotency_key: str) -> int | None: ...

    def recorded_under_key(self, game_id: str, idempotency_key: str) -> tuple[int, dict[str, Any] | None] | None: ...

    def append(
        self,
        game_id: str,
        expected_seq: int,
        events: Sequence[NewEvent],
        idempotency_key: str,
        command: dict[str, Any] | None = None,
        actor: str | None = None,
        background_commit: bool = False,
    ) -> AppendResult: ...

    def settle(self) -> None: ...

    def read(self, game_id: str, after: int = 0) -> list[StoredEvent]: ...

    def read_past(self, game_id: str, seq: int) -> list[StoredEvent] | None: ...

    # ----------------------------------------------------------------- snapshots

    def save_snapshot(
        self, game_id: str, seq: int, projection_version: int, edition_hash: str, in_effect: str, state: str
    ) -> None: ...

    def latest_snapshot(
        self, game_id: str, projection_version: int, edition_hash: str, at_most: int
    ) -> Snapshot | None: ...


RESTORED_GAME_COLUMNS = ("game_id", "kind", "created_at", "edition_hash", "read_token", "write_token", "join_code")
EVENT_COLUMNS = (
    "game_id",
    "seq",
    "action",
    "type",
    "version",
    "data",
    "recorded_at",
    "idempotency_key",
    "command",
    "actor",
)

# One row of the ``events`` table, in ``EVENT_COLUMNS`` order.
EventRow = tuple[str, int, int, str, int, str, str, str | None, str | None, str | None]

_compact_json = json.JSONEncoder(sort_keys=True, separators=(",", ":")).encode
"""``json.dumps(value, sort_keys=True, separators=(",", ":"))`` with its encoder made once (``dumps`` makes one for
every call given options)."""
_sorted_json = json.JSONEncoder(sort_keys=True).encode
"""``json.dumps(value, sort_keys=True)``, its encoder made once."""


def action_rows(
    game_id: str,
    first_seq: int,
    events: Sequence[NewEvent],
    recorded_at: str | Sequence[str],
    idempotency_key: str | None = None,
    command: dict[str, Any] | None = None,
    actor: str | None = None,
) -> list[EventRow]:
    """The rows of one action, as every engine stores them (in ``EVENT_COLUMNS`` order).

    The events take the seqs from ``first_seq`` on and each carries ``action`` = ``first_seq``; the
    first alone carries the idempotency key, the command and the actor. Data is stored as compact
    JSON text with sorted keys, the command as JSON with sorted keys. ``recorded_at`` is one time for
    the whole action (an append), or one per event (a log copied as it was recorded).
    """
    times = [recorded_at] * len(events) if isinstance(recorded_at, str) else recorded_at
    return [
        (
            game_id,
            first_seq + i,
            first_seq,
            evt.type,
            evt.version,
            evt.text,
            time,
            idempotency_key if i == 0 else None,
            _sorted_json(command) if i == 0 and command is not None else None,
            actor if i == 0 else None,
        )
        for i, (evt, time) in enumerate(zip(events, times, strict=True))
    ]
