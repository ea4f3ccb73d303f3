"""Shared fixtures: the shipped edition, a real SQLite store in a temp folder, the app."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.editions import load_all
from companion.game.edition import Edition
from events.store import EventStore
from tests.builders import Table


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
def store(db_path: Path) -> Iterator[EventStore]:
    s = EventStore.open(db_path)
    yield s
    s.close()
