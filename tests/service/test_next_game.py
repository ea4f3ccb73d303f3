"""Same table, new game (issue 24, item 1): the next game starts from the plague card the table
entered, its first entry names the phone that tapped in that phone's new seat, and taps at once make
one game even when their plague cards differ (real SQLite in a temp folder)."""

from __future__ import annotations

import copy
import json
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.editions import load_all
from companion.formats.export import import_game
from companion.service import GameService
from companion.service.next_game import next_game_token, rotated_seat, start_next_game
from events.catalog import NextGameCreated
from events.sqlite import SqliteStore
from tests.builders import game_view

FINISHED = Path(__file__).resolve().parents[1] / "fixtures" / "base-two-players.json"
SECRET = "secret"


@pytest.fixture
def service(tmp_path: Path) -> Iterator[GameService]:
    store = SqliteStore.open(tmp_path / "next.sqlite3")
    yield GameService(store, load_all())
    store.close()


def finished(service: GameService) -> str:
    return import_game(service, copy.deepcopy(json.loads(FINISHED.read_text(encoding="utf-8"))))


def test_the_next_game_starts_from_the_plague_card_entered_and_names_the_tapping_phone(service: GameService) -> None:
    old_id = finished(service)
    view = game_view(service.view(old_id))
    new_id = start_next_game(SECRET, service, view, "tap-key-000000001", (5, 1, 5), "seat:0", "seat:1")
    new = game_view(service.view(new_id))
    assert dict(new.state.cemetery) == {1: 1, 5: 2}
    assert [p.name for p in new.state.players] == ["Ben", "Ana"]
    assert service.store.read(new_id)[0].actor == "seat:1"  # Ana, in her new seat
    link = service.store.read(old_id)[-1]
    assert link.actor == "seat:0"  # Ana, in the old game's seats
    assert next_game_token(SECRET, game_view(service.view(old_id))) == new.read_token
    assert next_game_token("another secret", game_view(service.view(old_id))) is None


def test_taps_at_once_with_different_cards_make_one_game(service: GameService, tmp_path: Path) -> None:
    old_id = finished(service)
    made: list[str] = []
    barrier = threading.Barrier(2)

    def tap(i: int, plague: tuple[int, ...]) -> None:
        store = SqliteStore.open(tmp_path / "next.sqlite3")  # each request has its own connection
        try:
            own = GameService(store, load_all())
            view = game_view(own.view(old_id))
            barrier.wait(5)
            made.append(start_next_game(SECRET, own, view, f"tap-key-{i:010d}", plague, f"seat:{i}", None))
        finally:
            store.close()

    threads = [threading.Thread(target=tap, args=(i, card)) for i, card in enumerate([(2, 3), (2, 4)])]
    for t in threads:
        t.start()
    for t in threads:
        t.join(20)
    assert len(made) == 2 and made[0] == made[1]
    links = [e for e in service.view(old_id).timeline.effective_events() if isinstance(e, NextGameCreated)]
    assert len(links) == 1
    # Sequential too: a late tap with another card joins the game made.
    late = start_next_game(
        SECRET, service, game_view(service.view(old_id)), "tap-key-late000001", (9,), "shared", "shared"
    )
    assert late == made[0]


@pytest.mark.parametrize(("seat", "players", "expected"), [(0, 3, 2), (1, 3, 0), (2, 3, 1), (None, 3, None)])
def test_a_seat_moves_back_one_in_the_next_game(seat: int | None, players: int, expected: int | None) -> None:
    assert rotated_seat(seat, players) == expected
