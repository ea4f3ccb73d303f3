"""Through the real app, on both engines: 20 phones submit on one seq at once and exactly one lands;
the app reads and writes the engine ``COMPANION_DB``/``DATABASE`` names."""

from __future__ import annotations

import threading
from typing import Any

from companion.web import create_app
from events.factory import open_store
from tests.web.conftest import at_once


def app_on(url: str) -> Any:
    return create_app({"TESTING": True, "DATABASE": url, "SECRET_KEY": "t"})


def create(client: Any) -> dict[str, Any]:
    body = {
        "players": [{"name": "Ana", "colour": "crimson"}, {"name": "Ben", "colour": "navy"}],
        "plague_card": [2, 3, 5],
        "random_florence": False,
        "idempotency_key": "engines-create-0001",
    }
    response = client.post("/api/v1/games", json=body)
    assert response.status_code == 201, response.get_json()
    return dict(response.get_json())


def loan(game: dict[str, Any], client: Any, seq: int, key: str) -> Any:
    return client.post(
        f"/api/v1/games/{game['game_id']}/commands",
        headers={"Authorization": f"Bearer {game['write_token']}"},
        json={"expected_seq": seq, "idempotency_key": key, "command": {"type": "TakeLoan", "data": {"player": 0}}},
    )


def test_twenty_concurrent_submits_on_one_seq_exactly_one_lands(store_url: str) -> None:
    app = app_on(store_url)
    game = create(app.test_client())
    barrier = threading.Barrier(20)
    results: list[int] = []

    def submit(i: int) -> None:
        client = app.test_client()
        barrier.wait(10)
        results.append(loan(game, client, game["seq"], f"race-key-{i:04d}").status_code)

    at_once(20, submit)
    assert sorted(results) == [200] + [409] * 19
    store = open_store(store_url)
    rows = store.read(game["game_id"])
    store.close()
    assert rows[-1].seq == game["seq"] + 1 and rows[-1].idempotency_key is not None
    assert sum(1 for r in rows if (r.idempotency_key or "").startswith("race-key-")) == 1


def test_a_game_played_through_the_pages_records_the_same_on_either_engine(store_url: str) -> None:
    from tests.web.conftest import Phone

    app = create_app({"TESTING": True, "DATABASE": store_url, "SECRET_KEY": "t", "WTF_CSRF_ENABLED": False})
    phone = Phone(app.test_client()).create()
    seq = phone.seq
    assert phone.post("loan", {"player": 0}, key="pages-tap-key", seq=seq).status_code == 200
    assert phone.post("loan", {"player": 0}, key="pages-tap-key", seq=seq).status_code == 200  # a double tap
    assert phone.post("bring", {"player": 0, "colour": 5, "shield": "1a"}, seq=seq).status_code == 409  # stale
    phone.post("undo", {})
    phone.post("redo", {})
    assert phone.stat(0, "drachmas") == 5 and phone.seq == seq + 3  # the loan, its undo and its redo
    game_id = phone.url.rstrip("/").rsplit("/", 1)[-1]
    store = open_store(store_url)
    rows = store.read(game_id)
    store.close()
    assert [r.idempotency_key for r in rows].count("pages-tap-key") == 1 and rows[-1].seq == seq + 3
