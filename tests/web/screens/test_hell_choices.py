"""What the Hell phase's actions show with nothing chosen (``screens/hell_actions.html``).

Over random games in English and Spanish, base and expansion, on every screen of the Hell phase with nothing chosen,
and on each as if no soul could move, as if only souls could be brought in, and with a Bell: a link to choose each
soul that can move, a link to bring in each colour of the Cemetery while a soul can be brought in, the ferryman
while the player may summon him, "no soul can move" when nothing can, and the bring's refusal box.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from flask import Flask

from companion.game.state import Phase
from companion.web.http.db import service
from companion.web.screens import parts
from companion.web.screens.game import game_context
from tests.builders import game_view
from tests.web.screens.random_screens import marking, screens


def _check_choices(variant: dict[str, Any], html: str) -> None:
    """What the Hell phase's choices must show on the screen ``variant`` is drawn for."""
    state, options = variant["state"], variant["options"]
    pick = str(variant["pick_url"])
    for shield in options.movable:
        assert f'href="{pick}select={shield}"' in html, shield
    assert ('<ul class="move-list">' in html) == bool(options.movable)
    for colour in state.cemetery if options.bring_moves else ():
        assert f'href="{pick}select=cemetery-{colour}"' in html, colour
    assert ("select=cemetery-" in html) == bool(options.bring_moves)
    assert ("ferry=start" in html) == options.can_ferry
    assert 'id="refusal-bring"' in html or not variant.get("refusal")
    if not options.movable and not options.bring_moves:
        assert str(variant["_"]("No soul can move.")) in html


def test_the_choices_of_random_games_name_each_soul_colour_and_the_ferry(monkeypatch) -> None:
    drawn: list[str] = []

    def look(app: Flask, game_id: str, language: str, choice: dict[str, Any]) -> None:
        context = game_context(game_view(service().view(game_id)))
        options = context["options"]
        if options.phase is not Phase.HELL or options.plague_due or choice:
            return
        if context["seat_prompt"] or context["waiting"] is not None:  # no actions on this phone
            return
        with marking():
            marked = parts.marked_context(context, language)
            variants = [marked, {**marked, "refusal": {"control": "bring", "text": "No.", "alternatives": []}}]
            if options.movable:  # the same screen with no soul able to move, with only souls to bring in, with a Bell
                variants.append({**marked, "options": replace(options, hell_moves=())})
                variants.append({**marked, "options": replace(options, hell_moves=options.bring_moves)})
                variants.append({**marked, "options": replace(options, can_ferry=True)})
            for variant in variants:
                html = parts._draw("actions", variant).html
                _check_choices(variant, html)
                drawn.append(html)

    screens(monkeypatch, look, ((1, False), (12, True)), steps=40)
    assert any("cemetery-" in html for html in drawn) and any("select=" in html for html in drawn)
    assert any("ferry=start" in html for html in drawn)
    assert any("move-list" not in html and "cemetery-" not in html for html in drawn)  # no soul can move
