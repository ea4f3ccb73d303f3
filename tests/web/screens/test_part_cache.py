"""A part served from the process's cache is exactly the part drawn afresh (hypothesis, real SQLite).

The game page keeps its costly parts (the map's two layers, Florence, each player) and the map's
view model per process, with the inputs they were drawn from, and draws them again only when
those inputs differ (``companion/web/screens/parts.py``). If a part read something its inputs leave
out, a phone would keep a stale part. So random legal games (base and expansion, 2-4 players,
loans, undos and redos) are played through the service on a real database, and after every step,
in English and in Spanish, with nothing chosen, a soul chosen, a Cemetery colour chosen or a
guardian's steps under way, every part the answer would use is compared with the same part drawn
from nothing: the map's view model, its HTML, its fingerprint; and the whole game put together from
the kept parts (as a page or a whole answer is) with the game drawn in one go. Drawn from nothing means without
the blocks ``shared_block`` keeps for every game (the Florence send list) too.

Parts are also drawn the same for every phone: the session's CSRF token and the fresh form keys
are marks in what is kept, filled only in what is sent.
"""

from __future__ import annotations

import json
import random
import re
import tempfile
from pathlib import Path
from typing import Any

from flask import Flask, g
from flask_wtf.csrf import generate_csrf
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jinja2_fragments.flask import render_block
from markupsafe import Markup

from companion.game.commands import CreateGame
from companion.game.errors import RuleViolation
from companion.game.state import GameState, Phase
from companion.service import GameService
from companion.web import create_app
from companion.web.http.db import service
from companion.web.process import process
from companion.web.screens import history
from companion.web.screens.game import game_context
from companion.web.screens.hell_map import build_map
from companion.web.screens.history import latest_entries
from companion.web.screens.parts import (
    _draw,
    assembled,
    compact,
    digest,
    fill,
    marked_context,
    merge_parts,
    part_names,
    render_parts,
)
from testkit.random_play import choices
from tests.builders import found, game_view, seats

KEY = re.compile(r'name="key" value="([^"]+)"')


def _selections(state: GameState, rng: random.Random) -> list[dict[str, Any]]:
    """What a phone may have chosen on this screen: nothing, a soul, a Cemetery colour, a guardian."""
    picks: list[dict[str, Any]] = [{}]
    if state.hell:
        picks.append({"select": rng.choice(sorted(state.hell))})
    if state.cemetery:
        picks.append({"select": f"cemetery-{rng.choice(sorted(state.cemetery))}"})
    if state.phase is Phase.ACTION and state.guardians:
        guardian = rng.choice(sorted(state.guardians))
        shield = rng.choice(sorted(state.side.shields))
        picks.append({"guardian": guardian, "guardian_params": {"gto": shield, "gt": "", "gd": ""}})
    return picks


def _check_screen(app: Flask, game_id: str, language: str, choice: dict[str, Any], htmx: bool = False) -> None:
    headers = {"Accept-Language": language, **({"HX-Request": "true"} if htmx else {})}  # htmx: steady taps
    with app.test_request_context(f"/g/{game_id}", headers=headers):
        app.preprocess_request()
        view = game_view(service().view(game_id))
        context = game_context(view, **choice)
        fresh_map = build_map(
            view.state,
            context["options"],
            choice.get("select"),
            view.edition.player_hexes(),
            interactive=view.state.ended is None,
            ferry=context["ferry"],
            using=context["guardian_steps"],
            steady_guard=htmx,
            held_cells=False,  # every cell worked out afresh, none kept as a steady cell
        )
        assert context["hell_map"] == fresh_map, "the kept map differs from the map drawn afresh"
        told_before = dict(history._TOLD._items)
        history._TOLD.clear()  # the entries told afresh, none found among those told before
        try:
            assert (context["last_entry"], context["redo_entry"]) == latest_entries(view), "kept entries are stale"
        finally:
            history._TOLD.clear()
            for key, told in told_before.items():
                history._TOLD.put(key, told)
        served = render_parts(context)
        assert list(served) == list(part_names(view.state))
        marked = marked_context(context, language)
        g.marking_parts = True
        g.no_shared_blocks = True  # drawn from nothing: no block shared by ``shared_block`` either
        try:
            for name, part in served.items():
                drawn = _draw(name, marked)
                assert part.html == drawn.html, f"part {name!r} kept stale ({language}, {choice})"
                assert part.digest == digest(drawn.html)
            inline = compact(render_block("pages/game.html", "game", **marked))
            whole = {name: Markup(html) for name, html in assembled(served).items()}  # nested parts in their holder
            assert compact(render_block("pages/game.html", "game", **marked, drawn=whole)) == inline
        finally:
            g.marking_parts = False
            g.no_shared_blocks = False


def _play(app: Flask, seed: int, steps: int, expansion: bool) -> int:
    rng = random.Random(seed)
    with app.test_request_context("/"):
        svc: GameService = service()
        players = rng.randint(2, 4)
        command = CreateGame(players=seats(players), expansion=expansion, plague_card=(2, 4, 6, 8))
        game_id = svc.create_game(command, f"create-{seed}")
    checked = 0
    for step in range(steps):
        with app.test_request_context("/"):
            svc = service()
            view = game_view(svc.view(game_id))
            state = view.state
            if state.phase is Phase.OVER:
                break
            roll = rng.random()
            try:
                if roll < 0.06 and view.timeline.undoable:
                    svc.undo(game_id, view.seq, f"undo-{seed}-{step}")
                elif roll < 0.1 and view.timeline.undone:
                    svc.redo(game_id, view.seq, f"redo-{seed}-{step}")
                else:
                    svc.execute(game_id, view.seq, rng.choice(choices(state, rng)), f"cmd-{seed}-{step}")
            except RuleViolation:
                continue
            state = game_view(svc.view(game_id)).state
        for choice in _selections(state, rng):
            _check_screen(app, game_id, rng.choice(("en", "es")), choice, rng.random() < 0.5)
            checked += 1
    return checked


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), expansion=st.booleans())
def test_a_kept_part_is_the_part_drawn_afresh(seed: int, expansion: bool) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app({"DATABASE": str(Path(tmp) / "parts.sqlite3"), "WTF_CSRF_ENABLED": False, "SECRET_KEY": "t"})
        assert _play(app, seed, steps=70, expansion=expansion) > 70


def test_a_part_is_drawn_the_same_for_every_phone_and_filled_for_each(tmp_path: Path) -> None:
    app = create_app({"DATABASE": str(tmp_path / "phones.sqlite3"), "SECRET_KEY": "t"})
    with app.test_request_context("/"):
        game_id = service().create_game(CreateGame(players=seats(3), plague_card=(2, 4)), "create-phones")
    answers = []
    for phone in range(2):
        with app.test_request_context(f"/g/{game_id}"):
            app.preprocess_request()
            token = generate_csrf()
            view = game_view(service().view(game_id))
            parts = render_parts(game_context(view))
            html = "".join(part.html for part in parts.values())
            assert token not in html  # nothing of this session is kept for another phone
            assert "&key;" in html and "&csrf;" in html and "&seq;" in html  # the marks, filled only when sent
            assert f'name="seq" value="{view.seq}"' not in html  # a part's fingerprint does not follow the seq
            sent = fill(html, view.seq)
            assert "&key;" not in sent and "&csrf;" not in sent and "\\u0026key;" not in sent and "&seq;" not in sent
            assert token in sent and f'name="seq" value="{view.seq}"' in sent
            keys = KEY.findall(sent)
            assert keys and len(set(keys)) == len(keys)  # each form its own fresh key
            answers.append({name: part.digest for name, part in parts.items()})
            del phone
    assert answers[0] == answers[1]  # the same fingerprints for both phones


def test_a_loan_draws_and_sends_only_the_next_loan_the_undo_bar_and_that_players_purse(phone, client, app) -> None:
    phone.create(names=("Ana", "Ben", "Cleo"), plague=("9", "3", "2"))
    phone.post("bring", {"player": 0, "colour": 9, "shield": "1b"})
    phone.florence(0, "bank")  # Ana's location action is next: a loan changes her purse and nothing on the map
    parts = found(r'data-parts="([^"]*)"', phone.html).group(1)
    slots = process(app).parts
    made_before = slots.made
    headers = {"HX-Request": "true", "HX-Game-Parts": parts}
    answer = client.post(
        f"{phone.url}/loan", data={"seq": phone.seq, "key": "loan-parts-0001", "player": 0}, headers=headers
    )
    body = answer.data.decode()
    sent = set(re.findall(r'data-part="(\w+)" hx-swap-oob="true"', body))
    assert answer.status_code == 200 and sent == {"loan", "undo", "player0"}, sent  # the actions are the same
    # of the kept parts and the map, only Ana's purse, the next loan and the undo bar were drawn, and the undo
    # bar's last entry told (remembered_entries); Ana's four parts kept again as a whole (render_parts), the
    # other three of them found as they were
    assert slots.made - made_before == 5
    assert "&key;" not in body and "&csrf;" not in body
    update = json.loads(answer.headers["HX-Trigger-After-Settle"])["game:update"]
    page = client.get(phone.url).data.decode()
    assert "parts" not in update and {w.split(":")[0] for w in update["changed"].split()} == sent  # their digests only
    assert f'data-parts="{merge_parts(parts, update["changed"])}"' in page  # the phone's fingerprints: the fresh page's


def test_the_parts_one_phone_drew_are_shared_with_every_phone_that_refreshes(phone, client, app) -> None:
    phone.create(names=("Ana", "Ben", "Cleo"), plague=("9", "3", "2"))
    phone.post("bring", {"player": 0, "colour": 9, "shield": "1b"})
    phone.florence(0, "bank")
    watchers = [app.test_client() for _ in range(3)]
    shown = [found(r'data-parts="([^"]*)"', w.get(phone.url).data.decode()).group(1) for w in watchers]
    parts = found(r'data-parts="([^"]*)"', phone.html).group(1)
    headers = {"HX-Request": "true", "HX-Game-Parts": parts}
    client.post(f"{phone.url}/loan", data={"seq": phone.seq, "key": "loan-shared-0001", "player": 0}, headers=headers)
    slots = process(app).parts
    made = slots.made
    for watcher, digests in zip(watchers, shown, strict=True):
        live = {"HX-Request": "true", "HX-Trigger": "live-trigger", "HX-Game-Parts": digests}
        body = watcher.get(phone.url, headers=live).data.decode()
        assert set(re.findall(r'data-part="(\w+)" hx-swap-oob="true"', body)) == {"loan", "undo", "player0"}
    assert slots.made == made  # what the acting phone's answer drew, every other phone is sent as it is


def test_an_undo_and_a_redo_find_the_small_parts_drawn_before(phone, client, app, monkeypatch) -> None:
    """A slot keeps several drawings of the parts whose inputs come back (``parts.sources.depth``): after a loan, its
    undo finds Ana's purse and the next loan as they were drawn before the loan, and its redo finds them and the
    undo bar as the loan drew them; only the actions (drawn on every answer) and the undo bar that now offers a
    redo are drawn again."""
    import companion.web.screens.parts as parts_module

    phone.create(names=("Ana", "Ben", "Cleo"), plague=("9", "3", "2"))
    phone.post("bring", {"player": 0, "colour": 9, "shield": "1b"})
    phone.florence(0, "bank")
    drawn: list[str] = []
    draw = parts_module._draw

    def counted(name: str, context: dict[str, Any]) -> Any:
        drawn.append(name)
        return draw(name, context)

    monkeypatch.setattr(parts_module, "_draw", counted)

    def tap(path: str, data: dict[str, Any]) -> tuple[set[str], set[str]]:
        parts = found(r'data-parts="([^"]*)"', phone.html).group(1)
        drawn.clear()
        answer = client.post(
            f"{phone.url}/{path}",
            data={"seq": phone.seq, "key": f"{path}-depth-{phone.seq}", **data},
            headers={"HX-Request": "true", "HX-Game-Parts": parts},
        )
        assert answer.status_code == 200
        made = set(drawn)
        phone.open()
        return set(re.findall(r'data-part="(\w+)" hx-swap-oob="true"', answer.data.decode())), made

    assert tap("loan", {"player": 0}) == ({"loan", "undo", "player0"}, {"actions", "loan", "undo", "player0"})
    assert tap("undo", {}) == ({"loan", "undo", "player0"}, {"actions", "undo"})
    assert tap("redo", {}) == ({"loan", "undo", "player0"}, {"actions"})
