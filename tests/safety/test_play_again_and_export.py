"""Issue 26, items 1 and 3, on both engines: an export carries no secret of any game (not the next
game's read token, nor any key, token, join code or game id), and four phones tapping "Same table,
new game" at once start exactly one next game, which every tap joins."""

from __future__ import annotations

import copy
import json
import threading
from pathlib import Path
from typing import Any

import pytest

from companion.formats.export import export_game, import_game
from companion.web import create_app
from companion.web.http.db import service
from events.catalog import NextGameCreated
from events.factory import open_store
from tests.web.conftest import at_once

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
FINISHED = FIXTURES / "base-two-players.json"


def app_on(url: str) -> Any:
    return create_app({"TESTING": True, "DATABASE": url, "SECRET_KEY": "t", "WTF_CSRF_ENABLED": False})


def finished_game(app: Any) -> str:
    with app.app_context():
        return import_game(service(), copy.deepcopy(json.loads(FINISHED.read_text(encoding="utf-8"))))


def secrets_of(app: Any, url: str) -> set[str]:
    """Every token, join code, game id and idempotency key the store holds, for every game."""
    found: set[str] = set()
    store = open_store(url)
    try:
        for game_id in store.game_ids():
            meta = store.game(game_id)
            found |= {game_id, meta["read_token"], meta["write_token"]}
            if meta.get("join_code"):
                found.add(meta["join_code"])
            found |= {r.idempotency_key for r in store.read(game_id) if r.idempotency_key}
    finally:
        store.close()
    return {s for s in found if s}


def test_an_export_carries_no_token_key_join_code_or_game_id_of_any_game(store_url: str) -> None:
    app = app_on(store_url)
    old_id = finished_game(app)
    host = app.test_client()
    made = host.post(f"/g/{old_id}/again", data={"key": "again-export-1", "plague": ["2", "5"]})
    assert made.status_code == 303
    with app.app_context():
        new_id = made.headers["Location"].rsplit("/", 1)[1]
        new_view = service().view(new_id)
        exports = {gid: export_game(service(), gid) for gid in (old_id, new_id)}
        text = json.dumps(list(exports.values()))
        types = {row["type"] for e in exports.values() for row in e["events"]}
        assert "NextGameCreated" in types  # the link is exported, without its secret
        for secret in secrets_of(app, store_url) | {new_view.read_token, new_view.write_token}:
            assert secret not in text, f"an export holds a secret: {secret[:6]}…"
        # The export still replays and imports; the copy leads no phone to the next game.
        copy_id = import_game(service(), exports[old_id])
        copy_view = service().view(copy_id)
        assert not [e for e in copy_view.timeline.effective_events() if isinstance(e, NextGameCreated) and e.read_token]
    assert "/next" not in app.test_client().get(f"/g/{copy_id}/score").get_data(as_text=True)
    # The export offered by the page holds no secret either.
    page_export = host.get(f"/g/{old_id}/export.json").get_data(as_text=True)
    assert new_view.read_token not in page_export and old_id not in page_export


@pytest.mark.parametrize("workers", [1, 2])
def test_four_phones_tapping_play_again_at_once_start_one_next_game(store_url: str, workers: int) -> None:
    """As with ``--workers 2``: two apps on one database (each its own caches) share the taps."""
    apps = [app_on(store_url) for _ in range(workers)]
    app = apps[0]
    old_id = finished_game(app)
    for other in apps[1:]:
        with other.app_context():
            service().view(old_id)  # the second worker has the finished game in its cache too
    barrier = threading.Barrier(4)
    answers: list[tuple[int, str]] = []

    def tap(i: int) -> None:
        client = apps[i % workers].test_client()
        barrier.wait(10)
        response = client.post(f"/g/{old_id}/again", data={"key": f"again-race-{i:04d}", "plague": ["2", "5"]})
        answers.append((response.status_code, response.headers.get("Location", "")))

    at_once(4, tap)
    assert [status for status, _ in answers] == [303] * 4, answers
    store = open_store(store_url)
    try:
        games = store.game_ids()
    finally:
        store.close()
    assert len(games) == 2, f"{len(games) - 1} next games for one finished game"
    (new_id,) = set(games) - {old_id}
    with app.app_context():
        links = [e for e in service().view(old_id).timeline.effective_events() if isinstance(e, NextGameCreated)]
        assert len(links) == 1
    for _, where in answers:  # every tap joins the one next game: directly, or through /next
        assert where.endswith(f"/g/{new_id}") or where.endswith(f"/g/{old_id}/next"), where
    followed = app.test_client().get(f"/g/{old_id}/next")
    assert followed.headers["Location"].endswith(f"/g/{new_id}")
