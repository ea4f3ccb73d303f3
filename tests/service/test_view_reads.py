"""How a kept view learns where its game's log stands (issue 27, item 5), on both engines: what the log holds past
the view is read in one statement on PostgreSQL (one round trip, moved or not), and a view is never served over a
log that moved on."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from companion.editions import load_all
from companion.game.commands import CreateGame, TakeLoan
from companion.service import GameService
from companion.service.caches import ViewCache
from events.factory import is_postgres, open_store
from events.store import Store
from tests.builders import game_view, seats

EDITIONS = load_all()


@pytest.fixture
def stores(store_url: str) -> Iterator[tuple[Store, Store]]:
    """Two connections to one log: ours, and another process's."""
    here, there = open_store(store_url), open_store(store_url)
    yield here, there
    here.close()
    there.close()


def counted(store: Store, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every statement ``store`` reads with (its own ``_one`` and ``_all``, counted)."""
    seen: list[str] = []
    for hook in ("_one", "_all"):
        real = getattr(store, hook)

        def hooked(query: str, params: Any = (), real: Any = real) -> Any:
            seen.append(query)
            return real(query, params)

        monkeypatch.setattr(store, hook, hooked)
    return seen


def test_a_cached_view_is_checked_and_brought_forward_in_one_statement_on_postgresql(
    store_url: str, stores: tuple[Store, Store], monkeypatch: pytest.MonkeyPatch
) -> None:
    here, there = stores
    ours = GameService(here, EDITIONS, cache=ViewCache())
    theirs = GameService(there, EDITIONS, cache=ViewCache())  # its own cache, as another process has
    game_id = ours.create_game(CreateGame(players=seats(2), plague_card=(2, 4)), "create")
    seen = game_view(ours.view(game_id))
    statements = counted(here, monkeypatch)

    assert ours.view(game_id) is seen  # the log has not moved: the kept view itself
    unmoved = len(statements)
    theirs.execute(game_id, seen.seq, TakeLoan(seen.state.active), "their-loan")
    statements.clear()
    after = game_view(ours.view(game_id))
    moved = len(statements)

    assert after.seq > seen.seq
    assert after.state.p[seen.state.active].drachmas > seen.state.p[seen.state.active].drachmas
    assert after.state == GameService(there, EDITIONS, cache=ViewCache()).view(game_id).state
    if is_postgres(store_url):
        assert (unmoved, moved) == (1, 1)  # a round trip each, whether the log moved or not
    else:
        assert (unmoved, moved) == (1, 2)  # in-process: where the log stands, then what came since
