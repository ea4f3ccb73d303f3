"""Editions in words: the check's progress, each question and component as the box names it, every
field's label and choices, and why a typed value was refused. Nothing here shows a path of the file."""

from __future__ import annotations

from typing import Any

from companion.editions.check import FieldProblem
from companion.editions.components import Component, Field, components, covered
from companion.editions.library import CIRCLE_UNIT
from companion.game.edition import EditionError
from companion.web.words.catalogue import gettext, ngettext
from companion.web.words.catalogue import lazy_gettext as _
from companion.web.words.edition_errors import edition_error_text
from companion.web.words.glossary import (
    PLAYER_COLOURS,
    SINS,
    effect_label,
    guardian_name,
    location_name,
    requirement_label,
    reward_label,
)

__all__ = [
    "choice_label",
    "component_title",
    "edition_name",
    "edition_problem",
    "field_label",
    "problem_text",
    "progress_text",
    "question_text",
    "side_name",
    "symbol_name",
    "value_words",
]


def progress_text(done: int, total: int) -> str:
    """ "37 of 57 values checked against a real board", or that the board is fully checked."""
    if total and done >= total:
        return gettext("Every value of the board has been checked against a real board.")
    return ngettext(
        "%(done)s of %(num)s value checked against a real board.",
        "%(done)s of %(num)s values checked against a real board.",
        total,
        done=done,
    )


def side_name(raw: dict[str, Any], side: int) -> str:
    """A board side by the players it is for: 'the side for 3–4 players'."""
    players = raw["sides"][side]["players"]
    if len(players) == 1:
        return gettext("the side for %(n)s players", n=players[0])
    return gettext("the side for %(a)s–%(b)s players", a=players[0], b=players[-1])


TITLES = {
    "quarters": _("Florence's quarter symbols"),
    "tracks": _("The sin tracks"),
    "phlegethon": _("The Phlegethon track"),
    "purse": _("The starting purse"),
    "loan_track": _("The loan track"),
    "dante": _("Dante's track"),
    "pieces": _("Each player's pieces"),
    "tower": _("The tower"),
    "florence": _("Florence at the start"),
    "locations": _("The location tiles"),
    "goods": _("Guests, barrels and fraud cards"),
    "souls": _("Souls and plague cards"),
    "rulebook": _("The rulebook's set-up and ties"),
    "player_colours": _("Player colours on the screen"),
    "ranges": _("What the forms accept"),
    "adjacency": _("Which shields count as next to each other"),
    "menus": _("What a card may give (amounts)"),
}


def component_title(raw: dict[str, Any], comp: Component) -> str:
    """A component as the box names it: 'Circle 3 (Gluttony), the side for 3–4 players', 'Medusa's guardian card'."""
    if comp.kind == "circle":
        return gettext(
            "Circle %(n)s (%(sin)s), %(side)s", n=comp.circle, sin=SINS[comp.circle], side=side_name(raw, comp.side)
        )
    if comp.guardian:
        return gettext("%(guardian)s's guardian card", guardian=guardian_name(comp.guardian))
    return str(TITLES.get(comp.key, comp.key))


def question_text(raw: dict[str, Any], comp: Component) -> str:
    """The one question of a component in the check."""
    if comp.kind == "circle":
        return gettext(
            "Does circle %(n)s of your board (%(side)s) look like this?", n=comp.circle, side=side_name(raw, comp.side)
        )
    return gettext("Does your box show exactly this?")


LABELS = {
    "infamy": _("Infamy a soul scores on arrival"),
    "colour": _("Colour of the circle"),
    "tracks.length": _("Skull levels on each sin track"),
    "tracks.first_level": _("Level of a skull that has not moved"),
    "phlegethon.scale": _("Values of the spaces, left to right"),
    "phlegethon.start": _("Starting space of each cube (0 is the leftmost)"),
    "economy.start_florins": _("Florins each player starts with"),
    "economy.start_drachmas": _("Drachmas each player starts with"),
    "economy.florin_to_drachma": _("Drachmas given for one florin"),
    "loan_track.penalties": _("Infamy lost at the end on each space, from space 0"),
    "loan_track.symbol_after": _("Space after which the symbol costs infamy at once"),
    "dante.steps": _("Steps of the track, in order"),
    "dante.paths": _("Steps Dante walks, by number of players (0 is the first step)"),
    "dante.shortcut.path_of": _("With the shortcut tile, Dante walks the path for"),
    "dante.shortcut.skips": _("Steps the shortcut tile skips"),
    "family.nobles": _("Nobles at home at the start"),
    "family.urchins": _("Urchins in reserve"),
    "family.start_urchins_at_home": _("Urchins at home at the start"),
    "discs.per_player": _("Discs each player has"),
    "tower.heights": _("Height of each floor, from the ground floor"),
    "tower.start_floors": _("Floors standing at the start"),
    "tower.spaces_per_floor": _("Spaces on each floor"),
    "default_layout.quarters": _("Location tiles in each quarter at the start"),
    "actions.bank_base": _("Bank: florins paid"),
    "actions.bank_per_guest": _("Bank: florins more per guest"),
    "actions.courtyard_members_home": _("Courtyard: family members sent home"),
    "actions.bonfire_exchange_max": _("Bonfire: most coins exchanged"),
    "actions.wall_exchange_max": _("Wall: most coins exchanged"),
    "actions.barrel_delivery_infamy": _("Infamy for the 1st, 2nd, 3rd… barrel delivered"),
    "guests.colours": _("Colours of the guests"),
    "barrels.colours": _("Colours of the barrels"),
    "fraud.barrels_required_max": _("Most barrels a fraud card asks for"),
    "souls.supply": _("Souls of each colour in the box"),
    "souls.plague_card_souls": _("Souls a plague card usually shows"),
    "souls.plague_card_max": _("Most souls a plague card shows"),
    "start.circle": _("Circle where the standee starts"),
    "start.position": _("End of the row where it starts"),
    "primitive": _("What the card does"),
    "count": _("How many souls"),
    "uses": _("How many uses"),
    "guardian_circle_at_most": _("Usable when the standee is on circle … or above"),
    "guardian_circle_at_least": _("Usable when the standee is on circle … or below"),
    "default_guardians.ids": _("Guardians of a first game"),
    "scoring.tie_breakers": _("Tie-breakers, in order"),
    "hex": _("Colour"),
    "ranges.infamy": _("Lowest and highest infamy a form accepts"),
    "ranges.coins_max": _("Most coins a form accepts"),
    "adjacency.rule": _("Shields next to each other"),
    "id": _("Symbol"),
}


def field_label(raw: dict[str, Any], f: Field) -> str:
    """A field's label in words."""
    path = f.path
    if path.startswith("players.colours["):
        colour = raw["players"]["colours"][int(path[16 : path.index("]")])]["id"]
        return str(PLAYER_COLOURS.get(colour, colour)).capitalize()
    if path.startswith("menus."):
        return _menu_label(raw, path)
    if path.startswith("quarters["):
        return gettext("Symbol %(n)s", n=int(path[9 : path.index("]")]) + 1)
    if path in LABELS:
        return str(LABELS[path])
    tail = path.rsplit(".", 1)[-1]
    if path.startswith("guardians[") and ".start." in path:
        tail = "start." + tail
    if path.startswith("guardians[") and ".effect[" in path:
        step = int(path[path.index(".effect[") + 8 : path.index("]", path.index(".effect["))]) + 1
        return gettext("Effect %(n)s: %(what)s", n=step, what=str(LABELS.get(tail, tail)).lower())
    return str(LABELS.get(tail, tail))


def _menu_label(raw: dict[str, Any], path: str) -> str:
    name = path[6 : path.index("[")]
    item = raw["menus"][name][int(path[path.index("[") + 1 : path.index("]")])]["id"]
    what = {"rewards": reward_label, "endgame_requirements": requirement_label, "endgame_effects": effect_label}[name]
    kind = {
        "rewards": gettext("Reward"),
        "endgame_requirements": gettext("End-game condition"),
        "endgame_effects": gettext("End-game effect"),
    }[name]
    return gettext("%(kind)s “%(what)s”: lowest and highest amount", kind=kind, what=what(item))


CHOICES = {
    "far_left": _("the left end"),
    "far_right": _("the right end"),
    "petrify": _("petrifies a soul next to it"),
    "descend": _("pushes a soul next to it down a line"),
    "wall_pass": _("lets a soul cross the Wall of Dis"),
    "shift": _("moves a soul next to it along its row"),
    "start": _("start"),
    "pagan": _("a pagan soul to the Cemetery"),
    "fraud": _("a fraud card"),
    "diploma": _("a diploma"),
    "final": _("the final step"),
    "fewest_loans": _("fewest loans"),
    "most_diplomas": _("most diplomas"),
    "most_drachmas": _("most drachmas"),
    "most_florins": _("most florins"),
    "row_and_lines": _("on the same row or joined by a line"),
    "row": _("on the same row only"),
    "lines": _("joined by a line only"),
}

CIRCLE_COLOURS = {
    "beige": _("beige"),
    "purple": _("purple"),
    "green": _("green"),
    "yellow": _("yellow"),
    "brown": _("brown"),
    "blue": _("blue"),
    "orange": _("orange"),
    "red": _("red"),
    "grey": _("grey"),
    "ice": _("ice"),
    "black": _("black"),
    "white": _("white"),
    "pink": _("pink"),
    "turquoise": _("turquoise"),
}

SYMBOLS = {
    "lily": _("Lily"),
    "eagle": _("Eagle"),
    "key": _("Key"),
    "cross": _("Cross"),
    "lion": _("Lion"),
    "rose": _("Rose"),
    "sun": _("Sun"),
    "moon": _("Moon"),
    "star": _("Star"),
    "tower": _("Tower"),
    "sword": _("Sword"),
    "crown": _("Crown"),
}


def symbol_name(symbol: str) -> str:
    """A quarter symbol's name."""
    return str(SYMBOLS.get(symbol, symbol.capitalize()))


def choice_label(f: Field, option: str) -> str:
    """One option of a field's menu in words."""
    if f.path.endswith("colour"):
        return str(CIRCLE_COLOURS.get(option, option))
    if f.path.endswith("start.circle"):
        return gettext("circle %(n)s (%(sin)s)", n=option, sin=SINS.get(int(option), option))
    if f.path == "dante.shortcut.path_of":
        return ngettext("%(num)s player", "%(num)s players", int(option))
    if f.control == "symbol":
        return symbol_name(option)
    if f.path == "default_guardians.ids":
        return guardian_name(option)
    if f.control == "layout":
        return location_name(option)
    return str(CHOICES.get(option, option))


PROBLEMS = {
    "not_a_number": _("Enter a whole number from %(low)s to %(high)s."),
    "out_of_range": _("%(value)s is not between %(low)s and %(high)s."),
    "not_numbers": _("Enter whole numbers separated by spaces, each from %(low)s to %(high)s."),
    "row_length": _("Enter from %(low)s to %(high)s numbers (there are %(count)s)."),
    "not_on_menu": _("Choose one of the options."),
    "repeated": _("Each one may be chosen only once."),
    "pick_exactly": _("Choose exactly %(count)s."),
    "not_a_colour": _("Choose a colour."),
}


def problem_text(problem: FieldProblem) -> str:
    """Why a typed value was refused, in words."""
    return str(PROBLEMS[problem.code]) % problem.params


def edition_problem(exc: EditionError, raw: dict[str, Any] | None = None) -> str:
    """Why the validator refused an edition, in words, naming the entry as the box names it."""
    return edition_error_text(exc, raw)


def value_words(raw: dict[str, Any], path: str) -> str:
    """A value the check asks about, named as the box names it: "Circle 3 (Gluttony), the side for
    3–4 players", "Circle 4: colour of the circle", "The Phlegethon track: values of the spaces…"."""
    unit = CIRCLE_UNIT.match(path)
    comps = components(raw)
    if unit:
        key = f"circle-{unit.group(1)}-{unit.group(2)}"
        return next((component_title(raw, c) for c in comps if c.key == key), path)
    if path.startswith("circles[") and "." in path:
        number = int(path[8 : path.index("]")]) + 1
        tail = path.rsplit(".", 1)[-1]
        return gettext("Circle %(n)s: %(what)s", n=number, what=str(LABELS.get(tail, tail)))
    if path == "wall.gates":
        return gettext("The gates of the Wall of Dis")
    for c in comps:
        if covered(path, c.covers):
            title = component_title(raw, c)
            fields = [f for f in c.fields if f.path == path or f.path.startswith((path + ".", path + "["))]
            if len(fields) == 1 and len(c.fields) > 1:
                return gettext("%(component)s: %(value)s", component=title, value=field_label(raw, fields[0]))
            return title
    return gettext("another value")


# The shipped editions' names, in the reader's language (a table's own name is shown as typed).
SHIPPED_NAMES = {
    "Inferno (Red Mojo Games, 2024) with Plutus & Phlegyas": _("Inferno (Red Mojo Games, 2024) with Plutus & Phlegyas"),
}


def edition_name(name: str) -> str:
    """An edition's display name: the shipped edition's translated, any other as it was typed."""
    return str(SHIPPED_NAMES.get(name, name))
