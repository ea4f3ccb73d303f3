"""The names of things as players say them, translated when shown: soul colours, sins, quarters,
locations, guardians, rewards, players, shields, circles, tracks, gates, fields and ledger lines.
Never a raw id: every refusal, sentence and page says its values through these."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from companion.game.game_or_tally import AnyState
from companion.game.state import GameState
from companion.web.words.bidi import isolate
from companion.web.words.catalogue import gettext, language, lazy_gettext, ngettext, pgettext
from companion.web.words.rules_reference import link_citations

__all__ = [
    "GUARDIAN_GLYPHS",
    "colour_name",
    "describe_endgame",
    "describe_reward",
    "field_name",
    "guardian_name",
    "guardian_note",
    "kind_name",
    "ledger_name",
    "location_action",
    "location_name",
    "player_letter",
    "player_name",
    "player_names",
    "quarter_name",
    "reason_name",
    "shield_label",
    "sin_name",
]

_ = lazy_gettext

COLOURS = {
    1: _("beige"),
    2: _("purple"),
    3: _("green"),
    4: _("yellow"),
    5: _("blue"),
    6: _("orange"),
    7: _("red"),
    8: _("grey"),
    9: _("ice-blue"),
}
SINS = {
    1: _("Limbo"),
    2: _("Lust"),
    3: _("Gluttony"),
    4: _("Greed"),
    5: _("Sloth"),
    6: _("Heresy"),
    7: _("Violence"),
    8: _("Fraud"),
    9: _("Treason"),
}
QUARTERS = {"lily": _("Lily"), "eagle": _("Eagle"), "key": _("Key"), "cross": _("Cross")}
PLAYER_COLOURS = {
    "crimson": _("crimson"),
    "navy": _("navy"),
    "forest": _("forest green"),
    "gold": _("gold"),
    "violet": _("violet"),
    "slate": _("slate"),
}

LOCATIONS = {
    "haystack": _("Haystack"),
    "banquet": _("Banquet"),
    "bank": _("Bank"),
    "courtyard": _("Courtyard"),
    "bonfire": _("Bonfire"),
    "wall": _("Wall"),
    "market": _("Market"),
    "palace": _("Palace"),
}

LOCATION_ACTIONS = {
    "haystack": _("An urchin from your reserve joins the member you placed."),
    "banquet": _("Your tower gains its next floor."),
    "bank": _("2 florins, plus 1 per guest in your tower."),
    "courtyard": _("Up to two: members home from your tower; rearrange your tower."),
    "bonfire": _(
        "Up to three: change up to 3 florins; a cube right or a safe-passage disc; a guardian (1 drachma) "
        "or the Styx (2 drachmas)."
    ),
    "wall": _("Up to three: change up to 2 florins; a fraud card (2 drachmas); deliver a barrel for infamy."),
    "market": _("A barrel to an empty tower space (one of each colour)."),
    "palace": _("A guest to an empty tower space: florins equal to that floor's height."),
}

GUARDIANS = {
    "medusa": _("Medusa"),
    "minotaur": _("Minotaur"),
    "cerberus": _("Cerberus"),
    "minos": _("Minos"),
    "geryon": _("Geryon"),
    "centaurs": _("Centaurs"),
    "plutus": _("Plutus"),
    "phlegyas": _("Phlegyas"),
}

GUARDIAN_GLYPHS = {
    "medusa": "Me",
    "minotaur": "Mt",
    "minos": "Mn",
    "cerberus": "Ce",
    "geryon": "Ge",
    "centaurs": "Cn",
    "plutus": "Pl",
    "phlegyas": "Ph",
}

REWARDS = {
    "florins": _("florins"),
    "drachmas": _("drachmas"),
    "infamy": _("infamy"),
    "skull": _("a skull step"),
    "half_diploma": _("a half diploma"),
    "tower_floor": _("a tower floor"),
    "urchin": _("an urchin"),
    "cube_right": _("a cube one space right"),
    "disc": _("a safe-passage disc"),
    "nothing": _("nothing"),
}

KINDS = {"noble": _("noble"), "urchin": _("urchin")}

REASONS = {
    "bribe": _("to use another quarter"),
    "special_entry": _("to enter a special location"),
    "guardian": _("for a guardian"),
    "styx": _("for the Styx"),
    "bank": _("the Bank"),
    "palace": _("the Palace"),
    "bonus": _("a bonus tile"),
    "fraud": _("a fraud card"),
    "dante": _("Dante"),
    "council": _("family council"),
    "barrel": _("a barrel delivered"),
    "family_card": _("Family card"),
    "accusation": _("accusation"),
}

FIELDS = {
    "empty": _("Empty shields"),
    "cube": _("The cube's space"),
    "skull": _("The skull level"),
    "ship": _("The Ship's space"),
    "infamy": _("Infamy"),
    "half_diplomas": _("Half diplomas"),
    "player": _("The player"),
    "circle": _("The circle"),
    "track": _("The track"),
    "skulls": _("The skulls"),
    "florins": _("Florins"),
    "drachmas": _("Drachmas"),
    "members": _("Family members"),
    "diploma": _("The diploma"),
    "disc": _("The disc"),
    "cemetery": _("Cemetery souls"),
    "dante": _("Dante's step"),
    "amount": _("The amount"),
    "effect_amount": _("The effect's amount"),
    "fraud_hand": _("Fraud cards in hand"),
    "bells": _("Bells"),
    "wall_passes": _("Wall passes"),
    "home_nobles": _("Nobles at home"),
    "home_urchins": _("Urchins at home"),
    "reserve_urchins": _("Urchins in reserve"),
    "start_florins": _("Starting florins"),
    "start_drachmas": _("Starting drachmas"),
    "value": _("The value"),
}

SOURCES = {"hand": _("hand"), "lineup": _("line-up"), "deck": _("deck")}

LEDGER = {
    "souls": _("Souls laid down"),
    "loan_symbol": _("Loan symbol"),
    "dante": _("Dante's last step"),
    "barrel": _("Barrels delivered at the Wall"),
    "council": _("Family council"),
    "fraud": _("Fraud cards"),
    "bonus": _("Bonus tiles"),
    "correction": _("Corrections"),
    "guardian": _("Guardians"),
    "family_card": _("Family card"),
}

REQUIREMENTS = {
    "always": _("always"),
    "barrels": _("barrels %(colours)s in the tower"),
    "guests_at_least": _("at least %(amount)s guests"),
    "skull_at_least": _("skull at least %(amount)s on the %(track)s track"),
    "diplomas_at_least": _("at least %(amount)s diplomas"),
    "no_loans": _("no loans"),
    "floors_at_least": _("at least %(amount)s tower floors"),
}

EFFECTS = {
    "infamy": _("+%(effect_amount)s infamy"),
    "infamy_per_diploma": _("+%(effect_amount)s infamy per diploma"),
    "skull": _("+1 skull on the %(effect_track)s track"),
    "half_diploma": _("+1 half diploma"),
    "cube_right": _("the %(effect_track)s cube one space right"),
}


EFFECT_LABELS = {
    "infamy": _("infamy (amount)"),
    "infamy_per_diploma": _("infamy per diploma (amount)"),
    "skull": _("+1 skull (track)"),
    "half_diploma": _("+1 half diploma"),
    "cube_right": _("cube one space right (track)"),
}


def effect_label(effect: str) -> str:
    """A fraud end-game effect's name in a menu."""
    return str(EFFECT_LABELS.get(effect, effect))


def reason_name(reason: str) -> str:
    """Why coins or infamy changed, in words."""
    return str(REASONS.get(reason, LEDGER.get(reason, reason)))


_NAMES_SAID: dict[tuple[str, int, Any], str] = {}


def _said(table: dict[Any, Any], key: Any, default: Any) -> str:
    """``str(table.get(key, default))``: a name of ``table`` in the reader's language, worded once per process and
    language (a page names many colours, locations and guardians, each a lookup of its language and its catalogue's
    entry). Only the names a table holds are remembered, so the cache stays as small as the tables;
    ``test_glossary_cache`` holds it equal to the name worded afresh, in both languages."""
    found = table.get(key)
    if found is None:
        return str(default)
    slot = (language(), id(table), key)
    said = _NAMES_SAID.get(slot)
    if said is None:
        said = _NAMES_SAID[slot] = str(found)
    return said


def field_name(field: str) -> str:
    """A value's name in a refusal or a correction."""
    return str(FIELDS.get(field, field.replace("_", " ")))


def location_name(loc: str) -> str:
    """A Florence location's name."""
    return _said(LOCATIONS, loc, loc)


def kind_name(kind: str) -> str:
    """'noble' or 'urchin' in the reader's language."""
    return _said(KINDS, kind, kind)


def sin_name(circle: Any) -> str:
    """A circle's sin (a sin track's head): 'Lust'."""
    return _said(SINS, circle, circle)


def location_action(loc: str) -> str:
    """What a Florence location's action does, in a line."""
    return str(LOCATION_ACTIONS.get(loc, ""))


def guardian_name(guardian: str) -> str:
    """A guardian's name."""
    return _said(GUARDIANS, guardian, guardian)


def describe_reward(reward: Any) -> str:
    """What a bonus tile or a card gives, e.g. '2 florins' or 'a skull step (green)'."""
    if reward is None:
        return ""
    name = str(REWARDS.get(reward.kind, reward.kind))
    if reward.kind == "florins":
        return ngettext("%(num)s florin", "%(num)s florins", reward.amount)
    if reward.kind == "drachmas":
        return ngettext("%(num)s drachma", "%(num)s drachmas", reward.amount)
    if reward.kind == "infamy":
        return gettext("%(n)s infamy", n=reward.amount)
    if reward.kind in ("skull", "cube_right"):
        return f"{name} ({colour_name(reward.track)})"
    if reward.kind == "disc":
        return f"{name} ({reward.gate})"
    return name


def ledger_name(source: str) -> str:
    """Where infamy scored during play came from."""
    return str(LEDGER.get(source, source))


def describe_endgame(half: Any) -> str:
    """A fraud card's end-game half in words."""
    params = {
        "colours": ", ".join(colour_name(c) for c in half.colours),
        "amount": half.amount,
        "track": colour_name(half.track),
        "effect_amount": half.effect_amount,
        "effect_track": colour_name(half.effect_track),
    }
    requirement = str(REQUIREMENTS.get(half.requirement, half.requirement)) % params
    effect = str(EFFECTS.get(half.effect, half.effect)) % params
    return gettext("if %(requirement)s: %(effect)s", requirement=requirement, effect=effect)


def colour_name(colour: int) -> str:
    """A soul colour's name, e.g. 'blue'."""
    return _said(COLOURS, colour, colour)


def quarter_name(quarter: str | None) -> str:
    """A Florence quarter's name."""
    return _said(QUARTERS, quarter or "", quarter or "—")


def player_names(state: AnyState) -> tuple[str, ...]:
    """The players' names in turn order (a recorded game's seats, or a quick tally's names)."""
    return tuple(p.name for p in state.players) if isinstance(state, GameState) else state.names


def player_name(state: AnyState, index: int) -> str:
    """A player's name (a recorded game's seat read alone: most sentences name one player)."""
    if isinstance(state, GameState):
        seats = state.players
        return isolate(seats[index].name) if 0 <= index < len(seats) else str(index)
    names = state.names
    return isolate(names[index]) if 0 <= index < len(names) else str(index)


def shield_label(state: AnyState, shield: str) -> str:
    """A shield as players read it: 'circle 4, shield C (Key)'."""
    info = state.side.shields.get(shield)
    if info is None:
        return shield.upper()
    return gettext(
        "%(shield)s (circle %(circle)s, %(quarter)s)",
        shield=shield.upper(),
        circle=info.circle,
        quarter=quarter_name(info.quarter),
    )


REQUIREMENT_LABELS = {
    "always": _("always"),
    "barrels": _("barrels of given colours in the tower"),
    "guests_at_least": _("at least some guests"),
    "skull_at_least": _("a skull at least that high on a track"),
    "diplomas_at_least": _("at least some diplomas"),
    "no_loans": _("no loans"),
    "floors_at_least": _("at least some tower floors"),
}


def gate_name(gate: str) -> str:
    """A gate of the Wall of Dis, by the shield below it: 'the gate above 6A'."""
    shield = gate.removeprefix("gate-").upper()
    return gettext("the gate above %(shield)s", shield=shield) if shield else gettext("no gate")


def circle_name(circle: Any) -> str:
    """A circle by its sin and number: 'Lust (circle 2)'."""
    if not isinstance(circle, int) or circle not in SINS:
        return str(circle)
    return gettext("%(sin)s (circle %(circle)s)", sin=SINS[circle], circle=circle)


def track_name(track: Any) -> str:
    """A sin track by its sin: 'Lust'."""
    return str(SINS[track]) if isinstance(track, int) and track in SINS else str(track)


def requirement_label(requirement: str) -> str:
    """A fraud end-game requirement's name in a menu."""
    return str(REQUIREMENT_LABELS.get(requirement, requirement))


def reward_label(kind: str) -> str:
    """A reward, requirement or effect of the edition's menus, in words."""
    for table in (REWARDS, EFFECT_LABELS, REQUIREMENT_LABELS):
        if kind in table:
            return str(table[kind])
    return kind


GUARDIAN_NOTES = {
    "Petrifies a soul: laid down where it stands, scores nothing, keeps its shield (RULES.md §6).": _(
        "Petrifies a soul: laid down where it stands, scores nothing, keeps its shield (Reference §6)."
    ),
    "Grants one crossing of the Wall of Dis without a disc, for the user's next soul move (estimated).": _(
        "Grants one crossing of the Wall of Dis without a disc, for the user's next soul move (estimated)."
    ),
    "Pushes one nearby soul down along the lines, even through the Wall (estimated).": _(
        "Pushes one nearby soul down along the lines, even through the Wall (estimated)."
    ),
    "Judges a nearby soul: it falls along the lines (estimated).": _(
        "Judges a nearby soul: it falls along the lines (estimated)."
    ),
    "Carries a nearby soul to any empty shield of its own row (estimated).": _(
        "Carries a nearby soul to any empty shield of its own row (estimated)."
    ),
    "The sixth guardian is unknown (RULES.md §10.15); this one pushes up to two nearby souls (estimated).": _(
        "The sixth guardian is unknown (Reference §10.15); this one pushes up to two nearby souls (estimated)."
    ),
}


def guardian_note(note: str) -> str:
    """A guardian's note from the edition, translated when it is the shipped one (its citations then
    links to the rules reference); a table's own note is shown as typed."""
    if note in GUARDIAN_NOTES:
        return link_citations(str(GUARDIAN_NOTES[note]))
    return note


def player_letter(colour: str, letter: str) -> str:
    """The letter on a player's markers, from their colour's name in the reader's language."""
    found = _LETTERS.get(colour)
    return found() if found is not None else letter


_LETTERS: dict[str, Callable[[], str]] = {  # one lookup a call, not six
    "crimson": lambda: pgettext("letter on the crimson pieces", "C"),
    "navy": lambda: pgettext("letter on the navy pieces", "N"),
    "forest": lambda: pgettext("letter on the forest green pieces", "F"),
    "gold": lambda: pgettext("letter on the gold pieces", "G"),
    "violet": lambda: pgettext("letter on the violet pieces", "V"),
    "slate": lambda: pgettext("letter on the slate pieces", "S"),
}
