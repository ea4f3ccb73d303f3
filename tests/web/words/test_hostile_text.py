"""Hostile text: a player name with markup is shown as text everywhere, never run as markup."""

from __future__ import annotations

import json
import re

from tests.builders import found
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
    viewer = found(r'href="http://localhost(/v/[^"]+)"', client.get(phone.url + "/join").data.decode()).group(1)
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


RLO = "\u202e"  # RIGHT-TO-LEFT OVERRIDE: everything after it reads backwards unless isolated
HOSTILE_NAME = f"Ana{RLO}x"
ISOLATED = re.compile(r"<bdi>[^<]*</bdi>|\u2068[^\u2069]*\u2069", re.S)


def leaks(html: str) -> list[str]:
    """Every spot where the override is not inside a <bdi> or an FSI…PDI isolate."""
    rest = ISOLATED.sub("", html)
    return [rest[max(0, i - 60) : i + 20] for i, ch in enumerate(rest) if ch == RLO]


def test_a_right_to_left_override_in_a_name_never_leaks_into_the_page(phone: Phone, client) -> None:
    phone.create(names=(HOSTILE_NAME, "Ben"))
    assert not leaks(phone.html)
    phone.post("bring", {"player": 0, "colour": 5, "shield": "1a"})
    assert not leaks(phone.html)
    for path in ("", "/history", "/score", "/join", "/correct", "/at/3", "/export.txt"):
        page = client.get(phone.url + path).data.decode()
        assert RLO in page, path  # the name is kept as entered...
        assert not leaks(page), (path, leaks(page)[:3])  # ...and isolated wherever it is shown
    viewer = found(r'href="http://localhost(/v/[^"]+)"', client.get(phone.url + "/join").data.decode()).group(1)
    assert not leaks(client.get(viewer).data.decode())


def test_a_tally_name_with_an_override_is_isolated(client) -> None:
    url = client.post("/tally", data={"key": "tally-rlo-0001", "name": [HOSTILE_NAME, "Ben"]}).headers["Location"]
    page = client.get(url).data.decode()
    assert RLO in page and not leaks(page), leaks(page)[:3]


def test_isolation_survives_a_name_that_closes_isolates_itself() -> None:
    from companion.web.words.bidi import isolate

    for name in (f"\u2069{RLO}x", f"\u2067a{RLO}", f"\u2069\u2069{RLO}\u2068", f"Ana{RLO}"):
        wrapped = isolate(name)
        assert wrapped[0] == "\u2068" and wrapped[-1] == "\u2069" and RLO in wrapped
        depth = 0
        for ch in wrapped[1:-1]:  # inside, isolates balance: nothing in the name closes the outer one
            depth += ch in "\u2066\u2067\u2068"
            depth -= ch == "\u2069"
            assert depth >= 0, name
        assert depth == 0, name
    assert isolate("Ana") == "Ana" and isolate("Zoë-Ann 2") == "Zoë-Ann 2"  # plain names stay as typed
