"""An entry recorded ``background_commit`` (``GameService.execute(..., background_commit=True)``): the service hands
back the fresh view while
the store's COMMIT runs, and keeps it for every request only once ``settle`` says the events are durable.

Until then the service that recorded it sees its own entry (the answer is drawn from it), and every other request
still sees the game as it was; a COMMIT that fails leaves the game as it was everywhere and ``settle`` says so."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

import pytest

from companion.editions import load_all
from companion.game.commands import CreateGame, TakeLoan
from companion.service import GameService
from companion.service.caches import ViewCache
from events.sqlite import SqliteStore
from tests.builders import game_view, seats

EDITIONS = load_all()
SLOW = 0.3


def _two_services(tmp_path: Path) -> tuple[GameService, GameService, str]:
    """Two requests' services over one process's view cache, each with its own connection."""
    cache: ViewCache = ViewCache()
    path = tmp_path / "settle.sqlite3"
    ours = GameService(SqliteStore.open(path), EDITIONS, cache=cache, read_once=True)
    game_id = ours.create_game(CreateGame(players=seats(2), plague_card=(2, 4)), "create")
    theirs = GameService(SqliteStore.open(path), EDITIONS, cache=cache, read_once=True)
    return ours, theirs, game_id


def test_the_fresh_view_is_ours_until_settled_then_everyones(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ours, theirs, game_id = _two_services(tmp_path)
    before = game_view(ours.view(game_id))
    real = SqliteStore._commit

    def slow(self: SqliteStore) -> None:
        time.sleep(SLOW)
        real(self)

    monkeypatch.setattr(SqliteStore, "_commit", slow)
    started = time.perf_counter()
    outcome = ours.execute(game_id, before.seq, TakeLoan(before.state.active), "loan-1", background_commit=True)
    assert time.perf_counter() - started < SLOW / 2  # handed back while the COMMIT runs
    assert outcome.view.seq > before.seq
    assert ours.view(game_id) is outcome.view  # the recording request draws from its own entry
    assert ours.cache.get(game_id) is before  # every other request: the game as it was, not yet durable
    outcome.settle()
    assert time.perf_counter() - started >= SLOW
    settled = ours.cache.get(game_id)
    assert settled is not None and settled.seq == outcome.view.seq  # durable: kept for everyone
    assert theirs.view(game_id).seq == outcome.view.seq
    outcome.settle()  # at once, the second time
    for service in (ours, theirs):
        service.store.close()


def test_a_commit_that_fails_leaves_the_game_as_it_was(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ours, theirs, game_id = _two_services(tmp_path)
    before = game_view(ours.view(game_id))

    def failing(self: SqliteStore) -> None:
        self.conn.execute("ROLLBACK")
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(SqliteStore, "_commit", failing)
    outcome = ours.execute(game_id, before.seq, TakeLoan(before.state.active), "loan-1", background_commit=True)
    with pytest.raises(sqlite3.OperationalError):
        outcome.settle()
    assert ours.cache.get(game_id) is before
    assert ours.view(game_id).seq == before.seq  # not its own unsaved entry any more
    assert theirs.view(game_id).seq == before.seq
    monkeypatch.undo()
    again = theirs.execute(game_id, before.seq, TakeLoan(before.state.active), "loan-2", background_commit=True)
    again.settle()  # the next entry is recorded at the same seq, as if the failed one never was
    assert again.view.seq == before.seq + len(again.events)
    assert ours.view(game_id, fresh=True).seq == again.view.seq
    for service in (ours, theirs):
        service.store.close()
