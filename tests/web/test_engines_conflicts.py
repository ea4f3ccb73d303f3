"""Through the real app, on both engines: 20 phones submit on one seq at once and exactly one lands;
the app reads and writes the engine ``COMPANION_DB``/``DATABASE`` names."""

from __future__ import annotations

import threading
from typing import Any

from companion.web import create_app
from events.factory import open_store


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

    threads = [threading.Thread(target=submit, args=(i,)) for i in range(20)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(20)
    assert sorted(results) == [200] + [409] * 19
    store = open_store(store_url)
    rows = store.read(game["game_id"])
    store.close()
    assert rows[-1].seq == game["seq"] + 1 and rows[-1].idempotency_key is not None
    assert sum(1 for r in rows if (r.idempotency_key or "").startswith("race-key-")) == 1
