"""The Florence phase's send list is one form with a button per location, submitted as a browser does.

The form names the locations whose button says they cost a bribe (another quarter), and those whose
bribe needs a loan; the location comes from the tapped button. These tests read the form off the
page and submit it with one button, as a phone would, and check what was recorded.
"""

from __future__ import annotations

import re

from tests.builders import found
from tests.web.conftest import HX, Phone, broke_ana

SEND_FORM = re.compile(r'<form method="post" action="[^"]*/send".*?</form>', re.S)
HIDDEN = re.compile(r'<input type="hidden" name="(\w+)" value="([^"]*)">')
BUTTON = re.compile(r'<button name="location" value="(\w+)"')


def send_form(html: str) -> tuple[dict[str, str], list[str]]:
    """The send list's hidden fields and its buttons' locations (one form on the page)."""
    forms = SEND_FORM.findall(html)
    assert len(forms) == 1, f"{len(forms)} send forms"
    return dict(HIDDEN.findall(forms[0])), BUTTON.findall(forms[0])


def tap(phone: Phone, client, location: str):
    fields, buttons = send_form(phone.html)
    assert location in buttons
    response = client.post(f"{phone.url}/send", data={**fields, "location": location}, headers=HX)
    phone.html = response.data.decode()
    return response


def test_a_location_of_another_quarter_pays_its_bribe_and_one_of_the_turns_quarter_does_not(phone, client) -> None:
    phone.create(plague=("9", "3", "2", "5"))
    phone.post("bring", {"player": 0, "colour": 9, "shield": "1b"})  # 1B: the Key quarter (Bank, Market)
    fields, buttons = send_form(phone.html)
    assert {"bank", "market", "banquet"} <= set(buttons)
    assert "banquet" in fields["bribe_for"].split() and "bank" not in fields["bribe_for"].split()
    assert fields["borrow_for"] == ""  # 3 drachmas pay any bribe
    before = phone.stat(0, "drachmas")
    assert tap(phone, client, "banquet").status_code == 200
    assert phone.stat(0, "drachmas") == before - 2
    phone.post("end-turn", {"player": 0})
    phone.post("bring", {"player": 1, "colour": 3, "shield": "1a"})  # 1A: the Eagle quarter (Banquet, Wall)
    fields, _ = send_form(phone.html)
    assert "banquet" not in fields["bribe_for"].split() and "bank" in fields["bribe_for"].split()
    before = phone.stat(1, "drachmas")
    assert tap(phone, client, "banquet").status_code == 200
    assert phone.stat(1, "drachmas") == before  # the turn's quarter: no bribe


def test_a_bribe_that_needs_a_loan_is_named_confirmed_and_taken_with_it(phone, client) -> None:
    broke_ana(phone)
    phone.post("bring", {"player": 0, "colour": 2, "shield": "1c", "borrow": "1", "confirm_loan": "1"})
    drachmas = phone.stat(0, "drachmas")
    fields, buttons = send_form(phone.html)
    bribed = fields["bribe_for"].split()
    assert drachmas < 2 and bribed and fields["borrow_for"].split() == bribed  # every bribe needs a loan now
    elsewhere = next(b for b in buttons if b in bribed)
    ship = phone.stat(0, "ship")
    seq = phone.seq
    assert tap(phone, client, elsewhere).status_code == 200
    assert 'id="loan-confirm"' in phone.html and phone.seq == seq  # asked first, as any unasked loan
    forms = re.findall(
        r"<form[^>]*>.*?</form>", found(r'<div class="loan-confirm".*?</div>', phone.html, re.S).group(0), re.S
    )
    confirm = next(f for f in forms if 'name="confirm_loan"' in f)
    fields = dict(HIDDEN.findall(confirm))
    assert fields["location"] == elsewhere and fields["confirm_loan"] == "1"
    response = client.post(f"{phone.url}/send", data=fields, headers=HX)
    phone.html = response.data.decode()
    assert phone.seq > seq
    assert phone.stat(0, "ship") == ship + 1  # the loan was taken with the bribe
    assert phone.stat(0, "drachmas") == drachmas + 2 - 2


def test_a_hostile_send_form_gets_a_message_per_field_and_records_nothing(phone, client) -> None:
    phone.create(plague=("9", "3", "2", "5"))
    phone.post("bring", {"player": 0, "colour": 9, "shield": "1b"})
    fields, _ = send_form(phone.html)
    seq = phone.seq
    for hostile in ({"bribe_for": "bank " * 100}, {"borrow_for": "x" * 401}, {"location": ""}, {"location": "moon"}):
        response = client.post(f"{phone.url}/send", data={**fields, "location": "bank", **hostile}, headers=HX)
        assert response.status_code in (400, 422), (hostile, response.status_code)
        body = response.data.decode()
        assert 'role="alert"' in body and "Traceback" not in body
        if response.status_code == 400:  # malformed: the field is named
            assert next(iter(hostile)) in body
        phone.html = body
        assert phone.seq == seq  # nothing recorded
    assert tap(phone, client, "bank").status_code == 200 and phone.seq > seq  # the form itself still works


def test_a_free_location_instead_of_the_loan_is_one_tap_and_takes_no_loan(phone, client) -> None:
    """Issue 24: the loan prompt offers every free alternative as a button, not as plain text."""
    broke_ana(phone)
    phone.post("bring", {"player": 0, "colour": 2, "shield": "1c", "borrow": "1", "confirm_loan": "1"})
    fields, buttons = send_form(phone.html)
    bribed = fields["bribe_for"].split()
    elsewhere = next(b for b in buttons if b in bribed)
    ship, seq = phone.stat(0, "ship"), phone.seq
    tap(phone, client, elsewhere)
    prompt = found(r'<div class="loan-confirm".*?</div>', phone.html, re.S).group(0)
    free = [f for f in re.findall(r"<form[^>]*>.*?</form>", prompt, re.S) if "/send" in f and "confirm_loan" not in f]
    assert free, prompt  # each free location is a form of its own
    alternative = dict(HIDDEN.findall(free[0]))
    assert alternative["location"] not in bribed and "borrow" not in alternative
    response = client.post(f"{phone.url}/send", data=alternative, headers=HX)
    phone.html = response.data.decode()
    assert phone.seq > seq and phone.stat(0, "ship") == ship  # sent there, and no loan taken
