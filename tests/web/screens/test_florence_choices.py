"""What the Florence phase's actions show (``screens/florence_actions.html``), an accusation being prepared aside.

Over random games in English and Spanish, base and expansion, on every screen of the Florence phase, with no refusal
and with a refusal of each of its forms, sending a noble or an urchin: a link for each accusation open now, each
accusation shut with its reason, one button per location the member may go to (with its florins), the other kind
to send instead while one is at home, and each form's refusal box; a forced family council offers each thing that
may come back, one form each.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from flask import Flask, url_for

from companion.game.commands import HoldCouncil
from companion.web.http.db import service
from companion.web.screens import parts
from companion.web.screens.game import game_context
from tests.builders import game_view
from tests.web.screens.random_screens import marking, screens


def refusal(control: str) -> dict[str, Any]:
    return {"control": control, "text": "Not now & <never>", "rule": "", "alternatives": []}


def _check_choices(variant: dict[str, Any], html: str) -> None:
    """What the Florence phase's choices must show on the screen ``variant`` is drawn for."""
    state, f = variant["state"], variant["options"].florence
    me, kind, pick = state.p[state.active], variant["send_kind"], str(variant["pick_url"])
    for c in f.accusations:
        assert (f'href="{pick}accuse={c.location}"' in html) == c.allowed, c.location
    assert html.count('<li class="unavailable">') == sum(not c.allowed for c in f.accusations)
    assert ("send-list" in html) == bool(f.sends)
    for send in f.sends:
        sent = f'<button name="location" value="{send.location}">' in html
        assert sent == (kind in dict(send.kinds)), send.location
    if f.sends:
        assert f'<input type="hidden" name="kind" value="{kind}">' in html
        other = "urchin" if kind == "noble" else "noble"
        assert (f'href="{pick}kind={other}"' in html) == bool(me.home_urchins if other == "urchin" else me.home_nobles)
    control = (variant.get("refusal") or {}).get("control")
    if control == "send":
        assert ('id="refusal-send"' in html) == bool(f.sends)
    if control == "council":
        assert ('id="refusal-council"' in html) == f.council_forced


def test_the_choices_of_random_games_name_each_accusation_and_location(monkeypatch) -> None:
    drawn: list[str] = []

    def look(app: Flask, game_id: str, language: str, choice: dict[str, Any]) -> None:
        view = game_view(service().view(game_id))
        extras: list[dict[str, Any]] = [
            {},
            {"refusal": refusal("send")},
            {"refusal": refusal("council")},
            {"kind": "urchin"},
        ]
        for extra in extras:
            context = game_context(view, **choice, **extra)
            if context["options"].florence is None or context.get("accuse") or context["state"].ended:
                return
            if context["seat_prompt"] or context["waiting"] is not None:  # no actions on this phone
                return
            with marking():
                marked = parts.marked_context(context, language)
                html = parts._draw("actions", marked).html
                _check_choices(marked, html)
                drawn.append(html)

    screens(monkeypatch, look, ((2, False), (9, True), (14, False)), steps=45)
    assert len(drawn) > 20
    assert any("send-list" in html for html in drawn) and any("unavailable" in html for html in drawn)
    assert any("refusal-send" in html for html in drawn) and any("&amp;kind=" in html for html in drawn)


def test_a_forced_council_offers_each_thing_that_may_come_back(app: Flask, phone) -> None:
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
            shows: list[dict[str, Any]] = [{}, {"refusal": refusal("council")}]
            for shown in shows:
                context = game_context(game_view(service().view(game_id)), **shown)
                assert context["options"].florence is not None  # Ana is in the Florence phase
                forced = replace(context["options"].florence, council_forced=True, council=council, sends=())
                context["options"] = replace(context["options"], florence=forced)
                with marking():
                    marked = parts.marked_context(context, language)
                    html = parts._draw("actions", marked).html
                _check_choices(marked, html)
                assert html.count(f'action="{url_for("florence.council", game_id=game_id)}"') == 5
                assert html.count('name="choice"') == 5
                for field in ('value="member"', 'value="guest"', 'value="barrel"', 'value="none"', 'value="bank"'):
                    assert field in html, field
