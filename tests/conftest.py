"""Shared fixtures: the shipped edition, a real SQLite store in a temp folder, the app, and PostgreSQL.

``store_url`` runs a test on both engines: a SQLite file in a temp folder, and a fresh schema of
a PostgreSQL database. The PostgreSQL cluster is the one ``COMPANION_TEST_PG`` names (a
``postgresql://`` URL), or a throw-away one this session starts (``COMPANION_TEST_PG=1``); with
the variable unset those runs are skipped, and the summary says so.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import uuid
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import pytest

from companion.editions import load_all
from companion.game.edition import Edition
from events.factory import is_postgres
from events.sqlite import SqliteStore
from tests.builders import Table

ROOT = Path(__file__).resolve().parents[1]
PG_UNSET = "PostgreSQL tests skipped: COMPANION_TEST_PG unset"


@pytest.fixture(scope="session")
def editions() -> dict[str, tuple[str, Edition]]:
    return load_all()


@pytest.fixture(scope="session")
def edition(editions: dict[str, tuple[str, Edition]]) -> Edition:
    return editions["inferno-base"][1]


@pytest.fixture
def table(edition: Edition) -> Table:
    return Table(edition)


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "companion.sqlite3"


@pytest.fixture
def store(db_path: Path) -> Iterator[SqliteStore]:
    s = SqliteStore.open(db_path)
    yield s
    s.close()


# ----------------------------------------------------------------- PostgreSQL


@pytest.fixture(scope="session")
def pg_server() -> Iterator[str]:
    """The URL of a PostgreSQL server for this session (given, or a throw-away cluster)."""
    setting = os.environ.get("COMPANION_TEST_PG", "")
    if not setting:
        pytest.skip(PG_UNSET)
    if is_postgres(setting):
        yield setting
        return
    script = str(ROOT / "scripts" / "pg-throwaway.sh")
    started = subprocess.run([script, "start"], capture_output=True, text=True, timeout=300, check=False)
    if started.returncode != 0:
        pytest.fail(f"could not start a throw-away PostgreSQL: {started.stderr}")
    folder, url = started.stdout.split()
    try:
        yield url
    finally:
        subprocess.run([script, "stop", folder], capture_output=True, timeout=60, check=False)


@pytest.fixture
def pg_url(pg_server: str) -> Iterator[str]:
    """A URL whose connections see only a fresh schema of their own (dropped after the test)."""
    import psycopg

    schema = f"t_{uuid.uuid4().hex[:16]}"
    with psycopg.connect(pg_server, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}".encode())
    joiner = "&" if "?" in pg_server else "?"
    yield f"{pg_server}{joiner}options={quote(f'-csearch_path={schema}')}"
    with psycopg.connect(pg_server, autocommit=True) as conn:
        conn.execute("SET lock_timeout = '5s'")
        with contextlib.suppress(psycopg.errors.LockNotAvailable):  # a test left a connection open: drop it later
            conn.execute(f"DROP SCHEMA {schema} CASCADE".encode())


@pytest.fixture(params=["sqlite", "postgresql"])
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Where a store lives, once per engine: a SQLite URL, then a PostgreSQL one."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'companion.sqlite3'}"
    return str(request.getfixturevalue("pg_url"))


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Say plainly when the PostgreSQL runs did not happen."""
    skipped = terminalreporter.stats.get("skipped", [])
    count = sum(1 for report in skipped if PG_UNSET in str(getattr(report, "longrepr", "")))
    if count:
        terminalreporter.write_line(f"{PG_UNSET} ({count} tests; set it to 1 or run make test-pg)")
