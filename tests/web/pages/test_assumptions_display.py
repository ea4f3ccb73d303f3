"""The new-game form names the edition's assumptions where the rulebook is silent, with their setting."""

from __future__ import annotations

import re

from flask.testing import FlaskClient

from companion.editions import load_all


def test_the_new_game_form_lists_every_assumption_with_its_setting(client: FlaskClient) -> None:
    # Given the shipped edition's assumptions, and the one that moves cubes at scoring
    # (empty_shield.standees_fill: whether a standee fills its shield; issue 25)
    edition = load_all()["inferno-base"][1]
    assumptions = edition.section("assumptions")
    named = {k: v for k, v in assumptions.items() if isinstance(v, bool)}
    assert len(named) == 7
    named["standees_fill"] = edition.standees_fill
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


def test_whether_a_standee_fills_its_shield_is_listed_in_words_in_both_languages(client: FlaskClient) -> None:
    # The README: empty_shield.standees_fill is listed with the assumptions (it moves cubes at scoring).
    html = client.get("/").data.decode()
    words = "A guardian standee fills its shield, in play and at final scoring"
    assert f'data-assumption="standees_fill">{words}: <strong>yes</strong>' in html
    assert "empty_shield" not in html
    client.get("/lang/es")
    html = client.get("/").data.decode()
    assert "Una figura de guardián ocupa su escudo, en la partida y en la puntuación final: <strong>sí</strong>" in html
