"""The actions part written in Python (``screens/actions_markup.py``) is the page's block it stands in for.

The block stays in ``pages/game.html`` (it draws the screens the Python part leaves to it), so it is the reference:
over random games in English and Spanish, base and expansion, on every screen (nothing chosen, a soul, a Cemetery
colour, a guardian's steps), with no refusal and with a refusal of each form, the part drawn both ways is the same
line for line, as a part is compacted; the screens it leaves to the block are the ones it names.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from flask import Flask

from companion.web.http.db import service
from companion.web.screens import parts
from companion.web.screens.actions_markup import actions_part, loan_part
from companion.web.screens.game import game_context
from tests.web.screens.references import marking, screens

CONTROLS = ("bring", "move", "send", "accuse", "council", "end-turn", "plague", "location-exchange", "location-styx")


def refusal(control: str) -> dict[str, Any]:
    return {"control": control, "text": "Not now & <never>", "rule": "", "alternatives": []}


def test_the_actions_of_random_games_are_the_block_they_stand_in_for(monkeypatch) -> None:
    drawn: list[tuple[str, str]] = []
    left: list[str] = []

    def look(app: Flask, game_id: str, language: str, choice: dict[str, Any]) -> None:
        view = service().view(game_id)
        extras: list[dict[str, Any]] = [{}, *({"refusal": refusal(c)} for c in CONTROLS), {"kind": "urchin"}]
        for extra in extras:
            context = game_context(view, **choice, **extra)
            with marking():
                marked = {**parts.marked_context(context, language), "prompt_slot": True}
                variants = [marked]
                if marked["options"].phase.value == "hell":  # the plague card due, and the ferryman's Bell
                    variants.append({**marked, "options": replace(marked["options"], plague_due=True)})
                for variant in variants:
                    new = actions_part(variant)
                    phase = variant["options"].phase.value
                    if new is None:  # only a screen with something chosen, or a game over, is left to the block
                        assert choice or variant["state"].ended, (language, extra, phase)
                        left.append(phase)
                        continue
                    old = parts.compact(parts.render_block("pages/game.html", "part_actions", variant))
                    assert parts.compact(new) == old, (language, choice, extra, phase)
                    drawn.append((phase, new))

    screens(monkeypatch, look, ((4, False), (11, True), (16, False)), steps=45)
    phases = {phase for phase, _ in drawn}
    assert {"hell", "florence", "action", "done"} <= phases, phases
    assert any('id="plague-form"' in html for _, html in drawn)
    assert any("refusal-bring" in html for _, html in drawn) and any("refusal-send" in html for _, html in drawn)
    assert len(drawn) > 2 * len(left)  # most screens are drawn in Python


def test_the_loan_of_random_games_is_the_block_it_stands_in_for(monkeypatch) -> None:
    """The loan's part (``actions_markup.loan_part``) against the page's ``part_loan`` block: every screen, the
    section drawn open, a refusal of the loan, a loan past the loan symbol and one before it, a phone asked for its
    seat, a phone waiting, a page drawn read-only."""
    drawn: list[str] = []

    def look(app: Flask, game_id: str, language: str, choice: dict[str, Any]) -> None:
        context = game_context(service().view(game_id), **choice)
        with marking():
            marked = parts.marked_context(context, language)
            variants = [marked, {**marked, "open_for": "loan"}, {**marked, "refusal": refusal("loan")}]
            loan = marked["options"].next_loan
            if loan is not None:
                for penalty in (0, 2):
                    options = replace(marked["options"], next_loan=replace(loan, infamy_penalty=penalty))
                    variants.append({**marked, "options": options})
            variants += [{**marked, "seat_prompt": True}, {**marked, "waiting": 1}, {**marked, "readonly": True}]
            for variant in variants:
                old = parts.compact(parts.render_block("pages/game.html", "part_loan", variant))
                new = parts.compact(loan_part(variant))
                assert new == old, (language, choice, variant.get("open_for"))
                drawn.append(new)

    screens(monkeypatch, look, ((6, False), (12, True)), steps=40)
    assert any("loan symbol" in html or "símbolo" in html for html in drawn)
    assert any('<details class="loan card" open>' in html for html in drawn)
    assert any("refusal-loan" in html for html in drawn)
    assert any("<details" not in html for html in drawn)  # none to show: the part's empty box
