"""A player's purse, family, tower and sin tracks, the undo bar and the Cemetery written in Python
(``screens/part_markup.py``) are the markup of the templates they replaced.

The templates are kept beside this test as the references (``player_*_reference.html``, ``undo_bar_reference.html``,
as they stood in ``templates/pages/game.html`` and its includes): over random games in English and Spanish, base and
expansion, with and without a refusal of the undo, every player's parts and the undo bar drawn both ways (with the
marks a part is drawn with) are the same; so are the cases random play does not reach: a phone that has not taken
its seat, a name written right to left, a refusal with markup in it, an entry to redo and none to undo.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from flask import Flask
from markupsafe import Markup

from companion.web.http.db import service
from companion.web.screens import parts
from companion.web.screens.game import game_context
from companion.web.screens.part_markup import (
    cemetery,
    player_family,
    player_purse,
    player_tower,
    player_tracks,
    undo_bar,
)
from tests.web.screens.references import drawn, marking, reference, screens


def both(app: Flask, context: dict[str, Any]) -> list[tuple[str, str]]:
    """Each player's parts and the undo bar as the references draw them and as Python does, in ``context``
    (marked)."""
    state = context["state"]
    out = []
    for pi, (info, p) in enumerate(zip(state.players, state.p, strict=True)):
        player = {**context, "pi": pi, "info": info, "p": p}
        for name, part, markup in (
            ("player_card", "player", player_purse(pi, info, p, state)),
            ("player_family", "family", player_family(pi, p)),
            ("player_tower", "tower", player_tower(pi, info, p, state)),
            ("player_tracks", "tracks", player_tracks(pi, info, p, state)),
        ):
            old = reference(app, name, player)
            out.append((old, drawn(markup)))
            out.append((old, parts._draw(f"{part}{pi}", context).html.strip()))  # as an answer draws it
    entries = (context.get("last_entry"), context.get("redo_entry"), context.get("seat_prompt"))
    bar = undo_bar(context["view"], context["new_key"], context.get("refusal"), *entries)
    out.append((reference(app, "undo_bar", context), drawn(bar)))
    out.append((reference(app, "undo_bar", context), parts._draw("undo", context).html.strip()))
    out.append((reference(app, "cemetery", context), drawn(cemetery(state))))
    out.append((reference(app, "cemetery", context), parts._draw("cemetery", context).html.strip()))
    return out


REFUSED = {"control": "undo", "text": Markup("Nothing <em>to</em> undo"), "rule": "", "alternatives": []}


def test_every_purse_and_undo_bar_of_random_games_is_the_block_it_replaced(monkeypatch) -> None:
    compared: list[str] = []

    def look(app: Flask, game_id: str, language: str, choice: dict[str, Any]) -> None:
        view = service().view(game_id)
        for extra in ({}, {"refusal": REFUSED}):
            context = parts.marked_context(game_context(view, **choice, **extra), language)
            with marking():
                for old, new in both(app, context):
                    assert new == old, (language, choice, extra)
                    compared.append(new)

    screens(monkeypatch, look, ((5, False), (8, True)), steps=30)
    assert any('data-stat="bells"' in html for html in compared)  # an expansion's purse was among them
    assert any("In Florence" in html or "En Florencia" in html for html in compared)  # a family member placed
    assert any("tower-piece" in html for html in compared) and any("★" in html for html in compared)
    assert any("refusal-undo" in html for html in compared) and any("/redo" in html for html in compared)
    assert any('class="souls"' in html for html in compared) and any("quarter-now" in html for html in compared)


def test_the_cases_random_play_does_not_reach_are_the_blocks_they_replaced(app: Flask, phone) -> None:
    # a name with markup in it, escaped once; a name written right to left, isolated (bdi)
    phone.create(names=('<b>Ana</b> & "Co"', "שרה"), plague=("9", "3", "2"))
    game_id = phone.url.rsplit("/", 1)[-1]
    entry = SimpleNamespace(sentences=(Markup("Ana took a <b>loan</b>."), "Then & again <i>"))
    cases = [
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
            context = parts.marked_context(game_context(service().view(game_id)), language)
            with marking():
                for case in cases:
                    for old, new in both(app, {**context, "last_entry": None, "redo_entry": None, **case}):
                        assert new == old, (language, case)
                shown = both(app, context)
                assert (
                    "<bdi>" in shown[8][1]
                )  # the second player's purse (each part drawn twice: the function, the answer)
                assert "&lt;b&gt;Ana&lt;/b&gt; &amp; &#34;Co&#34;" in shown[0][1]
