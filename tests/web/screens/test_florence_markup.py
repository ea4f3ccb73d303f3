"""Florence's tiles written in Python (``screens/part_markup.florence_tiles``) are the markup of the template they
replaced (``florence_tiles_reference.html``, as ``florence_board.html`` stood), over random games in English and
Spanish, base and expansion. The Florence phase's choices are a template's (``test_florence_choices.py``).
"""

from __future__ import annotations

from typing import Any

from flask import Flask

from companion.web.http.db import service
from companion.web.screens import parts
from companion.web.screens.game import game_context
from companion.web.screens.part_markup import florence_tiles
from tests.web.screens.references import drawn, reference, screens


def test_the_tiles_of_every_quarter_of_random_games_are_the_template_they_replaced(monkeypatch) -> None:
    """Florence's tiles and who stands on each (``florence_tiles_reference.html``, as ``florence_board.html`` stood)."""
    compared: list[str] = []

    def look(app: Flask, game_id: str, language: str, choice: dict[str, Any]) -> None:
        context = parts.marked_context(game_context(service().view(game_id)), language)
        for quarter, tiles in context["florence_board"]:
            old = reference(app, "florence_tiles", {**context, "quarter": quarter, "tiles": tiles})
            new = drawn(florence_tiles(quarter, tiles, context["state"]))
            assert new == old, (language, quarter)
            assert parts._draw(f"q-{quarter}", context).html.strip() == old  # as an answer draws it
            compared.append(new)

    screens(monkeypatch, look, ((4, False), (6, True)), steps=40)
    assert any('class="piece' in html for html in compared) and any("special" in html for html in compared)
