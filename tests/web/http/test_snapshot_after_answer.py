"""A tap that takes a game past a hundred events answers first and writes the game's snapshot after
(``web.http.db.after_answer``): the snapshot (its JSON and a second durable write, ~0.6 ms) is no longer part of
the tap's time. The answer is sent, the WSGI server closes it, then the snapshot is written with a connection of the
pool; a snapshot that cannot be written is logged and the game is served all the same.
"""

from __future__ import annotations

import http.client
import logging
import threading
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest
from flask import Flask

import companion.service.games as games_module
from companion.service.snapshot import SNAPSHOT_EVERY, save_snapshot
from events.factory import open_store
from testkit.live_client import serving
from tests.builders import found
from tests.web.conftest import HX, Phone


def _near_a_snapshot(app: Flask) -> Phone:
    """A game one event before its first snapshot: a loan, then undo and redo until seq 99."""
    phone = Phone(app.test_client())
    phone.create(plague=("9", "3", "2"))
    assert phone.post("loan", {"player": 0}).status_code == 200
    while phone.seq < SNAPSHOT_EVERY - 1:
        action = "undo" if f'{phone.url}/undo"' in phone.html and phone.seq % 2 else "redo"
        if f'{phone.url}/{action}"' not in phone.html:
            action = "undo"
        assert phone.post(action, {}).status_code == 200
    assert phone.seq == SNAPSHOT_EVERY - 1
    return phone


def _snapshots(db: Path, game_id: str) -> list[int]:
    store = open_store(str(db))
    try:
        rows = store.conn.execute("SELECT seq FROM snapshots WHERE game_id = ?", (game_id,)).fetchall()  # type: ignore[attr-defined]
        return [int(r[0]) for r in rows]
    finally:
        store.close()


def _app(tmp_path: Path) -> Flask:
    from companion.web import create_app

    return create_app(
        {"TESTING": True, "DATABASE": str(tmp_path / "s.sqlite3"), "SECRET_KEY": "t", "WTF_CSRF_ENABLED": False}
    )


def test_the_answer_comes_before_the_snapshot_is_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    app = _app(tmp_path)
    phone = _near_a_snapshot(app)
    game_id = phone.url.rsplit("/", 1)[-1]
    assert _snapshots(tmp_path / "s.sqlite3", game_id) == []
    real = save_snapshot
    started = threading.Event()

    def slow(view: Any, store: Any) -> None:
        started.set()
        time.sleep(1.0)  # a snapshot that takes a second: the answer must not wait for it
        real(view, store)

    monkeypatch.setattr(games_module, "save_snapshot", slow)
    with serving(app) as (host, port):
        conn = http.client.HTTPConnection(host, port, timeout=10)
        body = urlencode({"seq": phone.seq, "key": "crossing-the-hundred-01"})
        begun = time.perf_counter()
        conn.request("POST", f"{phone.url}/undo", body, {"Content-Type": "application/x-www-form-urlencoded", **HX})
        answer = conn.getresponse()
        text = answer.read().decode()
        took = time.perf_counter() - begun
        assert answer.status == 200, text[:300]
        assert f'"seq": {SNAPSHOT_EVERY}' in (answer.getheader("HX-Trigger-After-Settle") or "")  # recorded at 100
        assert took < 0.8, took  # the answer did not wait for the snapshot's second
        deadline = time.monotonic() + 10
        while not _snapshots(tmp_path / "s.sqlite3", game_id) and time.monotonic() < deadline:
            time.sleep(0.05)
        conn.close()
    assert started.is_set()
    assert _snapshots(tmp_path / "s.sqlite3", game_id), "the snapshot was written after the answer"


def test_the_snapshot_waits_for_the_answer_to_be_closed(tmp_path: Path) -> None:
    """Through the test client the answer is closed by hand: no snapshot before, one after."""
    app = _app(tmp_path)
    phone = _near_a_snapshot(app)
    game_id = phone.url.rsplit("/", 1)[-1]
    answer = phone.client.post(
        f"{phone.url}/undo", data={"seq": phone.seq, "key": "crossing-the-hundred-02"}, headers=HX
    )
    assert answer.status_code == 200
    assert _snapshots(tmp_path / "s.sqlite3", game_id) == []
    answer.close()
    assert len(_snapshots(tmp_path / "s.sqlite3", game_id)) == 1


def test_a_snapshot_that_fails_after_the_answer_is_logged_and_the_game_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    app = _app(tmp_path)
    phone = _near_a_snapshot(app)
    game_id = phone.url.rsplit("/", 1)[-1]

    def broken(view: Any, store: Any) -> None:
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(games_module, "save_snapshot", broken)
    with caplog.at_level(logging.WARNING):
        answer = phone.client.post(
            f"{phone.url}/undo", data={"seq": phone.seq, "key": "crossing-the-hundred-03"}, headers=HX
        )
        answer.close()
    assert answer.status_code == 200
    assert any("after an answer failed" in r.getMessage() for r in caplog.records)
    assert _snapshots(tmp_path / "s.sqlite3", game_id) == []
    page = phone.client.get(phone.url)
    assert page.status_code == 200
    assert found(r'data-seq="(\d+)"', page.data.decode()).group(1) == str(SNAPSHOT_EVERY)


def test_a_job_given_outside_a_request_runs_at_once(tmp_path: Path) -> None:
    """A service kept past its request (none is) still writes what it hands over: at once, with a pooled store."""
    from companion.web.http.db import after_answer

    app = _app(tmp_path)
    ran: list[object] = []
    with app.app_context():
        after_answer(ran.append)
    assert len(ran) == 1 and hasattr(ran[0], "save_snapshot")
    after_answer(ran.append)  # no app at all: dropped, nothing raised
    assert len(ran) == 1
