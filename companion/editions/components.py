"""The guided check as the table sees its box: one question per circle of each board side, then one
per physical component (the Phlegethon track, the loan track, Dante's track, each guardian's card…).

A ``Component`` names the values it shows (``fields``: where each lives in the edition file and which
control edits it) and the check units it answers for (``covers``: prefixes of the paths
``library.check_units`` lists). Values that are the app's own settings (the colours players are drawn
in, the ranges a form accepts, how adjacency is read) are editable but never asked against a board.
Nothing here speaks words: ``companion.web.words.editions`` names every component and field.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = [
    "APP_SETTINGS",
    "Component",
    "Field",
    "asked_units",
    "component",
    "components",
    "covered",
    "questions",
]

# Paths of values that are app settings, not printed on any component: never asked in the check.
APP_SETTINGS = ("players.colours", "ranges", "adjacency", "menus", "assumptions")


@dataclass(frozen=True)
class Field:
    """One value of a component and the control that edits it.

    ``control``: ``number`` (one whole number ``low``–``high``), ``numbers`` (a row of them, ``size``
    its allowed lengths), ``per_circle`` (a number per circle named in ``keys``), ``per_count`` (a row
    of numbers per player count in ``keys``), ``choice`` (one of ``menu``), ``choices`` (an ordered
    pick of up to ``high`` items of ``menu``, none repeated), ``colours`` (a set of circle colours),
    ``layout`` (two locations per Florence quarter), ``steps`` (Dante's steps), ``hex`` (a drawing
    colour), ``symbol`` (a quarter symbol's name).
    """

    path: str
    control: str
    low: int = 0
    high: int = 99
    menu: tuple[str, ...] = ()
    keys: tuple[str, ...] = ()
    size: tuple[int, int] = (1, 16)


@dataclass(frozen=True)
class Component:
    """One question of the check (or one page of app settings, ``asked`` False)."""

    key: str
    kind: str  # "circle" or "values"
    fields: tuple[Field, ...] = ()
    covers: tuple[str, ...] = ()
    side: int = 0
    circle: int = 0
    asked: bool = True
    guardian: str = ""
    params: dict[str, Any] = field(default_factory=dict)


def _circle(raw: dict[str, Any], side: int, number: int) -> Component:
    covers = [f"sides[{side}].circles['{number}']", f"circles[{number - 1}]"]
    if number == int(raw["wall"]["between"][1]):
        covers.append("wall.gates")
    return Component(
        f"circle-{side}-{number}",
        "circle",
        (
            Field(f"circles[{number - 1}].infamy", "number", 0, 99),
            Field(f"circles[{number - 1}].colour", "choice", menu=CIRCLE_COLOURS),
        ),
        tuple(covers),
        side=side,
        circle=number,
    )


# Colour names a circle of Hell may be printed in, with the colour the map draws it in.
CIRCLE_HEX = {
    "beige": "#d8c8a0",
    "purple": "#7a3f9d",
    "green": "#3f8a4a",
    "yellow": "#d9b526",
    "brown": "#8b5a2b",
    "blue": "#2f5fb0",
    "orange": "#e07b24",
    "red": "#b8322c",
    "grey": "#7d7d7d",
    "ice": "#9fd3e6",
    "black": "#2b2b2b",
    "white": "#eeeeee",
    "pink": "#d77fa1",
    "turquoise": "#2aa198",
}
CIRCLE_COLOURS = tuple(CIRCLE_HEX)
POSITIONS = ("far_left", "far_right")
PRIMITIVES = ("petrify", "descend", "wall_pass", "shift")
STEP_KINDS = ("start", "pagan", "fraud", "diploma", "final")
SYMBOLS = ("lily", "eagle", "key", "cross", "lion", "rose", "sun", "moon", "star", "tower", "sword", "crown")


def _guardian(raw: dict[str, Any], index: int) -> Component:
    guardian = raw["guardians"][index]
    base = f"guardians[{index}]"
    fields = [
        Field(f"{base}.start.circle", "choice", menu=tuple(str(n) for n in range(1, 10))),
        Field(f"{base}.start.position", "choice", menu=POSITIONS),
    ]
    for j, step in enumerate(guardian.get("effect", []) if isinstance(guardian.get("effect"), list) else []):
        fields.append(Field(f"{base}.effect[{j}].primitive", "choice", menu=PRIMITIVES))
        for key in ("count", "uses"):
            if key in step:
                fields.append(Field(f"{base}.effect[{j}].{key}", "number", 1, 9))
    for key in guardian.get("conditions", {}) if isinstance(guardian.get("conditions"), dict) else {}:
        fields.append(Field(f"{base}.conditions.{key}", "number", 1, 9))
    return Component(f"guardian-{index}", "values", tuple(fields), (base,), guardian=str(guardian.get("id", "")))


def components(raw: dict[str, Any]) -> list[Component]:
    """Every question of the check, in the order a table goes through its box, then the app settings."""
    out: list[Component] = []
    for side in range(len(raw["sides"])):
        out += [_circle(raw, side, number) for number in range(1, 10)]
    out += _tracks(raw)
    out += _box(raw)
    out += [_guardian(raw, i) for i in range(len(raw["guardians"]))]
    out.append(_rulebook(raw))
    out += _app_settings(raw)
    return out


def _tracks(raw: dict[str, Any]) -> list[Component]:
    """The quarter symbols, the sin tracks, the Phlegethon, the starting purse, the loan track and Dante's track."""
    track_circles = tuple(str(c["number"]) for c in raw["circles"] if c.get("track"))
    scale = raw["phlegethon"]["scale"]
    penalties = raw["loan_track"]["penalties"]
    counts = tuple(sorted(raw["dante"]["paths"], key=int))
    return [
        Component(
            "quarters",
            "values",
            tuple(Field(f"quarters[{i}].id", "symbol", menu=SYMBOLS) for i in range(len(raw["quarters"]))),
            ("quarters",),
        ),
        Component(
            "tracks",
            "values",
            (Field("tracks.length", "number", 1, 20), Field("tracks.first_level", "number", 0, 3)),
            ("tracks",),
        ),
        Component(
            "phlegethon",
            "values",
            (
                Field("phlegethon.scale", "numbers", 0, 99, size=(2, 20)),
                Field("phlegethon.start", "per_circle", 0, max(len(scale) - 1, 0), keys=track_circles),
            ),
            ("phlegethon",),
        ),
        Component(
            "purse",
            "values",
            (
                Field("economy.start_florins", "number", 0, _coins(raw)),
                Field("economy.start_drachmas", "number", 0, _coins(raw)),
                Field("economy.florin_to_drachma", "number", 1, 10),
            ),
            ("economy.start_florins", "economy.start_drachmas", "economy.florin_to_drachma"),
        ),
        Component(
            "loan_track",
            "values",
            (
                Field("loan_track.penalties", "numbers", 0, 99, size=(1, 20)),
                Field("loan_track.symbol_after", "number", 0, max(len(penalties) - 1, 0)),
            ),
            ("loan_track",),
        ),
        Component(
            "dante",
            "values",
            (
                Field("dante.steps", "steps", 2, 9, menu=STEP_KINDS, size=(2, 30)),
                Field("dante.paths", "per_count", 0, 29, keys=counts),
                Field("dante.shortcut.path_of", "choice", menu=counts),
                Field("dante.shortcut.skips", "numbers", 0, 29, size=(0, 15)),
            ),
            ("dante",),
        ),
    ]


def _box(raw: dict[str, Any]) -> list[Component]:
    """The family's pieces, the tower, Florence and its locations, the goods and the souls."""
    every_circle = tuple(str(n) for n in range(1, 10))
    locations = tuple(str(loc["id"]) for loc in raw["locations"])
    return [
        Component(
            "pieces",
            "values",
            (
                Field("family.nobles", "number", 0, 12),
                Field("family.urchins", "number", 0, 12),
                Field("family.start_urchins_at_home", "number", 0, 12),
                Field("discs.per_player", "number", 0, 12),
            ),
            ("family", "discs"),
        ),
        Component(
            "tower",
            "values",
            (
                Field("tower.heights", "numbers", 0, 20, size=(1, 10)),
                Field("tower.start_floors", "number", 0, 9),
                Field("tower.spaces_per_floor", "number", 1, 9),
            ),
            ("tower",),
        ),
        Component(
            "florence", "values", (Field("default_layout.quarters", "layout", menu=locations),), ("default_layout",)
        ),
        Component(
            "locations",
            "values",
            (
                Field("actions.bank_base", "number", 0, 20),
                Field("actions.bank_per_guest", "number", 0, 20),
                Field("actions.courtyard_members_home", "number", 0, 12),
                Field("actions.bonfire_exchange_max", "number", 0, 20),
                Field("actions.wall_exchange_max", "number", 0, 20),
                Field("actions.barrel_delivery_infamy", "numbers", 0, 50, size=(1, 12)),
            ),
            ("actions",),
        ),
        Component(
            "goods",
            "values",
            (
                Field("guests.colours", "colours", keys=every_circle),
                Field("barrels.colours", "colours", keys=every_circle),
                Field("fraud.barrels_required_max", "number", 0, 9),
            ),
            ("guests", "barrels", "fraud"),
        ),
        Component(
            "souls",
            "values",
            (
                Field("souls.supply", "per_circle", 0, 30, keys=every_circle),
                Field("souls.plague_card_souls", "number", 1, 12),
                Field("souls.plague_card_max", "number", 1, 12),
            ),
            ("souls",),
        ),
    ]


def _rulebook(raw: dict[str, Any]) -> Component:
    """The rulebook's choices: the guardians a game starts with, the tie-breakers."""
    guardian_ids = tuple(str(g["id"]) for g in raw["guardians"])
    setup = int(raw["setup"]["guardians"]) if isinstance(raw["setup"].get("guardians"), int) else 2
    return Component(
        "rulebook",
        "values",
        (
            Field("default_guardians.ids", "choices", 0, setup, menu=guardian_ids),
            Field(
                "scoring.tie_breakers",
                "choices",
                0,
                len(raw["scoring"]["known_tie_breakers"]),
                menu=tuple(raw["scoring"]["known_tie_breakers"]),
            ),
        ),
        ("default_guardians", "scoring.tie_breakers"),
    )


def _app_settings(raw: dict[str, Any]) -> list[Component]:
    """The app's own settings, editable but never asked against a board."""
    return [
        Component(
            "player_colours",
            "values",
            tuple(Field(f"players.colours[{i}].hex", "hex") for i in range(len(raw["players"]["colours"]))),
            ("players.colours",),
            asked=False,
        ),
        Component(
            "ranges",
            "values",
            (Field("ranges.infamy", "numbers", -999, 999, size=(2, 2)), Field("ranges.coins_max", "number", 1, 999)),
            ("ranges",),
            asked=False,
        ),
        Component(
            "adjacency",
            "values",
            (Field("adjacency.rule", "choice", menu=("row_and_lines", "row", "lines")),),
            ("adjacency",),
            asked=False,
        ),
        Component(
            "menus",
            "values",
            tuple(
                Field(f"menus.{name}[{i}].amount", "numbers", 0, 99, size=(2, 2))
                for name in ("rewards", "endgame_requirements", "endgame_effects")
                for i, item in enumerate(raw["menus"].get(name, []))
                if isinstance(item, dict) and "amount" in item
            ),
            ("menus",),
            asked=False,
        ),
    ]


def _coins(raw: dict[str, Any]) -> int:
    value = raw.get("ranges", {}).get("coins_max", 99)
    return value if isinstance(value, int) and not isinstance(value, bool) else 99


def component(raw: dict[str, Any], key: str) -> Component:
    """The component with this key; raises ``KeyError``."""
    for c in components(raw):
        if c.key == key:
            return c
    raise KeyError(key)


def covered(path: str, prefixes: tuple[str, ...]) -> bool:
    """Whether the check unit at ``path`` belongs to a component covering ``prefixes``."""
    return any(path == p or path.startswith((p + ".", p + "[")) for p in prefixes)


def asked_units(units: list[tuple[str, bool]]) -> list[tuple[str, bool]]:
    """The check units the check asks about: every one but the app's own settings."""
    return [(p, done) for p, done in units if not covered(p, APP_SETTINGS)]


def questions(raw: dict[str, Any], units: list[tuple[str, bool]]) -> list[tuple[Component, bool]]:
    """Each asked component with at least one unit to check, and whether all of its units are checked."""
    out = []
    for c in components(raw):
        if not c.asked:
            continue
        # the Wall's gates are checked with the last circle below the Wall: they never hold a circle open
        mine = [done for path, done in units if covered(path, c.covers) and path != "wall.gates"]
        if mine:
            out.append((c, all(mine)))
    return out
