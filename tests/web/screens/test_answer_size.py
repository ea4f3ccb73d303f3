"""Every answer a table's taps get is small: at most 8 KB before compression (issue 27, item 3).

A phone holds what the page holds (its seq and each part's fingerprint, ``HX-Game-Parts``) and plays
a table's mix on a real game (``bench/table_play.py``: a bring or a move after its select round trip,
send, end turn, loan, undo and redo, a guardian, a fraud card, the locations' options, and the Wall's
fraud card the page fetches by itself), here through the app in this process on a real SQLite file, for
tables of two to four. No answer is over 8 KB. The map is cut into a part per shield: a soul move sends its
shields and what its choice lit, not the whole map; and the phone's ``HX-Game-Parts`` stays under 2 KB.
The Wall's fraud card, fetched on its own, is under 8 KB too when a barrel in the tower asks its instant
reward (its largest form). A guardian is used as the page does it (``bench.table_play.form_of``): chosen at the
Bonfire (a GET with ``?guardian=``), its new shield tapped, then used; choosing it sends no shield (it sent ~37
links, 20-25 KB).
"""

from __future__ import annotations

import json
import random
import re
import time
from typing import Any
from urllib.parse import urlencode

import pytest
from flask import Flask
from flask.testing import FlaskClient

from bench.served import Answer
from bench.table_play import MIX, SELECT, Phone, play_mix
from companion.game.state import GameState
from companion.web.http.db import service
from companion.web.process import process
from companion.web.screens.parts import merge_parts
from tests.builders import found, game_view
from tests.web.conftest import Phone as PagePhone

LIMIT = 8 * 1024
MAP_LIMIT = 5 * 1024  # the map's share of any answer: the shields that changed and the map's values
PART = re.compile(r'(?=<[a-z]+ [^>]*data-part="[\w-]+" hx-swap-oob)')
TWICE = re.compile(r'(?:href|action)="([^"]+)" hx-(?:get|post)="\1"')  # an address written twice (table.js reads one)


class FlaskPhoneClient:
    """``bench.served.Client``'s two calls, over the Flask test client (no socket, no compression)."""

    def __init__(self, client: FlaskClient) -> None:
        self.client = client
        self.header_sizes: list[int] = []
        self.map_sizes: list[int] = []
        self.every: list[tuple[str, int]] = []  # each tap's path and answer bytes, a loan prompt's too

    def _answer(self, response: Any, start: float) -> Answer:
        body = response.get_data()
        twice = TWICE.search(body.decode())
        assert twice is None, f"{response.request.path}: {twice.group(0)} (an empty hx-get or hx-post: table.js)"
        self.map_sizes.append(map_share(body.decode()))
        if response.request.headers.get("HX-Request"):  # a tap's answer, not the page opened whole
            query = response.request.query_string.decode()
            self.every.append(
                (f"{response.request.path}?{query}" if "guardian=" in query else response.request.path, len(body))
            )
        headers = {k.lower(): v for k, v in response.headers.items()}
        return Answer(response.status_code, body.decode(), len(body), len(body), time.perf_counter() - start, headers)

    def get(self, path: str, headers: dict[str, str] | None = None) -> Answer:
        self.header_sizes.append(len((headers or {}).get("HX-Game-Parts", "")))
        start = time.perf_counter()
        return self._answer(self.client.get(path, headers=headers or {}), start)

    def post(self, path: str, form: dict[str, object], headers: dict[str, str] | None = None) -> Answer:
        self.header_sizes.append(len((headers or {}).get("HX-Game-Parts", "")))
        start = time.perf_counter()
        answer = self._answer(self.client.post(path, data=form, headers=headers or {}), start)
        assert answer.status == 200, answer.text[:500]
        return answer


def map_share(body: str) -> int:
    """The bytes of an answer's map parts (the map's values, its shields and desks)."""
    pieces = PART.split(body)
    return sum(len(p) for p in pieces if re.match(r'<[a-z]+ [^>]*data-part="(cells|desks|s-[\w]+)"', p))


Played = tuple[dict[str, list[int]], list[int], list[int], list[tuple[str, int]]]
"""Answer bytes by kind, header sizes, map shares, and every answer's path and bytes (a loan's prompt too)."""


def _play(app: Flask, names: tuple[str, ...], steps: int, seed: int, language: str = "en") -> Played:
    client = app.test_client()
    client.get(f"/lang/{language}")  # Spanish says more with the same markup
    page = PagePhone(client).create(names=names, key=f"create-size-{seed:04d}")  # a game per table
    game_id = page.url.rsplit("/", 1)[-1]
    phone_client = FlaskPhoneClient(client)
    phone = Phone(phone_client, game_id)  # type: ignore[arg-type]  # the test client in place of bench's socket client
    phone.open()

    def state_of() -> tuple[GameState, bool, bool]:
        with app.app_context():
            view = game_view(service().view(game_id))
        return view.state, bool(view.timeline.undoable), bool(view.timeline.undone)

    result = play_mix(phone, None, state_of, steps, random.Random(seed))
    return result.body_bytes, phone_client.header_sizes, phone_client.map_sizes, phone_client.every


def test_the_map_sends_only_the_shields_that_changed_over_a_tables_mix(app: Flask) -> None:
    sizes: dict[str, list[int]] = {}
    headers: list[int] = []
    maps: list[int] = []
    every: list[tuple[str, int]] = []
    tables = ((("Ana", "Ben", "Cleo"), 1), (("Ana", "Ben"), 2), (("Ana", "Ben", "Cleo", "Dino"), 3))
    for names, seed in tables:
        played, sent, map_sizes, answers = _play(app, names, 150, seed)
        every += answers
        headers += sent
        maps += map_sizes
        for kind, values in played.items():
            sizes.setdefault(kind, []).extend(values)
    assert {"bring", "move", "end-turn", "undo", "redo", SELECT} <= set(sizes), sorted(sizes)
    assert set(MIX) - set(sizes) <= {"guardian", "fraud"}  # these two come only when a send reached them
    assert max(maps) <= MAP_LIMIT  # the whole map's tap layer was 16-25 KB
    assert max(headers) < 2048
    over = {kind: sorted(b for b in values if b > LIMIT) for kind, values in sizes.items()}
    assert not any(over.values()), {kind: values for kind, values in over.items() if values}  # issue 27: none
    prompts = [(path, size) for path, size in every if size > LIMIT]  # a guardian's loan prompt was 9-10 KB
    assert not prompts, prompts


@pytest.mark.parametrize("language", ["en", "es"])
def test_every_answer_over_twelve_tables_of_two_to_four_is_under_8_kb(app: Flask, language: str) -> None:
    """Twelve tables' mixes (seeds 1 to 12, 150 taps each), in English and Spanish: an undo in the Florence phase
    sends the send list, the quarters' pieces, purses and sin tracks again, and a bring the send list and its
    shields; they were 8.2-10 KB, the pieces' titles and classes, the send buttons' attributes and the tracks'
    heads repeated in each, and a bring's circle-1 shields sent both ways (Spanish: 8.4 KB)."""
    every: list[tuple[str, int]] = []
    for seed in range(1, 13):
        names = ("Ana", "Ben", "Cleo", "Dani")[: 2 + seed % 3]
        *_, answers = _play(app, names, 150, seed, language)
        every += answers
    assert sum("/undo" in path for path, _ in every) >= 100 and sum("/bring" in path for path, _ in every) >= 100
    over = sorted(((size, path) for path, size in every if size > LIMIT), reverse=True)
    assert not over, over  # issue 27, item 3: none (was 11 over 8 KB, up to 10,061 B)


def test_the_walls_fraud_card_with_a_barrel_to_reward_is_under_8_kb(client: FlaskClient) -> None:
    """Its largest form: a barrel in the tower asks the instant reward (its kinds, amounts, tracks, gates)."""
    page = PagePhone(client).create(plague=("9", "3", "4", "2"))
    page.post("bring", {"player": 0, "colour": 9, "shield": "1b"})  # 1B shows the Key: the Market
    page.florence(0, "market")
    colour = found(r'id="take-c" name="colour"><option value="(\d)"', page.html).group(1)
    assert page.post("location/barrel", {"player": 0, "colour": colour, "floor": 0}).status_code == 200
    page.post("end-turn", {"player": 0})
    page.post("bring", {"player": 1, "colour": 3, "shield": "1a"})
    page.end_turn(1, "banquet")
    page.post("bring", {"player": 0, "colour": 4, "shield": "1c"})  # the Cross: the Wall costs a bribe and a loan
    wall = {"player": 0, "kind": "noble", "location": "wall", "bribe": "1", "borrow": "1", "confirm_loan": "1"}
    assert page.post("send", wall).status_code == 200
    lazy = re.search(r'hx-get="([^"]+)" hx-trigger="load, online from:window"', page.html)
    assert lazy is not None
    card = client.get(lazy.group(1).replace("&amp;", "&"), headers={"HX-Request": "true"})
    body = card.data.decode()
    assert card.status_code == 200 and 'name="reward_kind" value="florins"' in body  # the instant reward is asked
    assert len(card.data) <= LIMIT, len(card.data)  # was 11.3 KB


def test_a_soul_move_sends_its_shields_and_not_the_rest_of_the_map(client: FlaskClient) -> None:
    page = PagePhone(client).create(plague=("9", "3", "2"))
    page.post("bring", {"player": 0, "colour": 9, "shield": "1b"})
    page.end_turn(0, "bank")  # Ben's turn: one soul move is due
    parts = found(r'data-parts="([^"]*)"', page.html).group(1)
    assert len(parts) < 2048

    def sent(answer: Any) -> tuple[set[str], str]:
        body = answer.data.decode()
        names = set(re.findall(r'data-part="([\w-]+)" hx-swap-oob="true"', body))
        update = json.loads(answer.headers["HX-Trigger-After-Settle"])["game:update"]
        return names, merge_parts(answer.request.headers["HX-Game-Parts"], update["changed"])

    headers = {"HX-Request": "true", "HX-Game-Parts": parts}
    chosen = client.get(f"{page.url}?{urlencode({'at': page.seq, 'select': '1b'})}", headers=headers)
    names, parts = sent(chosen)
    assert {"s-1b", "s-2b", "s-2c"} <= names  # the chosen soul and its landings light up
    assert {n for n in names if n.startswith("s-")} <= {"s-1b", "s-2b", "s-2c"}, names
    assert map_share(chosen.data.decode()) <= 3072  # three shields and the map's values (was 16-25 KB)

    landed = client.post(
        f"{page.url}/move",
        data={"seq": page.seq, "key": "move-2c-0001", "player": 1, "from_shield": "1b", "to_shield": "2c", "via": ""},
        headers={"HX-Request": "true", "HX-Game-Parts": parts},
    )
    names, _ = sent(landed)
    assert {n for n in names if n.startswith("s-")} == {"s-1b", "s-2b", "s-2c"}, names
    assert map_share(landed.data.decode()) <= 3072


def test_the_walls_fraud_card_comes_in_an_answer_of_its_own_and_no_tap_at_the_wall_carries_it(
    client: FlaskClient,
) -> None:
    page = PagePhone(client).create(plague=("4", "2", "2", "3"))
    page.post("bring", {"player": 0, "colour": 4, "shield": "1a"})  # 1A shows the Eagle: the Wall
    parts = found(r'data-parts="([^"]*)"', page.html).group(1)
    headers = {"HX-Request": "true", "HX-Game-Parts": parts}
    form = {"seq": page.seq, "key": "wall-send-0001", "player": 0, "kind": "noble", "location": "wall"}
    arrived = client.post(f"{page.url}/send", data=form, headers=headers)
    body = arrived.data.decode()
    assert arrived.status_code == 200 and len(body) <= LIMIT, len(body)
    assert 'name="fraud_source"' not in body
    lazy = re.search(r'hx-get="([^"]+)" hx-trigger="load, online from:window"', body)
    assert lazy is not None
    card = client.get(lazy.group(1).replace("&amp;", "&"), headers={"HX-Request": "true"})
    assert card.status_code == 200 and 'name="fraud_source"' in card.data.decode()
    assert len(card.data) <= LIMIT  # no barrel in the tower: no instant reward to ask
    slots = process(client.application).parts
    made = slots.made
    other = client.application.test_client().get(lazy.group(1).replace("&amp;", "&"), headers={"HX-Request": "true"})
    assert slots.made == made  # another phone of the table fetching it after the same answer: one drawing
    keys = [found(r'name="key" value="([^"]+)"', a.data.decode()).group(1) for a in (card, other)]
    assert keys[0] != keys[1] and "&key;" not in other.data.decode()  # each its own fresh key
    assert "csrf_token" not in other.data.decode()  # no session's token kept for another: htmx sends it
    update = json.loads(arrived.headers["HX-Trigger-After-Settle"])["game:update"]
    loan = {"seq": update["seq"], "key": "wall-loan-0001", "player": 0}
    held = merge_parts(parts, update["changed"])  # what the phone holds after the send's answer
    answer = client.post(f"{page.url}/loan", data=loan, headers={"HX-Request": "true", "HX-Game-Parts": held})
    taken = answer.data.decode()
    assert answer.status_code == 200 and len(taken) <= LIMIT and 'name="fraud_source"' not in taken
    assert 'data-part="actions"' not in taken  # the Wall's options are the same: the card fetched stays


def test_a_refused_fraud_card_comes_back_in_an_answer_of_its_own_with_the_choices_made(client: FlaskClient) -> None:
    """The card in the Wall's options after a refusal made the answer ~11 KB: htmx fetches it on its own, with the
    player's choices in its address; a page without script still shows it in place, choices kept."""
    page = PagePhone(client).create(plague=("4", "2", "2", "3"))
    page.post("bring", {"player": 0, "colour": 4, "shield": "1a"})  # 1A shows the Eagle: the Wall
    page.post("send", {"player": 0, "kind": "noble", "location": "wall"})
    parts = found(r'data-parts="([^"]*)"', page.html).group(1)
    form = {"seq": page.seq, "key": "wall-fraud-0001", "player": 0, "fraud_source": "lineup", "reward_kind": ""}
    form |= {"eg_requirement": "nonsense", "eg_effect": "infamy"}
    refused = client.post(
        f"{page.url}/location/fraud", data=form, headers={"HX-Request": "true", "HX-Game-Parts": parts}
    )
    body = refused.data.decode()
    assert refused.status_code == 422 and 'id="refusal-location-fraud"' in body
    assert 'name="fraud_source"' not in body and len(body) <= LIMIT, len(body)
    lazy = re.search(r'hx-get="([^"]+)" hx-trigger="load, online from:window"', body)
    assert lazy is not None and "fraud_source=lineup" in lazy.group(1)
    card = client.get(lazy.group(1).replace("&amp;", "&"), headers={"HX-Request": "true"})
    text = card.data.decode()
    assert card.status_code == 200 and len(card.data) <= LIMIT, len(card.data)
    assert re.search(r'name="fraud_source" value="lineup" checked', text), "the choice made is kept"
    plain = client.post(f"{page.url}/location/fraud", data={**form, "key": "wall-fraud-0002"})
    assert plain.status_code == 422 and 'name="fraud_source" value="lineup" checked' in plain.data.decode()


def test_choosing_a_guardian_at_the_bonfire_sends_no_shield_and_is_under_8_kb(client: FlaskClient) -> None:
    """Every empty shield was a link of ~500 B once a guardian was chosen (~20-25 KB): they keep their steady tap,
    which the map's values (``data-guard``) make the guardian's first step; a page without script keeps its links."""
    page = PagePhone(client).create(plague=("4", "2", "2", "3"))
    page.post("bring", {"player": 0, "colour": 4, "shield": "1d"})  # 1D shows the Lily: the Bonfire
    page.post("send", {"player": 0, "kind": "noble", "location": "bonfire"})
    parts = found(r'data-parts="([^"]*)"', page.html).group(1)
    guardians = re.findall(r'href="[^"]*guardian=(\w+)" hx-get', page.html)
    assert len(guardians) >= 2, guardians
    for guardian in guardians:
        headers = {"HX-Request": "true", "HX-Game-Parts": parts}
        chosen = client.get(f"{page.url}?{urlencode({'at': page.seq, 'guardian': guardian})}", headers=headers)
        body = chosen.data.decode()
        assert chosen.status_code == 200 and len(chosen.data) <= LIMIT, (guardian, len(chosen.data))
        if guardian == "phlegyas":  # it does not move: no step on the map
            continue
        assert not re.search(r'data-part="s-\w+" hx-swap-oob', body), guardian  # no shield sent
        guard = re.search(r'data-part="cells"[^>]* data-try-live data-guard="([^"]+)"', body)
        assert guard is not None and guard.group(1).endswith(f"guardian={guardian}&amp;gto="), body[-600:]
        step = merge_parts(parts, json.loads(chosen.headers["HX-Trigger-After-Settle"])["game:update"]["changed"])
        to = client.get(f"{guard.group(1).replace('&amp;', '&')}2b", headers={**headers, "HX-Game-Parts": step})
        assert to.status_code == 200 and len(to.data) <= LIMIT, (guardian, len(to.data))
        assert 'class="cell tap-guard is-selected"' in to.data.decode()  # its new shield, chosen
        plain = client.get(f"{page.url}?guardian={guardian}").data.decode()  # a page without script: links
        assert plain.count('class="cell tap-guard"') >= 30 and "data-guard" not in plain


def test_every_guardian_choice_over_more_tables_is_under_8_kb(app: Flask) -> None:
    """More tables (seeds 4 to 9) for the taps fixed so far: a guardian chosen at the Bonfire, its new shield."""
    chosen: list[tuple[str, int]] = []
    for seed in range(4, 10):
        names = ("Ana", "Ben", "Cleo", "Dino")[: 2 + seed % 3]
        *_, answers = _play(app, names, 100, seed)
        chosen += [(path, size) for path, size in answers if "guardian=" in path]
    assert len(chosen) >= 10, chosen
    assert max(size for _, size in chosen) <= LIMIT, [c for c in chosen if c[1] > LIMIT]  # was 20-25 KB
