"""The new-game form names the edition's assumptions where the rulebook is silent, with their setting."""

from __future__ import annotations

import re

from flask.testing import FlaskClient

from companion.editions import load_all


def test_the_new_game_form_lists_every_assumption_with_its_setting(client: FlaskClient) -> None:
    # Given the shipped edition's assumptions
    assumptions = load_all()["inferno-base"][1].section("assumptions")
    named = {k: v for k, v in assumptions.items() if isinstance(v, bool)}
    assert len(named) == 7
    # When a phone opens the home page
    html = client.get("/").data.decode()
    # Then each one is listed under the set-up, with yes or no as the edition sets it
    shown = dict(re.findall(r'data-assumption="(\w+)">[^<]*: <strong>(\w+)</strong>', html))
    assert shown == {k: "yes" if v else "no" for k, v in named.items()}
    assert "Where the rulebook is silent, this edition assumes" in html


def test_the_assumptions_read_in_spanish(client: FlaskClient) -> None:
    client.get("/lang/es")
    html = client.get("/").data.decode()
    assert "Donde el reglamento no dice nada, esta edición supone" in html
    assert "Pluto y Flegias sustituyen a los guardianes del juego base: <strong>sí</strong>" in html
