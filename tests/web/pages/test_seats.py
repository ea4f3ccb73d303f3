"""A phone per player: a phone without a seat is asked who it is, a seat another open phone holds is said
so before it is taken, and a phone whose player is not the active one waits (issue 24, item 4)."""

from __future__ import annotations

import re

from flask import Flask
from flask.testing import FlaskClient

from companion.web.live.notifier import notifier_of
from tests.builders import found
from tests.web.conftest import HX, Phone


def _game_id(phone: Phone) -> str:
    return phone.url.rsplit("/", 1)[-1]


def _forms(html: str) -> set[str]:
    """The last path segment of every form's action on a page (what it can record)."""
    return {a.rsplit("/", 1)[-1] for a in re.findall(r'<form method="post" action="([^"]+)"', html)}


def test_a_phone_without_a_seat_is_asked_who_it_is_with_one_tap_per_name(phone: Phone) -> None:
    phone.create(names=("Ana", "Ben", "Cleo"), table_mode="seats")
    html = phone.html
    assert "Who are you?" in html
    prompt = html.split('id="seat-prompt-title"', 1)[1].split("</form>", 1)[0]
    names = re.findall(r'<button type="submit" name="seat" value="(\d)"[^>]*>.*?</span> ([^<]+)</button>', prompt)
    assert names == [("0", "Ana"), ("1", "Ben"), ("2", "Cleo")]
    # nothing is offered that this phone could not record: no Hell move, no loan, no undo
    assert not {"loan", "end-turn", "undo", "move", "bring"} & _forms(html)
    assert "hx-vals=" not in html.split('data-part="cells"', 1)[1].split('data-part="cemetery"', 1)[0]


def test_taking_a_seat_from_the_prompt_opens_the_game_for_that_player(phone: Phone, client: FlaskClient) -> None:
    phone.create(names=("Ana", "Ben"), table_mode="seats")
    answer = client.post(phone.url + "/seat", data={"seat": "0"})
    assert answer.status_code == 303 and answer.headers["Location"].endswith(phone.url.rsplit("/g/", 1)[-1])
    phone.open()
    assert "Who are you?" not in phone.html and "Waiting for" not in phone.html
    assert "loan" in _forms(phone.html)
    assert phone.post("loan", {"player": 0}).status_code == 200


def test_a_phone_whose_player_is_not_active_waits_and_keeps_undo_history_and_score(
    phone: Phone, client: FlaskClient
) -> None:
    phone.create(names=("Ana", "Ben"), table_mode="seats")
    client.post(phone.url + "/seat", data={"seat": "1"})
    phone.open()
    html = phone.html
    assert "Waiting for Ana" in html
    waiting = html.split('id="waiting-title"', 1)[1].split("</section>", 1)[0]
    assert "/history" in waiting and "/score" in waiting
    assert "loan" not in _forms(html) and "End Ana" not in html
    assert "hx-vals=" not in html.split('data-part="cells"', 1)[1].split('data-part="cemetery"', 1)[0]
    # Ana's phone records a loan: Ben's phone may undo it, and still waits
    ana = Phone(client.application.test_client())
    ana.url = phone.url
    ana.client.post(phone.url + "/seat", data={"seat": "0"})
    ana.open()
    assert "Waiting for" not in ana.html and ana.post("loan", {"player": 0}).status_code == 200
    phone.open()
    assert "undo" in _forms(phone.html) and "Waiting for Ana" in phone.html
    assert phone.post("undo", {}).status_code == 200


def test_an_htmx_answer_to_a_waiting_phone_brings_the_waiting_card_into_view(phone: Phone, client: FlaskClient) -> None:
    phone.create(names=("Ana", "Ben"), table_mode="seats")
    client.post(phone.url + "/seat", data={"seat": "1"})
    phone.open()
    parts = found(r'data-parts="([^"]+)"', phone.html).group(1)
    answer = client.get(phone.url + "?select=zz", headers={**HX, "HX-Game-Parts": parts})
    assert '"focus": "waiting-title"' in answer.headers["HX-Trigger-After-Settle"]


def test_a_seat_held_by_another_open_phone_is_said_before_it_is_taken(
    phone: Phone, client: FlaskClient, app: Flask
) -> None:
    phone.create(names=("Ana", "Ben"), table_mode="seats")
    notifier_of(app).presence.join_as(_game_id(phone), 4242, "0")  # another phone has Ana's seat open
    phone.open()
    prompt = phone.html.split('id="seat-prompt-title"', 1)[1].split("</form>", 1)[0]
    assert re.search(r'value="0"[^>]*>.*?Ana <span class="seat-note">\(open on another phone\)', prompt)
    assert "open on another phone" not in prompt.split('value="1"', 1)[1]
    held = client.post(phone.url + "/seat", data={"seat": "0"})
    page = held.data.decode()
    assert held.status_code == 409 and "Ana's seat is held by another phone" in page
    # said first, with the confirming button, then the seats at once; the QR codes after them
    assert page.index("held-title") < page.index('name="confirm" value="1"') < page.index("Which seat is this phone?")
    assert page.index("Which seat is this phone?") < page.index("Join this game")
    phone.open()
    assert "Who are you?" in phone.html  # not taken
    taken = client.post(phone.url + "/seat", data={"seat": "0", "confirm": "1"})
    assert taken.status_code == 303
    phone.open()
    assert "Who are you?" not in phone.html and phone.post("loan", {"player": 0}).status_code == 200
    # a free seat is taken at once
    other = app.test_client()
    assert other.post(phone.url + "/seat", data={"seat": "1"}).status_code == 303


def test_one_shared_phone_is_never_asked_nor_kept_waiting(phone: Phone, client: FlaskClient) -> None:
    phone.create(names=("Ana", "Ben"))
    assert "Who are you?" not in phone.html and "Waiting for" not in phone.html
    client.post(phone.url + "/seat", data={"seat": "1"})
    phone.open()
    assert "Waiting for" not in phone.html and phone.post("loan", {"player": 0}).status_code == 200


def test_a_live_refresh_that_brings_this_phones_turn_brings_its_title_into_view(
    phone: Phone, client: FlaskClient
) -> None:
    phone.create(names=("Ana", "Ben"), table_mode="seats")
    client.post(phone.url + "/seat", data={"seat": "1"})
    phone.open()
    waited = found(r'data-parts="([^"]+)"', phone.html).group(1)
    ana = Phone(client.application.test_client())
    ana.url = phone.url
    ana.client.post(phone.url + "/seat", data={"seat": "0"})
    ana.open()
    ana.post("bring", {"player": 0, "colour": 2, "shield": "1d"})
    ana.florence(0, "bonfire")
    live = {**HX, "HX-Trigger": "live-trigger", "HX-Game-Parts": waited}
    middle = client.get(phone.url, headers=live)  # Ana still plays: Ben's phone is not moved
    assert '"focus": ""' in middle.headers["HX-Trigger-After-Settle"]
    assert ana.post("end-turn", {"player": 0}).status_code == 200
    came = client.get(phone.url, headers=live)
    assert '"focus": "turn-title"' in came.headers["HX-Trigger-After-Settle"]
    assert "Ben&#39;s turn" in came.data.decode() or "Ben's turn" in came.data.decode()
    after = ana.client.get(phone.url, headers={**HX, "HX-Trigger": "live-trigger", "HX-Game-Parts": waited})
    assert '"focus": ""' in after.headers["HX-Trigger-After-Settle"]  # Ana's phone now waits: not moved


def test_a_refresh_in_flight_with_the_old_cookie_cannot_take_back_a_seat_just_chosen(phone: Phone, app: Flask) -> None:
    """The seat lives in the phone's signed cookie. A live refresh sent just before the seat was tapped
    carries the old cookie; if its answer wrote the cookie again, the phone would lose its seat (and a
    language just switched). Only a request that changes this phone's choices writes the cookie."""
    phone.create(names=("Ana", "Ben"), table_mode="seats")
    game_id = _game_id(phone)
    cookie = phone.client.get_cookie("session")
    assert cookie is not None
    before = cookie.value
    taken = phone.client.post(f"/g/{game_id}/seat", data={"seat": "1"})
    assert taken.status_code == 303 and "session=" in taken.headers.get("Set-Cookie", "")
    stale = app.test_client(use_cookies=False)
    for path, headers in [(f"/g/{game_id}", HX | {"HX-Trigger": "live-trigger"}), (f"/g/{game_id}", {})]:
        late = stale.get(path, headers={**headers, "Cookie": f"session={before}"})
        assert late.status_code == 200
        assert "session=" not in late.headers.get("Set-Cookie", ""), path  # the old cookie is not written back
    assert "Waiting for Ana" in phone.open().html  # the seat taken holds
