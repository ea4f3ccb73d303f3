"""An answer over its budget comes in two (``parts.answer_later``): the parts the phone needs least wait for a
second answer, which it asks for at once (``game:update`` says ``more``; their digests stay the phone's own)."""

from __future__ import annotations

import json
import re

from flask import Flask
from flask.testing import FlaskClient

from companion.web.screens.parts import answer_later, merge_parts
from tests.web.conftest import Phone

HX = {"HX-Request": "true"}
SENT = re.compile(r'data-part="([\w-]+)" hx-swap-oob="true"')


def _parts(html: str) -> dict[str, str]:
    found = re.search(r'data-parts="([^"]*)"', html)
    assert found is not None
    return dict(item.split(":", 1) for item in found.group(1).split())


def test_within_the_budget_nothing_is_left() -> None:
    pieces = {"actions": "a" * 3000, "player1": "p" * 600, "tracks1": "t" * 600}
    assert answer_later(pieces, 0, 8192, 400) == set()


def test_past_it_the_other_players_parts_go_first_then_the_tiles_then_the_active_players_then_shields() -> None:
    pieces = {
        "actions": "a" * 5000,
        "turn": "t" * 400,
        "undo": "u" * 1000,
        "loan": "l" * 500,
        "s-1a": "s" * 500,
        "tracks0": "x" * 580,
        "tracks1": "y" * 570,
        "player1": "z" * 500,
        "q-eagle": "q" * 260,
        "player0": "w" * 500,
    }
    assert answer_later(pieces, 0, 9000, 400) == {"tracks1", "player1"}  # Ben's: the largest first
    assert answer_later(pieces, 0, 8700, 400) == {"tracks1", "player1", "q-eagle"}  # then the tiles
    assert answer_later(pieces, 0, 7600, 400) == {"tracks1", "player1", "q-eagle", "tracks0", "player0"}
    # still past it with every player's part and tile left: a shield (a phone whose map was drawn without script)
    assert answer_later(pieces, 0, 7000, 400) == {"tracks1", "player1", "q-eagle", "tracks0", "player0", "s-1a"}
    everything = answer_later(pieces, 0, 100, 400)
    assert everything == {"tracks0", "tracks1", "player0", "player1", "q-eagle", "s-1a"}  # never the actions, turn
    # a shield goes last, and never one the tap chose or lit (``map_keep``)
    assert answer_later(pieces, 0, 100, 400, frozenset({"s-1a"})) == everything - {"s-1a"}


def test_a_tap_over_the_budget_comes_in_two_and_the_phone_ends_with_the_whole_game(
    app: Flask, client: FlaskClient
) -> None:
    app.config["ANSWER_BUDGET"] = 1800
    phone = Phone(client).create(names=("Ana", "Ben", "Cleo"), plague=("9", "3", "2"))
    before = _parts(phone.html)
    held = " ".join(f"{name}:{digest}" for name, digest in before.items())
    tap = client.post(
        f"{phone.url}/bring",
        data={"seq": phone.seq, "key": "split-bring-0001", "player": 0, "colour": 9, "shield": "1b"},
        headers={**HX, "HX-Game-Parts": held},
    )
    update = json.loads(tap.headers["HX-Trigger-After-Settle"])["game:update"]
    assert update.get("more") is True
    first = set(SENT.findall(tap.data.decode()))
    held_now = merge_parts(held, update["changed"])  # what the phone holds once the answer is swapped in
    told = dict(item.split(":", 1) for item in held_now.split())
    page = client.get(phone.url).data.decode()
    fresh = _parts(page)
    left = {name for name in fresh if told[name] != fresh[name]}  # the phone still holds its old copy of these
    assert left and not left & first and {"actions", "turn", "undo"} <= first
    assert all(told[name] == before.get(name, "") for name in left)
    again = client.get(
        phone.url, headers={**HX, "HX-Trigger": "live-trigger", "HX-Game-More": "1", "HX-Game-Parts": held_now}
    )
    second = json.loads(again.headers["HX-Trigger-After-Settle"])["game:update"]
    assert set(SENT.findall(again.data.decode())) == left  # exactly the parts left, nothing sent twice
    merged = merge_parts(held_now, second["changed"])
    assert "more" not in second and dict(item.split(":", 1) for item in merged.split()) == fresh


def test_a_tap_after_a_page_reloaded_mid_guardian_comes_in_two_under_8_kb_its_chosen_shield_first(
    client: FlaskClient,
) -> None:
    """A page drawn whole in the middle of a guardian's choice (a reload: ``?guardian=``) has a link on every empty
    shield, for a browser without script; the next tap, from htmx, draws them with their steady taps again (~37
    shields, ~13 KB in one answer). The shields the tap did not choose wait for the second answer."""
    phone = Phone(client).create(plague=("4", "2", "2", "3"))
    phone.post("bring", {"player": 0, "colour": 4, "shield": "1d"})  # 1D shows the Lily: the Bonfire
    phone.post("send", {"player": 0, "kind": "noble", "location": "bonfire"})
    guardians = [g for g in re.findall(r'href="[^"]*guardian=(\w+)" hx-get', phone.html) if g != "phlegyas"]
    assert guardians
    for guardian in guardians:
        page = client.get(f"{phone.url}?guardian={guardian}").data.decode()  # reloaded: links on the shields
        held = " ".join(f"{name}:{digest}" for name, digest in _parts(page).items())
        link = re.search(r'href="([^"]*gto=2b[^"]*)"', page)
        assert link is not None
        tap = client.get(link.group(1).replace("&amp;", "&"), headers={**HX, "HX-Game-Parts": held})
        update = json.loads(tap.headers["HX-Trigger-After-Settle"])["game:update"]
        first = set(SENT.findall(tap.data.decode()))
        assert tap.status_code == 200 and len(tap.data) <= 8 * 1024, (guardian, len(tap.data))
        assert update.get("more") is True and "s-2b" in first, (guardian, sorted(first))
        assert 'class="cell tap-guard is-selected"' in tap.data.decode()  # its new shield, chosen, comes first
        held_now = merge_parts(held, update["changed"])
        again = client.get(
            link.group(1).replace("&amp;", "&"),
            headers={**HX, "HX-Trigger": "live-trigger", "HX-Game-More": "1", "HX-Game-Parts": held_now},
        )
        second = json.loads(again.headers["HX-Trigger-After-Settle"])["game:update"]
        rest = set(SENT.findall(again.data.decode()))
        assert len(again.data) <= 8 * 1024 and "more" not in second, (guardian, len(again.data))
        assert rest and all(name.startswith("s-") for name in rest) and not rest & first
        # both swapped in: the phone holds every part as a phone choosing the same step would be drawn it
        fresh = client.get(link.group(1).replace("&amp;", "&"), headers=HX).data.decode()
        merged = dict(item.split(":", 1) for item in merge_parts(held_now, second["changed"]).split())
        drawn = dict(
            item.split(":", 1)
            for item in json.loads(
                client.get(link.group(1).replace("&amp;", "&"), headers=HX).headers["HX-Trigger-After-Settle"]
            )["game:update"]["parts"].split()
        )
        assert fresh and merged == drawn, guardian


def test_under_the_default_budget_a_tap_comes_whole(client: FlaskClient) -> None:
    phone = Phone(client).create(names=("Ana", "Ben", "Cleo"), plague=("9", "3", "2"))
    held = " ".join(f"{name}:{digest}" for name, digest in _parts(phone.html).items())
    tap = client.post(
        f"{phone.url}/bring",
        data={"seq": phone.seq, "key": "whole-bring-0001", "player": 0, "colour": 9, "shield": "1b"},
        headers={**HX, "HX-Game-Parts": held},
    )
    assert "more" not in json.loads(tap.headers["HX-Trigger-After-Settle"])["game:update"]


def test_the_budget_is_counted_in_the_bytes_sent(app: Flask, client: FlaskClient) -> None:
    """An answer exactly at the budget comes whole; one byte less of budget and it comes in two."""
    phone = Phone(client).create(names=("Ana", "Ben", "Cleo"), plague=("9", "3", "2"))
    held = " ".join(f"{name}:{digest}" for name, digest in _parts(phone.html).items())
    seq = phone.seq
    sizes: list[int] = []
    for attempt, budget in enumerate((None, 0, -1)):  # no limit (its size), then exactly it, then one byte less
        if budget is not None:
            app.config["ANSWER_BUDGET"] = sizes[0] + budget
        tap = client.post(
            f"{phone.url}/bring",
            data={"seq": seq, "key": f"budget-{attempt}", "player": 0, "colour": 9, "shield": "1b"},
            headers={**HX, "HX-Game-Parts": held},
        )
        assert tap.status_code == 200
        update = json.loads(tap.headers["HX-Trigger-After-Settle"])["game:update"]
        sizes.append(len(tap.data))
        assert ("more" in update) is (budget == -1), (budget, sizes)
        undo = client.post(
            f"{phone.url}/undo", data={"seq": update["seq"], "key": f"budget-undo-{attempt}"}, headers=HX
        )
        assert undo.status_code == 200
        seq = json.loads(undo.headers["HX-Trigger-After-Settle"])["game:update"]["seq"]
    assert sizes[1] == sizes[0]  # the same answer at its very size: whole
