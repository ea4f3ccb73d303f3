"""A database URL per engine for fixtures wider than one test (a module's fuzz target): a SQLite file
in a temp folder, or a fresh schema of its own on the session's PostgreSQL server."""

from __future__ import annotations

import uuid
from pathlib import Path
from urllib.parse import quote

import pytest


def engine_url(request: pytest.FixtureRequest, engine: str, folder: Path) -> str:
    """Where a store of ``engine`` (``sqlite`` or ``postgresql``) lives for this fixture; the
    PostgreSQL case skips unless COMPANION_TEST_PG is set (see tests/conftest.py)."""
    if engine == "sqlite":
        return f"sqlite:///{folder / 'fuzz.sqlite3'}"
    import psycopg

    server = str(request.getfixturevalue("pg_server"))
    schema = f"f_{uuid.uuid4().hex[:16]}"
    with psycopg.connect(server, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}".encode())
    joiner = "&" if "?" in server else "?"
    return f"{server}{joiner}options={quote(f'-csearch_path={schema}')}"
