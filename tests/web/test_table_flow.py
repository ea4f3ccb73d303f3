"""A real table's turn on the game page: refills, small htmx answers, loans confirmed, clean addresses."""

from __future__ import annotations

import re

from tests.web.conftest import HX, Phone


def empty_the_cemetery(phone: Phone) -> None:
    phone.create(plague=("9",))
    phone.post("bring", {"player": 0, "colour": 9, "shield": "1b"})
    assert "The Cemetery is empty" in phone.html


def test_a_plague_card_with_three_souls_refills_the_cemetery(phone: Phone) -> None:
    empty_the_cemetery(phone)
    steppers = set(re.findall(r'name="plague_(\d)"', phone.html))
    assert steppers == {str(c) for c in range(1, 10)}  # one count per colour
    untouched = {f"plague_{c}": "0" for c in range(1, 10)}
    response = phone.post("plague", {"player": 0, **untouched, "plague_3": "2", "plague_5": "1"})
    assert response.status_code == 200, phone.html
    assert "The Cemetery is empty" not in phone.html
    assert "2 × green" in phone.html and "1 × blue" in phone.html


def test_blank_soul_slots_are_not_an_error(phone: Phone) -> None:
    empty_the_cemetery(phone)
    response = phone.post("plague", {"player": 0, "souls": ["4", "", "", "", "", ""]})
    assert response.status_code == 200, phone.html
    assert "Not a valid value" not in phone.html
    assert "The Cemetery is empty" not in phone.html


def test_a_card_over_the_editions_maximum_is_refused_with_the_counts_kept(phone: Phone) -> None:
    empty_the_cemetery(phone)
    response = phone.post("plague", {"player": 0, "plague_2": "5", "plague_3": "3"})
    assert response.status_code in (400, 422)
    assert re.search(r'name="plague_2"[^>]*value="5"', phone.html)
