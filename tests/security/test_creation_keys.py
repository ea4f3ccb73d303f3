"""Idempotency keys leak nothing: a creation key is its creator's secret, every key is scoped to one
game and one command, and exports carry no secret that grants access."""

from __future__ import annotations

import base64
import json
import re
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.editions import load_all
from companion.formats.export import export_game, import_game
from companion.game.commands import CreateGame, EndTurn, TakeLoan
from companion.service import GameService, KeyReused
from companion.web import create_app
from companion.web.forms.fields import new_key
from events.catalog import SeatSetup
from events.sqlite import SqliteStore
from tests.builders import found

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures"
KEY = "Zq3v9x-secret-creation-key"


@pytest.fixture
def app(tmp_path: Path) -> Flask:
    return create_app(
        {"TESTING": True, "DATABASE": str(tmp_path / "keys.sqlite3"), "SECRET_KEY": "t", "WTF_CSRF_ENABLED": False}
    )


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


def create(client: FlaskClient, key: str = KEY, names: tuple[str, ...] = ("Ana", "Ben"), **extra: Any) -> Any:
    body = {
        "players": [{"name": n, "colour": c} for n, c in zip(names, ("crimson", "navy", "forest"), strict=False)],
        "plague_card": [2, 3, 5],
        "idempotency_key": key,
        **extra,
    }
    return client.post("/api/v1/games", json=body)


def secrets_of(body: dict[str, Any]) -> list[str]:
    return [body["game_id"], body["read_token"], body["write_token"]]


# ---------------------------------------------------------------------------- creation keys


def test_a_creation_key_reused_with_another_payload_is_refused_and_reveals_nothing(client: FlaskClient) -> None:
    first = create(client)
    assert first.status_code == 201
    stolen = create(client, names=("Mallory", "Eve"))
    assert stolen.status_code == 422
    body = stolen.get_json()
    assert body["code"] == "key_reused"
    text = stolen.get_data(as_text=True)
    assert all(secret not in text for secret in secrets_of(first.get_json()))


def test_a_retry_of_the_very_same_creation_returns_the_same_game(client: FlaskClient) -> None:
    # random_florence is on by default: the deal must not make a retry look like another request
    first = create(client)
    again = create(client)
    assert first.status_code == again.status_code == 201
    assert again.get_json() == first.get_json()


def test_a_short_creation_key_is_refused_with_a_message_for_that_field(client: FlaskClient) -> None:
    response = create(client, key="my-first-game")
    assert response.status_code == 422
    body = response.get_json()
    assert "idempotency_key" in body["errors"]["json"]
    assert any("16" in message for message in body["errors"]["json"]["idempotency_key"])


def test_the_api_documents_that_a_creation_key_is_a_secret(client: FlaskClient) -> None:
    spec = client.get("/api/openapi.json").get_json()
    field = spec["components"]["schemas"]["CreateGame"]["properties"]["idempotency_key"]
    assert field["minLength"] == 16
    assert "secret" in field["description"]


def test_the_readme_example_uses_a_random_key_and_says_so() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "my-first-game" not in readme
    assert "secrets.token_urlsafe(16)" in readme


def test_the_create_form_refuses_another_games_key_without_opening_it(client: FlaskClient) -> None:
    first = create(client).get_json()
    form = {
        "key": KEY,
        "name": ["Mallory"],
        "colour": ["crimson"],
        "plague": ["2", "3", "5", "1"],
        "layout": "default",
    }
    response = client.post("/games", data=form)
    assert response.status_code == 422
    text = response.get_data(as_text=True)
    assert "Location" not in response.headers
    assert all(secret not in text for secret in secrets_of(first))
    assert "already used" in text


def test_the_pages_generate_128_bit_keys(client: FlaskClient, app: Flask) -> None:
    with app.test_request_context():
        keys = {new_key() for _ in range(50)}
    assert len(keys) == 50
    assert all(len(base64.urlsafe_b64decode(k + "==")) == 16 for k in keys)  # 128 random bits, URL-safe
    assert all(re.fullmatch(r"[A-Za-z0-9_-]{22}", k) for k in keys)
    page = client.get("/").get_data(as_text=True)
    rendered = re.search(r'name="key" value="([^"]+)"', page)
    assert rendered is not None and len(rendered.group(1)) >= 22


# ---------------------------------------------------------------------------- command keys


def command(client: FlaskClient, game: dict[str, Any], seq: int, key: str, kind: str, **data: Any) -> Any:
    return client.post(
        f"/api/v1/games/{game['game_id']}/commands",
        headers={"Authorization": f"Bearer {game['write_token']}"},
        json={"expected_seq": seq, "idempotency_key": key, "command": {"type": kind, "data": data}},
    )


def test_a_command_key_reused_for_another_command_is_refused_not_called_a_duplicate(client: FlaskClient) -> None:
    game = create(client).get_json()
    seq = game["seq"]
    assert command(client, game, seq, "loan-key-0001", "TakeLoan", player=0).status_code == 200
    after = client.get(f"/api/v1/games/{game['game_id']}", headers={"Authorization": f"Bearer {game['read_token']}"})
    reused = command(client, game, after.get_json()["seq"], "loan-key-0001", "EndTurn", player=0)
    assert reused.status_code == 422
    assert reused.get_json()["code"] == "key_reused"
    again = client.get(f"/api/v1/games/{game['game_id']}", headers={"Authorization": f"Bearer {game['read_token']}"})
    assert again.get_json()["seq"] == after.get_json()["seq"]  # nothing recorded


def test_an_undo_key_reused_for_a_redo_or_another_undo_is_refused(client: FlaskClient) -> None:
    game = create(client).get_json()
    auth = {"Authorization": f"Bearer {game['write_token']}"}
    url = f"/api/v1/games/{game['game_id']}"
    loan = command(client, game, game["seq"], "loan-key-0002", "TakeLoan", player=0).get_json()
    undo = {"expected_seq": loan["seq"], "idempotency_key": "undo-0001"}
    undone = client.post(f"{url}/undo", headers=auth, json=undo)
    assert undone.status_code == 200
    seq = undone.get_json()["seq"]
    redo = client.post(f"{url}/redo", headers=auth, json={"expected_seq": seq, "idempotency_key": "undo-0001"})
    assert redo.status_code == 422 and redo.get_json()["code"] == "key_reused"
    other = client.post(
        f"{url}/undo", headers=auth, json={"expected_seq": seq, "idempotency_key": "undo-0001", "to_action": 1}
    )
    assert other.status_code == 422 and other.get_json()["code"] == "key_reused"
    same = client.post(f"{url}/undo", headers=auth, json={"expected_seq": seq, "idempotency_key": "undo-0001"})
    assert same.status_code == 200 and same.get_json()["duplicate"] is True and same.get_json()["events"] == []


def test_a_page_form_key_reused_for_another_entry_gets_a_page_not_a_500(client: FlaskClient) -> None:
    form = {"key": new_key_outside(), "name": ["Ana", "Ben"], "colour": ["crimson", "navy"]}
    created = client.post("/games", data={**form, "plague": ["2", "3", "5", "1"], "layout": "default"})
    assert created.status_code == 303
    url = created.headers["Location"]
    page = client.get(url).get_data(as_text=True)
    seq = int(found(r'data-seq="(\d+)"', page).group(1))
    assert client.post(f"{url}/loan", data={"seq": seq, "key": "page-key-0001", "player": 0}).status_code == 303
    for htmx in (False, True):
        reused = client.post(
            f"{url}/end-turn",
            data={"seq": seq + 1, "key": "page-key-0001", "player": 0},
            headers={"HX-Request": "true"} if htmx else {},
        )
        assert reused.status_code == 422
        assert "already used" in reused.get_data(as_text=True)


def new_key_outside() -> str:
    return "form-creation-key-" + "x" * 10


# ---------------------------------------------------------------------------- exports and imports


@pytest.fixture
def service(tmp_path: Path) -> GameService:
    return GameService(SqliteStore.open(tmp_path / "svc.sqlite3"), load_all())


def test_an_export_carries_no_key_token_or_join_code(service: GameService) -> None:
    game = service.create_game(CreateGame((SeatSetup("Ana", "crimson"),), plague_card=(2, 3)), KEY)
    service.execute(game, 2, TakeLoan(0), "loan-secret-key-1")
    view = service.view(game)
    text = json.dumps(export_game(service, game))
    for secret in (KEY, "loan-secret-key-1", view.read_token, view.write_token, view.join_code, game):
        assert secret and secret not in text
    assert "idempotency_key" not in text


def test_an_import_gets_new_secrets_and_revives_no_key(service: GameService) -> None:
    old = json.loads((FIXTURES / "base-two-players.json").read_text(encoding="utf-8"))
    old_keys = [e["idempotency_key"] for e in old["events"] if e["idempotency_key"]]
    assert old["format_version"] == 1 and old_keys  # an old export that still carries keys
    game = import_game(service, old)
    assert [r.idempotency_key for r in service.view(game).rows] == [None] * len(old["events"])
    first = old["events"][0]
    # the old creation key with the exact creation command opens nothing
    creation = service.create_game(load_creation(first["command"]), first["idempotency_key"])
    assert creation != game
    # nor does a command key: it is free again for new entries of the imported game
    view = service.view(game)
    assert service.store.action_for_key(game, old_keys[1]) is None
    assert view.write_token not in json.dumps(old)


def load_creation(raw: dict[str, Any]) -> Any:
    from companion.formats.commands import command_from_json

    return command_from_json(raw)


def test_the_service_refuses_a_key_reused_for_another_game_or_command(service: GameService) -> None:
    game = service.create_game(CreateGame((SeatSetup("Ana", "crimson"),), plague_card=(2, 3)), KEY)
    with pytest.raises(KeyReused):
        service.create_game(CreateGame((SeatSetup("Eve", "navy"),), plague_card=(2, 3)), KEY)
    assert service.store.game_ids() == [game]
    service.execute(game, 2, TakeLoan(0), "loan-key-0003")
    with pytest.raises(KeyReused):
        service.execute(game, 3, EndTurn(0), "loan-key-0003")
    again = service.execute(game, 3, TakeLoan(0), "loan-key-0003")
    assert again.duplicate and again.events == () and again.view.seq == 3
