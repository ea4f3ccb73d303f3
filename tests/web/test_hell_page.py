"""The map of Hell on the game page: tapping a soul highlights exactly its legal landings."""

from __future__ import annotations

import re

from tests.web.conftest import Phone


def highlighted(html: str) -> set[str]:
    return set(re.findall(r'class="cell tap-(?:land|confirm)"[^>]*aria-label="(\w+), circle', html))


def play_to_bens_turn(phone: Phone) -> None:
    phone.create(plague=("9", "3", "2"))
    phone.post("bring", {"player": 0, "colour": 9, "shield": "1b"})
    phone.end_turn(0, "bank")  # 1B shows the Key: the Bank's quarter


def test_the_map_draws_every_shield_of_the_board_side(phone: Phone) -> None:
    phone.create()
    cells = re.findall(r'aria-label="(\w+), circle (\d)', phone.html)
    assert len(cells) == 5 * 4 + 4 * 5  # the 1–2 player side: circles 1–4 have 5 shields, 5–9 have 4
    assert "Map of Hell" in phone.html


def test_tapping_a_soul_lights_up_its_legal_landings(phone: Phone, client) -> None:
    play_to_bens_turn(phone)
    page = client.get(phone.url + "?select=1b", headers={"HX-Request": "true"}).data.decode()
    assert highlighted(page) == {"2B", "2C"}
    assert "The ice-blue soul on 1B is chosen." in page


def test_tapping_a_highlighted_shield_records_the_move_and_shows_the_quarter(phone: Phone) -> None:
    play_to_bens_turn(phone)
    response = phone.post("move", {"player": 1, "from_shield": "1b", "to_shield": "2c", "via": "2c"})
    assert response.status_code == 200
    assert re.search(r"Florence quarter this turn:</p>|Florence quarter this turn: <strong>Lily</strong>", phone.html)
    assert re.search(r'aria-label="2C, circle 2, Lily: ice-blue soul, standing', phone.html)


def test_tapping_an_illegal_shield_shows_the_reason_and_keeps_the_soul_chosen(phone: Phone) -> None:
    play_to_bens_turn(phone)
    response = phone.post("move", {"player": 1, "from_shield": "1b", "to_shield": "4c", "select": "1b"})
    assert response.status_code == 422
    box = re.search(r'id="refusal-move">(.*?)</div>', phone.html, re.S)
    assert box and "The soul stops on the first empty shield it reaches" in box.group(1)
    assert highlighted(phone.html) == {"2B", "2C"}


def test_a_cemetery_colour_lights_up_the_empty_limbo_shields(phone: Phone, client) -> None:
    phone.create(plague=("9", "3"))
    phone.post("bring", {"player": 0, "colour": 9, "shield": "1b"})
    phone.end_turn(0, "bank")
    page = client.get(phone.url + "?select=cemetery-3").data.decode()
    lit = set(re.findall(r'class="cell tap-bring"[^>]*aria-label="(\w+), circle', page))
    assert lit == {"1A", "1C", "1D", "1E"}


def test_a_stuck_soul_says_why(phone: Phone, client) -> None:
    phone.create(plague=("1", "3"))
    phone.post("bring", {"player": 0, "colour": 1, "shield": "1a"})
    phone.end_turn(0, "banquet")
    page = client.get(phone.url + "?select=1a").data.decode()
    assert "is laid down: it never moves again" in page
