"""The map of Hell on the game page: tapping a soul highlights exactly its legal landings."""

from __future__ import annotations

import re

from tests.web.conftest import Phone, ben_holds_a_bell


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


def test_a_move_across_desks_shows_its_tolls_before_it_is_confirmed(client) -> None:
    from tests.web.conftest import Phone

    phone = Phone(client)
    phone.create(names=("Ana", "Ben"), plague=("4", "2"), expansion="1")
    phone.post("bring", {"player": 0, "colour": 4, "shield": "1d"})
    phone.florence(0, "bonfire")
    phone.post(
        "location/guardian", {"player": 0, "guardian": "plutus", "to_shield": "3d", "effect": "1", "desk_below": "2d"}
    )
    phone.post("end-turn", {"player": 0})
    phone.post("move", {"player": 1, "from_shield": "1d", "to_shield": "2d"})
    phone.end_turn(1, "banquet")
    phone.post("bring", {"player": 0, "colour": 2, "shield": "1b"})
    phone.post("plague", {"player": 0, "souls": ["5"]})  # the Cemetery emptied: the next plague card
    phone.end_turn(0, "bank")
    page = client.get(phone.url + "?select=2d&to=3e").data.decode()
    assert "Toll: 1 drachma to Ana (Desk below 2D)." in page
    assert "Move to 3E · pay 1 toll" in page


def test_the_ferryman_is_offered_with_a_bell_and_its_sideways_shields_light_up(phone: Phone, client) -> None:
    ben_holds_a_bell(phone)
    assert "Summon the ferryman instead (you hold 1 Bell)" in phone.html
    page = client.get(phone.url + "?ferry=1e&fsoul=1a").data.decode()
    lit = set(re.findall(r'class="cell tap-ferry"[^>]*aria-label="(\w+), circle', page))
    assert lit == {"1C"}  # 1B and 1D are taken, 1E is Phlegyas's new shield
    response = phone.post(
        "ferry", {"player": 1, "phlegyas_to": "1e", "soul_from": "1a", "soul_to": "1c", "landing": "2c"}
    )
    assert response.status_code == 200
    assert re.search(r'aria-label="2C, circle 2, Lily: blue soul, standing', phone.html)
    assert phone.stat(1, "bells") == 0
