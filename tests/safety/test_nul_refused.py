"""Issue 26, item 2, on both engines: a NUL character anywhere a visitor can put one (an id in a path,
an idempotency key, a name, an edition name, a query, a header, an uploaded file) is a 4xx, never a
500, and records nothing."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from companion.web import create_app
from companion.web.http.nul import carries_nul
from events.factory import open_store

EXPORT = Path(__file__).resolve().parents[1] / "fixtures" / "skeleton.json"


def app_on(url: str) -> Any:
    return create_app({"TESTING": True, "DATABASE": url, "SECRET_KEY": "t", "WTF_CSRF_ENABLED": False})


def create_body(key: str, name: str = "Ana") -> dict[str, Any]:
    return {
        "players": [{"name": name, "colour": "crimson"}, {"name": "Ben", "colour": "navy"}],
        "plague_card": [2, 3, 5],
        "random_florence": False,
        "idempotency_key": key,
    }


def rows_of(url: str) -> list[Any]:
    store = open_store(url)
    try:
        return [(g, [(r.seq, r.type, r.idempotency_key) for r in store.read(g)]) for g in store.game_ids()]
    finally:
        store.close()


def test_nul_anywhere_is_a_4xx_on_either_engine_and_records_nothing(store_url: str) -> None:
    app = app_on(store_url)
    client = app.test_client()
    made = client.post("/api/v1/games", json=create_body("nul-probe-create-01"))
    assert made.status_code == 201
    game = made.get_json()
    auth = {"Authorization": f"Bearer {game['write_token']}"}
    game_url = f"/api/v1/games/{game['game_id']}"
    before = rows_of(store_url)
    loan = {"type": "TakeLoan", "data": {"player": 0}}
    export = json.loads(EXPORT.read_text(encoding="utf-8"))
    export["events"][0]["data"]["players"][0]["name"] = "A\x00na"
    edition_name = json.dumps({"id": "x\x00y", "name": "Ours\x00"})
    probes = {
        "game id in a page path": lambda: client.get("/g/abc%00def"),
        "game id in a form post": lambda: client.post("/g/abc%00def/again", data={"key": "k" * 20}),
        "read token in a viewer path": lambda: client.get("/v/abc%00def"),
        "join code": lambda: client.get("/j/AB%00CD"),
        "join code in the query": lambda: client.get("/j/go?code=AB%00CD"),
        "game id in an API path": lambda: client.get("/api/v1/games/abc%00def", headers=auth),
        "API creation key": lambda: client.post("/api/v1/games", json=create_body("nul\x00probe-key-0001")),
        "player name": lambda: client.post("/api/v1/games", json=create_body("nul-probe-create-02", "A\x00na")),
        "command key": lambda: client.post(
            f"/api/v1/games/{game['game_id']}/commands",
            headers=auth,
            json={"expected_seq": game["seq"], "idempotency_key": "nul\x00probe-cmd-01", "command": loan},
        ),
        "bearer token": lambda: client.get(game_url, headers={"Authorization": "Bearer a\x00b"}),
        "page form key": lambda: client.post(f"/g/{game['game_id']}/again", data={"key": "again\x00key-0001"}),
        "imported game": lambda: client.post(
            "/import",
            data={"file": (io.BytesIO(json.dumps(export).encode()), "game.json")},
            content_type="multipart/form-data",
        ),
        "edition file and its name": lambda: client.post(
            "/editions/import",
            data={"file": (io.BytesIO(edition_name.encode()), "ours.json")},
            content_type="multipart/form-data",
        ),
        "edition name typed": lambda: client.post("/editions/import", data={"text": '{"name": "a\x00"}'}),
        "saved edition name": lambda: client.post("/editions/zz/save", data={"name": "Ours\x00"}),
    }
    answers = {what: probe().status_code for what, probe in probes.items()}
    assert {what: s for what, s in answers.items() if not 400 <= s < 500} == {}, answers
    assert rows_of(store_url) == before


@pytest.mark.parametrize(
    ("raw", "nul"),
    [
        (b"plain", False),
        (b"a\x00b", True),
        (b'{"a": "\\u0000"}', True),
        (b'{"a": "\\\\u0000"}', False),  # an escaped backslash, then the letters u0000
        (b'{"a": "\\\\\\u0000"}', True),
    ],
)
def test_a_json_nul_escape_is_told_from_an_escaped_backslash(raw: bytes, nul: bool) -> None:
    assert carries_nul(raw) is nul
