"""Open the event store a URL or path names: PostgreSQL for ``postgresql://…``, SQLite otherwise.

Two ways in: ``open_store`` creates and migrates (once, when the app or a command starts);
``connect_store`` only connects (each request).

``sqlite:///relative.sqlite3`` and ``sqlite:////absolute/path.sqlite3`` follow the usual URL
convention (three slashes, then the path); a plain path is a SQLite file too.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from events.sqlite import SqliteStore, connect
from events.store import Store

__all__ = ["connect_store", "is_postgres", "open_store", "shown", "sqlite_path"]

POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def is_postgres(target: str | Path) -> bool:
    """Whether ``target`` names a PostgreSQL database."""
    return str(target).startswith(POSTGRES_SCHEMES)


def sqlite_path(target: str | Path) -> Path:
    """The file a SQLite URL or path names."""
    text = str(target)
    return Path(text.removeprefix("sqlite:///")) if text.startswith("sqlite:///") else Path(text)


def shown(target: str | Path) -> str:
    """``target`` fit to print or log: a PostgreSQL URL's password is masked."""
    text = str(target)
    if not is_postgres(text):
        return text
    parts = urlsplit(text)
    if parts.password is None:
        return text
    netloc = f"{parts.username or ''}:***@{parts.hostname or ''}" + (f":{parts.port}" if parts.port else "")
    return urlunsplit(parts._replace(netloc=netloc))


def connect_store(target: str | Path) -> Store:
    """A store on a connection to ``target`` as it is: nothing created, nothing migrated (one per request).

    SQLite opens a new connection to the file; PostgreSQL borrows one from this process's pool for
    the URL. ``close()`` ends it (or gives it back). The schema must already be there: ``open_store``
    made it once, at the start of the app or the command.
    """
    if is_postgres(target):
        from events.postgres import PostgresStore

        return PostgresStore.connect(str(target))
    return SqliteStore(connect(sqlite_path(target)))


def open_store(target: str | Path) -> Store:
    """The store at ``target``, created and migrated first if needed (a SQLite file's folder too).

    For a start or a command, not for every request: migrating takes a lock (PostgreSQL: an advisory
    one, so concurrent starts migrate one at a time) and the store keeps a connection of its own,
    outside any pool, until ``close()``.
    """
    if is_postgres(target):
        from events.postgres import PostgresStore

        return PostgresStore.open(str(target))
    path = sqlite_path(target)
    path.parent.mkdir(parents=True, exist_ok=True)
    return SqliteStore.open(path)
