"""After the game: the BG Stats link, sharing, time at the table, the big screen's score, play again."""

from __future__ import annotations

import copy
import hashlib
import hmac
import io
import json
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.formats.bgstats import BGSTATS_URL, bgstats_play
from companion.formats.export import export_game, import_game, score_export
from companion.game.scoring import PlayerScore, Scoresheet
from companion.readmodels.playtime import PlayTime
from companion.service.next_game import link_proof
from companion.web.http.db import service
from companion.web.words.history import narrate
from events.catalog import NextGameCreated
from tests.builders import found, game_view

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "base-two-players.json"
START = datetime(2026, 11, 28, 19, 30, tzinfo=UTC)


def timed_log(last_action: int | None = None, start: datetime = START) -> dict[str, Any]:
    """The two-player fixture, each action recorded one minute per seq after ``start`` (so its end,
    at action 69, comes 68 minutes in); cut before ``last_action`` when given."""
    data = copy.deepcopy(json.loads(FIXTURE.read_text(encoding="utf-8")))
    for row in data["events"]:
        row["recorded_at"] = (start + timedelta(minutes=row["action"] - 1)).isoformat(timespec="milliseconds")
    if last_action is not None:
        data["events"] = [r for r in data["events"] if r["action"] < last_action]
    return data


def upload(client: FlaskClient, data: dict[str, Any]) -> str:
    """Import a log from this phone (which then remembers it); the game's address."""
    body = {"file": (io.BytesIO(json.dumps(data).encode()), "game.json")}
    response = client.post("/import", data=body, content_type="multipart/form-data")
    assert response.status_code == 303, response.data
    return str(response.headers["Location"])


def bgstats_json(html: str) -> dict[str, Any]:
    link = re.search(r'href="(https://app\.bgstatsapp\.com/createPlay\.html\?data=[^"]+)"', html)
    assert link, "no BG Stats link on the page"
    url = link.group(1).replace("&amp;", "&")
    assert url.startswith(BGSTATS_URL + "?data=")
    (data,) = parse_qs(urlsplit(url).query)["data"]
    return dict(json.loads(data))


def test_the_bgstats_link_carries_the_play_as_the_score_sheet_has_it(client: FlaskClient, app: Flask) -> None:
    url = upload(client, timed_log())
    game_id = url.rsplit("/", 1)[1]
    html = client.get(url + "/score").data.decode()
    play = bgstats_json(html)
    _edition, sheet = score_export(timed_log())
    assert play["game"]["name"] == "Inferno"
    assert play["game"]["highestWins"] is True and play["game"]["noPoints"] is False
    # BG Stats' push-plays fields: who sends, one id per play, and one id for the title whatever the game
    assert play["sourceName"] == "Inferno Companion"
    expected_play = hmac.new(b"test", f"play:{game_id}".encode(), hashlib.sha256).hexdigest()[:32]
    assert play["sourcePlayId"] == expected_play
    assert play["game"]["sourceGameId"] == "inferno-red-mojo-2024"
    assert "bggId" not in play["game"]  # the shipped edition names no BoardGameGeek id
    assert game_id not in json.dumps(play)
    assert play["playDate"] == "2026-11-28 19:30:00"
    assert play["durationMin"] == 68
    assert [p["name"] for p in play["players"]] == ["Ana", "Ben"]
    for entry, score in zip(play["players"], sheet.players, strict=True):
        assert entry["score"] == score.total
        assert entry["rank"] == score.place
        assert entry["winner"] is (score.place == 1)
        assert len(entry["sourcePlayerId"]) == 32 and entry["name"].lower() not in entry["sourcePlayerId"]
    assert [p["startPlayer"] for p in play["players"]] == [True, False]
    assert sorted(p["rank"] for p in play["players"]) == sorted(p.place for p in sheet.players)


def test_a_game_still_going_offers_no_bgstats_link(client: FlaskClient) -> None:
    url = upload(client, timed_log(last_action=69))
    html = client.get(url + "/score").data.decode()
    assert "bgstatsapp" not in html
    assert "Same table, new game" not in html


def _score(name: str, total: int, place: int) -> PlayerScore:
    return PlayerScore(name, total, (), (), 0, (), False, 0, 0, 0, total, place)


def test_tied_players_share_a_rank_and_both_win(app: Flask) -> None:
    sheet = Scoresheet((), (_score("Ana", 40, 1), _score("Ben", 40, 1), _score("Cleo", 31, 3)))
    time = PlayTime(START, START + timedelta(minutes=90), 90 * 60, (1800, 1800, 1800))
    with app.app_context():
        play = bgstats_play("test", "secret-game-id", sheet, time)
    assert [(p["rank"], p["winner"]) for p in play["players"]] == [(1, True), (1, True), (3, False)]
    with app.app_context():
        other = bgstats_play("test", "another-game-id", sheet, time, bgg_id=123)
    assert other["game"]["sourceGameId"] == play["game"]["sourceGameId"]  # the title's id is stable
    assert other["sourcePlayId"] != play["sourcePlayId"] and other["game"]["bggId"] == 123
    assert play["durationMin"] == 90
    assert "secret-game-id" not in json.dumps(play)


def test_time_at_the_table_gives_each_player_their_turns(client: FlaskClient) -> None:
    url = upload(client, timed_log())
    html = client.get(url + "/score").data.decode()
    section = html.split('id="time-title"')[1].split("</section>")[0]
    assert "The game took 1 h 8 min." in section
    # Ana's turns end at 10, 27, 44, 57, 69 (minutes 9+13+9+5+7 = 43); Ben's at 14, 35, 52, 62 (25).
    assert re.search(r"<th scope=\"row\">Ana</th><td>43 min</td><td>63 %</td>", section), section
    assert re.search(r"<th scope=\"row\">Ben</th><td>25 min</td><td>37 %</td>", section), section


@pytest.mark.parametrize(
    ("lang", "words"),
    [("en", "Inferno: Ana wins (Ana "), ("es", "Inferno: gana Ana (Ana ")],
)
def test_the_share_button_carries_a_summary_in_the_readers_language_and_the_viewer_link(
    client: FlaskClient, lang: str, words: str
) -> None:
    url = upload(client, timed_log())
    client.get(f"/lang/{lang}")
    html = client.get(url + "/score").data.decode()
    button = re.search(r"<button[^>]*data-share [^>]*>", html)
    assert button, "no share button"
    text = found(r'data-share-text="([^"]*)"', button.group(0)).group(1)
    _edition, sheet = score_export(timed_log())
    winner = next(p for p in sheet.players if p.place == 1)
    assert winner.name == "Ana"
    assert text.startswith(words) and f"Ana {winner.total}" in text
    link = found(r'data-share-url="([^"]*)"', button.group(0)).group(1)
    assert link.startswith("http://localhost/v/")  # the table can open it; the page says friends elsewhere cannot
    assert "(localhost), which only works on this network" in html or "(localhost), que solo funciona" in html
    view = service_view(client, url)
    public = client.get(url + "/score", headers={"Host": "inferno.example.org"}).data.decode()
    button = re.search(r"<button[^>]*data-share [^>]*>", public)
    assert button
    link = found(r'data-share-url="([^"]*)"', button.group(0)).group(1)
    assert link == f"http://inferno.example.org/v/{view.read_token}"
    assert "only works on this network" not in public and "solo funciona en esta red" not in public
    assert "onclick" not in html and "<script>" not in html  # scripts come from static/ only


def service_token(app: Flask, game_id: str) -> str:
    with app.app_context():
        return str(service().view(game_id).read_token)


def service_view(client: FlaskClient, url: str) -> Any:
    with client.application.app_context():
        return service().view(url.rsplit("/", 1)[1])


def test_the_big_screen_shows_the_score_during_play_and_the_breakdown_at_the_end(client: FlaskClient) -> None:
    url = upload(client, timed_log(last_action=69))
    view = service_view(client, url)
    html = client.get(f"/v/{view.read_token}").data.decode()
    score = html.split('id="viewer-score"')[1]
    assert "If the game ended now" in score and "<svg" in score
    assert "player-score" not in score  # the projection is short; the breakdown waits for the end
    finished = upload(client, timed_log())
    view = service_view(client, finished)
    html = client.get(f"/v/{view.read_token}").data.decode()
    score = html.split('id="viewer-score"')[1]
    assert "Final score" in score and score.count('class="card player-score"') == 2
    assert "Time at the table" in score
    fragment = client.get(f"/v/{view.read_token}/score").data.decode()
    assert fragment.startswith('<div id="viewer-score"') or '<div id="viewer-score"' in fragment[:200]
    assert "<form" not in fragment


def test_same_table_new_game_rotates_the_first_player_and_every_phone_is_offered_it(app: Flask) -> None:
    host, guest = app.test_client(), app.test_client()
    data = timed_log()
    url = upload(host, data)
    game_id = url.rsplit("/", 1)[1]
    guest.get(url + "/join")
    guest.post(url + "/seat", data={"seat": "1"})  # Ben's phone
    host.post(url + "/seat", data={"seat": "0"})  # Ana's phone
    assert "Your table started a new game" not in guest.get(url).data.decode()
    asked = host.post(url + "/again", data={"key": "again-key-1"})  # the score page's button
    assert asked.headers["Location"] == f"/g/{game_id}/again"  # asks for the plague card first
    response = host.post(url + "/again", data={"key": "again-key-1", "plague": ["7", "3", "", "3"]})
    assert response.status_code == 303
    new_url = response.headers["Location"]
    new_id = new_url.rsplit("/", 1)[1]
    assert new_id != game_id
    with app.app_context():
        old, new = game_view(service().view(game_id)), game_view(service().view(new_id))
        assert [p.name for p in new.state.players] == ["Ben", "Ana"]
        assert [p.colour for p in new.state.players] == ["navy", "crimson"]
        assert new.state.expansion == old.state.expansion and new.edition.id == old.edition.id
        assert new.state.ended is None
        assert dict(new.state.cemetery) == {3: 2, 7: 1}  # the card the table entered, nothing invented
        # The new game's first entry names the phone that tapped: Ana's, who sits in seat 1 now.
        assert service().store.read(new_id)[0].actor == "seat:1"
        assert service().store.read(game_id)[-1].actor == "seat:0"
        assert [e for e in old.timeline.effective_events() if isinstance(e, NextGameCreated)] == [
            NextGameCreated(new.read_token, link_proof("test", game_id, new.read_token))
        ]
        # The old game still replays through the rules with its new entry (export, then import).
        assert import_game(service(), export_game(service(), game_id))
    # A repeated press does not start a third game.
    again = host.post(url + "/again", data={"key": "again-key-2", "plague": ["1"]})
    assert again.headers["Location"].endswith(f"{game_id}/next")
    assert host.get(url + "/again").headers["Location"].endswith(f"{game_id}/next")
    history = host.get(f"/g/{new_id}/history").data.decode()
    assert "from Ana\u2019s phone" in history or "from Ana's phone" in history or "from Ana&#39;s phone" in history
    assert "from Ben" not in history
    # Ana's phone sits in Ana's new seat (1); Ben's phone is offered the new game and keeps Ben (0).
    page = guest.get(url).data.decode()
    assert "Your table started a new game" in page and f"/g/{game_id}/next" in page
    score = guest.get(url + "/score").data.decode()
    assert "Your table started a new game" in score and "Same table, new game" not in score
    assert f'sse-connect="/g/{game_id}/events?since=' in score  # the score page hears of it live
    with app.app_context():
        token = service().view(new_id).read_token
    screen = guest.get(f"/v/{service_token(app, game_id)}").data.decode()
    assert f'href="/v/{token}"' in screen and f"/g/{game_id}" not in screen
    with app.test_request_context():
        sentence = narrate(NextGameCreated(token, "proof"), service().view(game_id).state)
    assert sentence == "The table started a new game with the same players."  # the history's words
    joined = guest.get(url + "/next")
    assert joined.headers["Location"] == f"/g/{new_id}"
    with guest.session_transaction() as sess:
        assert sess["seats"][new_id] == 0
        assert new_id in sess["games"]
    with host.session_transaction() as sess:
        assert sess["seats"][new_id] == 1


def test_a_next_game_entry_sent_by_hand_does_not_lead_the_phones_to_another_game(client: FlaskClient) -> None:
    """A writer of one game who knows only another game's read-only token must not reach its write address."""
    url = upload(client, timed_log())
    other = upload(client, timed_log())
    game_id, other_id = url.rsplit("/", 1)[1], other.rsplit("/", 1)[1]
    with client.application.app_context():
        view = service().view(game_id)
        target = service().view(other_id).read_token
    body = {
        "expected_seq": view.seq,
        "idempotency_key": "forged-next-1",
        "command": {"type": "StartNextGame", "data": {"read_token": target, "proof": "0" * 32}},
    }
    sent = client.post(
        f"/api/v1/games/{game_id}/commands", json=body, headers={"Authorization": f"Bearer {view.write_token}"}
    )
    assert sent.status_code == 422 and sent.get_json()["code"] == "invalid_proof"  # refused, not stored (issue 26)
    assert "Your table started a new game" not in client.get(url).data.decode()
    response = client.get(url + "/next")
    assert response.headers["Location"] == url
    assert other_id not in response.headers["Location"]


def test_play_again_asks_for_the_first_plague_card_with_nothing_chosen(app: Flask) -> None:
    host = app.test_client()
    url = upload(host, timed_log())
    game_id = url.rsplit("/", 1)[1]
    page = host.get(url + "/again").data.decode()
    assert "Same table, new game" in page and "First plague card" in page
    assert page.count('name="plague"') >= 4 and "selected" not in page.split('id="plague-card"')[1]
    order = page.split('class="again-order"')[1].split("</ol>")[0]
    assert order.index("Ben") < order.index("Ana") and "starts" in order.split("Ana")[0]
    refused = host.post(url + "/again", data={"key": "again-empty-0001", "plague": ["", ""]})
    assert refused.status_code == 400
    assert "Choose the souls on the first plague card." in refused.data.decode()
    assert 'value="again-empty-0001"' in refused.data.decode()  # the same tap, sent again
    too_many = host.post(url + "/again", data={"key": "again-many-00001", "plague": ["1"] * 9})
    assert too_many.status_code in (400, 422) and 'class="refusal"' in too_many.data.decode()
    with app.app_context():
        assert not [e for e in service().view(game_id).timeline.effective_events() if isinstance(e, NextGameCreated)]
        assert len(service().store.game_ids()) == 1  # nothing was created by the refused taps
    assert "HX-Redirect" not in host.get(url + "/again", headers={"HX-Request": "true"}).headers
    assert f'sse-connect="/g/{game_id}/events?since=' in page  # the step hears of a game started elsewhere
    other = app.test_client()
    other.post(url + "/again", data={"key": "again-other-0001", "plague": ["3"]})
    moved = host.get(url + "/again", headers={"HX-Request": "true"})
    assert moved.headers["HX-Redirect"] == f"/g/{game_id}/next"  # this phone joins the game started
    going = upload(host, timed_log(last_action=69))
    assert host.get(going + "/again").headers["Location"] == going + "/score"


def test_the_new_game_form_fills_in_no_plague_card(client: FlaskClient) -> None:
    page = client.get("/").data.decode()
    card = page.split('id="plague-card"')[1].split("</fieldset>")[0]
    assert card.count("<select") >= 4 and "selected" not in card
    assert "A card usually shows about 4 souls." in card  # the edition's usual card, said, not chosen


def _parts(html: str) -> str:
    found = re.search(r'data-parts="([^"]*)"', html)
    assert found
    return found.group(1)


def test_an_open_phone_of_the_old_game_is_offered_the_new_game_by_its_live_refresh(app: Flask) -> None:
    host, guest = app.test_client(), app.test_client()
    url = upload(host, timed_log())
    game_id = url.rsplit("/", 1)[1]
    guest.get(url + "/join")
    guest.post(url + "/seat", data={"seat": "1"})
    shown = _parts(guest.get(url).data.decode())
    host.post(url + "/again", data={"key": "again-live-00001", "plague": ["4", "6"]})
    # The page's stream says the log moved; the page asks for the parts it lacks, as a live refresh does.
    live = {"HX-Request": "true", "HX-Trigger": "live-trigger", "HX-Game-Parts": shown}
    answer = guest.get(url, headers=live)
    body = answer.data.decode()
    assert answer.status_code == 200 and answer.headers.get("HX-Reswap") == "none"
    turn = body.split('id="part-turn"')[1]
    assert 'hx-swap-oob="true"' in body.split('id="part-turn"')[0][-200:] or 'hx-swap-oob="true"' in turn[:200]
    assert "Your table started a new game" in turn and f'href="/g/{game_id}/next"' in turn
    joined = guest.get(url + "/next")
    with app.app_context():
        (new_id,) = set(service().store.game_ids()) - {game_id}
    assert joined.headers["Location"] == f"/g/{new_id}"
    with guest.session_transaction() as sess:
        assert sess["seats"][new_id] == 0  # Ben sat in seat 1 and starts the new game


def test_the_big_screen_moves_to_the_new_game_by_itself(app: Flask) -> None:
    host, screen = app.test_client(), app.test_client()
    url = upload(host, timed_log())
    game_id = url.rsplit("/", 1)[1]
    token = service_token(app, game_id)
    live = {"HX-Request": "true", "HX-Trigger": "live-trigger"}
    before = screen.get(f"/v/{token}", headers=live)
    assert "HX-Redirect" not in before.headers and 'id="game"' in before.data.decode()
    made = host.post(url + "/again", data={"key": "again-tv-000001", "plague": ["2"]})
    new_token = service_token(app, made.headers["Location"].rsplit("/", 1)[1])
    after = screen.get(f"/v/{token}", headers=live)
    assert after.headers["HX-Redirect"] == f"/v/{new_token}"  # htmx loads the new game's screen
    assert game_id not in after.headers["HX-Redirect"]
    opened = screen.get(f"/v/{token}").data.decode()  # a screen opened later stays on the result
    assert "Final score" in opened and f'href="/v/{new_token}"' in opened
