"""The whole store, whatever the engine: ``Store``, the four roles of the database on one connection.

The database plays four roles, each a small protocol of its own module:

- ``events.log.EventLog``: the append-only log of every game, its games index and join codes, and
  the snapshots rebuilt from it;
- ``events.library.EditionLibrary``: edition contents by hash, and the names phones give them;
- ``events.drafts.Drafts``: the edition drafts of every phone;
- ``events.presence.SharedPresence``: the live pages each server process holds open.

Two engines implement every role: SQLite (``events.sqlite``, its schema created and migrated with
sqlite-utils' ``Migrations``) and PostgreSQL (``events.postgres``), each the composition of the
roles' shared SQL (``events.sql``) and its own parts; ``events.factory`` picks one from a URL or
path. Code that needs one role is typed by that role; ``Store`` is all four, opened, migrated and
closed together. The records and errors of the roles are importable from here too.
"""

from __future__ import annotations

from typing import Protocol

from events.drafts import Draft, Drafts
from events.library import NO_OWNER, EditionLibrary, NamedEdition
from events.log import (
    CREATE_RETRY_SECONDS,
    EVENT_COLUMNS,
    RESTORED_GAME_COLUMNS,
    AppendResult,
    EventLog,
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
from events.presence import SharedPresence

__all__ = [
    "CREATE_RETRY_SECONDS",
    "EVENT_COLUMNS",
    "NO_OWNER",
    "RESTORED_GAME_COLUMNS",
    "AppendResult",
    "Draft",
    "Drafts",
    "EditionLibrary",
    "EventLog",
    "EventRow",
    "KeyReused",
    "NamedEdition",
    "NewEvent",
    "SharedPresence",
    "Snapshot",
    "StaleSequence",
    "Store",
    "StoredEvent",
    "UnknownGame",
    "action_rows",
    "stored_event",
]


class Store(EventLog, EditionLibrary, Drafts, SharedPresence, Protocol):
    """Every role on one connection: what the service, the web app and the CLI open, migrate and close."""

    def migrate(self) -> None: ...

    def close(self) -> None: ...
