"""The phone pages through Flask's test client: full pages, htmx fragments, conflicts, refusals."""

from __future__ import annotations

import re

from flask import Flask

from companion.web import create_app
from tests.builders import found
from tests.web.conftest import Phone


def test_creating_a_game_leads_to_an_unguessable_url(phone: Phone) -> None:
    phone.create()
    token = phone.url.rsplit("/", 1)[-1]
    assert phone.url.startswith("/g/")
    assert len(token) >= 22  # 16 random bytes, URL-safe: 128 bits
    assert "Ana&#39;s turn" in phone.html or "Ana's turn" in phone.html


def test_the_game_page_is_a_full_page_and_the_action_answers_a_fragment(phone: Phone) -> None:
    phone.create()
    assert phone.html.lstrip().startswith("<!doctype html>")
    response = phone.post("bring", {"player": 0, "colour": 5, "shield": "1a"})
    assert response.status_code == 200
    fragment = response.data.decode()
    assert fragment.lstrip().startswith('<div id="game"')
    assert "<html" not in fragment
    assert phone.stat(0, "drachmas") == 2


def test_without_htmx_an_action_redirects_back_to_the_game(phone: Phone) -> None:
    phone.create()
    response = phone.post("bring", {"player": 0, "colour": 5, "shield": "1a"}, htmx=False)
    assert response.status_code == 303
    assert response.headers["Location"] == phone.url
    assert phone.open().stat(0, "drachmas") == 2


def test_a_stale_screen_gets_409_with_the_fresh_state_and_records_nothing(phone: Phone, client) -> None:
    phone.create()
    old_seq = phone.seq
    phone.post("loan", {"player": 0})
    after_loan = phone.seq
    response = phone.post("bring", {"player": 0, "colour": 5, "shield": "1a"}, seq=old_seq)
    assert response.status_code == 409
    assert "out of date" in phone.html
    assert phone.seq == after_loan
    assert phone.stat(0, "drachmas") == 5  # 3 + the loan's 2; the bring-in was not recorded


def test_a_double_tap_is_recorded_once(phone: Phone) -> None:
    phone.create()
    seq = phone.seq
    first = phone.post("loan", {"player": 0}, key="same-tap-key", seq=seq)
    second = phone.post("loan", {"player": 0}, key="same-tap-key", seq=seq)
    assert first.status_code == second.status_code == 200
    assert "Already recorded" in phone.html
    assert phone.stat(0, "drachmas") == 5
    assert phone.seq == seq + 1


def test_an_illegal_command_is_refused_next_to_its_control_with_the_reason(phone: Phone) -> None:
    phone.create()
    response = phone.post("bring", {"player": 0, "colour": 9, "shield": "1a"})
    assert response.status_code == 422
    box = re.search(r'<div class="refusal" role="alert" id="refusal-bring">(.*?)</div>', phone.html, re.S)
    assert box is not None
    assert "The Cemetery holds no ice-blue soul" in box.group(1)
    assert "Traceback" not in phone.html


def test_malformed_input_gets_a_message_per_field(phone: Phone) -> None:
    phone.create()
    response = phone.post("bring", {"player": 0, "colour": "blue", "shield": ""})
    assert response.status_code == 400
    assert "Some fields need fixing" in phone.html
    assert "<li>The colour: Not a valid value.</li>" in phone.html  # said by the player's word, not its code
    assert "<li>The shield: Must have 1 to 8 characters.</li>" in phone.html


def test_undo_and_redo_from_the_page(phone: Phone) -> None:
    phone.create()
    phone.post("bring", {"player": 0, "colour": 5, "shield": "1a"})
    assert phone.stat(0, "drachmas") == 2
    assert "Undo last entry" in phone.html
    phone.post("undo", {})
    assert phone.stat(0, "drachmas") == 3
    assert "Redo" in phone.html
    phone.post("redo", {})
    assert phone.stat(0, "drachmas") == 2


def test_the_history_lists_every_action_and_offers_undo_to_here(phone: Phone, client) -> None:
    phone.create()
    phone.post("bring", {"player": 0, "colour": 5, "shield": "1a"})
    phone.end_turn(0, "banquet")
    page = client.get(phone.url + "/history").data.decode()
    assert "Ana paid Charon 1 drachma and brought one blue soul into Limbo at 1A." in page
    assert "Ana ended the turn; Ben plays." in page
    assert page.count("Undo to here") >= 3
    preview = client.get(phone.url + "/undo-preview?to=3").data.decode()
    assert "This takes back 3 entries" in preview
    assert "drachmas 2 → 3" in preview


def test_a_missing_game_is_a_friendly_404(client) -> None:
    response = client.get("/g/not-a-game")
    assert response.status_code == 404
    assert "There is no game at this address" in response.data.decode()


def test_state_changing_requests_need_a_csrf_token(tmp_path) -> None:
    app: Flask = create_app({"TESTING": True, "DATABASE": str(tmp_path / "csrf.sqlite3"), "SECRET_KEY": "t"})
    client = app.test_client()
    response = client.post("/games", data={"key": "k" * 12, "name": ["Ana"], "colour": ["crimson"], "plague": ["2"]})
    assert response.status_code == 400
    assert "expired" in response.data.decode()
    page = client.get("/").data.decode()
    token = found(r'name="csrf_token" value="([^"]+)"', page).group(1)
    ok = client.post(
        "/games", data={"csrf_token": token, "key": "k" * 12, "name": ["Ana"], "colour": ["crimson"], "plague": ["2"]}
    )
    assert ok.status_code == 303


def test_the_create_form_explains_each_bad_field(client) -> None:
    response = client.post("/games", data={"key": "k" * 12, "name": ["", ""], "colour": ["crimson", "navy"]})
    assert response.status_code == 400
    page = response.data.decode()
    assert "Enter at least one player" in page


def test_the_create_form_refuses_repeated_colours_with_the_rule(client) -> None:
    response = client.post(
        "/games", data={"key": "k" * 12, "name": ["Ana", "Ben"], "colour": ["navy", "navy"], "plague": ["2"]}
    )
    assert response.status_code == 422
    assert "each player needs their own colour" in response.data.decode()


def test_htmx_is_served_from_static_never_a_cdn(phone: Phone, client) -> None:
    phone.create()
    scripts = re.findall(r'<script src="([^"]+)"', phone.html)
    assert scripts and all(s.startswith("/static/") for s in scripts)
    vendored = [s for s in scripts if "/vendor/htmx-" in s]
    assert vendored, scripts
    with client.get(vendored[0]) as served:
        assert served.status_code == 200 and b"htmx" in served.data[:2000]


def test_every_event_type_is_told_in_words() -> None:
    from companion.web.words.history import TELLERS
    from events.catalog import EVENT_TYPES

    missing = sorted(name for name, cls in EVENT_TYPES.items() if cls not in TELLERS)
    assert missing == []


def test_every_event_is_told_by_the_teller_written_for_it() -> None:
    """Each teller reads the event it is given: a teller written for another event (two tellers of
    one name, the later one winning) would read fields the event does not have."""
    import typing

    from companion.web.words.history import TELLERS

    wrong = sorted(
        f"{cls.__name__} -> {teller.__name__}"
        for cls, teller in TELLERS.items()
        if next(iter(typing.get_type_hints(teller).values())) is not cls
    )
    assert wrong == []


def test_the_history_tells_a_log_made_through_the_api(app: Flask, client) -> None:
    """An imported golden game (starting skulls from the Family cards included) reads in words."""
    import json
    from pathlib import Path

    from companion.formats.export import import_game

    data = json.loads((Path(__file__).resolve().parents[2] / "fixtures" / "base-two-players.json").read_text())
    with app.app_context():
        from companion.web.http.db import service

        game_id = import_game(service(), data)
    page = client.get(f"/g/{game_id}/history")
    assert page.status_code == 200
    assert "Family card put a skull" in page.get_data(as_text=True)
