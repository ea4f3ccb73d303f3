"""What the small parts of the game page show (``templates/screens/game_parts.html``): a player's purse, family,
tower and sin tracks, a quarter of Florence's tiles, the Cemetery and the undo bar.

Over random games in English and Spanish, base and expansion, with and without a refusal of the undo, each part as
an answer draws it (with marks) shows the player's and the board's state, and is the macro's markup as the page draws
it, compacted; so are the cases random play does not reach: a phone that has not taken its seat, a name written right
to left, a name and a refusal with markup in them, an entry to redo and none to undo.
"""

from __future__ import annotations

import re
from types import SimpleNamespace
from typing import Any

from flask import Flask
from markupsafe import Markup, escape

from companion.web.http.db import service
from companion.web.screens import parts
from companion.web.screens.game import game_context
from companion.web.screens.parts.macros import part_macro
from companion.web.words.glossary import location_name
from tests.builders import game_view
from tests.web.screens.random_screens import marking, screens

REFUSED = {"control": "undo", "text": Markup("Nothing <em>to</em> undo"), "rule": "", "alternatives": []}


def drawn(name: str, context: dict[str, Any]) -> str:
    """The part ``name`` as an answer draws it."""
    return parts._draw(name, context).html


def check_player(context: dict[str, Any], pi: int) -> list[str]:
    """A player's four parts show what the player holds; each is its macro's markup, compacted."""
    state = context["state"]
    info, p = state.players[pi], state.p[pi]
    purse, family, tower, tracks = (drawn(f"{kind}{pi}", context) for kind in ("player", "family", "tower", "tracks"))
    assert purse == parts.compact(str(part_macro("player_purse")(pi, info, p, state)))
    assert family == parts.compact(str(part_macro("player_family")(pi, p)))
    assert tower == parts.compact(str(part_macro("player_tower")(pi, info, p, state)))
    assert tracks == parts.compact(str(part_macro("player_tracks")(pi, info, p, state)))
    stats = dict(re.findall(r'data-stat="(\w+)">(-?\d+)<', purse))
    held = {"infamy": p.infamy, "florins": p.florins, "drachmas": p.drachmas, "ship": p.ship}
    assert stats == {k: str(v) for k, v in (held | ({"bells": p.bells} if state.expansion else {})).items()}
    assert purse.startswith(f'<div class="player-card" id="part-player{pi}" data-part="player{pi}">')
    assert family.startswith(f'<div id="part-family{pi}" data-part="family{pi}">')
    assert all(f"({escape(location_name(loc))})" in family for loc, _kind in p.placed)  # "kind (location)"
    assert tower.count("<li>") == len(p.tower)
    spaces = state.edition.section("tower")["spaces_per_floor"]
    assert tower.count('<i aria-hidden="true">·</i>') == sum(spaces - len(fl.pieces) for fl in p.tower)
    assert tower.count('class="tower-piece') == sum(len(fl.pieces) for fl in p.tower)
    circles = state.edition.track_circles
    assert tracks.count("<th>") == len(circles)
    assert tracks.count("★</span>") == sum(c in p.diplomas for c in circles)
    skulls = re.findall(r"<td>(-?\d+)", tracks)
    assert skulls == [str(p.skull(c)) for c in circles]
    return [purse, family, tower, tracks]


def check_board(context: dict[str, Any]) -> list[str]:
    """The quarters' tiles and the Cemetery show who stands where and the souls by colour."""
    state = context["state"]
    shown = []
    for quarter, tiles in context["florence_board"]:
        html = drawn(f"q-{quarter}", context)
        assert html == parts.compact(str(part_macro("florence_tiles")(quarter, tiles, state)))
        assert html.count('<div class="tile') == len(tiles)
        pieces = [f'<b class="piece {kind} pc{pi}">' for t in tiles for pi, kind in t.pieces]
        assert re.findall(r'<b class="piece \w+ pc\d+">', html) == pieces
        shown.append(html)
    cemetery = drawn("cemetery", context)
    assert cemetery == parts.compact(str(part_macro("cemetery")(state)))
    souls = [(int(c), int(n)) for c, n in re.findall(r'<li class="sc(\d+)">(\d+) ×', cemetery)]
    assert souls == sorted(state.cemetery.items())
    assert ('class="quarter-now"' in cemetery) == bool(state.quarter)
    return [*shown, cemetery]


def check_undo(context: dict[str, Any]) -> str:
    """The undo bar: the last entry, its refusal when it is the undo's, the buttons a seated phone may tap."""
    entries = (context.get("last_entry"), context.get("redo_entry"), context.get("seat_prompt"))
    bar = drawn("undo", context)
    made = part_macro("undo_bar")(context["view"], context["new_key"], context.get("refusal"), *entries)
    assert bar == parts.compact(str(made))
    last, redo, seat_prompt = entries
    refusal = context.get("refusal")
    assert ('id="refusal-undo"' in bar) == bool(refusal and refusal["control"] == "undo")
    assert ("/undo" in bar) == bool(last and not seat_prompt)
    assert ("/redo" in bar) == bool(redo and not seat_prompt)
    assert bar.count('<input type="hidden" name="key" value="&key;">') == bar.count("<form")
    return bar


def test_every_part_of_random_games_shows_the_game(monkeypatch) -> None:
    compared: list[str] = []

    def look(app: Flask, game_id: str, language: str, choice: dict[str, Any]) -> None:
        view = game_view(service().view(game_id))
        extras: list[dict[str, Any]] = [{}, {"refusal": REFUSED}]
        for extra in extras:
            context = parts.marked_context(game_context(view, **choice, **extra), language)
            with marking():
                for pi in range(len(context["state"].players)):
                    compared.extend(check_player(context, pi))
                compared.extend(check_board(context))
                compared.append(check_undo(context))

    screens(monkeypatch, look, ((5, False), (8, True)), steps=30)
    assert any('data-stat="bells"' in html for html in compared)  # an expansion's purse was among them
    assert any("In Florence" in html or "En Florencia" in html for html in compared)  # a family member placed
    assert any("tower-piece" in html for html in compared) and any("★" in html for html in compared)
    assert any("refusal-undo" in html for html in compared) and any("/redo" in html for html in compared)
    assert any('class="souls"' in html for html in compared) and any("quarter-now" in html for html in compared)
    assert any('class="piece' in html for html in compared) and any("special" in html for html in compared)


def test_the_cases_random_play_does_not_reach(app: Flask, phone) -> None:
    # a name with markup in it, escaped once; a name written right to left, isolated (bdi)
    phone.create(names=('<b>Ana</b> & "Co"', "שרה"), plague=("9", "3", "2"))
    game_id = phone.url.rsplit("/", 1)[-1]
    entry = SimpleNamespace(sentences=(Markup("Ana took a <b>loan</b>."), "Then & again <i>"))
    cases: list[dict[str, Any]] = [
        {},
        {"last_entry": entry},
        {"redo_entry": entry},
        {"last_entry": entry, "redo_entry": entry},
        {"last_entry": entry, "redo_entry": entry, "seat_prompt": True},
        {"last_entry": entry, "refusal": REFUSED},
        {"refusal": {**REFUSED, "control": "loan"}},  # another form's refusal: not in the bar
    ]
    for language in ("en", "es"):
        with app.test_request_context(f"/g/{game_id}", headers={"Accept-Language": language}):
            app.preprocess_request()
            context = parts.marked_context(game_context(game_view(service().view(game_id))), language)
            with marking():
                bars = [check_undo({**context, "last_entry": None, "redo_entry": None, **case}) for case in cases]
                ana, sara = check_player(context, 0), check_player(context, 1)
        assert "&lt;b&gt;Ana&lt;/b&gt; &amp; &#34;Co&#34;" in ana[0]
        assert "<bdi>שרה</bdi>" in sara[0] and "\u2068שרה\u2069" in sara[2]  # the purse; the tower's label
        told = '<span class="visually-hidden">'
        assert told in bars[1] and "Ana took a <b>loan</b>. Then &amp; again &lt;i&gt;</p>" in bars[1]
        assert told not in bars[0] and told not in bars[2]
        assert "<em>to</em>" in bars[5]
        assert bars[6] == bars[0]
