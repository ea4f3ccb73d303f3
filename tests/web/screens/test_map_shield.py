"""What a shield of the map of Hell shows and where its tap goes (``templates/screens/map_shield.html``).

Over random games in English and Spanish every shield of every screen (a soul chosen, a Cemetery colour, a guardian's
steps) is drawn as an answer draws it, the macro's markup without indentation; and every tap a shield may have, with
every piece that may stand on it (a soul, laid down or petrified, a guardian, a landing that lays the soul down) and a
label with quotes and ampersands, opens or posts to its address and shows its pieces.
"""

from __future__ import annotations

import itertools
from types import SimpleNamespace
from typing import Any

from flask import Flask, url_for
from markupsafe import escape

from companion.web.http.db import service
from companion.web.screens import parts
from companion.web.screens.game import game_context
from companion.web.screens.hell_map import Cell, FerrySteps
from companion.web.screens.parts.macros import guardian_glyph, part_macro
from companion.web.screens.parts.sources import shield_context
from tests.builders import game_view
from tests.web.screens.random_screens import marking, screens

LINKS = {"select", "deselect", "why", "confirm", "ferry", "guard"}


def test_every_shield_of_random_games_is_its_macro_without_indentation(monkeypatch) -> None:
    checked: list[str] = []

    def look(app: Flask, game_id: str, language: str, choice: dict[str, Any]) -> None:
        context = parts.marked_context(game_context(game_view(service().view(game_id)), **choice), language)
        with marking():
            for c in context["hell_map"].cells:
                shield = shield_context(f"s-{c.shield}", context)
                html = parts._draw(f"s-{c.shield}", context).html
                assert html == str(part_macro("map_shield")(game_id, **shield)) == parts.compact(html)
                assert html.startswith(f'<svg id="part-s-{c.shield}" data-part="s-{c.shield}"')
                assert (" is-selected" in html) == shield["picked"]
                assert (f" tap-{c.tap}" in html) == bool(c.tap)
                checked.append(c.tap or "")

    screens(monkeypatch, look, ((3, False), (11, True)), steps=40)
    assert {"select", "why", "try", "land", "bring"} <= set(checked), set(checked)


def href(c: Cell, confirm_from: str, ferry: FerrySteps | None) -> str:
    """Where a link tap goes: the game with the tap's query."""
    base = url_for("play.game", game_id="g-1") + "?"
    if c.tap == "guard":
        return base + c.link
    if c.tap == "ferry":
        assert ferry is not None
        if not ferry.phlegyas_to:
            return f"{base}ferry={c.shield}"
        if not ferry.soul:
            return f"{base}ferry={ferry.phlegyas_to}&fsoul={c.shield}"
        return f"{base}ferry={ferry.phlegyas_to}&fsoul={ferry.soul}&fside={c.shield}"
    if c.tap == "confirm":
        return f"{base}select={confirm_from}&to={c.shield}"
    return f"{base}select={'' if c.tap == 'deselect' else c.shield}"


def check(c: Cell, picked: bool, confirm_from: str, ferry: FerrySteps | None) -> None:
    html = str(part_macro("map_shield")("g-1", c, picked, confirm_from, ferry))
    cls = "cell" + (f" tap-{c.tap}" if c.tap else "") + (" is-selected" if picked else "")
    label = 'aria-label="3B, circle 3, &#34;Key&#34; &amp; &lt;lock&gt;"'
    assert html.startswith(f'<svg id="part-s-3b" data-part="s-3b" x="{round(c.x, 1)}" y="45.0">\n')
    if c.tap in LINKS:
        opening = f'<a class="{cls}" href="{escape(href(c, confirm_from, ferry))}" hx-get="" hx-params="at"'
        assert opening in html and html.endswith("\n</a>\n</svg>") and 'aria-hidden="true">K</text>' in html
    else:
        assert f'<g class="{cls}"' in html and html.endswith("\n</g>\n</svg>") and 'class="quarter">K</text>' in html
    if c.tap in ("land", "try"):
        via = f',"via":"{",".join(c.move.path)}"' if c.move else ""
        assert f'hx-post="{url_for("play.move_soul", game_id="g-1")}"' in html
        assert f'hx-vals=\'{{"to_shield":"3b"{via}}}\'' in html
        assert ('role="button" tabindex="0"' in html) == (c.tap == "land")
    elif c.tap == "bring":
        assert f'hx-post="{url_for("play.bring_soul", game_id="g-1")}"' in html
        assert 'hx-vals=\'{"shield":"3b"}\'' in html and 'role="button" tabindex="0"' in html
    elif c.tap not in LINKS:
        assert 'role="img"' in html and "hx-post" not in html
    assert label in html and '<use class="hit" href="#hit506"/>' in html
    soul = c.soul
    assert ('fill="url(#stone)"' in html) == bool(soul and soul.petrified)
    assert ('class="laid sc5"' in html) == bool(soul and soul.laid and not soul.petrified)
    assert ('<circle class="soul sc3"' in html) == bool(soul and not soul.laid and not soul.petrified)
    assert ('class="soul-num"' in html) == bool(soul)
    glyph = f'class="guardian-glyph">{guardian_glyph(c.guardian)}</text>' if c.guardian else 'class="guardian"'
    assert (glyph in html) == bool(c.guardian)
    scores = c.tap in ("land", "confirm") and c.move and c.move.lays_down
    assert ('class="score-badge">+4</text>' in html) == bool(scores)


def test_every_tap_and_every_piece_on_a_shield(app: Flask) -> None:
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
    ferries = [FerrySteps("", "", "", ()), FerrySteps("4c", "", "", ()), FerrySteps("4c", "4b", "", ())]
    taps = [None, "select", "deselect", "why", "confirm", "ferry", "guard", "land", "try", "bring"]
    count = 0
    with app.test_request_context("/"):
        for tap, soul, guardian, move, picked, x in itertools.product(
            taps, souls, (None, "plutus", "charon"), moves, (False, True), (12.34, 120.0)
        ):
            for ferry in ferries if tap == "ferry" else [None]:
                label = '3B, circle 3, "Key" & <lock>'
                link = "guardian=plutus&gto=3b" if tap == "guard" else ""
                # stand-ins for a soul and a move: the fields the macro reads, each case of them
                c = Cell("3b", 3, x, 45.0, 50.64, "K", "key", soul, guardian, tap, move, label, link=link)  # type: ignore[arg-type]
                check(c, picked, "2a" if tap == "confirm" else "", ferry)
                count += 1
    assert count == 10 * 4 * 3 * 3 * 2 * 2 + 2 * 4 * 3 * 3 * 2 * 2
