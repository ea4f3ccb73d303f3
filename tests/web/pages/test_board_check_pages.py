"""The check and the editor through the pages: every question answers in English and in Spanish with
no English word left, a circle is edited tap by tap and judged when the table leaves it, typed values
are refused field by field, an edit outside the check unchecks what it changed, a name already used
asks first, and no hostile form answers 500."""

from __future__ import annotations

import html
import json
import re

import pytest
from babel.messages.pofile import read_po
from flask.testing import FlaskClient

from companion.editions import EDITIONS_DIR, check
from companion.editions.components import components
from tests.web.pages.test_edition_pages import _draft
from tests.web.words.test_translations import PO

SHIPPED = json.loads((EDITIONS_DIR / "inferno-base.json").read_text(encoding="utf-8"))
KEYS = [c.key for c in components(SHIPPED)]


def _text(page: str) -> str:
    page = re.sub(r"<(script|style|svg)\b.*?</\1>", " ", page, flags=re.S)
    page = re.sub(r"<[^>]+>", " ", page)
    return re.sub(r"https?://\S+", " ", html.unescape(page))  # a link shown to copy is an address, not words


def _english_words() -> set[str]:
    """Words of the English catalogue that no Spanish translation uses (names of the game aside)."""
    with PO.open("rb") as handle:
        catalog = read_po(handle)
    english: set[str] = set()
    spanish: set[str] = set()
    for m in catalog:
        if not m.id:
            continue
        ids = (m.id,) if isinstance(m.id, str) else tuple(m.id)
        strings = (m.string,) if isinstance(m.string, str) else tuple(m.string or ())
        for text in ids:
            english |= set(re.findall(r"[A-Za-z]{4,}", re.sub(r"%\(\w+\)s", " ", text).lower()))
        for text in strings:
            spanish |= set(re.findall(r"[A-Za-z]{4,}", text.lower()))
    return english - spanish


def _pages(client: FlaskClient, draft: str) -> dict[str, str]:
    pages = {"overview": client.get(draft).data.decode()}
    for key in KEYS:
        pages[f"{key} check"] = client.get(f"{draft}/q/{key}").data.decode()
        pages[f"{key} edit"] = client.get(f"{draft}/q/{key}?mode=edit&from=check").data.decode()
    first_shield = SHIPPED["sides"][0]["circles"]["6"][1]["id"]
    pages["circle picked"] = client.get(f"{draft}/q/circle-0-6?mode=edit&pick={first_shield}").data.decode()
    refused = client.post(f"{draft}/q/phlegethon", data={"op": "done", "v:phlegethon.scale": "x"})
    pages["refused value"] = refused.data.decode()
    # the library around the check: the list with this draft, a saved edition shared and published
    client.post(f"{draft}/q/tower", data={"op": "match"})
    assert client.post(f"{draft}/save", data={"name": "Nuestra copia"}).status_code == 303
    pages["library"] = client.get("/editions").data.decode()
    shared = client.post("/editions/mine/share", data={"name": "Nuestra copia"})
    pages["shared"] = client.get(shared.headers["Location"]).data.decode()
    client.post("/editions/mine/publish", data={"name": "Nuestra copia", "publish": "1"})
    pages["published"] = client.get("/editions/published").data.decode()
    return pages


def test_every_screen_of_the_check_and_the_editor_speaks_spanish_with_no_english_word(client: FlaskClient) -> None:
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "es"
    draft = _draft(client)
    english = _english_words()
    leaks = {}
    for name, page in _pages(client, draft).items():
        text = _text(page).replace(SHIPPED["name"], " ")
        words = set(re.findall(r"[A-Za-z]{4,}", text.lower())) & english
        if words:
            leaks[name] = sorted(words)
    assert leaks == {}


@pytest.mark.parametrize("lang", ["en", "es"])
def test_no_screen_shows_a_path_of_the_file_or_an_internal_id(client: FlaskClient, lang: str) -> None:
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = lang
    draft = _draft(client)
    code = re.compile(r"\w+\[\d+\]|\[\s*'|\b[a-z]+_[a-z_]+\b|\{'|#[0-9a-f]{6}\b")
    for name, page in _pages(client, draft).items():
        found = code.findall(_text(page))
        assert found == [], (name, found[:5])


def test_a_circle_is_edited_tap_by_tap_and_judged_only_when_the_table_leaves_it(client: FlaskClient) -> None:
    draft = _draft(client)
    url = f"{draft}/q/circle-0-9"
    # circle 9 has one shield of each symbol: turning one symbol leaves a symbol missing for a moment
    assert (
        client.post(url, data={"op": "symbol", "shield": "9a", "quarter": "lily", "from": "check"}).status_code == 303
    )
    left = client.post(url, data={"op": "done", "from": "check"})
    assert left.status_code == 422 and "circle 9" in left.data.decode().lower()
    # the next tap makes the circle whole again, and leaving it is accepted and checks it
    client.post(url, data={"op": "symbol", "shield": "9d", "quarter": "eagle", "from": "check"})
    done = client.post(url, data={"op": "done", "from": "check"})
    assert done.status_code == 303
    page = client.get(f"{draft}/q/circle-0-9").data.decode()
    assert "9A Lily" in _text(page) and "9D Eagle" in _text(page)


def test_two_shields_swap_symbols_a_shield_is_added_and_removed_and_a_line_linked(client: FlaskClient) -> None:
    draft = _draft(client)
    url = f"{draft}/q/circle-0-3"
    client.post(url, data={"op": "swap", "shield": "3a", "other": "3b"})
    client.post(url, data={"op": "add", "place": "2"})
    client.post(url, data={"op": "line", "shield": "3a", "other": "4c", "keep": "3a"})
    page = _text(client.get(f"{url}?mode=edit").data.decode())
    assert "3A Lily, 3B Cross, 3C Lily" in page and "3F" in page and "3A → 4A/4B/4C" in page
    client.post(url, data={"op": "remove", "shield": "3c"})
    assert client.post(url, data={"op": "done"}).status_code == 303
    assert "3F" not in _text(client.get(url).data.decode())


def test_typed_values_are_refused_field_by_field_and_nothing_is_kept(client: FlaskClient) -> None:
    draft = _draft(client)
    form = {
        "op": "done",
        "v:economy.start_florins": "-4",
        "v:economy.start_drachmas": "three",
        "v:economy.florin_to_drachma": "2",
    }
    refused = client.post(f"{draft}/q/purse", data=form)
    page = refused.data.decode()
    assert refused.status_code == 422
    assert "-4 is not between 0 and 99." in page and "Enter a whole number from 0 to 99." in page
    assert 'value="2"' in page  # what the table typed is still there to correct
    assert "Drachmas given for one florin" in page
    kept = _text(client.get(f"{draft}/q/purse").data.decode())
    assert "Florins each player starts with 3" in " ".join(kept.split())


def test_an_edit_outside_the_check_unchecks_what_it_changed(client: FlaskClient) -> None:
    draft = _draft(client)
    client.post(f"{draft}/q/tower", data={"op": "match"})
    assert "Already checked" in client.get(f"{draft}/q/tower").data.decode()
    form = {"op": "done", "v:tower.heights": "0 1 2 3 5", "v:tower.start_floors": "1", "v:tower.spaces_per_floor": "3"}
    assert client.post(f"{draft}/q/tower", data=form).status_code == 303
    assert "Already checked" not in client.get(f"{draft}/q/tower").data.decode()
    # the same edit made from the check is checked at once
    assert client.post(f"{draft}/q/tower", data={**form, "from": "check"}).status_code == 303
    assert "Already checked" in client.get(f"{draft}/q/tower").data.decode()


def test_saving_under_a_name_already_used_asks_first(client: FlaskClient) -> None:
    draft = _draft(client)
    assert client.post(f"{draft}/save", data={"name": "Our copy"}).status_code == 303
    client.post(
        f"{draft}/q/purse",
        data={
            "op": "done",
            "v:economy.start_florins": "5",
            "v:economy.start_drachmas": "3",
            "v:economy.florin_to_drachma": "1",
        },
    )
    ask = client.post(f"{draft}/save", data={"name": "Our copy"})
    assert ask.status_code == 409 and "Replace it with this one?" in ask.data.decode()
    assert client.post(f"{draft}/save", data={"name": "Our copy", "replace": "yes"}).status_code == 303


HOSTILE = [
    {"op": "count", "count": "27"},
    {"op": "done", "f:guardians": "1"},
    {"op": "done", "v:circles[0].infamy.real": "1"},
    {"op": "symbol", "shield": "9a", "quarter": "nope"},
    {"op": "swap", "shield": "1a", "other": "zz"},
    {"op": "add", "place": "x"},
    {"op": "add", "place": "-999"},
    {"op": "remove", "shield": ""},
    {"op": "line", "shield": "1a"},
    {"op": "gate", "shield": "1a\r\n"},
    {"op": "step_remove", "step": "99"},
    {"op": "done", "v:dante.steps:0:kind": "fly"},
    {"op": "done", "v:default_guardians.ids:0": "medusa", "v:default_guardians.ids:1": "medusa"},
    {"op": "done", "v:phlegethon.scale": "1" * 500},
    {"op": "\x00"},
]


@pytest.mark.parametrize("form", HOSTILE)
@pytest.mark.parametrize("key", ["circle-0-1", "circle-1-6", "dante", "rulebook", "phlegethon", "nope"])
def test_no_form_a_phone_can_send_answers_500(client: FlaskClient, form: dict[str, str], key: str) -> None:
    draft = _draft(client)
    response = client.post(f"{draft}/q/{key}", data=form)
    assert response.status_code in (303, 400, 404, 422), (key, form, response.status_code)
    assert client.get(draft).status_code == 200  # and the draft still opens


def test_a_draft_of_another_phone_and_an_unknown_question_are_not_found(client: FlaskClient) -> None:
    draft = _draft(client)
    assert client.get(f"{draft}/q/nope").status_code == 404
    other = client.application.test_client()
    assert other.get(draft).status_code == 404


def test_progress_counts_only_what_a_board_shows() -> None:
    done = check.progress(SHIPPED)
    assert done.total < 74 and done.questions <= 38
