"""The game names its board: the game page says which edition it plays, and once every value of it
was checked, on which day ("checked against your board on <date>"), in English and Spanish."""

from __future__ import annotations

import json
import re

from flask.testing import FlaskClient

from companion.editions import library
from companion.web.http.db import service
from tests.web.conftest import Phone


def _note(html: str) -> str:
    found = re.search(r'id="edition-note">(.*?)</p>', html, re.S)
    assert found is not None
    return " ".join(re.sub(r"<[^>]+>", " ", found.group(1)).split())


def test_a_game_on_the_estimate_names_it_and_says_it_is_an_estimate(client: FlaskClient) -> None:
    note = _note(Phone(client).create().html)
    assert note.startswith("Board: “Inferno (Red Mojo Games, 2024)")
    assert "This board is an estimate" in note and "checked against your board" not in note.lower()


def test_a_game_on_a_checked_board_says_when_it_was_checked(client: FlaskClient) -> None:
    with client.application.app_context():
        svc = service()
        raw = json.loads(svc.library.edition_text(next(iter(svc.library.shipped.values()))[1].content_hash))
        for i, path in enumerate(library.check_progress(raw)[2]):
            raw = library.mark_checked(raw, path, "2026-11-29" if i else "2026-11-30")
        raw["name"] = "Our copy"
        edition = svc.library.save_edition("Our copy", library.to_text(raw))
    phone = Phone(client).create(edition=edition.content_hash)
    note = _note(phone.html)
    assert note.startswith("Board: “Our copy”.")
    assert "Checked against your board on November 30, 2026." in note and "estimate" not in note
    spanish = _note(client.get(phone.url, headers={"Accept-Language": "es"}).get_data(as_text=True))
    assert "30 de noviembre de 2026" in spanish and "Board:" not in spanish and "Checked" not in spanish
