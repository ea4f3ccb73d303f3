"""The macros the game's templates and parts call as globals: the forms, refusal boxes, markers, field errors and
colours of ``macros.html``, the small parts of ``screens/game_parts.html`` and the map's shield of
``screens/map_shield.html``.

Each is a template global of its own name, so a template calls it without importing it, and ``screens.parts`` draws
a part by calling it. A macro's module sees the environment's globals as they are when it is made: the form macros
first, so the parts' macros find them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

from flask import Flask, current_app
from markupsafe import Markup

from companion.web.words.glossary import GUARDIAN_GLYPHS

__all__ = ["MACROS", "guardian_glyph", "install", "part_macro"]

MACROS = (
    ("macros.html", ("hidden_fields", "action_form", "refusal_box", "marker", "field_errors", "colour_classes")),
    (
        "screens/game_parts.html",
        ("player_purse", "player_family", "player_tower", "player_tracks", "florence_tiles", "cemetery", "undo_bar"),
    ),
    ("screens/map_shield.html", ("map_shield",)),
)
"""Each template and the macros it gives the others, in the order they are made."""


def guardian_glyph(guardian: str) -> str:
    """The letters a guardian's diamond shows on the map."""
    return GUARDIAN_GLYPHS.get(guardian, guardian[:2].title())


def install(app: Flask) -> None:
    """Every macro of ``MACROS`` and ``guardian_glyph`` as the templates' globals (last: the macros' modules see every
    other global)."""
    env = app.jinja_env
    env.globals["guardian_glyph"] = guardian_glyph
    for template, names in MACROS:
        module = env.get_template(template).module
        for name in names:
            env.globals[name] = getattr(module, name)


def part_macro(name: str) -> Callable[..., Markup]:
    """The macro ``name`` of ``MACROS``, to draw a part with."""
    return cast(Callable[..., Markup], current_app.jinja_env.globals[name])
