"""A real table's turn on the game page: refills, small htmx answers, loans confirmed, clean addresses."""

from __future__ import annotations

import html
import re

from companion.log_view import GameView
from tests.builders import found, game_view
from tests.web.conftest import HX, Phone, broke_ana


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


def at_the_bonfire(phone: Phone) -> None:
    phone.create(plague=("4", "2", "2", "3"))
    phone.post("bring", {"player": 0, "colour": 4, "shield": "1d"})  # 1D shows the Lily: the Bonfire
    phone.florence(0, "bonfire")
    assert "Or cross the Styx" in phone.html


def test_a_refused_styx_crossing_is_drawn_open_and_keeps_the_choices(phone: Phone) -> None:
    at_the_bonfire(phone)
    response = phone.post(
        "location/styx", {"player": 0, "colour": "3", "count": "3", "first_track": "2", "last_track": "6"}
    )
    assert response.status_code == 422
    section = re.search(r"<details open><summary>Or cross the Styx.*?</details>", phone.html, re.S)
    assert section and 'id="refusal-location-styx"' in section.group(0)
    assert re.search(r'<option value="3" selected>', section.group(0))
    assert re.search(r'name="first_track">.*?<option value="2" selected>', section.group(0), re.S)


def test_a_choice_from_an_earlier_screen_does_not_come_back_for_the_next_player(phone: Phone, client) -> None:
    phone.create(plague=("9", "3", "2"))
    chosen_at = phone.seq
    assert f"?at={chosen_at}&amp;select=cemetery-9" in phone.html  # a choice's link carries its screen
    page = client.get(f"{phone.url}?at={chosen_at}&select=cemetery-9").data.decode()
    assert "Bring one ice-blue soul from the Cemetery" in page
    response = phone.post("bring", {"player": 0, "colour": 9, "shield": "1b", "select": "cemetery-9"})
    assert response.headers["HX-Replace-Url"] == phone.url  # the address forgets the choice
    phone.end_turn(0, "bank")
    page = client.get(f"{phone.url}?at={chosen_at}&select=cemetery-3").data.decode()
    assert "Bring one green soul from the Cemetery" not in page  # Ben starts with nothing chosen
    assert "Tap a soul on the map" in page


def test_an_action_answer_carries_only_the_parts_that_changed(phone: Phone, client) -> None:
    phone.create(plague=("9", "3", "2"))
    phone.post("bring", {"player": 0, "colour": 9, "shield": "1b"})
    parts = found(r'data-parts="([^"]*)"', phone.html).group(1)
    whole = phone.post("send", {"player": 0, "kind": "noble", "location": "bank"})
    assert whole.status_code == 200
    full_size = len(whole.data)
    phone.post("undo", {})
    headers = {**HX, "HX-Game-Parts": parts}
    payload = {"seq": phone.seq, "key": "key-send-small-0001", "player": 0, "kind": "noble", "location": "bank"}
    small = client.post(f"{phone.url}/send", data=payload, headers=headers)
    body = small.data.decode()
    assert small.status_code == 200 and small.headers["HX-Reswap"] == "none"
    assert 'id="part-hell"' not in body  # Hell did not change: not resent
    assert 'id="part-actions" data-part="actions" hx-swap-oob="true"' in body
    assert len(small.data) < full_size / 2, (len(small.data), full_size)
    print(f"send answer: whole game {full_size} bytes, changed parts only {len(small.data)} bytes")


def test_the_turn_card_says_when_the_locations_action_is_done(phone: Phone) -> None:
    phone.create(plague=("9", "3", "2"))
    phone.post("bring", {"player": 0, "colour": 9, "shield": "1b"})
    phone.florence(0, "market")
    assert "Take the location&#39;s action." in phone.html or "Take the location's action." in phone.html
    colour = found(r'id="take-c" name="colour"><option value="(\d)"', phone.html).group(1)
    response = phone.post("location/barrel", {"player": 0, "colour": colour, "floor": 0})
    assert response.status_code == 200, phone.html
    assert "Take the location" not in phone.html
    assert "action is done: the turn can end." in phone.html


def drawn(view: GameView) -> str:
    """The game page as ``render_game`` draws it for ``view`` (a page, not a redirect)."""
    from companion.web.screens.game import render_game

    answer = render_game(view)
    assert isinstance(answer, tuple)
    return answer[0]


def test_a_last_turn_is_announced_once_the_end_is_triggered(app, phone: Phone) -> None:
    from dataclasses import replace

    from companion.web.http.db import service

    phone.create()
    game_id = phone.url.rsplit("/", 1)[-1]
    with app.test_request_context(phone.url):
        view = game_view(service().view(game_id))
        html = drawn(view)
        assert "Last turns:" not in html
        ending = replace(view, state=replace(view.state, end_trigger=0, final_turns_left=1, active=1))
        html = drawn(ending)
    assert "Last turns:" in html and "This is the last turn before final scoring." in html


def lit(page: str, kind: str = "guard") -> set[str]:
    return set(re.findall(rf'class="cell tap-{kind}[^"]*"[^>]*aria-label="(\w+), circle', page))


def test_a_guardian_is_used_by_tapping_its_shield_then_the_souls_next_to_it(phone: Phone, client) -> None:
    at_the_bonfire(phone)
    base = f"{phone.url}?at={phone.seq}&guardian=medusa"
    step1 = client.get(base).data.decode()
    assert 'id="guardian-step"' in step1
    assert len(lit(step1)) > 30  # every empty shield, not a 44-option list
    step2 = client.get(f"{base}&gto=2d").data.decode()
    assert lit(step2) == {"2D", "1D"}  # its new shield (to choose again) and the one soul next to it
    step3 = client.get(f"{base}&gto=2d&gt=1d").data.decode()
    form = found(r'<form[^>]*class="stack guardian-steps".*?</form>', step3, re.S).group(0)
    assert 'name="to_shield" value="2d"' in form and 'name="targets" value="1d"' in form
    response = phone.post(
        "location/guardian", {"player": 0, "guardian": "medusa", "to_shield": "2d", "targets": "1d", "effect": "1"}
    )
    assert response.status_code == 200, phone.html
    assert re.search(r'aria-label="2D, circle 2, \w+: guardian Medusa', phone.html)


def test_a_refused_guardian_use_keeps_its_steps_on_the_map(phone: Phone) -> None:
    at_the_bonfire(phone)
    response = phone.post(
        "location/guardian", {"player": 0, "guardian": "minotaur", "to_shield": "9a", "targets": "1d", "effect": "1"}
    )
    assert response.status_code == 422
    prompt = found(r'id="map-prompt".*?Cancel the guardian', phone.html, re.S).group(0)
    assert 'id="refusal-location-guardian"' in prompt
    assert 'name="to_shield" value="9a"' in prompt


def test_a_fraud_card_is_entered_with_chips_and_only_its_fields(phone: Phone, client) -> None:
    phone.create(plague=("4", "2", "2", "3"))
    phone.post("bring", {"player": 0, "colour": 4, "shield": "1a"})  # 1A shows the Eagle: the Wall
    phone.florence(0, "wall")
    assert "<details open><summary>Play a fraud card" in phone.html  # the Wall's card, ready to tap
    assert 'name="fraud_source"' not in phone.html  # its choices come in an answer of their own, right after
    lazy = re.search(r'id="fraud-form" class="lazy-form" hx-get="([^"]+)" hx-trigger="load, online', phone.html)
    assert lazy is not None, "the Wall fetches the card's choices as soon as it shows"
    fetched = client.get(html.unescape(lazy.group(1)), headers=HX)
    assert fetched.status_code == 200 and len(fetched.data) <= 8 * 1024, len(fetched.data)
    form = fetched.data.decode()
    assert form.startswith('<form id="fraud-form"') and f'name="seq" value="{phone.seq}"' in form
    assert 'name="reward_kind" value="nothing"' in form  # no barrel in the tower: no instant reward to ask
    assert re.search(r'class="qualifier" data-when="infamy infamy_per_diploma"', form)
    assert "<select" not in form  # chips, not menus
    preset = re.findall(r'name="fraud_barrels" value="(\d)" checked', form)
    assert len(preset) == 1  # a barrel colour is preset: the card is valid without a tap there
    card = {"fraud_source": "hand", "fraud_barrels": preset, "reward_kind": "nothing", "eg_requirement": "always"}
    response = phone.post("location/fraud", {"player": 0, **card, "eg_effect": "infamy", "eg_effect_amount": "3"})
    assert response.status_code == 200, phone.html
    assert "played: 1." in phone.html


def test_the_fraud_card_has_a_page_of_its_own_without_script_and_says_when_it_is_too_late(phone: Phone, client) -> None:
    phone.create(plague=("4", "2", "2", "3"))
    card = f"{phone.url}/card/fraud"
    early = client.get(card, headers=HX)  # not at the Wall yet
    assert early.status_code == 200 and "No fraud card can be played now" in early.data.decode()
    assert client.get(card).status_code == 303  # a browser without script goes back to the game
    phone.post("bring", {"player": 0, "colour": 4, "shield": "1a"})
    phone.florence(0, "wall")
    link = r"<noscript><p><a class=\"button secondary\" href=\"[^\"]*/card/fraud\?at=\d+\">Show the card"
    assert re.search(link, phone.html)  # for a browser without script; with it, the card comes by itself
    page = client.get(card).data.decode()
    assert "<h1" in page and "Back to the game" in page and 'name="fraud_source"' in page
    form = re.search(r'<form id="fraud-form"[^>]*>', page).group(0)  # type: ignore[union-attr]
    assert "hx-post" not in form  # a plain form: the game answers it with itself
    preset = re.findall(r'name="fraud_barrels" value="(\d)" checked', page)
    fields = {"seq": phone.seq, "key": "plain-fraud-0001", "player": 0, "fraud_source": "hand"}
    fields |= {"fraud_barrels": preset, "reward_kind": "nothing", "eg_requirement": "always", "eg_effect": "infamy"}
    sent = client.post(f"{phone.url}/location/fraud", data={**fields, "eg_effect_amount": "3"})
    assert sent.status_code == 303
    assert "played: 1." in client.get(phone.url).data.decode()


def test_choosing_on_the_map_resends_only_the_actions_and_the_map(phone: Phone, client) -> None:
    phone.create(plague=("9", "3", "2"))
    parts = found(r'data-parts="([^"]*)"', phone.html).group(1)
    headers = {**HX, "HX-Game-Parts": parts}
    answer = client.get(f"{phone.url}?at={phone.seq}&select=cemetery-9", headers=headers).data.decode()
    sent = set(re.findall(r'data-part="(\w+)" hx-swap-oob="true"', answer))
    assert sent == {"actions", "hell", "cells"}  # not the board, the Cemetery, Florence, players or undo


def test_plutus_puts_the_desk_below_a_shield_tapped_next_to_its_new_one(client) -> None:
    phone = Phone(client)
    phone.create(names=("Ana", "Ben"), plague=("4", "2"), expansion="1")
    phone.post("bring", {"player": 0, "colour": 4, "shield": "1d"})
    phone.florence(0, "bonfire")
    base = f"{phone.url}?at={phone.seq}&guardian=plutus&gto=3d"
    page = client.get(base).data.decode()
    assert "3D" in lit(page)  # its new shield, to choose again
    near = lit(page) - {"3D"}
    assert near and near <= {"2C", "2D", "2E", "3C", "3E", "4C", "4D", "4E"}  # only shields next to 3D
    page = client.get(f"{base}&gd=2d").data.decode()
    assert 'name="desk_below" value="2d"' in page
    response = phone.post(
        "location/guardian", {"player": 0, "guardian": "plutus", "to_shield": "3d", "desk_below": "2d", "effect": "1"}
    )
    assert response.status_code == 200, phone.html
    assert "Desks: 2D." in phone.html


def test_dantes_free_guardian_is_also_chosen_on_the_map(client) -> None:
    phone = Phone(client)
    phone.create(names=("Ana", "Ben", "Cleo"), plague=("9", "3", "2", "5"))  # 3 players: Dante's first step is pagan
    phone.post("bring", {"player": 0, "colour": 9, "shield": "1b"})
    phone.end_turn(0, "bank")
    phone.post("bring", {"player": 1, "colour": 3, "shield": "1a"})
    phone.end_turn(1, "banquet")
    phone.post("bring", {"player": 2, "colour": 2, "shield": "1c"})
    phone.end_turn(2, "courtyard")
    phone.post("move", {"player": 0, "from_shield": "1b", "to_shield": "2c", "via": "2c"})
    base = f"{phone.url}?at={phone.seq}&accuse=bank&guardian=medusa"
    page = client.get(base).data.decode()
    assert "Use a guardian (free):" in page and 'id="guardian-step"' in page
    assert len(lit(page)) > 30  # every empty shield lights up for Medusa
    page = client.get(f"{base}&gto=2b&gt=1a").data.decode()
    form = found(r'aria-label="Accusation".*?</form>', page, re.S).group(0)
    assert 'name="to_shield" value="2b"' in form and 'name="targets" value="1a"' in form
    assert 'name="dante_guardian" value="1"' in form
    assert lit(page) >= {"2B", "1A"}
    data = {"player": 0, "location": "bank", "bribe": "1", "dante_guardian": "1", "guardian": "medusa"}
    response = phone.post(
        "accuse", {**data, "to_shield": "2b", "targets": "1a", "effect": "1", "bonus_kind": "nothing"}
    )
    assert response.status_code == 200, re.findall(r'id="refusal-\w+">.*?</div>', phone.html, re.S)
    assert re.search(r'aria-label="1A, circle 1, \w+: \w+ soul, petrified', phone.html)


def test_with_limbo_full_no_soul_is_offered_from_the_cemetery(app, phone: Phone) -> None:
    from dataclasses import replace

    from companion.game.state import Soul
    from companion.web.http.db import service

    phone.create(plague=("9", "3"))
    assert "Or bring a soul in from the Cemetery." in phone.html
    game_id = phone.url.rsplit("/", 1)[-1]
    with app.test_request_context(phone.url):
        view = game_view(service().view(game_id))
        limbo = {s: Soul(9) for s, info in view.state.side.shields.items() if info.circle == 1}
        full = replace(view, state=replace(view.state, hell={**view.state.hell, **limbo}))
        html = drawn(full)
    assert "Or bring a soul in" not in html
    assert "Bring in one" not in html


def test_a_refusal_for_a_control_not_on_screen_still_shows(phone: Phone) -> None:
    phone.create(plague=("9", "3"))
    response = phone.post(
        "ferry", {"player": 0, "phlegyas_to": "1a", "soul_from": "1b", "soul_to": "1c", "landing": "2c"}
    )
    assert response.status_code == 422
    assert 'id="refusal-ferry"' in phone.html


def test_cancel_on_the_loan_prompt_keeps_the_choices_made(phone: Phone) -> None:
    """Issue 24: "Cancel" goes back with the soul, the accusation and the guardian's choices still made."""
    broke_ana(phone)
    form = {"player": 0, "colour": 2, "shield": "1c", "select": "cemetery-2", "guardian": "medusa", "to_shield": "6c"}
    phone.post("bring", form)
    cancel = re.search(r'<a class="button secondary" href="([^"]+)"[^>]*>Cancel: take nothing', phone.html)
    assert cancel is not None
    href = cancel.group(1).replace("&amp;", "&")
    assert "select=cemetery-2" in href and "guardian=medusa" in href and "gto=6c" in href


def test_a_refused_fraud_card_comes_back_with_the_choices_made(phone: Phone) -> None:
    phone.create(plague=("4", "2", "2", "3"))
    phone.post("bring", {"player": 0, "colour": 4, "shield": "1a"})  # 1A shows the Eagle: the Wall
    phone.florence(0, "wall")
    card = {"player": 0, "fraud_source": "hand", "fraud_barrels": ["2"], "reward_kind": "nothing"}
    choices = {**card, "eg_requirement": "guests_at_least", "eg_effect": "skull"}
    refused = phone.post("location/fraud", choices, htmx=False)  # a page without script
    assert refused.status_code == 422 and 'id="refusal-location-fraud"' in phone.html
    assert 'name="fraud_source"' in phone.html  # the card's choices, inline, beside the refusal
    assert re.findall(r'name="eg_requirement" value="(\w+)" checked', phone.html) == ["guests_at_least"]
    assert re.findall(r'name="eg_effect" value="(\w+)" checked', phone.html) == ["skull"]  # not the defaults
    refused = phone.post("location/fraud", choices)  # htmx: the card comes in an answer of its own, choices kept
    assert refused.status_code == 422 and 'id="refusal-location-fraud"' in phone.html
    assert 'name="fraud_source"' not in phone.html
    lazy = re.search(r'hx-get="([^"]+)" hx-trigger="load, online from:window"', phone.html)
    assert lazy is not None
    fetched = phone.client.get(lazy.group(1).replace("&amp;", "&"), headers={"HX-Request": "true"}).data.decode()
    assert re.findall(r'name="eg_requirement" value="(\w+)" checked', fetched) == ["guests_at_least"]
    assert re.findall(r'name="eg_effect" value="(\w+)" checked', fetched) == ["skull"]
