"""What the turn's part (``pages/game.html``: ``part_turn``) shows for a game going on.

Over random games in English and Spanish, base and expansion, on every screen, and on each as if it were a last turn
(the player who triggered the end, another), with the plague card due, with the location's action done and with a
notice: the part names the player whose turn it is, the phase in words, the last turns while they run (Dante's gate
for the player who reached it), the plague card's title while it is due, and the notice.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from flask import Flask
from markupsafe import escape

from companion.web.http.db import service
from companion.web.screens import parts
from companion.web.screens.game import game_context
from companion.web.words.template_globals import phase_text
from tests.builders import game_view
from tests.web.screens.random_screens import marking, screens

DONE = "The location's action is done: the turn can end."


def _variants(marked: dict[str, Any]) -> list[dict[str, Any]]:
    state, options = marked["state"], marked["options"]
    other = (state.active + 1) % len(state.players)
    out = [marked, {**marked, "options": replace(options, plague_due=True)}]
    for left, trigger in ((1, state.active), (3, state.active), (1, other), (2, other)):  # the last turns, in words
        out.append({**marked, "state": replace(state, final_turns_left=left, end_trigger=trigger)})
    if options.phase.value == "action":
        out.append({**marked, "options": replace(options, location_options=())})  # the location's action done
    out.append({**marked, "notice": "Already recorded & kept.", "notice_kind": "info"})
    return out


def _check_turn(variant: dict[str, Any], html: str) -> None:
    """What the turn's part must show on the screen ``variant`` is drawn for (a game going on)."""
    state, options = variant["state"], variant["options"]
    assert html.startswith('\n<div id="part-turn" data-part="turn">') and html.endswith("</div>")
    assert f'<section class="card turn pc{state.active} plays" aria-labelledby="turn-title">' in html
    assert str(escape(state.players[state.active].name)) in html
    if options.phase.value == "action" and not options.location_options:
        phase = str(variant["_"](DONE))
    else:
        phase = str(escape(phase_text(state)))
    assert f'<p class="phase">{phase}</p>' in html
    last = state.final_turns_left is not None
    assert ('<p class="last-turns" role="status">' in html) == last
    assert ("Dante" in html) == (last and state.active == state.end_trigger)
    assert ('id="plague-title"' in html) == options.plague_due
    notice = variant.get("notice")
    assert ('<p class="notice info" role="status">Already recorded &amp; kept.</p>' in html) == bool(notice)


def test_the_turn_of_random_games_says_who_plays_and_what_now(monkeypatch) -> None:
    drawn: list[str] = []

    def look(app: Flask, game_id: str, language: str, choice: dict[str, Any]) -> None:
        context = game_context(game_view(service().view(game_id)), **choice)
        if context["state"].ended:
            return
        with marking():
            for variant in _variants(parts.marked_context(context, language)):
                html = parts._draw("turn", variant).html
                _check_turn(variant, html)
                drawn.append(html)

    screens(monkeypatch, look, ((5, False), (13, True)), steps=45)
    assert len(drawn) > 100
    assert any("last-turns" in html for html in drawn) and any("plague-title" in html for html in drawn)
    assert any("Dante" in html for html in drawn)  # the player who triggered the end
