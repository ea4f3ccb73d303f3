"""The Hell phase's choices with nothing chosen, written in Python (``screens/hell_markup.py``), are the markup of the
template branch they replaced.

The branch is kept beside this test as the reference (``hell_choices_reference.html``, as it stood in
``templates/screens/hell_actions.html``): over random games in English and Spanish, base and expansion, on every
screen of the Hell phase with nothing chosen, the choices drawn both ways are the same line for line, as a part is
compacted (souls to move, colours to bring in, the ferryman, no soul able to move).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from flask import Flask

from companion.game.state import Phase
from companion.web.http.db import service
from companion.web.screens import parts
from companion.web.screens.game import game_context
from companion.web.screens.hell_markup import hell_choices
from tests.web.screens.references import drawn, reference, screens


def both(app: Flask, context: dict[str, Any]) -> tuple[str, str]:
    state = context["state"]
    me = state.p[state.active]
    new = hell_choices(state, context["options"], me, context["pick_url"])
    return reference(app, "hell_choices", {**context, "me": me}), drawn(new)


def test_the_choices_of_random_games_are_the_template_they_replaced(monkeypatch) -> None:
    compared: list[str] = []

    def look(app: Flask, game_id: str, language: str, choice: dict[str, Any]) -> None:
        context = game_context(service().view(game_id))
        options = context["options"]
        if options.phase is not Phase.HELL or options.plague_due:
            return
        marked = parts.marked_context(context, language)
        variants = [marked]
        if options.movable:  # the same screen with no soul able to move, with only souls to bring in, with a Bell
            variants.append({**marked, "options": replace(options, hell_moves=())})
            variants.append({**marked, "options": replace(options, hell_moves=options.bring_moves)})
            variants.append({**marked, "options": replace(options, can_ferry=True)})
        for variant in variants:
            old, new = both(app, variant)
            assert new == old, (language, variant["options"])
            compared.append(new)

    screens(monkeypatch, look, ((1, False), (12, True)), steps=40)
    assert any("cemetery-" in html for html in compared) and any("select=" in html for html in compared)
    assert any("ferry=start" in html for html in compared)
    assert any("<li>" not in html and "cemetery-" not in html for html in compared)  # no soul can move
