"""Nothing hidden under the bar (issue 24, item 3): the next step's main button is near its title.

The browser check (every tap of a whole game, the element at each button's centre) is in
``e2e/test_full_game.py`` and ``e2e/test_table_proof.py``; here, the order the page draws things in.
"""

from __future__ import annotations

from tests.web.conftest import Phone


def _actions(html: str) -> str:
    return html.split('data-part="actions"', 1)[1].split('data-part="hell"', 1)[0]


def ana_may_accuse_at_the_bank(phone: Phone) -> None:
    """Three players: Ana's noble is at the Bank, and her soul is laid down on 2C (circle 2)."""
    phone.create(names=("Ana", "Ben", "Cleo"), plague=("9", "3", "2", "5"))
    phone.post("bring", {"player": 0, "colour": 9, "shield": "1b"})
    phone.end_turn(0, "bank")
    phone.post("bring", {"player": 1, "colour": 3, "shield": "1a"})
    phone.end_turn(1, "banquet")
    phone.post("bring", {"player": 2, "colour": 2, "shield": "1c"})
    phone.end_turn(2, "courtyard")
    phone.post("move", {"player": 0, "from_shield": "1b", "to_shield": "2c", "via": "2c"})


def test_at_a_location_end_turn_comes_right_under_its_name_before_the_options(phone: Phone) -> None:
    phone.create(names=("Ana", "Ben"), plague=("2", "3", "5", "1"))
    phone.post("bring", {"player": 0, "colour": 2, "shield": "1d"})  # 1D shows the Lily: the Bonfire
    phone.florence(0, "bonfire")
    actions = _actions(phone.html)
    assert actions.count("/end-turn") == 1  # the form's action (htmx posts there): one End turn only
    end_turn = actions.index("/end-turn")
    assert actions.index("<h2>Bonfire</h2>") < end_turn < actions.index("/location/exchange")
    assert end_turn < actions.index("Or cross the Styx")
    styx = actions.split("Or cross the Styx", 1)[1]
    assert '<div class="form-actions"><button type="submit" class="primary">Cross the Styx</button></div>' in styx


def test_in_florence_the_open_accusations_come_before_the_locations_to_send_to(phone: Phone) -> None:
    ana_may_accuse_at_the_bank(phone)
    actions = _actions(phone.html)
    accuse = actions.find(">Accuse at the ")
    assert accuse != -1, "an accusation is open"
    assert accuse < actions.index('name="location" value=')
    shut = actions.find("Not open to an accusation now")
    assert shut == -1 or shut > actions.rindex('name="location" value=')


def test_the_accusation_form_keeps_its_buttons_together_in_reach(phone: Phone) -> None:
    ana_may_accuse_at_the_bank(phone)
    page = phone.client.get(f"{phone.url}?at={phone.seq}&accuse=bank").data.decode()
    form = page.split('id="accuse-title"', 1)[1].split("</form>", 1)[0]
    actions = form.split('<div class="form-actions">', 1)[1]
    assert actions.lstrip().startswith('<button type="submit" class="primary">Accuse</button>')
    assert ">Cancel</a>" in actions
