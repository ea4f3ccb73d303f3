"""A refusal on the score sheet and the quick tally is said on the page that answers it, even at a moment
its form is not drawn (the half diplomas and the cards in hand are drawn only at the end of a game that
needs them): a post from an old screen, a double tap after the game changed or a forged one.

Every POST route of the two pages is found in the app's URL map and watched recording through
``perform``; each is refused for its shape (400), from a phone without a seat (403), from a stale screen
(409) and by a rule (422), in English and Spanish, with and without htmx. Each answer shows the words
``perform`` said (a rule's text and the rule) inside the part htmx swaps, in one box (htmx scrolls to the
top of the part when they are said there), and nothing is recorded. A form drawn only at the end has its
refusal said atop the page."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from flask_babel import force_locale
from marshmallow import Schema

import companion.web.perform as perform_module
from companion.web.words.catalogue import gettext
from companion.web.words.form_fields import field_word
from companion.web.words.refusals import describe_refusal, describe_rule
from tests.builders import found
from tests.web.conftest import Phone
from tests.web.words.test_form_field_words import _refusals, _refused, _text, parsed_by_perform

PAGES = {"scores": "game", "tally": "tally"}  # the blueprints of the score sheet and the tally: the log they post to
# Well shaped for every form of the two pages, and refused by a rule at the moments below: no player 7 at a
# table of two, 99 empty shields, half diplomas in the middle of a game, nothing to undo or redo in a
# tally just started.
ILLEGAL = {"player": "7", "tracks": ["2"], "circle": "9", "empty": "99", "cube": "99", "infamy": "0", "empty-3": "99"}
LEGAL = {"player": "0", "circle": "3", "empty": "0", "cube": "0", "infamy": "0"}  # sent from a stale screen
CONFLICT = (
    "This screen was out of date: the game moved on at another phone. Here is the fresh state; nothing was recorded."
)
NO_SEAT = (
    "This phone has not taken a seat. In seats mode each player acts from the phone that took their seat: "
    "open “Join” to take yours."
)


def _page_routes(app: Flask, client: FlaskClient, logs: dict[str, str]) -> dict[str, tuple[str, type[Schema]]]:
    """Every POST route of the two pages (``PAGES``), by path for the logs at hand: its blueprint, and the
    form ``perform`` parses for it (each is posted once, empty, and watched)."""
    paths: dict[str, str] = {}
    for rule in app.url_map.iter_rules():
        blueprint = rule.endpoint.split(".")[0]
        if "POST" in (rule.methods or ()) and blueprint in PAGES and "game_id" in rule.arguments:
            assert rule.arguments == {"game_id"}, f"{rule.rule}: give its other arguments a value here"
            paths[rule.rule.replace("<game_id>", logs[PAGES[blueprint]])] = blueprint
    parsed = parsed_by_perform(client, list(paths))
    assert set(parsed) == set(paths), f"routes that do not record through perform: {set(paths) - set(parsed)}"
    return {path: (paths[path], parsed[path]) for path in sorted(paths)}


@pytest.fixture
def perform_said(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """What ``perform`` says of each rule that refuses (its text, then the rule's)."""
    said: list[str] = []

    def telling(describe: Callable[..., str]) -> Callable[..., str]:
        def told(*args: Any) -> str:
            words = describe(*args)
            said.append(words)
            return words

        return told

    monkeypatch.setattr(perform_module, "describe_refusal", telling(describe_refusal))
    monkeypatch.setattr(perform_module, "describe_rule", telling(describe_rule))
    yield said


def _seq(client: FlaskClient, url: str) -> int:
    return int(found(r'data-seq="(\d+)"', client.get(url).data.decode()).group(1))


def _tables(client: FlaskClient, phone: Phone) -> dict[str, str]:
    """A game in its first turn (a soul brought), a seats-mode game this phone has no seat in, and a tally
    just started: the address of each log."""
    phone.create()
    assert phone.post("bring", {"player": 0, "colour": 2, "shield": "1a"}).status_code == 200
    game = phone.url
    seated = Phone(client).create(table_mode="seats", key="create-key-seats").url
    made = client.post("/tally", data={"key": "tally-key-00001", "name": ["Ana", "Ben"]})
    return {"game": game, "seats": seated, "tally": made.headers["Location"]}


@pytest.mark.parametrize("htmx", [False, True], ids=["full page", "htmx"])
def test_every_refusal_of_the_score_and_tally_pages_is_said_even_where_its_form_is_not_drawn(
    app: Flask, client: FlaskClient, phone: Phone, perform_said: list[str], htmx: bool
) -> None:
    urls = _tables(client, phone)
    ids = {name: url.rsplit("/", 1)[1] for name, url in urls.items()}
    routes = _page_routes(app, client, ids)
    found = {path.replace(ids["game"], "<game>").replace(ids["tally"], "<tally>") for path in routes}
    assert len(routes) >= 8 and {"/g/<game>/halves", "/g/<game>/hand-card", "/t/<tally>/halves"} <= found, found
    before = {name: _seq(client, url) for name, url in urls.items()}
    headers = {"HX-Request": "true"} if htmx else {}
    shown: dict[tuple[str, str], dict[str, list[str]]] = {}
    problems: list[str] = []
    posts = 0
    for language in ("en", "es"):
        client.get(f"/lang/{language}")
        with app.test_request_context(), force_locale(language):
            words = {
                400: [gettext("Some fields need fixing."), field_word("seq")],
                403: [gettext(NO_SEAT)],
                409: [gettext(CONFLICT)],
            }
            rule = gettext("Rule:")
        for path, (blueprint, schema) in routes.items():
            log = PAGES[blueprint]
            for sent in (ILLEGAL, LEGAL):
                assert _refused(app, schema, {**sent, "seq": "1", "key": "well-shaped-key"}) is None, (
                    f"{schema.__name__} refuses the shape of {sent}: give its new field a well-shaped value"
                )
            seq = before[log]
            cases: dict[str, tuple[int, str, dict[str, Any]]] = {
                "shape": (400, path, {"seq": "abc"}),
                "stale": (409, path, {**LEGAL, "seq": str(seq - 1)}),
                "rule": (422, path, {**ILLEGAL, "seq": str(seq)}),
            }
            if log == "game":  # the same route of a seats-mode game, from a phone without a seat
                seated = path.replace(ids["game"], ids["seats"])
                cases["seat"] = (403, seated, {**ILLEGAL, "seq": str(before["seats"])})
            for case, (status, url, data) in cases.items():
                posts += 1
                perform_said.clear()
                answer = client.post(url, data={**data, "key": f"refused-key-{posts:05d}"}, headers=headers)
                html = answer.data.decode()
                where = f"{url} {case} ({language}, {'htmx' if htmx else 'full page'})"
                if answer.status_code != status:
                    problems.append(f"{where}: answered {answer.status_code}, not {status}")
                    continue
                expected = words.get(status, [])
                if status == 422:
                    expected = [s for s in perform_said if s] + ([rule] if perform_said[-1] else [])
                part = re.search(r'id="(\w+)" data-seq="\d+"', html)
                if part is None:
                    problems.append(f"{where}: no part carrying the seq")
                    continue
                swapped = html[part.start() :]  # what htmx swaps in (#score, #tally): to the end of the page
                said_where = _text(swapped) if status == 409 else _refusals(swapped)
                missing = [sentence for sentence in expected if sentence not in said_where]
                boxes = html.count('class="refusal"')
                if not expected or missing or (status != 409 and boxes != 1):
                    problems.append(f"{where}: {missing} not said, {boxes} refusal boxes: {said_where[:300]!r}")
                    continue
                words_at = swapped.find('class="notice' if status == 409 else 'class="refusal"')
                reswap = answer.headers.get("HX-Reswap", "")
                if htmx and 0 <= words_at < swapped.find("<h1") and "show:top" not in reswap:
                    problems.append(f"{where}: said near the top, but htmx does not show the top ({reswap!r})")
                shown.setdefault((url, case), {})[language] = expected
    assert problems == [], "\n".join(problems)
    assert {name: _seq(client, url) for name, url in urls.items()} == before  # nothing was recorded
    untranslated = [key for key, said in shown.items() if said["en"] == said["es"]]
    assert untranslated == [] and len(shown) == 3 * len(routes) + sum(1 for b, _ in routes.values() if b == "scores")


# The forms drawn only at the end of a game that needs them: the heading of the section that draws each.
DRAWN_AT_THE_END = {"game/halves": "halves-title", "game/hand-card": "hand-title", "tally/halves": "thalves-title"}


@pytest.mark.parametrize("route", sorted(DRAWN_AT_THE_END))
@pytest.mark.parametrize("htmx", [False, True], ids=["full page", "htmx"])
def test_a_refusal_whose_form_is_not_drawn_is_said_atop_the_page_where_the_phone_looks(
    client: FlaskClient, phone: Phone, perform_said: list[str], route: str, htmx: bool
) -> None:
    urls = _tables(client, phone)
    log, action = route.split("/")
    headers = {"HX-Request": "true"} if htmx else {}
    seq = _seq(client, urls[log])
    said = {}
    for language in ("en", "es"):
        client.get(f"/lang/{language}")
        perform_said.clear()
        data = {"seq": seq, "key": f"end-key-{language}-{route}", "player": "0", "tracks": ["2"]}
        answer = client.post(f"{urls[log]}/{action}", data=data, headers=headers)
        html = answer.data.decode()
        assert answer.status_code == 422
        assert DRAWN_AT_THE_END[route] not in html  # the form is not drawn at this moment
        box = _refusals(html)
        assert perform_said[0] and perform_said[0] in box and html.count('class="refusal"') == 1
        assert html.index('class="refusal"') < html.index("<h1")  # atop the page, under the notices
        assert not htmx or answer.headers["HX-Reswap"] == "outerHTML show:top"
        said[language] = box
    assert said["en"] != said["es"]
    assert _seq(client, urls[log]) == seq


def test_a_half_diploma_choice_sent_in_the_middle_of_a_game_is_refused_by_its_rule(
    client: FlaskClient, phone: Phone
) -> None:
    """An old screen of the end, or another game's: the sheet says why, with the rule, in the player's words."""
    phone.create()
    for language, sentence, rule in (
        ("en", "Half diplomas are placed at final scoring, once the game is over.", "Rule:"),
        ("es", "Los medios diplomas se colocan en la puntuación final, cuando termina la partida.", "Regla:"),
    ):
        client.get(f"/lang/{language}")
        data = {"seq": phone.seq, "key": f"halves-key-{language}", "player": "0"}
        answer = client.post(f"{phone.url}/halves", data=data)
        box = _refusals(answer.data.decode())
        assert answer.status_code == 422 and sentence in box and f"{rule} " in box and "§7.2" in box
