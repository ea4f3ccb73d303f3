"""Issue 26, item 6: the OpenAPI document has one schema per command type (a discriminated ``oneOf``),
so a command of the wrong shape fails the document as it fails the API, and a ``StartNextGame`` sent
by hand must carry the app's own proof for a real next game (else 422, nothing recorded)."""

from __future__ import annotations

import copy
import dataclasses
import json
from pathlib import Path
from typing import Any

import jsonschema_rs
import pytest

from companion.formats.export import import_game
from companion.game.commands import COMMAND_TYPES
from companion.service.next_game import link_proof
from companion.web import create_app
from companion.web.api.command_check import GAME_COMMANDS, TALLY_COMMANDS
from companion.web.http.db import service
from events.factory import open_store

FINISHED = Path(__file__).resolve().parents[1] / "fixtures" / "base-two-players.json"


@pytest.fixture(scope="module")
def document(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    path = tmp_path_factory.mktemp("doc") / "d.sqlite3"
    app = create_app({"TESTING": True, "DATABASE": str(path), "SECRET_KEY": "t"})
    return dict(app.test_client().get("/api/openapi.json").get_json())


def request_validator(document: dict[str, Any]) -> Any:
    """A validator of a /commands request body, as the document describes it."""
    schema = {"$ref": "#/components/schemas/CommandRequest", "components": document["components"]}
    return jsonschema_rs.Draft4Validator(schema)


def test_every_command_type_has_its_own_schema_chosen_by_its_type(document: dict[str, Any]) -> None:
    schemas = document["components"]["schemas"]
    command = schemas["CommandData"]
    names = sorted(c.__name__ for c in GAME_COMMANDS | TALLY_COMMANDS)
    assert command["discriminator"]["propertyName"] == "type"
    assert sorted(command["discriminator"]["mapping"]) == names
    assert len(command["oneOf"]) == len(names)
    for name in names:
        one = schemas[command["discriminator"]["mapping"][name].rsplit("/", 1)[1]]
        assert one["properties"]["type"]["enum"] == [name]
        data = schemas[one["properties"]["data"]["$ref"].rsplit("/", 1)[1]]
        assert data["additionalProperties"] is False, name
        cls = COMMAND_TYPES[name]
        assert dataclasses.is_dataclass(cls)
        fields = {f.name for f in dataclasses.fields(cls)}
        assert set(data.get("properties", {})) == fields, name


@pytest.mark.parametrize(
    ("command", "valid"),
    [
        ({"type": "Accuse", "data": {}}, False),
        ({"type": "TakeLoan", "data": {}}, False),
        ({"type": "TakeLoan", "data": {"player": 0, "extra": 1}}, False),
        ({"type": "TakeLoan", "data": {"player": "0"}}, False),
        ({"type": "NoSuchCommand", "data": {"player": 0}}, False),
        ({"type": "TakeLoan", "data": {"player": 0}}, True),
    ],
)
def test_a_command_of_the_wrong_shape_fails_the_document(
    document: dict[str, Any], command: dict[str, Any], valid: bool
) -> None:
    body = {"expected_seq": 0, "idempotency_key": "doc-check-0001", "command": command}
    assert request_validator(document).is_valid(body) is valid


def test_the_document_refuses_a_nul_in_any_string_it_takes(document: dict[str, Any]) -> None:
    body = {"expected_seq": 0, "idempotency_key": "doc-check\x000001", "command": {"type": "EndTurn", "data": {}}}
    assert not request_validator(document).is_valid(body)


def test_a_start_next_game_sent_by_hand_needs_the_apps_proof(store_url: str) -> None:
    app = create_app({"TESTING": True, "DATABASE": store_url, "SECRET_KEY": "t"})
    with app.app_context():
        old_id = import_game(service(), copy.deepcopy(json.loads(FINISHED.read_text(encoding="utf-8"))))
        other_id = import_game(service(), copy.deepcopy(json.loads(FINISHED.read_text(encoding="utf-8"))))
        old, other = service().view(old_id), service().view(other_id)
    client = app.test_client()
    auth = {"Authorization": f"Bearer {old.write_token}"}

    def send(token: str, proof: str, key: str) -> Any:
        command = {"type": "StartNextGame", "data": {"read_token": token, "proof": proof}}
        body = {"expected_seq": old.seq, "idempotency_key": key, "command": command}
        return client.post(f"/api/v1/games/{old_id}/commands", headers=auth, json=body)

    def rows() -> list[Any]:
        store = open_store(store_url)
        try:
            return [r.seq for r in store.read(old_id)]
        finally:
            store.close()

    before = rows()
    forged = [
        send(other.read_token, "0" * 32, "forged-proof-01"),  # any proof at all
        send("no-such-token", link_proof("t", old_id, "no-such-token"), "forged-proof-02"),  # no such game
        send(other.read_token, link_proof("t", other_id, other.read_token), "forged-proof-03"),  # another game's
    ]
    assert [r.status_code for r in forged] == [422, 422, 422], [r.get_json() for r in forged]
    assert {r.get_json()["code"] for r in forged} == {"invalid_proof"}
    assert rows() == before
    good = send(other.read_token, link_proof("t", old_id, other.read_token), "good-proof-01")
    assert good.status_code == 200, good.get_json()
    assert rows() == [*before, before[-1] + 1]
