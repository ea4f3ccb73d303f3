"""The JSON API: the same service path as the pages, tokens per game, machine-readable errors,
and a bounded schemathesis run against its own OpenAPI document."""

from __future__ import annotations

import atexit
import json
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from flask import Flask
from hypothesis import HealthCheck, settings
from schemathesis.checks import CHECKS, load_all_checks
from schemathesis.config import SchemathesisConfig

from companion.cli.openapi import openapi_document
from companion.web import create_app
from tests.safety.engines import engine_url
from tests.web.conftest import at_once

DOCS = Path(__file__).resolve().parents[3] / "docs"


@pytest.fixture
def api_app(tmp_path: Path) -> Flask:
    return create_app({"TESTING": True, "DATABASE": str(tmp_path / "api.sqlite3"), "SECRET_KEY": "t"})


def create(client: Any, key: str = "api-create-key-0001", **extra: Any) -> dict[str, Any]:
    body = {
        "players": [{"name": "Ana", "colour": "crimson"}, {"name": "Ben", "colour": "navy"}],
        "plague_card": [2, 3, 5],
        "random_florence": False,
        "idempotency_key": key,
        **extra,
    }
    response = client.post("/api/v1/games", json=body)
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def command(game: dict[str, Any], client: Any, seq: int, key: str, kind: str, **data: Any) -> Any:
    return client.post(
        f"/api/v1/games/{game['game_id']}/commands",
        headers=auth(game["write_token"]),
        json={"expected_seq": seq, "idempotency_key": key, "command": {"type": kind, "data": data}},
    )


def test_the_openapi_document_is_served_and_kept_in_docs(api_app: Flask) -> None:
    served = api_app.test_client().get("/api/openapi.json").get_json()
    assert served["info"]["title"] == "Inferno Companion API"
    assert "/api/v1/games/{game_id}/commands" in served["paths"]
    assert json.loads((DOCS / "openapi.json").read_text(encoding="utf-8")) == openapi_document(), (
        "docs/openapi.json is stale: run `python -m companion.cli.openapi > docs/openapi.json`"
    )


def test_the_openapi_document_describes_the_answers_sent(api_app: Flask) -> None:
    doc = api_app.test_client().get("/api/openapi.json").get_json()
    schemas = doc["components"]["schemas"]
    error = schemas["ApiError"]["properties"]
    assert error["code"]["type"] == "string"  # "stale_seq", "unknown_value", never a number
    assert {"errors", "refusal", "expected_seq", "seq"} <= set(error)  # every field an error carries
    for response in doc["components"]["responses"].values():  # the default answer is that same error
        assert response["content"]["application/json"]["schema"]["$ref"] == "#/components/schemas/ApiError"
    with api_app.app_context():
        from companion.web.http.db import service

        edition = next(iter(service().library.shipped.values()))[1]
    assert schemas["Seat"]["properties"]["colour"]["enum"] == list(edition.colours)
    kinds = list(schemas["CommandData"]["discriminator"]["mapping"])  # one schema per command type
    assert "HoldCouncil" in kinds and "EnterCircle" in kinds and "Undo" not in kinds


def test_a_game_is_played_through_the_api(api_app: Flask) -> None:
    client = api_app.test_client()
    game = create(client)
    done = command(game, client, game["seq"], "key-bring-01", "BringSoul", player=0, colour=5, shield="1a")
    assert done.status_code == 200
    body = done.get_json()
    assert [e["type"] for e in body["events"]] == ["SoulBroughtIn", "TurnQuarterSet"]
    state = client.get(f"/api/v1/games/{game['game_id']}", headers=auth(game["read_token"])).get_json()
    assert state["seq"] == body["seq"] and state["state"]["hell"]["1a"]["colour"] == 5
    undone = client.post(
        f"/api/v1/games/{game['game_id']}/undo",
        headers=auth(game["write_token"]),
        json={"expected_seq": body["seq"], "idempotency_key": "key-undo-01"},
    )
    assert undone.status_code == 200 and undone.get_json()["events"][0]["type"] == "ActionUndone"
    redone = client.post(
        f"/api/v1/games/{game['game_id']}/redo",
        headers=auth(game["write_token"]),
        json={"expected_seq": undone.get_json()["seq"], "idempotency_key": "key-redo-01"},
    )
    assert redone.status_code == 200
    history = client.get(f"/api/v1/games/{game['game_id']}/history", headers=auth(game["read_token"])).get_json()
    assert any("brought one blue soul into Limbo" in " ".join(e["sentences"]) for e in history["entries"])
    score = client.get(f"/api/v1/games/{game['game_id']}/score", headers=auth(game["read_token"])).get_json()
    assert score["final"] is False and [p["name"] for p in score["score"]["players"]] == ["Ana", "Ben"]


def test_tokens_decide_who_reads_and_who_writes(api_app: Flask) -> None:
    client = api_app.test_client()
    game = create(client)
    other = create(client, key="api-create-key-0002")
    url = f"/api/v1/games/{game['game_id']}"
    assert client.get(url).status_code == 401
    assert client.get(url, headers=auth(other["write_token"])).status_code == 403  # another game's token
    assert client.get(url, headers=auth(game["read_token"])).status_code == 200
    write = client.post(
        f"{url}/commands",
        headers=auth(game["read_token"]),
        json={"expected_seq": 2, "idempotency_key": "k" * 10, "command": {"type": "TakeLoan", "data": {"player": 0}}},
    )
    assert write.status_code == 403 and write.get_json()["code"] == "forbidden"
    unknown = client.get("/api/v1/games/no-such-game", headers=auth(game["write_token"]))
    assert unknown.status_code == 403  # the same answer as a wrong token: nothing is learnt


def test_a_stale_seq_a_refusal_and_a_repeat_each_answer_in_kind(api_app: Flask) -> None:
    client = api_app.test_client()
    game = create(client)
    seq = game["seq"]
    first = command(game, client, seq, "same-key-01", "TakeLoan", player=0)
    again = command(game, client, seq, "same-key-01", "TakeLoan", player=0)
    assert first.status_code == again.status_code == 200 and again.get_json()["duplicate"] is True
    stale = command(game, client, seq, "other-key-01", "TakeLoan", player=0)
    assert stale.status_code == 409 and stale.get_json() | {} == {**stale.get_json(), "code": "stale_seq"}
    refused = command(game, client, seq + 1, "key-refused-01", "BringSoul", player=1, colour=5, shield="1a")
    body = refused.get_json()
    assert refused.status_code == 422 and body["code"] == "not_your_turn"
    assert "turn" in body["message"] and body["refusal"]["params"] == {"player": 1, "active": 0}
    anchor = body["refusal"]["rule_url"].split("#")[1]  # the rule a program can show, at the reference's section
    assert body["refusal"]["rule_url"].startswith("/rules#") and f'id="{anchor}"' in client.get("/rules").text
    bad = command(game, client, seq + 1, "key-bad-0001", "Teleport", player=0)
    assert bad.status_code == 422 and "Must be one of" in bad.get_json()["errors"]["json"]["command"]["type"][0]
    state = client.get(f"/api/v1/games/{game['game_id']}", headers=auth(game["read_token"])).get_json()
    assert state["seq"] == seq + 1  # only the first loan landed


def test_conflicting_commands_on_one_seq_exactly_one_lands(api_app: Flask) -> None:
    game = create(api_app.test_client())
    results: list[int] = []

    def submit(i: int) -> None:
        results.append(
            command(game, api_app.test_client(), game["seq"], f"race-key-{i:04d}", "TakeLoan", player=0).status_code
        )

    at_once(8, submit)
    assert sorted(results) == [200] + [409] * 7


def test_commands_with_fresh_seqs_all_land_in_order(api_app: Flask) -> None:
    client = api_app.test_client()
    game = create(client)
    seq = game["seq"]
    for i in range(10):
        response = command(game, client, seq, f"loan-key-{i:04d}", "TakeLoan", player=0)
        assert response.status_code == 200
        seq = response.get_json()["seq"]
    state = client.get(f"/api/v1/games/{game['game_id']}", headers=auth(game["read_token"])).get_json()
    assert state["state"]["players"][0]["ship"] == 6 and state["seq"] == game["seq"] + 10


def test_a_tally_command_sent_to_a_game_and_a_game_command_sent_to_a_tally_are_refused(api_app: Flask) -> None:
    client = api_app.test_client()
    game = create(client)
    to_game = command(game, client, game["seq"], "key-tally-0001", "EnterCircle", circle=2, empty=1, cube=0)
    assert to_game.status_code == 422 and to_game.get_json()["code"] == "wrong_log"
    assert "EnterCircle" in to_game.get_json()["errors"]["json"]["command"]["type"][0]
    with api_app.app_context():
        from companion.game.commands import StartTally
        from companion.web.http.db import service

        tally_id = service().create_game(StartTally(("Ana", "Ben")), "api-tally-0001")
        tally = {"game_id": tally_id, "write_token": service().view(tally_id).write_token}
    to_tally = command(tally, client, 1, "key-game-00001", "TakeLoan", player=0)
    assert to_tally.status_code == 422 and to_tally.get_json()["code"] == "wrong_log"
    assert "TakeLoan is not a command for a quick tally" in to_tally.get_json()["message"]
    entered = command(tally, client, 1, "key-tally-0002", "EnterCircle", circle=2, empty=1, cube=0)
    assert entered.status_code == 200  # the tally still takes its own commands
    read = client.get(f"/api/v1/games/{tally_id}", headers=auth(tally["write_token"])).get_json()
    assert read["kind"] == "tally" and read["state"] == {"names": ["Ana", "Ben"]}


@pytest.mark.parametrize("kind", ["HoldCouncil", "TakeLoan", "EndTurn", "PlaceHalfDiplomas"])
def test_a_player_outside_the_table_is_refused_naming_the_seats(api_app: Flask, kind: str) -> None:
    client = api_app.test_client()
    game = create(client)
    extras: dict[str, dict[str, Any]] = {"HoldCouncil": {"choice": "none"}, "PlaceHalfDiplomas": {"tracks": []}}
    extra = extras.get(kind, {})
    for player in (2, 9, -1):
        refused = command(game, client, game["seq"], f"key-seat-{player}"[:40], kind, player=player, **extra)
        body = refused.get_json()
        assert refused.status_code == 422 and body["code"] == "unknown_value", body
        assert body["errors"]["json"]["command"]["data"]["player"] == [
            f"Unknown player {player}: this game's are 0, 1."
        ]
    # A number no game comes near is refused by the command's shape before the game is consulted.
    huge = command(game, client, game["seq"], "key-seat-huge", kind, player=10**30, **extra)
    assert huge.status_code == 422 and huge.get_json()["errors"]["json"]["command"]["data"] == [
        "player: number out of range"
    ]


def test_unknown_shields_circles_and_colours_are_refused_with_the_legal_values(api_app: Flask) -> None:
    client = api_app.test_client()
    game = create(client)
    refused = command(game, client, game["seq"], "key-ids-00001", "BringSoul", player=0, colour=12, shield="9z")
    errors = refused.get_json()["errors"]["json"]["command"]["data"]
    assert refused.status_code == 422 and set(errors) == {"colour", "shield"}
    assert errors["colour"] == ["Unknown colour 12: this game's are 1, 2, 3, 4, 5, 6, 7, 8, 9."]
    assert errors["shield"][0].startswith("Unknown shield '9z': this game's are 1a, 1b,")
    cube = command(game, client, game["seq"], "key-ids-00002", "RaiseCube", player=0, circle=0)
    assert cube.get_json()["errors"]["json"]["command"]["data"]["circle"][0].startswith("Unknown circle 0")


def test_a_command_of_the_wrong_shape_is_422_with_a_message_per_field(api_app: Flask) -> None:
    client = api_app.test_client()
    game = create(client)
    wrong = command(game, client, game["seq"], "key-shape-0001", "BringSoul", player="one", shield=5)
    body = wrong.get_json()
    assert wrong.status_code == 422 and body["code"] == "invalid_request"
    assert set(body["errors"]["json"]["command"]["data"]) == {"player", "shield", "colour"}
    not_here = command(game, client, game["seq"], "key-shape-0002", "Undo")
    assert not_here.status_code == 422 and "/undo" in not_here.get_json()["errors"]["json"]["command"]["type"][0]
    assert not_here.get_json()["code"] == "invalid_request"


@pytest.mark.parametrize("path", ["/api/v1/games", "/api/v1/games/x/commands"])
def test_json_nested_a_hundred_thousand_deep_is_a_400(api_app: Flask, path: str) -> None:
    game = create(api_app.test_client())
    deep = "[" * 100_000 + "]" * 100_000
    response = api_app.test_client().post(
        path.replace("/x/", f"/{game['game_id']}/"),
        data=deep,
        headers={"Content-Type": "application/json", **auth(game["write_token"])},
    )
    assert response.status_code == 400 and response.get_json()["code"] == "invalid_json"
    assert "nested too deeply" in response.get_json()["message"]


@pytest.mark.parametrize(("method", "path"), [("delete", "/api/v1/games"), ("put", "/api/v1/games/x"), ("post", "/")])
def test_a_405_names_the_allowed_methods(api_app: Flask, method: str, path: str) -> None:
    response = getattr(api_app.test_client(), method)(path)
    assert response.status_code == 405
    assert "GET" in response.headers["Allow"] or "POST" in response.headers["Allow"], dict(response.headers)


# The fuzzing target: one app per engine on a throwaway database, reached through one WSGI callable
# that schemathesis reads the OpenAPI document from (the same document on both engines); the
# ``fuzz_engine`` fixture points it at the SQLite app, then at a PostgreSQL one (``make test-pg``).
_FUZZ_DIR = tempfile.mkdtemp(prefix="companion-fuzz-")
atexit.register(shutil.rmtree, _FUZZ_DIR, ignore_errors=True)
FUZZ_APPS: dict[str, Flask] = {
    "sqlite": create_app({"TESTING": True, "DATABASE": str(Path(_FUZZ_DIR) / "fuzz.sqlite3"), "SECRET_KEY": "t"})
}
FUZZ: dict[str, Any] = {}


class FuzzTarget:
    """The app the fuzzing calls now (the engine's of the running test)."""

    def __init__(self) -> None:
        self.engine = "sqlite"

    @property
    def app(self) -> Flask:
        return FUZZ_APPS[self.engine]

    def __call__(self, environ: Any, start_response: Any) -> Any:
        return self.app(environ, start_response)


FUZZ_TARGET = FuzzTarget()
# A command of the right shape can still be refused by the rules (not your turn, no such soul):
# that is a 422 about the game, not about the request, so valid data may meet it.
CONFIG = SchemathesisConfig.from_dict(
    {"checks": {"positive_data_acceptance": {"expected-statuses": ["2xx", "401", "403", "404", "409", "422"]}}}
)
fuzzed = schemathesis.openapi.from_wsgi("/api/openapi.json", FUZZ_TARGET, config=CONFIG)
load_all_checks()
ALL_CHECKS = [check for check in CHECKS.get_all() if check.__name__ != "max_response_time"]


@pytest.fixture(params=["sqlite", "postgresql"])
def fuzz_engine(request: pytest.FixtureRequest) -> Iterator[str]:
    """Point the fuzz target at this engine's app (built once per run)."""
    engine = str(request.param)
    if engine not in FUZZ_APPS:
        url = engine_url(request, engine, Path(_FUZZ_DIR))
        FUZZ_APPS[engine] = create_app({"TESTING": True, "DATABASE": url, "SECRET_KEY": "t"})
    FUZZ_TARGET.engine = engine
    yield engine
    FUZZ_TARGET.engine = "sqlite"


def fuzz_game() -> dict[str, Any]:
    app = FUZZ_TARGET.app
    if FUZZ_TARGET.engine not in FUZZ:
        game = create(app.test_client(), key="fuzz-create-key-0001")
        loan = command(game, app.test_client(), game["seq"], "fuzz-loan-0001", "TakeLoan", player=0)
        assert loan.status_code == 200  # an entry to undo and redo
        FUZZ[FUZZ_TARGET.engine] = game
    return dict(FUZZ[FUZZ_TARGET.engine])


def stored_rows(game_id: str) -> list[tuple[Any, ...]]:
    with FUZZ_TARGET.app.app_context():
        from companion.web.http.db import service

        return [(r.seq, r.type, r.data, r.command) for r in service().store.read(game_id)]


@fuzzed.parametrize()
@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck), database=None)
@pytest.mark.parametrize("token", ["write", "none"])
def test_schemathesis_with_every_check_finds_nothing(case: Any, token: str, fuzz_engine: str) -> None:
    """Bounded fuzzing of every operation with all of schemathesis's checks (status codes, content
    types, headers, response schemas, negative and positive data, auth...), against a real game
    with its write token and again with no token; a refused request leaves the log as it was."""
    game = fuzz_game()
    if "game_id" in (case.path_parameters or {}):
        case.path_parameters["game_id"] = game["game_id"]
    # The WSGI transport hands schemathesis the body as sent, so ask for it uncompressed (the
    # compression itself is tested in tests/web/http/test_compression.py).
    headers = {**(auth(game["write_token"]) if token == "write" else {}), "Accept-Encoding": "identity"}
    before = stored_rows(game["game_id"])
    seq = before[-1][0]
    if isinstance(case.body, dict) and type(case.body.get("expected_seq")) is int and case.body["expected_seq"] >= 0:
        case.body["expected_seq"] = seq  # a well-formed seq is today's, so requests reach the rules
    response = case.call_and_validate(headers=headers, checks=ALL_CHECKS)
    if os.environ.get("FUZZ_COUNT"):  # how far the fuzzing got: one line per request
        with open(os.environ["FUZZ_COUNT"], "a", encoding="utf-8") as out:
            out.write(f"{case.method} {case.path} {token} {response.status_code}\n")
    if response.status_code >= 400:
        assert isinstance(response.json().get("code"), str), response.text
        assert stored_rows(game["game_id"]) == before, "a refused request changed the log"
