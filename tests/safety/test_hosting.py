"""Issue 26, item 7: hosting details. gunicorn trusts no X-Forwarded-* header itself (the app's
``PROXY_HOPS`` decides); a configured public address wins over the ``Host`` header in join links and
QR codes, and unknown hosts are refused; a page-form key is never a character or two; the CSV says
its charset once; a database outage answers 503 with ``Retry-After`` and says a retry is safe."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion.cli.serve import gunicorn_settings
from companion.web import create_app
from companion.web.pages.table import tap_key
from tests.web.conftest import Phone

CREATE = {
    "players": [{"name": "Ana", "colour": "crimson"}, {"name": "Ben", "colour": "navy"}],
    "plague_card": [2, 3, 5],
    "random_florence": False,
    "idempotency_key": "hosting-create-0001",
}


def make_app(tmp_path: Path, **extra: Any) -> Any:
    config = {"DATABASE": str(tmp_path / "host.sqlite3"), "SECRET_KEY": "t", "WTF_CSRF_ENABLED": False, **extra}
    return create_app(config)


def test_gunicorn_trusts_no_forwarded_header_of_its_own() -> None:
    from gunicorn.config import Config

    config = Config()
    for key, value in gunicorn_settings("127.0.0.1", 5000, 1).items():
        config.set(key, value)
    assert config.forwarded_allow_ips == []  # not even from 127.0.0.1: PROXY_HOPS alone decides
    assert config.secure_scheme_headers == {}


def test_a_configured_public_address_wins_over_the_host_header(tmp_path: Path) -> None:
    client = make_app(tmp_path, PUBLIC_URL="https://inferno.example.org").test_client()
    public = {"Host": "inferno.example.org"}
    made = client.post("/api/v1/games", json=CREATE, headers=public)
    assert made.status_code == 201, made.get_json()
    url = f"/g/{made.get_json()['game_id']}/join"
    page = client.get(url, headers=public).get_data(as_text=True)
    assert 'href="https://inferno.example.org/g/' in page and "http://" not in page.split("<body", 1)[1]
    evil = client.get(url, headers={"Host": "evil.example"})
    assert evil.status_code == 400 and "evil.example" not in evil.get_data(as_text=True)


def test_without_a_public_address_any_host_is_served_as_before(tmp_path: Path) -> None:
    client = make_app(tmp_path).test_client()
    phone = Phone(client).create()
    page = client.get(f"{phone.url}/join", headers={"Host": "192.168.1.20:5000"}).get_data(as_text=True)
    assert 'href="http://192.168.1.20:5000/g/' in page


@pytest.mark.parametrize(("sent", "kept"), [("", False), ("a", False), ("short", False), ("k" * 65, False)])
def test_a_page_form_key_of_a_character_or_two_is_replaced(sent: str, kept: bool) -> None:
    key = tap_key(sent)
    assert (key == sent) is kept and 16 <= len(key) <= 64


def test_a_well_formed_page_form_key_is_kept() -> None:
    assert tap_key("again-key-000001") == "again-key-000001"


def test_the_csv_names_its_charset_once(tmp_path: Path) -> None:
    client = make_app(tmp_path).test_client()
    response = client.get("/our-games.csv")
    assert response.headers["Content-Type"] == "text/csv; charset=utf-8"


def test_a_database_outage_answers_503_with_retry_after(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("x")
    app.config["DATABASE"] = str(blocker / "gone.sqlite3")  # the database's disk is gone
    client = app.test_client()
    api = client.post("/api/v1/games", json=CREATE)
    assert api.status_code == 503 and api.headers["Retry-After"].isdigit()
    assert api.get_json()["code"] == "unavailable" and "same idempotency key" in api.get_json()["message"]
    page = client.get("/our-games")
    assert page.status_code == 503 and page.headers["Retry-After"].isdigit()
    assert "try again" in page.get_data(as_text=True)
