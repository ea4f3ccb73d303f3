"""What a location's options show (``screens/location_actions.html``, within the actions part).

Over random games in English and Spanish, base and expansion, on every screen where a player stands at a location,
and on each as if the player stood at each location with all its options, with a refusal of each form, with each
section drawn open, with choices kept after a refusal, with the fraud card's loan to confirm or its choices in the
address, with fewer than 2 drachmas, with members, guests and barrels in the tower, and without the end of the turn:
the location's name, the end of the turn first when it may end, then each form the location offers the player now
(and only those), each with its refusal box.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from flask import Flask, url_for
from markupsafe import escape

from companion.game.rules.locations import OPTIONS
from companion.game.state import Floor, GameState, Phase, Piece, PlayerState
from companion.web.http.db import service
from companion.web.screens import parts
from companion.web.screens.game import game_context
from companion.web.words.glossary import location_name
from tests.builders import game_view
from tests.web.screens.random_screens import marking, screens

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
)


def refusal(control: str) -> dict[str, Any]:
    return {"control": control, "text": "Not now & <never>", "rule": "", "alternatives": []}


def _kept(name: str, value: Any, default: bool = False) -> bool:
    """A player's choices kept after a refusal: the second colour, two souls, the first track of each four."""
    return {"colour": str(value) in ("3", "5"), "count": str(value) == "2"}.get(name, str(value) in ("1", "5"))


def _with(state: GameState, me: PlayerState) -> GameState:
    """``state`` with ``me`` as the active player's purse."""
    players = list(state.p)
    players[state.active] = me
    return replace(state, p=tuple(players))


def _variants(marked: dict[str, Any]) -> list[dict[str, Any]]:
    state, options = marked["state"], marked["options"]
    me = state.p[state.active]
    pieces = ((Piece("noble"), Piece("guest", 3)), (Piece("urchin"), Piece("barrel", 5), Piece("barrel", 2)), ())
    full = replace(me, tower=tuple(Floor(f.height, pieces[i % 3]) for i, f in enumerate(me.tower or (Floor(1),))))
    out = [marked]
    for loc, offered in OPTIONS.items():  # the player at each location, every option offered
        here = replace(state, action=loc)
        at = {**marked, "state": here, "options": replace(options, location_options=offered)}
        out.append(at)
        out.append({**at, "state": _with(here, replace(me, drachmas=0, florins=max(me.florins, 5))), "chosen": _kept})
        out.append({**at, "options": replace(at["options"], can_end_turn=not options.can_end_turn)})
        out.append({**at, "state": _with(here, full)})  # members, guests and barrels in the tower
        empty = replace(full, market_barrels=frozenset(), palace_guests=frozenset(), florins=0)
        out.append({**at, "state": _with(here, empty)})
        out += [{**at, "refusal": refusal(control)} for control in CONTROLS]
        out += [{**at, "open_for": f"location-{name}"} for name in ("styx", "rearrange", "fraud")]
        out.append({**at, "open_for": "location-fraud", "loan_confirm": {"loans": []}})
        out.append({**at, "open_for": "location-fraud", "card_choices": "&card=embezzle&x=<b>"})
    return out


def _forms(variant: dict[str, Any]) -> dict[str, bool]:
    """Which forms the location shows the player now, by their refusal's control."""
    state, options = variant["state"], variant["options"]
    loc, lo, me = state.action, options.location_options, state.p[state.active]
    return {
        "end-turn": options.can_end_turn,
        "location-exchange": loc in ("bonfire", "wall") and "exchange" in lo and bool(me.florins),
        "location-cube": loc == "bonfire" and "passage" in lo,
        "location-disc": loc == "bonfire" and "passage" in lo,
        "location-styx": loc == "bonfire" and "underworld" in lo,
        "location-fraud": loc == "wall" and "fraud" in lo,
        "location-deliver": loc == "wall" and "deliver" in lo and bool(me.pieces("barrel")),
        "location-barrel": loc == "market" and "take" in lo,
        "location-guest": loc == "palace" and "take" in lo,
        "location-home": loc == "courtyard" and "home" in lo,
        "location-rearrange": loc == "courtyard",
    }


def _check_options(variant: dict[str, Any], html: str) -> None:
    """What the location's options must show on the screen ``variant`` is drawn for."""
    state = variant["state"]
    me, game_id = state.p[state.active], variant["view"].game_id
    forms = _forms(variant)
    assert f"<h2>{escape(location_name(state.action))}</h2>" in html
    assert (url_for("play.end_turn", game_id=game_id) in html) == forms["end-turn"]
    fields = {
        "location-exchange": 'name="florins"',
        "location-cube": 'name="circle"',
        "location-disc": 'name="gate"',
        "location-styx": 'name="first_track"',
        "location-deliver": 'id="del-c"',
        "location-rearrange": 'id="rr-piece"',
    }
    for control, field in fields.items():
        assert (field in html) == forms[control], control
    assert ('id="part-pick"' in html) == forms["location-styx"]
    taken = me.market_barrels if state.action == "market" else me.palace_guests
    assert ('id="take-c"' in html) == ((forms["location-barrel"] or forms["location-guest"]) and bool(taken))
    members = sum(p.kind in ("noble", "urchin") for fl in me.tower for p in fl.pieces)
    assert html.count('name="member"') == (members if forms["location-home"] else 0)
    if forms["location-styx"] and me.drachmas < 2:
        assert '<input type="hidden" name="borrow" value="1">' in html
    _check_fraud(variant, html, forms["location-fraud"])
    refused = (variant.get("refusal") or {}).get("control")
    if refused:
        assert (f'id="refusal-{refused}"' in html) == forms[refused], refused


def _check_fraud(variant: dict[str, Any], html: str, offered: bool) -> None:
    """The Wall's fraud card: on its way in an answer of its own, in place, or a word about the loan to confirm."""
    fraud_open = variant.get("open_for") == "location-fraud"
    if not offered or (fraud_open and variant.get("loan_confirm")):
        assert "fraud-form" not in html
    elif fraud_open and not variant.get("card_choices"):
        assert '<form id="fraud-form"' in html  # drawn in place
    else:
        assert '<div id="fraud-form" class="lazy-form"' in html
        assert url_for("florence.fraud_card", game_id=variant["view"].game_id) in html
        if variant.get("card_choices"):
            assert "card=embezzle&amp;x=&lt;b&gt;" in html  # the choices' address, escaped once


def test_the_options_of_random_games_are_the_forms_each_location_offers(monkeypatch) -> None:
    drawn: list[str] = []

    def look(app: Flask, game_id: str, language: str, choice: dict[str, Any]) -> None:
        context = game_context(game_view(service().view(game_id)), **choice)
        if context["options"].phase is not Phase.ACTION or choice:
            return
        if context["seat_prompt"] or context["waiting"] is not None:  # no actions on this phone
            return
        with marking():
            marked = parts.marked_context(context, language)
            for variant in _variants(marked):
                html = parts._draw("actions", variant).html
                _check_options(variant, html)
                drawn.append(html)
            whole = parts.render_block("pages/game.html", "part_actions", {**marked, "prompt_slot": False})
            assert ('class="guardian-pick"' in whole) == _forms(marked)["location-styx"]  # the guardians in place

    screens(monkeypatch, look, ((3, False), (12, True)), steps=45)
    assert len(drawn) > 200
    for needed in ('name="florins"', 'name="circle"', 'name="gate"', "part-pick", 'name="first_track"', "fraud-form"):
        assert any(needed in html for html in drawn), needed
    for needed in ('name="member"', 'name="piece"', "refusal-location-barrel", "refusal-location-guest"):
        assert any(needed in html for html in drawn), needed
    assert any(" selected>" in html for html in drawn) and any('name="borrow"' in html for html in drawn)
    assert any("<details open><summary>" in html for html in drawn)
