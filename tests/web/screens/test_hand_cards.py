"""Fraud cards left in hand at final scoring, entered on the score page (issue 14 item 2; RULES.md §10.7)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from companion.game.edition import content_hash
from companion.game.game_or_tally import scoresheet
from companion.game.legal import turn_options
from companion.web.http.db import service
from tests.web.pages.test_after_game import timed_log, upload

SHIPPED = Path(__file__).resolve().parents[3] / "companion" / "editions" / "inferno-base.json"


def hand_scoring_log(on: bool, last_action: int | None = None) -> dict[str, Any]:
    """The finished two-player fixture (each player holds 2 fraud cards), pinned to the shipped
    edition with ``fraud_in_hand_scores`` set to ``on``."""
    data = timed_log(last_action)
    edition = json.loads(SHIPPED.read_text(encoding="utf-8"))
    edition["assumptions"]["fraud_in_hand_scores"] = on
    text = json.dumps(edition, ensure_ascii=False, indent=2)
    digest = content_hash(text)
    data["edition"] = {**data["edition"], "content": text, "hash": digest}
    data["setup"] = {**data["setup"], "edition_hash": digest}
    data["events"][0]["data"]["edition_hash"] = digest
    return data


def game_of(url: str) -> str:
    return url.rsplit("/", 1)[1]


def view_of(client: FlaskClient, game_id: str) -> Any:
    with client.application.app_context():
        return service().view(game_id)


def totals(client: FlaskClient, game_id: str) -> list[int]:
    return [p.total for p in scoresheet(view_of(client, game_id).state).players]


def post_card(client: FlaskClient, game_id: str, player: int, **fields: Any) -> Any:
    seq = view_of(client, game_id).seq
    form = {"seq": seq, "key": f"hand-card-key-{seq}", "player": player, **fields}
    return client.post(f"/g/{game_id}/hand-card", data=form)


def test_a_card_left_in_hand_scores_exactly_its_end_game_half_and_can_be_undone(client: FlaskClient) -> None:
    # Given a finished game whose edition scores cards left in hand
    game_id = game_of(upload(client, hand_scoring_log(True)))
    page = client.get(f"/g/{game_id}/score").data.decode()
    assert "Cards left in hand" in page
    assert "Ana: 2 fraud cards left in hand" in page and "Ben: 2 fraud cards left in hand" in page
    assert 'name="eg_requirement" value="always" checked' in page
    ana, ben = totals(client, game_id)
    # When the table enters one of Ben's cards: always, +4 infamy
    response = post_card(client, game_id, 1, eg_requirement="always", eg_effect="infamy", eg_effect_amount=4)
    assert response.status_code == 303
    # Then Ben's total grows by exactly 4, Ana's does not move, and the breakdown says why
    assert totals(client, game_id) == [ana, ben + 4]
    page = client.get(f"/g/{game_id}/score").data.decode()
    assert re.search(r"Fraud card: [^<]*4[^<]*</dt><dd>\+4</dd>", page), "the card's effect is not in the breakdown"
    assert "Ben: 1 fraud card left in hand" in page
    # And the history tells the entry for what it is, and it is undone like any other
    history = client.get(f"/g/{game_id}/history").data.decode()
    assert "Ben entered a fraud card left in hand, for final scoring." in history
    view = view_of(client, game_id)
    undone = client.post(f"/g/{game_id}/undo", data={"seq": view.seq, "key": "undo-hand-card-1"})
    assert undone.status_code == 303
    assert totals(client, game_id) == [ana, ben]
    assert "Ben: 2 fraud cards left in hand" in client.get(f"/g/{game_id}/score").data.decode()


def test_each_card_in_hand_is_one_entry_and_a_player_with_none_left_is_not_offered(client: FlaskClient) -> None:
    game_id = game_of(upload(client, hand_scoring_log(True)))
    ana, _ben = totals(client, game_id)
    for _ in range(2):
        response = post_card(client, game_id, 0, eg_requirement="always", eg_effect="infamy", eg_effect_amount=2)
        assert response.status_code == 303
    assert totals(client, game_id)[0] == ana + 4
    page = client.get(f"/g/{game_id}/score").data.decode()
    assert "Ana: " not in page.split('id="hand-title"')[1].split("</ul>")[0]
    assert 'name="player" value="0"' not in page
    # A third card for Ana (an old screen) is refused in words, and nothing is recorded
    refused = post_card(client, game_id, 0, eg_requirement="always", eg_effect="infamy", eg_effect_amount=2)
    assert refused.status_code == 422
    assert "You have no fraud card in hand." in refused.data.decode()
    assert totals(client, game_id)[0] == ana + 4


def test_a_refused_card_says_why_and_keeps_the_choices(client: FlaskClient) -> None:
    game_id = game_of(upload(client, hand_scoring_log(True)))
    before = totals(client, game_id)
    # A card "with barrels" entered without its colours, +2 per diploma, for Ben
    response = post_card(
        client, game_id, 1, eg_requirement="barrels", eg_effect="infamy_per_diploma", eg_effect_amount=2
    )
    assert response.status_code == 422
    page = response.data.decode()
    assert 'id="refusal-hand"' in page
    assert "This end-game requirement needs the barrel colours the card shows." in page
    assert 'name="player" value="1" checked' in page and 'name="player" value="0" checked' not in page
    assert 'name="eg_requirement" value="barrels" checked' in page
    assert 'name="eg_requirement" value="always" checked' not in page
    assert 'name="eg_effect" value="infamy_per_diploma" checked' in page
    assert 'name="eg_effect_amount" value="2" checked' in page
    assert totals(client, game_id) == before


def test_switched_off_the_page_says_in_one_line_that_cards_in_hand_do_not_score(client: FlaskClient) -> None:
    game_id = game_of(upload(client, hand_scoring_log(False)))
    page = client.get(f"/g/{game_id}/score").data.decode()
    assert (
        'In this edition fraud cards left in hand do not score at the end. (<a href="/rules#s10-7">Reference §10.7</a>)'
    ) in page  # the citation opens its section of the rules reference
    assert "Cards left in hand" not in page and "/hand-card" not in page
    before = totals(client, game_id)
    refused = post_card(client, game_id, 0, eg_requirement="always", eg_effect="infamy", eg_effect_amount=5)
    assert refused.status_code == 422 and totals(client, game_id) == before


def test_nothing_about_cards_in_hand_shows_before_the_game_is_over(client: FlaskClient) -> None:
    game_id = game_of(upload(client, hand_scoring_log(True, last_action=69)))
    page = client.get(f"/g/{game_id}/score").data.decode()
    assert "Cards left in hand" not in page and "do not score at the end" not in page


@pytest.mark.parametrize("on", [True, False])
def test_in_spanish(client: FlaskClient, on: bool) -> None:
    game_id = game_of(upload(client, hand_scoring_log(on)))
    client.get("/lang/es")
    page = client.get(f"/g/{game_id}/score").data.decode()
    if on:
        assert "Cartas que quedan en la mano" in page and "Anotar esta carta" in page
        assert "Ana: 2 cartas de fraude en la mano" in page
    else:
        assert "En esta edición las cartas de fraude que quedan en la mano no puntúan al final." in page


def test_from_htmx_the_answer_is_the_fresh_score_sheet_in_place(client: FlaskClient) -> None:
    game_id = game_of(upload(client, hand_scoring_log(True)))
    ana, ben = totals(client, game_id)
    seq = view_of(client, game_id).seq
    form = {"seq": seq, "key": "hand-card-htmx-01", "player": 0, "eg_requirement": "always"}
    form |= {"eg_effect": "infamy", "eg_effect_amount": 3}
    response = client.post(f"/g/{game_id}/hand-card", data=form, headers={"HX-Request": "true"})
    assert response.status_code == 200
    page = response.data.decode()
    assert f'<div id="score" data-seq="{seq + 1}">' in page
    assert f"<dt>Total</dt><dd>{ana + 3}</dd>" in page and "Ana: 1 fraud card left in hand" in page
    assert totals(client, game_id) == [ana + 3, ben]


def test_a_card_in_hand_sent_in_the_middle_of_a_game_is_refused_for_what_it_is_even_at_the_wall(
    client: FlaskClient,
) -> None:
    """The form is final scoring's. Before the end the engine would read a card played from hand as the Wall's
    fraud card (a location's option), so at the Wall a forged or old post would have been played there; and
    elsewhere it answered "There is no location action under way". It is refused for what it is, in the
    player's words; a screen behind the log gets the conflict; nothing is recorded."""
    # Given the fixture's game up to a turn at the Wall, whose fraud card is open to Ana, who holds two cards
    data = hand_scoring_log(True)
    wall = 42  # the fixture's first turn at the Wall (the entries before it are replayed)
    data["events"] = [e for e in data["events"] if e["action"] < wall]
    game_id = game_of(upload(client, data))
    view = view_of(client, game_id)
    state = view.state
    assert (state.action, state.p[state.active].fraud_hand) == ("wall", 2)
    assert "fraud" in turn_options(state).location_options
    card = {"eg_requirement": "always", "eg_effect": "infamy", "eg_effect_amount": 4}
    for language, sentence in (
        ("en", "Fraud cards left in hand are entered at final scoring, once the game is over."),
        (
            "es",
            "Las cartas de fraude que quedan en la mano se anotan en la puntuación final, cuando termina la partida.",
        ),
    ):
        client.get(f"/lang/{language}")
        # When the score page's form is posted for the active player, at the log's seq
        answer = post_card(client, game_id, state.active, **card)
        # Then it is refused for what it is, with its rule, and nothing is played at the Wall
        html = answer.data.decode()
        assert answer.status_code == 422 and sentence in html and "§10.7" in html, html[:2000]
        assert "location action" not in html and "acción de lugar" not in html
        assert view_of(client, game_id).seq == view.seq
    # And from a screen behind the log, the conflict: the fresh state, nothing recorded
    form = {"seq": view.seq - 1, "key": "hand-card-stale", "player": state.active, **card}
    stale = client.post(f"/g/{game_id}/hand-card", data=form)
    assert stale.status_code == 409 and view_of(client, game_id).seq == view.seq
