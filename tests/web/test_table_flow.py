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


def broke_ana(phone: Phone) -> None:
    """Ana spends her 3 drachmas (Charon, then a bribe); on her next turn Charon needs a loan."""
    phone.create(plague=("9", "3", "2", "5"))
    phone.post("bring", {"player": 0, "colour": 9, "shield": "1b"})
    phone.post("send", {"player": 0, "kind": "noble", "location": "banquet", "bribe": "1"})
    phone.post("end-turn", {"player": 0})
    phone.post("bring", {"player": 1, "colour": 3, "shield": "1a"})
    phone.end_turn(1, "banquet")
    assert phone.stat(0, "drachmas") == 0


def test_a_loan_is_confirmed_before_it_is_taken_and_cancel_takes_nothing(phone: Phone, client) -> None:
    broke_ana(phone)
    seq = phone.seq
    response = phone.post("bring", {"player": 0, "colour": 2, "shield": "1c", "borrow": "1"})
    assert response.status_code == 200
    assert 'id="loan-confirm"' in phone.html
    assert "this needs 1 loan, +2 drachmas" in phone.html
    assert "Move the soul on 1B" in phone.html  # the free alternative
    assert phone.seq == seq and phone.stat(0, "drachmas") == 0 and phone.stat(0, "ship") == 0
    phone.open()  # "Cancel: take nothing" is a plain link back to the game
    assert phone.seq == seq and phone.stat(0, "drachmas") == 0
    fields = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)">', response.data.decode()))
    assert fields["confirm_loan"] == "1"
    phone.post("bring", {"player": 0, "colour": 2, "shield": "1c", "confirm_loan": "1"})
    assert phone.seq > seq
    assert phone.stat(0, "drachmas") == 1 and phone.stat(0, "ship") == 1


def test_a_tap_on_the_map_that_needs_a_loan_asks_first(phone: Phone) -> None:
    broke_ana(phone)
    seq = phone.seq
    response = phone.post("bring", {"player": 0, "colour": 2, "shield": "1c"})  # no borrow flag at all
    assert response.status_code == 200
    assert 'id="loan-confirm"' in phone.html and phone.seq == seq
