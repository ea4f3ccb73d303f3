"""One lookup of a player's colour, from the game's own edition: a game on a saved edition draws its
map, its player cards, Florence and its score chart in that edition's colours."""

from __future__ import annotations

import json
import re
from pathlib import Path

from flask import Flask
from flask.testing import FlaskClient

from companion.web.http.db import service

SHIPPED = Path(__file__).resolve().parents[3] / "companion" / "editions" / "inferno-base.json"
OURS = "#123456"  # crimson as this table's copy prints it
SHIPPED_CRIMSON = "#c0392b"


def _saved_edition_with_our_crimson(app: Flask) -> str:
    raw = json.loads(SHIPPED.read_text(encoding="utf-8"))
    for colour in raw["players"]["colours"]:
        if colour["id"] == "crimson":
            assert colour["hex"] == SHIPPED_CRIMSON
            colour["hex"] = OURS
    with app.test_request_context():
        return service().library.save_edition("Our colours", json.dumps(raw)).content_hash


def test_a_game_on_a_saved_edition_shows_its_players_in_that_editions_colours(app: Flask, client: FlaskClient) -> None:
    content_hash = _saved_edition_with_our_crimson(app)
    data = {
        "key": "create-key-colours",
        "name": ["Ana", "Ben"],
        "colour": ["crimson", "navy"],
        "plague": ["2", "3", "5", "1"],
        "layout": "default",
        "edition": content_hash,
    }
    response = client.post("/games", data=data)
    assert response.status_code == 303
    url = response.headers["Location"]
    page = client.get(url).data.decode()
    markers = re.findall(r'class="marker" style="--pc: (#[0-9a-f]{6})"[^>]*>C<', page)
    assert markers, "Ana's marker is drawn"
    assert set(markers) == {OURS}, "every marker of Ana's is in the game's crimson, not the shipped one"
    assert SHIPPED_CRIMSON not in page
    score = client.get(f"{url}/score").data.decode()
    assert OURS in score and SHIPPED_CRIMSON not in score  # the chart's line and the cards
