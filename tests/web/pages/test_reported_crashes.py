"""Crashes reported in issue 12: the home page after a quick tally, and "undo to here" in a game that
holds a correction (checked over every entry, against a real undo)."""

from __future__ import annotations

from pathlib import Path

import pytest
from flask import Flask

from companion.editions import load_all
from companion.formats.export import export_game, import_game
from companion.game.commands import BringSoul, Command, CreateGame, EndTurn, SendMember, TakeLoan
from companion.game.errors import RuleViolation
from companion.game.state import GameState
from companion.readmodels.summary import state_summary
from companion.service import GameService
from companion.web import create_app
from events.catalog import SeatSetup
from events.sqlite import SqliteStore
from tests.builders import game_view


@pytest.fixture
def app(tmp_path: Path) -> Flask:
    return create_app(
        {"TESTING": True, "DATABASE": str(tmp_path / "web.sqlite3"), "SECRET_KEY": "t", "WTF_CSRF_ENABLED": False}
    )


def test_the_home_page_lists_a_quick_tally_beside_the_games(app: Flask) -> None:
    client = app.test_client()
    tally = client.post("/tally", data={"key": "tally-key-000000001", "name": ["Ana", "Ben"]})
    assert tally.status_code == 303
    created = client.post(
        "/games",
        data={
            "key": "game-key-0000000001",
            "name": ["Cleo"],
            "colour": ["crimson"],
            "plague": ["2", "3"],
            "layout": "default",
        },
    )
    assert created.status_code == 303
    home = client.get("/")
    assert home.status_code == 200
    page = home.get_data(as_text=True)
    assert tally.headers["Location"] in page and created.headers["Location"] in page
    assert "Ana, Ben" in page and "Cleo" in page


def corrected_game(service: GameService) -> str:
    """A game whose first soul was corrected after four more entries, then an undone entry and one more."""
    game = service.create_game(
        CreateGame((SeatSetup("Ana", "crimson"), SeatSetup("Ben", "navy")), plague_card=(5, 2, 3)), "create-key"
    )
    commands: list[Command] = [
        BringSoul(0, 5, "1a"),
        SendMember(0, "noble", "banquet"),
        EndTurn(0),
        BringSoul(1, 2, "1b"),
        TakeLoan(1),
    ]
    for n, command in enumerate(commands):
        service.execute(game, service.view(game).seq, command, f"key-{n}")
    first_soul = service.view(game).timeline.actions[1].seq
    service.replace(game, service.view(game).seq, "replace-1", first_soul, BringSoul(0, 5, "1e"))
    service.execute(game, service.view(game).seq, TakeLoan(1), "key-loan-2")
    service.undo(game, service.view(game).seq, "undo-last")
    service.execute(game, service.view(game).seq, TakeLoan(1), "key-loan-3")  # in effect after the correction
    return game


def test_undo_preview_of_every_entry_of_a_corrected_game_matches_a_real_undo(tmp_path: Path) -> None:
    service = GameService(SqliteStore.open(tmp_path / "p.sqlite3"), load_all())
    game = corrected_game(service)
    view = service.view(game)
    entries = [a.seq for a in view.timeline.actions]
    assert len(entries) == 10 and any(a.replaces is not None for a in view.timeline.actions)
    previewed = 0
    for entry in entries:
        try:
            _view, reverted, after = service.preview_undo(game, entry)
        except RuleViolation:
            assert entry not in view.timeline.done or entry == 1  # only entries in effect can be undone
            continue
        clone = import_game(service, export_game(service, game))
        real = service.undo(clone, service.view(clone).seq, f"real-undo-{entry}", entry)
        assert isinstance(after, GameState)
        assert reverted and state_summary(after) == state_summary(game_view(real.view).state), entry
        previewed += 1
    assert previewed >= 7


def test_the_undo_preview_page_answers_for_every_entry_of_a_corrected_game(app: Flask, tmp_path: Path) -> None:
    service = GameService(SqliteStore.open(tmp_path / "web.sqlite3"), load_all())
    game = corrected_game(service)
    client = app.test_client()
    statuses = {}
    for action in service.view(game).timeline.actions:
        response = client.get(f"/g/{game}/undo-preview?to={action.seq}")
        statuses[action.seq] = response.status_code
    assert set(statuses.values()) <= {200, 422} and list(statuses.values()).count(200) >= 7, statuses
