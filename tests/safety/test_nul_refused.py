"""Issue 26, item 2, on both engines: a NUL character anywhere a visitor can put one (an id in a path,
an idempotency key, a name, an edition name, a query, a header, an uploaded file) is a 4xx, never a
500, and records nothing."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest
from flask import Flask, request
from hypothesis import given, settings
from hypothesis import strategies as st
from werkzeug.exceptions import BadRequest

from companion.web import create_app
from companion.web.http.nul import carries_nul, refuse_nul
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


_TEXT = st.text(alphabet=st.sampled_from(["a", "é", "%", "0", "+", "&", "=", "\x00", " ", "ü", "2", "5"]), max_size=6)


@settings(max_examples=400, deadline=None)
@given(
    fields=st.lists(st.tuples(_TEXT, _TEXT), max_size=4),
    query=st.lists(st.tuples(_TEXT, _TEXT), max_size=3),
    header=_TEXT,
    raw_tail=st.sampled_from([b"", b"&x=%00", b"&x=%2500", b"&%00=1", b"&x=\x00", b"&x=%0", b"&x=%%00"]),
)
def test_the_raw_check_refuses_exactly_what_decodes_to_a_nul(
    fields: list[tuple[str, str]], query: list[tuple[str, str]], header: str, raw_tail: bytes
) -> None:
    """``refuse_nul`` reads the query, the headers and a url-encoded body as they came: it refuses a request exactly
    when werkzeug's decoded copies (what the page reads) hold a NUL, however it was written (raw, ``%00``, a ``%``
    typed before ``00``)."""
    app = _APP
    body = urlencode(fields).encode() + raw_tail
    headers = {"X-Probe": header.replace("\x00", "") + ("\x00" if "\x00" in header else "")}
    path = "/?" + urlencode(query)
    with app.test_request_context(
        path, method="POST", data=body, headers=headers, content_type="application/x-www-form-urlencoded"
    ):
        decoded = [*request.form.items(multi=True), *request.args.items(multi=True), *request.headers.items()]
        expected = any("\x00" in k or "\x00" in v for k, v in decoded)
    with app.test_request_context(
        path, method="POST", data=body, headers=headers, content_type="application/x-www-form-urlencoded"
    ):
        try:
            refuse_nul()
            refused = False
        except BadRequest:
            refused = True
        assert request.form.to_dict(flat=False) == parse_qs_kept(body)  # the body read here is still the form
    assert refused is expected


def parse_qs_kept(body: bytes) -> dict[str, list[str]]:
    """The form werkzeug makes of ``body`` read afresh."""
    with _APP.test_request_context("/", method="POST", data=body, content_type="application/x-www-form-urlencoded"):
        return request.form.to_dict(flat=False)


_APP = Flask(__name__)  # the check reads only the request: no app of the game's
