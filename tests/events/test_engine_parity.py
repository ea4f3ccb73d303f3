"""Both engines stay one contract: the same public methods and the same tables and columns.

A method or a migration added to the SQLite store alone fails here until the PostgreSQL store
(``events/postgres.py``) and the protocol of its role (``events.store`` lists them) have it too;
each role's parts of an engine keep their role's protocol.
"""

from __future__ import annotations

import inspect
from pathlib import Path

import psycopg

from events.postgres import PostgresEventLog, PostgresSharedPresence, PostgresStore
from events.sqlite import SqliteEventLog, SqliteSharedPresence, SqliteStore
from events.store import Drafts, EditionLibrary, EventLog, SharedPresence, Store

ROLES = (EventLog, EditionLibrary, Drafts, SharedPresence)

ENGINE_ONLY = {"connect", "open"}  # how each engine is reached differs; everything else is shared
PG_ONLY_COLUMNS = {("games", "created_order")}  # SQLite's rowid, made explicit


def public(cls: type) -> dict[str, inspect.Signature]:
    return {
        name: inspect.signature(member)
        for name, member in inspect.getmembers(cls, callable)
        if not name.startswith("_") and name not in ENGINE_ONLY
    }


def methods(protocol: type) -> set[str]:
    return {name for name in vars(protocol) if not name.startswith("_")}


def test_both_engines_and_the_protocols_have_the_same_methods_and_signatures() -> None:
    sqlite, postgres = public(SqliteStore), public(PostgresStore)
    contract = methods(Store).union(*map(methods, ROLES))
    assert set(sqlite) == set(postgres)
    assert set(sqlite) == contract, "add the method to the protocol of its role (events/store.py lists them)"
    for name, signature in sqlite.items():
        assert list(signature.parameters) == list(postgres[name].parameters), name


def test_the_roles_share_no_method_and_each_engine_part_keeps_its_role() -> None:
    assert sum(len(methods(role)) for role in ROLES) == len(set().union(*map(methods, ROLES)))
    for role, parts in (
        (EventLog, (SqliteEventLog, PostgresEventLog)),
        (SharedPresence, (SqliteSharedPresence, PostgresSharedPresence)),
    ):
        for part in parts:
            assert methods(role) <= set(public(part)), part


def test_postgresql_has_the_same_tables_and_columns_as_sqlite(tmp_path: Path, pg_url: str) -> None:
    sqlite = SqliteStore.open(tmp_path / "parity.sqlite3")
    tables = [
        str(r[0])
        for r in sqlite.conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        if not str(r[0]).startswith(("sqlite_", "_"))
    ]
    in_sqlite = {(t, str(c[1])) for t in tables for c in sqlite.conn.execute(f"PRAGMA table_info({t})")}
    sqlite.close()
    PostgresStore.open(pg_url).close()
    with psycopg.connect(pg_url) as conn:
        rows = conn.execute(
            "SELECT table_name, column_name FROM information_schema.columns "
            "WHERE table_schema = current_schema() AND table_name <> 'companion_migrations'"
        ).fetchall()
    in_postgres = {(str(t), str(c)) for t, c in rows}
    assert in_postgres - PG_ONLY_COLUMNS == in_sqlite
