"""The turn's part written in Python (``screens/turn_markup.py``) is the page's block it stands in for.

The block stays in ``pages/game.html`` (it draws the game over, a notice and a step of the history), so it is the
reference: over random games in English and Spanish, base and expansion, on every screen, and on each as if it were
a last turn (the player who triggered the end, another), with the plague card due, and with the location's action
done, the part drawn both ways is the same line for line, as a part is compacted.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from flask import Flask

from companion.web.http.db import service
from companion.web.screens import parts
from companion.web.screens.game import game_context
from companion.web.screens.turn_markup import turn_part
from tests.web.screens.references import marking, screens


def _variants(marked: dict[str, Any]) -> list[dict[str, Any]]:
    state, options = marked["state"], marked["options"]
    other = (state.active + 1) % len(state.players)
    out = [marked, {**marked, "options": replace(options, plague_due=True)}]
    for left, trigger in ((1, state.active), (3, state.active), (1, other), (2, other)):  # the last turns, in words
        out.append({**marked, "state": replace(state, final_turns_left=left, end_trigger=trigger)})
    if options.phase.value == "action":
        out.append({**marked, "options": replace(options, location_options=())})  # the location's action done
    return out


def test_the_turn_of_random_games_is_the_block_it_stands_in_for(monkeypatch) -> None:
    drawn: list[str] = []

    def look(app: Flask, game_id: str, language: str, choice: dict[str, Any]) -> None:
        context = game_context(service().view(game_id), **choice)
        with marking():
            for variant in _variants(parts.marked_context(context, language)):
                new = turn_part(variant)
                if new is None:
                    assert variant["state"].ended, language  # only the game over is left to the block here
                    continue
                old = parts.compact(parts.render_block("pages/game.html", "part_turn", variant))
                assert parts.compact(new) == old, (language, choice)
                drawn.append(new)

    screens(monkeypatch, look, ((5, False), (13, True)), steps=45)
    assert len(drawn) > 100
    assert any("last-turns" in html for html in drawn) and any("plague-title" in html for html in drawn)
    assert any("Dante" in html for html in drawn)  # the player who triggered the end


def test_a_notice_and_a_step_are_left_to_the_block(app: Flask, phone) -> None:
    phone.create(names=("Ana", "Ben"), plague=("9", "3", "2"))
    game_id = phone.url.rsplit("/", 1)[-1]
    with app.test_request_context(f"/g/{game_id}"):
        app.preprocess_request()
        view = service().view(game_id)
        assert turn_part(game_context(view)) is not None
        assert turn_part(game_context(view, notice="Already recorded.", notice_kind="info")) is None
        assert turn_part({**game_context(view), "step": {"entry": None}}) is None
