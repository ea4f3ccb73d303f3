"""A live refresh is drawn once for the phones of a game that hold the same parts, and each phone still
gets its own fresh keys; its forms' CSRF fields are left out, as htmx sends each phone's own session's
token in a header (``companion.web.screens.parts.live_answers``)."""

from __future__ import annotations

import re
import threading
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.service.caches import Shared
from companion.web import create_app
from companion.web.screens.parts.live_answers import ANSWERS_KEY
from tests.builders import found
from tests.web.conftest import HX, Phone

KEY = re.compile(r'name="key" value="([^"]+)"')
CSRF = re.compile(r'name="csrf_token" value="([^"]+)"|"X-CSRFToken": "([^"]+)"')


@pytest.fixture
def app(tmp_path: Path) -> Flask:
    return create_app({"TESTING": True, "DATABASE": str(tmp_path / "web.sqlite3"), "SECRET_KEY": "test"})


def _held(client: FlaskClient, url: str) -> str:
    page = client.get(url).data.decode()
    return found(r'data-parts="([^"]+)"', page).group(1)


def _token(client: FlaskClient, url: str) -> str:
    """The CSRF token the phone's page gives htmx (``hx-headers`` on the body)."""
    page = client.get(url).data.decode()
    return found(r'"X-CSRFToken": "([^"]+)"', page).group(1)


def _table(app: Flask) -> tuple[Phone, list[FlaskClient], str]:
    """A game, three other phones holding the page at its start, and the parts they hold."""
    app.config["WTF_CSRF_ENABLED"] = False
    writer = Phone(app.test_client()).create()
    app.config["WTF_CSRF_ENABLED"] = True
    others = [app.test_client() for _ in range(3)]
    held = {_held(c, writer.url) for c in others}
    assert len(held) == 1  # the same parts on every phone
    return writer, others, held.pop()


def _tap(app: Flask, writer: Phone) -> None:
    app.config["WTF_CSRF_ENABLED"] = False
    assert writer.post("bring", {"player": 0, "colour": 2, "shield": "1d"}).status_code == 200
    app.config["WTF_CSRF_ENABLED"] = True


def _refresh(client: FlaskClient, url: str, held: str, **headers: str) -> tuple[str, dict[str, str]]:
    answer = client.get(url, headers={**HX, "HX-Trigger": "live-trigger", "HX-Game-Parts": held, **headers})
    assert answer.status_code == 200
    return answer.data.decode(), dict(answer.headers)


def test_phones_holding_the_same_parts_share_one_drawing_with_their_own_keys_and_token(app: Flask) -> None:
    writer, others, held = _table(app)
    _tap(app, writer)
    answers = app.extensions[ANSWERS_KEY]
    made = answers.made
    bodies = [_refresh(c, writer.url, held) for c in others]
    assert answers.made == made + 1  # drawn once for the three phones
    assert answers.shared >= 2
    texts = [b for b, _ in bodies]
    assert all("&key;" not in t and "&csrf;" not in t and "\\u0026" not in t for t in texts)
    assert len({h["HX-Trigger-After-Settle"] for _, h in bodies}) == 1
    keys = [KEY.findall(t) for t in texts]
    assert keys[0], "the refreshed parts hold forms"
    assert not set(keys[0]) & set(keys[1]), "every phone gets fresh keys"
    assert not any(CSRF.search(t) for t in texts), "no session's token in a shared answer"
    assert all('name="csrf_token"' not in t for t in texts), "the forms' token fields are left out"
    same = [KEY.sub("K", t) for t in texts]
    assert same[0] == same[1] == same[2]
    assert 'data-part="cells" hx-swap-oob="true"' in texts[0]  # the soul brought in redraws the map's layer


def test_a_shared_answer_holds_a_tap_sent_with_it(app: Flask) -> None:
    writer, others, held = _table(app)
    _tap(app, writer)
    _refresh(others[0], writer.url, held)
    made = app.extensions[ANSWERS_KEY].made
    text, _ = _refresh(others[1], writer.url, held)  # the shared answer
    assert app.extensions[ANSWERS_KEY].made == made
    key = found(KEY, text).group(1)
    token = _token(others[1], writer.url)  # as htmx sends it: the page's header, the form's field empty
    form = {"seq": writer.seq, "key": key, "player": 0}
    headers = {**HX, "X-CSRFToken": token}
    answer = others[1].post(writer.url + "/loan", data={**form, "confirm_loan": "true"}, headers=headers)
    assert answer.status_code == 200, answer.data[:300]
    assert "seq" in answer.headers["HX-Trigger-After-Settle"]


def test_other_parts_language_or_seq_are_drawn_apart(app: Flask) -> None:
    writer, others, held = _table(app)
    _tap(app, writer)
    answers = app.extensions[ANSWERS_KEY]
    made = answers.made
    english, _ = _refresh(others[0], writer.url, held)
    spanish, _ = _refresh(others[1], writer.url, held, **{"Accept-Language": "es"})
    assert answers.made == made + 2
    assert english != spanish
    partly = " ".join(p for p in held.split() if not p.startswith("cells:"))  # a phone that lacks the map
    _refresh(others[2], writer.url, partly)
    assert answers.made == made + 3
    _tap_loan(app, writer)
    _, headers = _refresh(others[0], writer.url, held)
    assert answers.made == made + 4  # a new event: drawn anew
    assert f'"seq": {writer.seq}' in headers["HX-Trigger-After-Settle"]


def _tap_loan(app: Flask, writer: Phone) -> None:
    app.config["WTF_CSRF_ENABLED"] = False
    assert writer.post("loan", {"player": 0, "confirm_loan": "true"}).status_code == 200
    app.config["WTF_CSRF_ENABLED"] = True


def test_a_page_load_or_a_tap_is_never_shared(app: Flask) -> None:
    writer, others, held = _table(app)
    answers = app.extensions[ANSWERS_KEY]
    made, shared = answers.made, answers.shared
    others[0].get(writer.url)
    others[0].get(writer.url, headers={**HX, "HX-Game-Parts": held})  # a tap's GET (a select), not the trigger
    assert (answers.made, answers.shared) == (made, shared)


def test_shared_makes_a_value_once_while_the_others_wait() -> None:
    shared: Shared[str, int] = Shared(size=4)
    calls: list[int] = []
    started = threading.Event()

    def make() -> int:
        calls.append(1)
        started.set()
        threading.Event().wait(0.2)
        return 7

    results: list[int] = []
    first = threading.Thread(target=lambda: results.append(shared.get_or_make("a", make)))
    first.start()
    started.wait(2)
    rest = [threading.Thread(target=lambda: results.append(shared.get_or_make("a", make))) for _ in range(5)]
    for t in rest:
        t.start()
    for t in [first, *rest]:
        t.join(5)
    assert results == [7] * 6
    assert len(calls) == 1
    assert (shared.made, shared.shared) == (1, 5)


def test_shared_makes_it_again_when_the_first_one_failed() -> None:
    shared: Shared[str, int] = Shared(size=4)

    def boom() -> int:
        raise RuntimeError("no")

    with pytest.raises(RuntimeError):
        shared.get_or_make("a", boom)
    assert shared.get_or_make("a", lambda: 3) == 3
    assert len(shared) == 1


def test_sharing_can_be_turned_off(app: Flask) -> None:
    writer, others, held = _table(app)
    app.config["LIVE_ANSWERS"] = False
    _tap(app, writer)
    answers = app.extensions[ANSWERS_KEY]
    made, shared = answers.made, answers.shared
    for c in others:
        _refresh(c, writer.url, held)
    assert (answers.made, answers.shared) == (made, shared)


def test_a_form_of_a_refreshed_answer_is_sent_with_the_phones_header_token_and_refused_without_it(app: Flask) -> None:
    writer, others, held = _table(app)
    _tap(app, writer)
    phone = others[0]
    token = _token(phone, writer.url)
    body, _ = _refresh(phone, writer.url, held)
    form = re.search(r'<form[^>]*action="[^"]*/send".*?</form>', body, re.DOTALL)  # the bring's Florence phase
    assert form is not None
    fields = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', form.group(0)))
    assert "csrf_token" not in fields
    fields["location"] = found(r'name="location" value="(\w+)"', form.group(0)).group(1)
    action = found(r'action="([^"]+)"', form.group(0)).group(1)
    refused = phone.post(action, data=fields, headers=HX)
    assert refused.status_code == 400 and b"Form expired" in refused.data  # no token in a field nor a header
    sent = phone.post(action, data={**fields, "key": fields["key"] + "x"}, headers={**HX, "X-CSRFToken": token})
    assert sent.status_code == 200, sent.data[:300]


def test_a_location_option_of_a_refreshed_answer_is_recorded_from_another_phone(app: Flask) -> None:
    """The Wall's "change florins" form writes its CSRF field in the template itself (not through a macro):
    a live refresh drawn for one phone and shared must not carry that phone's token to the others (Flask-WTF
    reads a form's field before the header, so the other phone's tap was refused as "Form expired")."""
    app.config["WTF_CSRF_ENABLED"] = False
    writer = Phone(app.test_client()).create(plague=("4", "2", "2", "3"))
    writer.post("bring", {"player": 0, "colour": 4, "shield": "1a"})  # 1A shows the Eagle: the Wall
    app.config["WTF_CSRF_ENABLED"] = True
    others = [app.test_client() for _ in range(2)]
    held = {_held(c, writer.url) for c in others}.pop()
    tokens = [_token(c, writer.url) for c in others]
    app.config["WTF_CSRF_ENABLED"] = False
    writer.florence(0, "wall")
    app.config["WTF_CSRF_ENABLED"] = True
    bodies = [_refresh(c, writer.url, held)[0] for c in others]  # the second is the shared drawing
    form = re.search(r'<form[^>]*action="[^"]*/location/exchange".*?</form>', bodies[1], re.DOTALL)
    assert form is not None and "csrf_token" not in form.group(0)
    fields = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', form.group(0)))
    sent = others[1].post(
        writer.url + "/location/exchange", data={**fields, "florins": "1"}, headers={**HX, "X-CSRFToken": tokens[1]}
    )
    assert sent.status_code == 200, sent.data[:300]
    assert "seq" in sent.headers["HX-Trigger-After-Settle"]


def test_a_plain_form_in_an_answer_to_htmx_keeps_this_phones_token(app: Flask) -> None:
    """ "Our board is different" is posted by the browser itself, without htmx's header: in an answer to htmx
    (a refused move) it keeps its CSRF field, filled with this phone's own token, and is accepted."""
    app.config["WTF_CSRF_ENABLED"] = False
    phone = Phone(app.test_client()).create(plague=("9", "3", "5"))
    phone.post("bring", {"player": 0, "colour": 9, "shield": "1b"})
    phone.end_turn(0, "bank")  # Ben's turn: one soul move is due
    app.config["WTF_CSRF_ENABLED"] = True
    token = _token(phone.client, phone.url)
    refused = phone.client.post(
        f"{phone.url}/move",
        data={
            "seq": phone.seq,
            "key": "refused-move-0001",
            "player": 1,
            "from_shield": "1b",
            "select": "1b",
            "to_shield": "3c",
        },
        headers={**HX, "X-CSRFToken": token},
    )
    body = refused.data.decode()
    assert refused.status_code == 422, body[:300]
    form = re.search(r'<form class="board-differs".*?</form>', body, re.DOTALL)
    assert form is not None and "hx-post" not in form.group(0)
    fields = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', form.group(0)))
    assert fields["csrf_token"] not in ("", "&csrf;")
    action = found(r'action="([^"]+)"', form.group(0)).group(1)
    opened = phone.client.post(action, data=fields)  # as the browser posts it: no header
    assert opened.status_code == 303 and "/editions/drafts/" in opened.headers["Location"]
