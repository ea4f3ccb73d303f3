"""A location's options written in Python (``screens/location_markup.py``) are the markup of the template they
replaced.

The template is kept beside this test as the reference (``location_choices_reference.html``, as it stood in
``templates/screens/location_actions.html``): over random games in English and Spanish, base and expansion, on every
screen where a player stands at a location, the options drawn both ways (with the marks a part is drawn with) are the
same line for line, as a part is compacted. Each screen is also drawn as if the player stood at each location with
all its options, with a refusal of each form, with each section drawn open, with choices kept after a refusal, with
the fraud card's loan to confirm or its choices in the address, with fewer than 2 drachmas, and without the end of
the turn; and the actions part of a real answer (``parts._draw``) is the template's too.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from flask import Flask
from markupsafe import Markup

from companion.game.rules.locations import OPTIONS
from companion.game.state import Floor, Phase, Piece
from companion.web.http.db import service
from companion.web.screens import parts
from companion.web.screens.game import game_context
from companion.web.screens.location_markup import location_choices
from tests.web.screens.references import drawn, marking, reference, screens

CONTROLS = (
    "end-turn",
    "location-exchange",
    "location-cube",
    "location-disc",
    "location-styx",
    "location-fraud",
    "location-deliver",
    "location-barrel",
    "location-guest",
    "location-home",
    "location-rearrange",
    "location-guardian",
)


def _template(app: Flask, name: str, context: dict[str, Any]) -> Markup:
    return Markup(app.jinja_env.get_template(name).render(**context))


def both(app: Flask, context: dict[str, Any]) -> tuple[str, str]:
    """The options as the reference template draws them and as Python does, each compacted as a part is."""
    state, options = context["state"], context["options"]
    me = context.get("me", state.p[state.active])
    shown = {**context, "me": me, "active": state.players[state.active]}
    pick = fraud = ""
    if not shown.get("prompt_slot") and state.action == "bonfire" and "underworld" in options.location_options:
        pick = _template(app, "screens/guardian_pick.html", shown)
    if (
        state.action == "wall"
        and shown.get("open_for") == "location-fraud"
        and not shown.get("loan_confirm")
        and not shown.get("card_choices")
    ):
        fraud = _template(app, "screens/fraud_form.html", {**shown, "inline": True})
    new = location_choices(
        context["view"],
        state,
        options,
        me,
        context["new_key"],
        context.get("refusal"),
        context.get("open_for", ""),
        context["chosen"],
        context.get("card_choices", ""),
        context.get("loan_confirm"),
        pick,
        fraud,
    )
    return reference(app, "location_choices", shown), drawn(new)


def refusal(control: str) -> dict[str, Any]:
    return {"control": control, "text": "Not now & <never>", "rule": "", "alternatives": []}


def _kept(name: str, value: Any, default: bool = False) -> bool:
    """A player's choices kept after a refusal: the second colour, two souls, the first track of each four."""
    return {"colour": str(value) in ("3", "5"), "count": str(value) == "2"}.get(name, str(value) in ("1", "5"))


def _variants(marked: dict[str, Any]) -> list[dict[str, Any]]:
    state, options = marked["state"], marked["options"]
    me = state.p[state.active]
    pieces = ((Piece("noble"), Piece("guest", 3)), (Piece("urchin"), Piece("barrel", 5), Piece("barrel", 2)), ())
    full = replace(me, tower=tuple(Floor(f.height, pieces[i % 3]) for i, f in enumerate(me.tower or (Floor(1),))))
    out = [marked]
    for loc, offered in OPTIONS.items():  # the player at each location, every option offered
        at = {**marked, "state": replace(state, action=loc), "options": replace(options, location_options=offered)}
        out.append(at)
        out.append({**at, "me": replace(me, drachmas=0, florins=max(me.florins, 5)), "chosen": _kept})
        out.append({**at, "options": replace(at["options"], can_end_turn=not options.can_end_turn)})
        out.append({**at, "prompt_slot": True})  # as the actions part is drawn: the guardians' part an empty slot
        out.append({**at, "me": full})  # members, guests and barrels in the tower
        backwards = replace(  # the Cemetery and the Phlegethon held in another order: drawn sorted all the same
            at["state"],
            cemetery=dict(sorted({7: 1, 3: 2, 5: 1, **state.cemetery}.items(), reverse=True)),
            phlegethon=dict(sorted(state.phlegethon.items(), reverse=True)),
        )
        out.append({**at, "state": backwards})
        out.append({**at, "me": replace(full, market_barrels=frozenset(), palace_guests=frozenset(), florins=0)})
        out += [{**at, "refusal": refusal(control)} for control in CONTROLS]
        out += [{**at, "open_for": f"location-{name}"} for name in ("styx", "rearrange", "fraud")]
        out.append({**at, "open_for": "location-fraud", "loan_confirm": {"loans": []}})
        out.append({**at, "open_for": "location-fraud", "card_choices": "&card=embezzle&x=<b>"})
        out.append({**at, "open_for": "location-fraud", "refusal": refusal("location-fraud")})
    return out


def test_the_options_of_random_games_are_the_template_they_replaced(monkeypatch) -> None:
    compared: list[str] = []

    def look(app: Flask, game_id: str, language: str, choice: dict[str, Any]) -> None:
        context = game_context(service().view(game_id), **choice)
        if context["options"].phase is not Phase.ACTION or choice:
            return
        with marking():
            marked = parts.marked_context(context, language)
            real = parts._draw("actions", marked).html  # the part as an answer draws it, from the page's template
            assert drawn(location_choices_in(real)) == reference_in(app, marked)
            for variant in _variants(marked):
                old, new = both(app, variant)
                assert new == old, (language, variant["state"].action, variant.get("refusal"), variant.get("open_for"))
                compared.append(new)

    screens(monkeypatch, look, ((3, False), (12, True)), steps=45)
    assert len(compared) > 200
    for needed in ('name="florins"', 'name="circle"', 'name="gate"', "part-pick", 'name="first_track"', "fraud-form"):
        assert any(needed in html for html in compared), needed
    for needed in ('name="member"', 'name="piece"', "location-barrel", "location-guest", "refusal-location-styx"):
        assert any(needed in html for html in compared), needed
    assert any(" selected>" in html for html in compared) and any('name="borrow"' in html for html in compared)
    assert any("card=embezzle&amp;x=&lt;b&gt;" in html for html in compared)  # the choices' address, escaped once


def location_choices_in(part: str) -> str:
    """The location's options within the actions part: from its ``<h2>`` (the location's name) to the section's end."""
    start = part.index("<h2>", part.index('id="actions-title"') + 1)
    return part[start : part.rindex("</section>")]


def reference_in(app: Flask, marked: dict[str, Any]) -> str:
    state = marked["state"]
    shown = {**marked, "me": state.p[state.active], "active": state.players[state.active], "prompt_slot": True}
    return reference(app, "location_choices", shown)  # the guardians to choose: a part of their own, an empty slot
