"""Flask-WTF's CSRF check on every form: a phone's own token passes, every time; a forged token, another session's
token and a missing token are refused, every time."""

from __future__ import annotations

import re
from pathlib import Path

from flask import Flask
from flask.testing import FlaskClient

from companion.web import create_app

TOKEN = re.compile(r'name="csrf_token" value="([^"]+)"')


def _app(tmp_path: Path, **config: object) -> Flask:
    return create_app({"DATABASE": str(tmp_path / "c.sqlite3"), "SECRET_KEY": "t", "WARM_UP": False, **config})


def _token(client: FlaskClient) -> str:
    found = TOKEN.search(client.get("/").data.decode())
    assert found is not None
    return found.group(1)


def _create(client: FlaskClient, token: str | None, key: str) -> int:
    data = {"key": key, "name": ["Ana", "Ben"], "colour": ["crimson", "navy"], "plague": ["2", "3", "5"]}
    if token is not None:
        data["csrf_token"] = token
    return client.post("/games", data=data).status_code


def test_a_phones_token_passes_and_every_other_token_is_refused_each_time(tmp_path: Path) -> None:
    app = _app(tmp_path)
    phone, other = app.test_client(), app.test_client()
    token, others = _token(phone), _token(other)
    assert token != others
    forged = token[:-4] + ("AAAA" if not token.endswith("AAAA") else "BBBB")
    for round_ in range(3):  # before anything is kept, and after
        assert _create(phone, forged, f"forged-{round_:04d}-0001") == 400
        assert _create(phone, others, f"others-{round_:04d}-0001") == 400  # valid, but another session's
        assert _create(phone, None, f"missing-{round_:04d}-001") == 400
        assert _create(phone, token, f"valid-{round_:04d}-00001") == 303
        assert _create(other, token, f"swap-{round_:04d}-000001") == 400
