"""Issue 25, item 4: the tally sheet asks for coins only when the edition's tie-breakers need them."""

from __future__ import annotations

import json
import re

from flask import Flask
from flask.testing import FlaskClient

from companion.editions import EDITIONS_DIR
from companion.game.commands import StartTally
from companion.game.edition import parse_edition
from companion.service import GameService
from companion.web.http.db import service
from tests.web.pages.test_score_pages import seq_of, start_tally


def _tally_on_drachmas(app: Flask) -> str:
    """A tally for Ana and Ben on an edition whose tie-breaker is the most drachmas."""
    raw = json.loads((EDITIONS_DIR / "inferno-base.json").read_text(encoding="utf-8"))
    raw["scoring"]["tie_breakers"] = ["most_drachmas"]
    text = json.dumps(raw)
    edition = parse_edition(text)
    with app.test_request_context():
        ours = GameService(service().store, {edition.id: (text, edition)})
        game_id = ours.create_game(StartTally(("Ana", "Ben")), "tally-drachmas-01")
    return f"/t/{game_id}"


def test_the_shipped_editions_sheet_asks_for_no_coins(client: FlaskClient) -> None:
    html = client.get(start_tally(client, ("Ana", "Ben"))).data.decode()
    assert 'name="drachmas-0"' not in html and 'name="florins-0"' not in html


def test_with_a_drachma_tie_breaker_the_sheet_asks_for_drachmas_and_ranks_the_tie(
    app: Flask, client: FlaskClient
) -> None:
    url = _tally_on_drachmas(app)
    html = client.get(url).data.decode()
    # Given the sheet asks each player's drachmas (and not florins, which break no tie here)
    assert '<label for="dr-0">Drachmas left (Ana)</label>' in html
    assert 'name="drachmas-1"' in html and 'name="florins-0"' not in html
    # When both end at 10 infamy, Ana with 2 drachmas and Ben with 5
    form = {"seq": seq_of(html), "key": "k-coins-sheet", "infamy-0": "10", "infamy-1": "10"}
    form |= {"drachmas-0": "2", "drachmas-1": "5"}
    assert client.post(url + "/sheet", data=form).status_code == 303
    html = client.get(url).data.decode()
    # Then Ben wins the tie, and the sheet shows what was entered
    assert "Winner: Ben with 10 infamy" in html
    assert re.search(r'name="drachmas-1" type="number"[^>]*value="5"', html)


def test_the_coins_read_in_spanish(app: Flask, client: FlaskClient) -> None:
    url = _tally_on_drachmas(app)
    client.get("/lang/es")
    html = client.get(url).data.decode()
    assert '<label for="dr-0">Dracmas que le quedan (Ana)</label>' in html
