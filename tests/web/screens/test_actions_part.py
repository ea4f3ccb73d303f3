"""What the actions part (``pages/game.html``: ``part_actions``) and the loan's part (``part_loan``) show.

Over random games in English and Spanish, base and expansion, on every screen (nothing chosen, a soul, a Cemetery
colour, a guardian's steps), with no refusal and with a refusal of each form: the actions say whose they are, hold
the plague card's form while it is due, the end of the turn when it may end and each refusal's box beside its form;
none are drawn for a phone asked for its seat, a phone waiting or a game over. The loan's part holds the next loan,
its form and its infamy while the active player may take one, and nothing else.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from flask import Flask, url_for

from companion.web.http.db import service
from companion.web.screens import parts
from companion.web.screens.game import game_context
from tests.builders import game_view
from tests.web.screens.random_screens import marking, screens

CONTROLS = ("bring", "move", "send", "accuse", "council", "end-turn", "plague", "location-exchange", "location-styx")
EMPTY_LOAN = '\n<div id="part-loan" data-part="loan">\n</div>'


def refusal(control: str) -> dict[str, Any]:
    return {"control": control, "text": "Not now & <never>", "rule": "", "alternatives": []}


def _check_actions(variant: dict[str, Any], html: str) -> None:
    """What the actions part must show on the screen ``variant`` is drawn for."""
    state, options = variant["state"], variant["options"]
    game_id = variant["view"].game_id
    assert html.startswith('\n<div id="part-actions" data-part="actions">') and html.endswith("</div>")
    if state.ended or variant.get("seat_prompt") or variant.get("waiting") is not None:
        assert 'id="actions-title"' not in html
        return
    assert 'id="actions-title"' in html
    assert '<div id="part-prompt" data-part="prompt">\n</div>' in html  # its nested part: an empty slot
    assert ('id="plague-form"' in html) == options.plague_due
    assert (url_for("play.end_turn", game_id=game_id) in html) == options.can_end_turn
    control = (variant.get("refusal") or {}).get("control")
    phase = options.phase.value
    shown = {
        "end-turn": options.can_end_turn,
        "bring": phase == "hell" and not options.plague_due,
        "send": phase == "florence" and bool(options.florence and options.florence.sends) and not variant["accuse"],
    }
    if control in shown:
        assert (f'id="refusal-{control}"' in html) == shown[control], (control, phase)


def test_the_actions_of_random_games_show_the_phase_and_its_forms(monkeypatch) -> None:
    drawn: list[tuple[str, str]] = []

    def look(app: Flask, game_id: str, language: str, choice: dict[str, Any]) -> None:
        view = game_view(service().view(game_id))
        extras: list[dict[str, Any]] = [{}, *({"refusal": refusal(c)} for c in CONTROLS), {"kind": "urchin"}]
        for extra in extras:
            context = game_context(view, **choice, **extra)
            with marking():
                marked = parts.marked_context(context, language)
                variants = [marked, {**marked, "seat_prompt": True}]
                if marked["options"].phase.value == "hell":  # the plague card due
                    variants.append({**marked, "options": replace(marked["options"], plague_due=True)})
                for variant in variants:
                    html = parts._draw("actions", variant).html
                    _check_actions(variant, html)
                    drawn.append((variant["options"].phase.value, html))

    screens(monkeypatch, look, ((4, False), (11, True), (16, False)), steps=45)
    phases = {phase for phase, _ in drawn}
    assert {"hell", "florence", "action", "done"} <= phases, phases
    assert any('id="plague-form"' in html for _, html in drawn)
    assert any("refusal-bring" in html for _, html in drawn) and any("refusal-send" in html for _, html in drawn)
    assert any('id="seat-prompt-title"' in html for _, html in drawn)


def _check_loan(variant: dict[str, Any], html: str) -> None:
    """What the loan's part must show on the screen ``variant`` is drawn for."""
    state, loan = variant["state"], variant["options"].next_loan
    hidden = variant.get("seat_prompt") or variant.get("waiting") is not None or variant.get("readonly")
    if hidden or state.ended or loan is None:
        assert html == EMPTY_LOAN
        return
    opened = '<details class="loan card" open>' in html
    assert opened == (variant.get("open_for") == "loan")
    assert opened or '<details class="loan card">' in html
    assert url_for("play.take_loan", game_id=variant["view"].game_id) in html
    assert f"+{loan.drachmas} " in html
    assert ('id="refusal-loan"' in html) == bool(variant.get("refusal"))
    assert (f"−{loan.infamy_penalty} " in html) == bool(loan.infamy_penalty)


def test_the_loan_of_random_games_shows_the_next_loan_while_one_may_be_taken(monkeypatch) -> None:
    """Every screen, the section drawn open, a refusal of the loan, a loan past the loan symbol and one before it, a
    phone asked for its seat, a phone waiting, a page drawn read-only."""
    drawn: list[str] = []

    def look(app: Flask, game_id: str, language: str, choice: dict[str, Any]) -> None:
        context = game_context(game_view(service().view(game_id)), **choice)
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
                html = parts._draw("loan", variant).html
                _check_loan(variant, html)
                drawn.append(html)

    screens(monkeypatch, look, ((6, False), (12, True)), steps=40)
    assert any("loan symbol" in html or "símbolo" in html for html in drawn)
    assert any('<details class="loan card" open>' in html for html in drawn)
    assert any("refusal-loan" in html for html in drawn)
    assert any(html == EMPTY_LOAN for html in drawn)  # none to show: the part's empty box
