"""Which engine a URL or path names, where a SQLite URL points, and a printable URL without its password."""

from __future__ import annotations

from pathlib import Path

from events.factory import is_postgres, open_store, shown, sqlite_path
from events.sqlite import SqliteStore


def test_postgresql_urls_and_everything_else() -> None:
    assert is_postgres("postgresql://u@h/db") and is_postgres("postgres://u@h/db")
    assert not is_postgres("sqlite:///x.sqlite3") and not is_postgres(Path("postgresql.sqlite3"))


def test_a_sqlite_url_names_a_relative_or_an_absolute_file() -> None:
    assert sqlite_path("sqlite:///instance/c.sqlite3") == Path("instance/c.sqlite3")
    assert sqlite_path("sqlite:////srv/c.sqlite3") == Path("/srv/c.sqlite3")
    assert sqlite_path("plain/c.sqlite3") == Path("plain/c.sqlite3")


def test_a_sqlite_url_opens_the_sqlite_store_creating_its_folder(tmp_path: Path) -> None:
    store = open_store(f"sqlite:///{tmp_path / 'new' / 'c.sqlite3'}")
    assert isinstance(store, SqliteStore) and (tmp_path / "new" / "c.sqlite3").exists()
    store.close()


def test_a_printed_url_never_shows_the_password() -> None:
    assert (
        shown("postgresql://app:s3cret@db.example:5432/companion") == "postgresql://app:***@db.example:5432/companion"
    )
    assert shown("postgresql://app@db/companion") == "postgresql://app@db/companion"
    assert shown("/srv/c.sqlite3") == "/srv/c.sqlite3"
