"""The map of Hell on the game page: tapping a soul highlights exactly its legal landings."""

from __future__ import annotations

import json
import re

from companion.web.screens.parts import merge_parts
from tests.builders import found
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


def test_the_move_list_is_one_form_and_the_way_tapped_is_the_move_recorded(phone: Phone, client) -> None:
    """A chosen soul's ways are buttons of one form, each naming its landing and path (``way``): the form's
    hidden fields are said once, not once per way."""
    play_to_bens_turn(phone)
    page = client.get(phone.url + f"?at={phone.seq}&select=1b", headers={"HX-Request": "true"}).data.decode()
    listed = re.search(r'<form[^>]*/move"[^>]*>(.*?)</form>', page, re.S)
    assert listed and page.count('/move" hx-post=') == 1
    ways = re.findall(r'name="way" value="([^"]+)"', listed.group(1))
    assert sorted(ways) == ["2b|2b", "2c|2c"]
    assert listed.group(1).count('name="seq"') == 1 and 'name="to_shield"' not in listed.group(1)
    fields = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', listed.group(1)))
    assert fields["from_shield"] == "1b" and fields["player"] == "1"
    fields.pop("csrf_token", None)
    response = phone.post("move", {**fields, "way": "2c|2c"}, key=fields["key"], seq=int(fields["seq"]))
    assert response.status_code == 200
    assert re.search(r'aria-label="2C, circle 2, Lily: ice-blue soul, standing', phone.html)


def test_a_way_says_its_landing_its_path_and_whether_a_loan_pays_its_tolls() -> None:
    from werkzeug.datastructures import MultiDict

    from companion.web.forms.fields import parse
    from companion.web.forms.game import MoveForm

    base = {"seq": "9", "key": "k" * 22, "player": "1", "from_shield": "1d"}
    tolled = parse(MoveForm, MultiDict({**base, "way": "3e|2d,3e|borrow"}))
    assert (tolled["to_shield"], tolled["via"], tolled["borrow"]) == ("3e", "2d,3e", True)
    free = parse(MoveForm, MultiDict({**base, "way": "2d|2d"}))
    assert (free["to_shield"], free["via"], free["borrow"]) == ("2d", "2d", False)
    plain = parse(MoveForm, MultiDict({**base, "to_shield": "2d"}))  # a tap on the map still says it so
    assert (plain["to_shield"], plain["via"], plain["borrow"]) == ("2d", "", False)


def test_a_hostile_way_is_refused_by_field_and_records_nothing(phone: Phone) -> None:
    play_to_bens_turn(phone)
    before = phone.seq
    for way in ("|", "2c" * 40 + "|2c", "2c|" + "2c," * 60):
        response = phone.post("move", {"player": 1, "from_shield": "1b", "way": way}, key=f"hostile-{len(way)}-way")
        assert 400 <= response.status_code < 500, way
        assert phone.seq == before and "Traceback" not in phone.html and "way" not in re.sub(r"<[^>]+>", "", phone.html)


def _parts(html: str) -> str:
    return found(r'id="game" data-seq="\d+" data-parts="([^"]*)"', html).group(1)


def test_with_script_a_cemetery_colour_sends_no_shield_and_its_bring_sends_only_the_shield_it_lands_on(
    phone: Phone, client
) -> None:
    """A phone with script keeps the shields' steady taps while a soul is chosen in the Cemetery: the map's
    values name the empty shields of circle 1 a tap brings it to (table.js), so the choice sends no shield
    and the bring only the one it lands on (it sent the four, then the four again: ~2 KB each way)."""
    phone.create(plague=("9", "3"))
    phone.post("bring", {"player": 0, "colour": 9, "shield": "1b"})
    phone.end_turn(0, "bank")
    page = phone.open().html
    headers = {"HX-Request": "true", "HX-Game-Parts": _parts(page)}
    chosen = client.get(phone.url + "?select=cemetery-3", headers=headers)
    html = chosen.data.decode()
    assert re.findall(r'data-part="(s-\w+)"', html) == []  # no shield
    assert re.search(r'data-bring="/g/\w[\w-]*/bring" data-bring-to="1a 1c 1d 1e"', html)
    assert '<input type="hidden" name="colour" value="3">' in html
    assert "Tap to bring the green soul here." in html and "tap-bring" not in html
    # a page without script keeps a "bring" tap on each of those shields
    whole = client.get(phone.url + "?select=cemetery-3").data.decode()
    assert "data-bring=" not in whole
    assert set(re.findall(r'class="cell tap-bring"[^>]*aria-label="(\w+), circle', whole)) == {"1A", "1C", "1D", "1E"}
    parts = merge_parts(
        headers["HX-Game-Parts"], json.loads(chosen.headers["HX-Trigger-After-Settle"])["game:update"]["changed"]
    )
    seq = int(found(r'name="seq" value="(\d+)"', html).group(1))
    form = {"seq": seq, "key": "bring-steady-1", "player": 1, "colour": 3, "shield": "1c", "select": "cemetery-3"}
    brought = client.post(phone.url + "/bring", data=form, headers={"HX-Request": "true", "HX-Game-Parts": parts})
    assert brought.status_code == 200
    assert re.findall(r'data-part="(s-\w+)"', brought.data.decode()) == ["s-1c"]
