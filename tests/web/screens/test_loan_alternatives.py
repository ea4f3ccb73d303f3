"""Issue 24, item 6's leftover: at the Bonfire and the Wall the loan prompt offers every free
alternative as a button, changing florins there first included (a player who can afford the
Styx, a guardian or a fraud card with florins takes no loan), and "Cancel" keeps the choices."""

from __future__ import annotations

import re

from tests.builders import found
from tests.web.conftest import HX, Phone

HIDDEN = re.compile(r'<input type="hidden" name="(\w+)" value="([^"]*)">')
PROMPT = re.compile(r'<div class="loan-confirm".*?</div>', re.S)
FORM = re.compile(r'<form[^>]*action="([^"]*)".*?</form>', re.S)


def ana_at_the_bonfire_without_drachmas(phone: Phone) -> None:
    """Ana spends her drachmas on her first turn; on her second a free fall (1B to 2C, the Lily)
    takes her noble to the Bonfire: 0 drachmas, 2 florins, a purple and a blue soul in the Cemetery."""
    phone.create(plague=("9", "3", "2", "5"))
    phone.post("bring", {"player": 0, "colour": 9, "shield": "1b"})
    phone.post("send", {"player": 0, "kind": "noble", "location": "banquet", "bribe": "1"})
    phone.post("end-turn", {"player": 0})
    phone.post("bring", {"player": 1, "colour": 3, "shield": "1a"})
    phone.end_turn(1, "banquet")
    phone.post("move", {"player": 0, "from_shield": "1b", "to_shield": "2c"})
    phone.florence(0, "bonfire")
    assert phone.stat(0, "drachmas") == 0 and phone.stat(0, "florins") == 2


def free_forms(html: str) -> dict[str, dict[str, str]]:
    """The prompt's free alternatives: each form's action, ending, and its fields."""
    prompt = PROMPT.search(html)
    assert prompt is not None, "no loan prompt"
    forms = {}
    for match in FORM.finditer(prompt.group(0)):
        fields = dict(HIDDEN.findall(match.group(0)))
        if "confirm_loan" not in fields:
            forms[match.group(1).rsplit("/", 2)[-1] if "location" in match.group(1) else match.group(1)] = fields
    return forms


def test_the_styx_short_of_drachmas_offers_changing_florins_there_and_takes_no_loan(phone: Phone, client) -> None:
    ana_at_the_bonfire_without_drachmas(phone)
    ship, seq = phone.stat(0, "ship"), phone.seq
    phone.post("location/styx", {"player": 0, "colour": 2, "count": 1, "first_track": 2})
    assert phone.seq == seq and 'id="loan-confirm"' in phone.html  # asked first
    assert "Change 2 florins into drachmas here" in phone.html
    forms = free_forms(phone.html)
    assert "exchange" in forms, forms
    assert forms["exchange"]["florins"] == "2" and "borrow" not in forms["exchange"]
    action = next(a for a in FORM.findall(found(PROMPT, phone.html).group(0)) if a.endswith("/location/exchange"))
    response = client.post(action, data=forms["exchange"], headers=HX)
    phone.html = response.data.decode()
    assert phone.stat(0, "drachmas") == 2 and phone.stat(0, "florins") == 0
    phone.post("location/styx", {"player": 0, "colour": 2, "count": 1, "first_track": 2})
    assert 'id="loan-confirm"' not in phone.html and phone.stat(0, "ship") == ship  # crossed, no loan taken
    assert phone.stat(0, "drachmas") == 0


def test_a_guardian_short_of_one_drachma_offers_one_florin(phone: Phone) -> None:
    ana_at_the_bonfire_without_drachmas(phone)
    phone.post("location/guardian", {"player": 0, "guardian": "medusa", "to_shield": "6c"})
    assert "Change 1 florin into drachmas here" in phone.html, PROMPT.search(phone.html)
    assert free_forms(phone.html)["exchange"]["florins"] == "1"


def test_without_florins_enough_the_prompt_does_not_offer_the_change(phone: Phone) -> None:
    ana_at_the_bonfire_without_drachmas(phone)
    phone.post("location/exchange", {"player": 0, "florins": 1})  # 1 drachma, 1 florin: the Styx is short 1
    phone.post("location/styx", {"player": 0, "colour": 2, "count": 1, "first_track": 2})
    assert 'id="loan-confirm"' in phone.html
    assert "exchange" not in free_forms(phone.html)  # the change was made: nothing more to change here
    assert "End the turn without it" in phone.html


def test_cancel_on_the_styx_prompt_keeps_its_colour_count_and_track(phone: Phone, client) -> None:
    """Cancel goes back to the Bonfire's Styx form drawn open, with the colour, the count and the track chosen."""
    ana_at_the_bonfire_without_drachmas(phone)
    phone.post("location/styx", {"player": 0, "colour": 2, "count": 1, "first_track": 2})
    cancel = re.search(r'<a class="button secondary" href="([^"]+)"[^>]*>Cancel: take nothing', phone.html)
    assert cancel is not None
    page = client.get(cancel.group(1).replace("&amp;", "&")).data.decode()
    styx = re.search(r"<details open><summary>Or cross the Styx.*?</details>", page, re.S)
    assert styx is not None, "the Styx form is not drawn open"
    assert re.search(r'<option value="2" selected>', found(r'name="colour">.*?</select>', styx.group(0), re.S).group(0))
    assert re.search(r'<option value="1" selected>', found(r'name="count">.*?</select>', styx.group(0), re.S).group(0))
    first = found(r'name="first_track">.*?</select>', styx.group(0), re.S).group(0)
    assert re.search(r'<option value="2" selected>', first)
    assert "<details open>" not in page.replace(styx.group(0), "")  # no other option drawn open
