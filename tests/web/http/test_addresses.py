"""Every page address of one game, tried with an id that is no game and with the other kind of
record (a quick tally at a game's address and the other way round).

The routes are read from the app itself, so a page added later is covered without editing this
file. A player following an old link must get a plain answer, never the "something went wrong"
page of an unexpected error."""

from __future__ import annotations

import re

import pytest
from flask import Flask

from tests.web.conftest import Phone

UNKNOWN = "no-such-game-0000000000"
FORM = {"seq": "2", "key": "address-key-0001", "player": "0", "mode": "seats", "seat": "0", "target": "2"}


def addresses(app: Flask, prefix: str) -> list[tuple[str, str]]:
    """(method, path with {id}) for every route of one game under ``prefix``."""
    out = []
    for rule in app.url_map.iter_rules():
        if not rule.rule.startswith(prefix + "<game_id>"):
            continue
        path = re.sub(r"<int:\w+>", "1", rule.rule).replace("<game_id>", "{id}")
        path = re.sub(r"<\w+>", "cube", path)
        out += [(method, path) for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"})]
    return out


def call(client, method: str, path: str):
    return client.get(path) if method == "GET" else client.post(path, data=FORM)


@pytest.mark.parametrize("prefix", ["/g/", "/t/"])
def test_an_unknown_id_is_a_not_found_page_on_every_address(app: Flask, client, prefix: str) -> None:
    routes = addresses(app, prefix)
    assert len(routes) >= (20 if prefix == "/g/" else 5)
    for method, path in routes:
        if path.endswith("/events"):
            continue  # the live stream: checked below without reading an endless body
        response = call(client, method, path.format(id=UNKNOWN))
        body = response.get_data(as_text=True)
        assert response.status_code == 404, (method, path, response.status_code)
        assert "There is no game at this address" in body, (method, path)
    assert client.get(f"/g/{UNKNOWN}/events").status_code == 404


def test_a_tally_at_a_game_address_is_sent_to_its_page_and_never_drawn_as_a_game(app: Flask, client) -> None:
    created = client.post("/tally", data={"key": "tally-key-address", "name": ["Ana", "Ben"]})
    tally = created.headers["Location"].rsplit("/", 1)[-1]
    for method, path in addresses(app, "/g/"):
        if path.endswith("/events"):
            continue
        response = call(client, method, path.format(id=tally))
        if path.endswith(("/export.json", "/export.txt", "/clone")):
            assert response.status_code in (200, 303), (method, path)  # a tally is exported and cloned too
        elif method == "GET":
            assert response.status_code == 303 and response.headers["Location"] == f"/t/{tally}", path
        else:
            assert response.status_code == 404, (method, path, response.status_code)
    assert len(client.get(f"/t/{tally}").get_data(as_text=True)) > 0


def test_a_game_at_a_tally_address_is_sent_to_its_page(app: Flask, client, phone: Phone) -> None:
    phone.create()
    game = phone.url.rsplit("/", 1)[-1]
    before = phone.seq
    for method, path in addresses(app, "/t/"):
        response = call(client, method, path.format(id=game))
        if method == "GET":
            assert response.status_code == 303 and response.headers["Location"] == f"/g/{game}", path
        else:
            assert response.status_code == 404, (method, path, response.status_code)
    assert phone.open().seq == before  # nothing was recorded in the game
