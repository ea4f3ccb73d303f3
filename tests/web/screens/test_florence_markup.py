"""The Florence phase's choices written in Python (``screens/florence_markup.py``) are the markup of the template they
replaced.

The template is kept beside this test as the reference (``florence_choices_reference.html``, as it stood in
``templates/screens/florence_actions.html``): over random games in English and Spanish, base and expansion, on every
screen of the Florence phase, with no refusal and with a refusal of each of its forms, the choices drawn both ways
(with the marks a part is drawn with, the send list drawn afresh) are the same line for line, as a part is compacted;
so is a forced family council with each thing that may come back.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from flask import Flask

from companion.game.commands import HoldCouncil
from companion.web.http.db import service
from companion.web.screens import parts
from companion.web.screens.florence_markup import florence_choices
from companion.web.screens.game import game_context
from tests.web.screens.references import drawn, marking, reference, screens


def both(app: Flask, context: dict[str, Any]) -> tuple[str, str]:
    """The choices as the reference template draws them and as Python does, each compacted as a part is."""
    state = context["state"]
    f, me = context["options"].florence, state.p[state.active]
    args = (context["view"], state, f, me, context["send_kind"], context["pick_url"], context["new_key"])
    return reference(app, "florence_choices", {**context, "f": f, "me": me}), drawn(
        florence_choices(*args, context.get("refusal"))
    )


def refusal(control: str) -> dict[str, Any]:
    return {"control": control, "text": "Not now & <never>", "rule": "", "alternatives": []}


def test_the_choices_of_random_games_are_the_template_they_replaced(monkeypatch) -> None:
    compared: list[str] = []

    def look(app: Flask, game_id: str, language: str, choice: dict[str, Any]) -> None:
        view = service().view(game_id)
        for extra in ({}, {"refusal": refusal("send")}, {"refusal": refusal("council")}, {"kind": "urchin"}):
            context = game_context(view, **choice, **extra)
            if context["options"].florence is None or context.get("accuse"):
                return
            with marking():
                old, new = both(app, parts.marked_context(context, language))
            assert new == old, (language, choice, extra)
            compared.append(new)

    screens(monkeypatch, look, ((2, False), (9, True), (14, False)), steps=45)
    assert len(compared) > 20
    assert any("send-list" in html for html in compared) and any("unavailable" in html for html in compared)
    assert any("refusal-send" in html for html in compared)


def test_a_forced_council_is_the_template_it_replaced(app: Flask, phone) -> None:
    phone.create(names=("Ana", "Ben"), plague=("9", "3", "2"))
    phone.post("bring", {"player": 0, "colour": 9, "shield": "1b"})
    game_id = phone.url.rsplit("/", 1)[-1]
    council = (
        HoldCouncil(0, "member", source="tower", kind="noble"),
        HoldCouncil(0, "member", source="bank", kind="urchin"),
        HoldCouncil(0, "guest", colour=3),
        HoldCouncil(0, "barrel", colour=5),
        HoldCouncil(0, "none"),
    )
    for language in ("en", "es"):
        with app.test_request_context(f"/g/{game_id}", headers={"Accept-Language": language}):
            app.preprocess_request()
            for shown in ({}, {"refusal": refusal("council")}):
                context = game_context(service().view(game_id), **shown)
                assert context["options"].florence is not None  # Ana is in the Florence phase
                forced = replace(context["options"].florence, council_forced=True, council=council, sends=())
                context["options"] = replace(context["options"], florence=forced)
                with marking():
                    old, new = both(app, parts.marked_context(context, language))
                assert new == old, (language, shown)
                assert new.count('name="choice"') == 5
