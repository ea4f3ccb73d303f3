"""With ``BACKGROUND_COMMIT`` on, a tap's entry is written, its COMMIT runs in the background while the answer is
drawn, and the
answer is sent only once the entry is durable (``perform``: ``Outcome.settle``). A COMMIT that fails answers the outage
page, records nothing, and the table's next tap at the same screen is recorded as if it never was. Off (the default),
the COMMIT runs in line, before the answer is drawn."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from companion.log_view import GameView
from companion.web.http.htmx import Answer
from events.factory import open_store
from events.sqlite import SqliteStore
from tests.builders import found
from tests.web.conftest import Phone

SLOW = 0.3


def _app(tmp_path: Path, background_commit: bool | None = True) -> Flask:
    """The app with ``BACKGROUND_COMMIT`` on (or off), or as its settings leave it (``None``)."""
    from companion.web import create_app

    config = {"TESTING": True, "DATABASE": str(tmp_path / "t.sqlite3"), "SECRET_KEY": "t", "WTF_CSRF_ENABLED": False}
    return create_app(config if background_commit is None else {**config, "BACKGROUND_COMMIT": background_commit})


def _ready_for(app: Flask, action: str) -> tuple[Phone, str]:
    """A new game's phone and id, with an entry to undo (``undo``) or one undone (``redo``)."""
    phone = Phone(app.test_client())
    phone.create(plague=("9", "3", "2"))
    if action in ("undo", "redo"):
        assert phone.post("loan", {"player": 0}).status_code == 200
    if action == "redo":
        assert phone.post("undo", {}).status_code == 200
    return phone, phone.url.rsplit("/", 1)[-1]


def _logged(tmp_path: Path, game_id: str) -> int:
    store = open_store(str(tmp_path / "t.sqlite3"))
    try:
        return store.last_seq(game_id)
    finally:
        store.close()


@pytest.mark.parametrize("action", ["loan", "undo"])
def test_the_answer_waits_for_the_entry_to_be_durable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, action: str
) -> None:
    phone, game_id = _ready_for(_app(tmp_path), action)
    before = phone.seq
    real = SqliteStore._commit
    committed: list[float] = []

    def slow(self: SqliteStore) -> None:
        time.sleep(SLOW)
        real(self)
        committed.append(time.perf_counter())

    monkeypatch.setattr(SqliteStore, "_commit", slow)
    answer = phone.post(action, {"player": 0} if action == "loan" else {})
    answered = time.perf_counter()
    assert answer.status_code == 200
    assert committed and committed[0] <= answered  # said only once durable
    assert phone.seq > before
    assert _logged(tmp_path, game_id) == phone.seq


def test_a_commit_that_fails_answers_the_error_page_and_records_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = _app(tmp_path)
    phone = Phone(app.test_client())
    phone.create(plague=("9", "3", "2"))
    game_id = phone.url.rsplit("/", 1)[-1]
    before = phone.seq
    real = SqliteStore._commit

    def failing(self: SqliteStore) -> None:
        self.conn.execute("ROLLBACK")
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(SqliteStore, "_commit", failing)
    failed = phone.post("loan", {"player": 0}, key="loan-key-0001", seq=before)
    assert failed.status_code == 503  # the outage page: try again, nothing is recorded twice
    text = failed.data.decode()
    assert "try again" in text and "Traceback" not in text and "disk I/O" not in text
    assert _logged(tmp_path, game_id) == before
    monkeypatch.setattr(SqliteStore, "_commit", real)
    page = phone.client.get(phone.url).data.decode()
    assert int(found(r'data-seq="(\d+)"', page).group(1)) == before  # every page: the game as it was
    again = phone.post("loan", {"player": 0}, key="loan-key-0001", seq=before)  # the same tap, tried again
    assert again.status_code == 200
    assert phone.seq > before
    assert _logged(tmp_path, game_id) == phone.seq


@pytest.mark.parametrize("action", ["loan", "undo", "redo"])
def test_by_default_a_taps_commit_runs_in_line_before_its_answer_is_drawn(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, action: str
) -> None:
    import events.sqlite

    phone, game_id = _ready_for(_app(tmp_path, None), action)

    def no_thread(job: object) -> None:
        raise AssertionError("a COMMIT handed to a thread")

    monkeypatch.setattr(events.sqlite, "run_in_background", no_thread)
    drawn_after: list[int] = []
    import companion.web.perform as perform
    from companion.web.screens.game import render_game

    def render(view: GameView, *args: Any, **kwargs: Any) -> Answer:
        drawn_after.append(_logged(tmp_path, game_id))  # what another connection sees as the answer is drawn
        return render_game(view, *args, **kwargs)

    monkeypatch.setattr(perform, "render_game", render)
    before = phone.seq
    form = {"player": 0} if action == "loan" else {}
    answer = phone.post(action, form)
    assert answer.status_code == 200, answer.data.decode()[:300]
    assert phone.seq > before
    assert drawn_after == [phone.seq]  # durable before the answer was drawn
    assert _logged(tmp_path, game_id) == phone.seq


def test_the_setting_is_off_unless_the_environment_turns_it_on(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert _app(tmp_path, None).config["BACKGROUND_COMMIT"] is False
    monkeypatch.setenv("COMPANION_BACKGROUND_COMMIT", "1")
    assert _app(tmp_path, None).config["BACKGROUND_COMMIT"] is True
