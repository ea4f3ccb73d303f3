"""The CSRF check keeps its verdict on a token (``companion/web/http/csrf.py``) and still refuses every other one.

A phone sends the same token with every tap; the pair found valid once (tokens never expire here) passes again
without Flask-WTF's signature check. What must not change: a forged token, another session's token, a missing
token, each refused every time, before and after a valid pair was kept; a token that expires (a time limit set)
keeps nothing; the kept pairs are bounded.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.web import create_app
from companion.web.http.csrf import KeptCSRFProtect

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


def _protect(app: Flask) -> KeptCSRFProtect:
    protect = app.extensions["csrf"]
    assert isinstance(protect, KeptCSRFProtect)
    return protect


def test_a_kept_token_passes_again_and_every_other_token_is_refused_each_time(tmp_path: Path) -> None:
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
    assert len(_protect(app)._valid) == 1  # the one valid pair, kept once


def test_a_token_that_expires_keeps_no_verdict(tmp_path: Path) -> None:
    app = _app(tmp_path, WTF_CSRF_TIME_LIMIT=3600)
    phone = app.test_client()
    token = _token(phone)
    assert _create(phone, token, "expiring-00000001") == 303
    assert _create(phone, token, "expiring-00000002") == 303
    assert _protect(app)._valid == {}


@pytest.mark.parametrize("kept", [1, 2])
def test_the_kept_verdicts_are_bounded(tmp_path: Path, kept: int) -> None:
    app = _app(tmp_path)
    _protect(app)._kept = kept
    for i in range(4):
        phone = app.test_client()
        assert _create(phone, _token(phone), f"bounded-{i:04d}-0001") == 303
    assert len(_protect(app)._valid) == kept
