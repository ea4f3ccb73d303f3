"""The map's shields written in Python (``screens/shield_markup.py``) are the markup of the Jinja block they replaced.

The block is kept beside this test as the reference (``map_shield_reference.html``, as it stood in
``templates/screens/hell_map.html``): over
random games in English and Spanish every shield of every screen (a soul chosen, a Cemetery colour, a guardian's
steps), and every tap a shield may have with every piece that may stand on it (a soul, laid down or petrified, a
guardian, a landing that lays the soul down), labels with quotes and ampersands, each drawn both ways is the same.
"""

from __future__ import annotations

import itertools
from types import SimpleNamespace
from typing import Any

from flask import Flask

from companion.web.http.db import service
from companion.web.screens import part_inputs, parts
from companion.web.screens.game import game_context
from companion.web.screens.hell_map import Cell, FerrySteps
from companion.web.screens.shield_markup import map_shield
from tests.web.screens.references import drawn, marking, reference, screens


def shield_reference(app: Flask, game_id: str, shield: dict[str, Any]) -> str:
    """The shield as the Jinja block drew it, compacted as a part is."""
    return reference(app, "map_shield", {"view": SimpleNamespace(game_id=game_id), **shield})


def test_every_shield_of_random_games_is_the_block_it_replaced(monkeypatch) -> None:
    checked: list[str] = []

    def look(app: Flask, game_id: str, language: str, choice: dict[str, Any]) -> None:
        context = parts.marked_context(game_context(service().view(game_id), **choice), language)
        with marking():
            for c in context["hell_map"].cells:
                shield = part_inputs.shield_context(f"s-{c.shield}", context)
                old = shield_reference(app, game_id, shield)
                assert drawn(map_shield(game_id, **shield)) == old, (c, language)
                assert parts._draw(f"s-{c.shield}", context).html == old  # as an answer draws it
                checked.append(c.tap or "")

    screens(monkeypatch, look, ((3, False), (11, True)), steps=40)
    assert {"select", "why", "try", "land", "bring"} <= set(checked), set(checked)


def test_every_tap_and_every_piece_on_a_shield_is_the_block_it_replaced(app: Flask) -> None:
    souls = [
        None,
        SimpleNamespace(colour=3, laid=False, petrified=False),
        SimpleNamespace(colour=5, laid=True, petrified=False),
        SimpleNamespace(colour=7, laid=False, petrified=True),
    ]
    moves = [
        None,
        SimpleNamespace(path=("2a",), lays_down=False, infamy=0),
        SimpleNamespace(path=("2a", "3b"), lays_down=True, infamy=4),
    ]
    ferries = [
        FerrySteps("", "", "", ()),
        FerrySteps("4c", "", "", ()),
        FerrySteps("4c", "4b", "", ()),
    ]
    taps = [None, "select", "deselect", "why", "confirm", "ferry", "guard", "land", "try", "bring"]
    count = 0
    with app.test_request_context("/"):
        for tap, soul, guardian, move, picked, x in itertools.product(
            taps, souls, (None, "plutus", "charon"), moves, (False, True), (12.34, 120.0)
        ):
            for ferry in ferries if tap == "ferry" else [None]:
                c = Cell(
                    "3b",
                    3,
                    x,
                    45.0,
                    50.64,
                    "K",
                    "key",
                    soul,
                    guardian,
                    tap,
                    move,  # type: ignore[arg-type]
                    '3B, circle 3, "Key" & <lock>',
                    link="guardian=plutus&gto=3b" if tap == "guard" else "",
                )
                shield = {
                    "c": c,
                    "picked": picked,
                    "confirm_from": "2a" if tap == "confirm" else "",
                    "ferry_steps": ferry,
                }
                assert drawn(map_shield("g-1", **shield)) == shield_reference(app, "g-1", shield), shield
                count += 1
    assert count == 10 * 4 * 3 * 3 * 2 * 2 + 2 * 4 * 3 * 3 * 2 * 2
