"""Hostile text: a player name with markup is shown as text everywhere, never run as markup."""

from __future__ import annotations

import json
import re

from tests.web.conftest import Phone

EVIL = '<script>alert("x")</script><img src=x onerror=alert(1)>'


def assert_escaped(html: str) -> None:
    assert "<script>alert" not in html and "<img src=x" not in html
    assert "&lt;script&gt;" in html or "&lt;script" in html


def test_a_name_with_markup_is_text_on_every_page(phone: Phone, client) -> None:
    phone.create(names=(EVIL[:24], "Ben"))
    assert_escaped(phone.html)
    phone.post("bring", {"player": 0, "colour": 5, "shield": "1a"})
    assert_escaped(phone.html)
    for path in ("/history", "/score", "/join", "/correct", "/at/3"):
        page = client.get(phone.url + path).data.decode()
        assert_escaped(page)
    viewer = re.search(r'href="http://localhost(/v/[^"]+)"', client.get(phone.url + "/join").data.decode()).group(1)
    assert_escaped(client.get(viewer).data.decode())
    exported = json.loads(client.get(phone.url + "/export.json").data)
    assert exported["setup"]["players"][0]["name"] == EVIL[:24]  # kept exactly, as data
    text = client.get(phone.url + "/export.txt")
    assert text.mimetype == "text/plain" and EVIL[:24] in text.data.decode()


def test_a_tally_name_with_markup_is_text(client) -> None:
    url = client.post("/tally", data={"key": "tally-evil-01", "name": [EVIL[:24], "Ben"]}).headers["Location"]
    assert_escaped(client.get(url).data.decode())


def test_the_api_returns_the_name_as_data(client) -> None:
    made = client.post(
        "/api/v1/games",
        json={
            "players": [{"name": EVIL[:24], "colour": "crimson"}],
            "plague_card": [2],
            "idempotency_key": "api-evil-create-key-01",
        },
    ).get_json()
    state = client.get(
        f"/api/v1/games/{made['game_id']}", headers={"Authorization": f"Bearer {made['read_token']}"}
    ).get_json()
    assert state["state"]["players"][0]["name"] == EVIL[:24]
