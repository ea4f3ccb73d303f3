"""A refused edition file in words: which entry, named as the physical game names it, and what is
wrong with it, in the reader's language. ``str(EditionError)`` stays the English sentence with the
file's path for the command line and the logs; a page says ``edition_error_text`` instead, and no
JSON path, Python value or internal id reaches a player."""

from __future__ import annotations

from typing import Any

from companion.game.edition import EditionError
from companion.web.words.catalogue import gettext, lazy_gettext
from companion.web.words.glossary import GUARDIANS, LOCATIONS, quarter_name

__all__ = ["SENTENCES", "edition_error_text", "where_in_words"]

_ = lazy_gettext

Where = tuple[str | int, ...]

# One sentence per code of ``companion.game.edition.ERROR_CODES``; ``%(where)s`` is the entry in words.
SENTENCES = {
    "invalid": _("%(where)s: this file is not an edition the app can play."),
    "too_large": _("The file is too large: an edition file holds at most %(max_kb)s KB."),
    "not_json": _("The file is not an edition file: its text is not valid JSON."),
    "too_deep": _("The file is not an edition file: its values are nested too deeply."),
    "not_a_number": _("The file holds %(value)s, which is not a number a board can hold."),
    "duplicate_key": _("The file names %(key)s twice in the same place: each entry may appear once."),
    "not_object": _("%(where)s: this should be a group of named values."),
    "wrong_format": _("The file is not an Inferno Companion edition file."),
    "wrong_version": _("The file's format version is not one this app reads (1 or 2)."),
    "missing": _("Missing: %(what)s."),
    "not_integer": _("%(where)s: this should be a whole number."),
    "not_boolean": _("%(where)s: this should be yes or no."),
    "not_text": _("%(where)s: this should be text."),
    "not_list": _("%(where)s: this should be a list."),
    "out_of_range": _("%(where)s: %(value)s is not possible; it must be from %(min)s to %(max)s."),
    "too_few": _("%(where)s: there must be at least %(min)s, there are %(count)s."),
    "too_many": _("%(where)s: there can be at most %(max)s, there are %(count)s."),
    "text_too_long": _("%(where)s: this text is too long (at most %(max)s characters)."),
    "bad_text": _("%(where)s: this text is not possible here."),
    "bad_id": _("%(where)s: a name here is letters and digits only, at most 24 of them."),
    "bad_slug": _("%(where)s: use lower-case letters, digits and dashes only, at most 48."),
    "bad_name": _("%(where)s: a name has 1 to 60 characters and no control characters."),
    "bad_colour_code": _("%(where)s: this should be a colour code such as #c0392b."),
    "bad_date": _("%(where)s: this should be a date such as 2026-12-01."),
    "not_a_choice": _("%(where)s: this is not one of the choices allowed here."),
    "bad_source": _(
        "%(where)s: where a value comes from is the rulebook, the rules reference, an estimate, "
        "an assumption or a check on a real board."
    ),
    "source_names_no_field": _(
        "%(where)s: where a value comes from is said only for the entry's own values; "
        "a statement of the rulebook goes among its rulings."
    ),
    "duplicate_id": _("%(where)s: %(id)s appears twice."),
    "unknown_circle": _("%(where)s: there is no circle %(circles)s; the circles are 1 to 9."),
    "unknown_quarter": _("%(where)s: %(quarter)s is not one of the edition's quarter symbols."),
    "unknown_shield": _("%(where)s: there is no shield %(shield)s on this side of the board."),
    "unknown_guardian": _("%(where)s: there is no guardian %(guardian)s in this edition."),
    "unknown_location": _("%(where)s: there is no Florence tile %(location)s in this edition."),
    "unknown_colour": _("%(where)s: no circle has the colour %(colour)s."),
    "unknown_tie_breaker": _("%(where)s: a tie-breaker here is not among those the edition knows."),
    "wrong_circles": _("%(where)s: these should be exactly the circles %(expected)s."),
    "no_shields": _("%(where)s: circle %(circle)s needs at least one shield."),
    "too_many_shields": _("%(where)s: a circle can show at most %(max)s shields, this one has %(count)s."),
    "lacks_quarter": _("%(where)s: circle %(circle)s needs every quarter symbol; it lacks %(quarters)s."),
    "line_not_one_down": _(
        "%(where)s: a line goes exactly one circle down; the one from %(origin)s reaches circle %(to)s."
    ),
    "no_line_down": _("%(where)s: shield %(shield)s has no line down to the next circle."),
    "no_gate": _("%(where)s: the Wall of Dis needs at least one gate, or no soul could pass it."),
    "gate_off_wall": _("%(where)s: a gate must stand over a shield of circle %(circle)s."),
    "wall_not_adjacent": _("%(where)s: the Wall of Dis stands between two circles, one above the other."),
    "no_side": _("%(where)s: no side of the board is for %(players)s players."),
    "too_few_colours": _("%(where)s: %(count)s player colours are too few for %(players)s players."),
    "location_per_track": _("%(where)s: there must be one Florence tile for each circle with a sin track."),
    "layout_incomplete": _("%(where)s: every Florence tile needs a quarter."),
    "loan_start_not_free": _("%(where)s: the first space (no loan) must cost nothing."),
    "no_minimum_space": _("%(where)s: no space of the track is worth %(value)s or more."),
    "off_the_scale": _("%(where)s: space %(value)s is off the track; it must be from %(min)s to %(max)s."),
    "bonus_tiles": _(
        "%(where)s: %(silver)s silver and %(gold)s gold tiles for %(tracks)s sin tracks (one tile per track)."
    ),
    "no_dante_path": _("%(where)s: Dante has no path for %(players)s players."),
    "step_off_path": _("%(where)s: step %(value)s is not on Dante's track."),
    "step_needs_track": _("%(where)s: this step names no circle with a sin track."),
    "track_group": _("%(where)s: circle %(circle)s has no sin track."),
    "tower_start": _("%(where)s: %(value)s floors at the start of a tower of %(max)s floors."),
    "min_above_max": _("%(where)s: %(min)s is above %(max)s."),
    "start_beyond_purse": _("%(where)s: %(value)s is more than the %(max)s coins a player may hold."),
    "guardians_count": _("%(where)s: %(count)s guardians, but a game is set up with %(wanted)s."),
    "guardians_share_shield": _("%(where)s: %(first)s and %(second)s would start on the same shield."),
    "plague_card": _("%(where)s: %(value)s souls on a plague card that shows at most %(max)s."),
    "urchins_at_home": _("%(where)s: %(value)s urchins at home, but there are only %(max)s."),
}

SECTION_NAMES = {
    "format": _("the file's format"),
    "format_version": _("the file's format version"),
    "id": _("the edition's short name"),
    "name": _("the edition's name"),
    "notes": _("the notes"),
    "checks": _("the check marks"),
    "imported": _("where the file came from"),
    "players": _("the players"),
    "quarters": _("the quarter symbols"),
    "circles": _("the circles"),
    "wall": _("the Wall of Dis"),
    "sides": _("the board sides"),
    "tracks": _("the sin tracks"),
    "phlegethon": _("the Phlegethon track"),
    "economy": _("the prices and payments"),
    "loan_track": _("the loan track"),
    "dante": _("Dante's track"),
    "family": _("the family pieces"),
    "tower": _("the tower"),
    "locations": _("the Florence tiles"),
    "default_layout": _("the Florence quarters of the tiles"),
    "actions": _("the location actions"),
    "guests": _("the guests"),
    "barrels": _("the barrels"),
    "discs": _("the safe-passage discs"),
    "souls": _("the souls in the box"),
    "menus": _("the cards' menus"),
    "scoring": _("the final scoring"),
    "expansion": _("the Plutus & Phlegyas expansion"),
    "adjacency": _("which shields are next to each other"),
    "guardians": _("the guardians"),
    "default_guardians": _("the guardians of a base game"),
    "fraud": _("the fraud cards"),
    "limbo": _("Limbo"),
    "setup": _("the set-up"),
    "empty_shield": _("empty shields"),
    "styx": _("the Styx"),
    "ranges": _("what a table may enter"),
    "assumptions": _("the table's readings of the rules"),
}

# A value inside an entry, by its key: "its infamy".
FIELD_NAMES = {
    "source": _("where its values come from"),
    "note": _("its note"),
    "rulings": _("what the rulebook says of it"),
    "says": _("its words"),
    "notes": _("its notes"),
    "id": _("its name"),
    "number": _("its number"),
    "colour": _("its colour"),
    "hex": _("its colour code"),
    "sin": _("its sin"),
    "infamy": _("its infamy"),
    "track": _("its sin track"),
    "letter": _("its letter"),
    "glyph": _("its letter"),
    "colours": _("the colours"),
    "min": _("the fewest players"),
    "max": _("the most players"),
    "between": _("the circles it stands between"),
    "players": _("the player counts it is for"),
    "lines": _("the lines down"),
    "gates": _("the gates of the Wall of Dis"),
    "above": _("the shield below the gate"),
    "quarter": _("its symbol"),
    "first_level": _("the level of a skull that has not moved"),
    "length": _("their length"),
    "first_four": _("the first group of tracks"),
    "last_four": _("the second group of tracks"),
    "bonus_tiles": _("the bonus tiles"),
    "silver": _("the silver tiles"),
    "gold": _("the gold tiles"),
    "scale": _("the values of its spaces"),
    "start": _("where it starts"),
    "minimum_value": _("the lowest value a cube may fall to"),
    "bring_soul_cost": _("the price of bringing a soul"),
    "loan_drachmas": _("the drachmas of a loan"),
    "bribe_any_quarter": _("the bribe for any quarter"),
    "special_entry_noble": _("a noble's entry to a special tile"),
    "florin_to_drachma": _("drachmas per florin exchanged"),
    "guardian_use": _("the price of using a guardian"),
    "styx_use": _("the price of crossing the Styx"),
    "fraud_at_wall": _("the price of a fraud card at the Wall"),
    "fraud_not_from_hand": _("the extra price of a fraud card not from the hand"),
    "council_infamy": _("the infamy of the Council"),
    "dante_final_infamy": _("the infamy of Dante's last step"),
    "start_fraud_cards": _("the fraud cards in hand at the start"),
    "penalties": _("the infamy lost on each space"),
    "symbol_after": _("the space before its symbol"),
    "instant_penalty": _("the infamy lost on passing its symbol"),
    "steps": _("its steps"),
    "kind": _("its kind"),
    "paths": _("the paths for each number of players"),
    "shortcut": _("the Shortcut tile"),
    "path_of": _("the path it shortens"),
    "skips": _("the steps it skips"),
    "nobles": _("the nobles"),
    "urchins": _("the urchins"),
    "start_urchins_at_home": _("the urchins at home at the start"),
    "heights": _("the height of each floor"),
    "start_floors": _("the floors standing at the start"),
    "spaces_per_floor": _("the spaces on each floor"),
    "circle": _("its circle"),
    "bank_base": _("the Bank's pay"),
    "bank_per_guest": _("the Bank's pay per guest"),
    "courtyard_members_home": _("the family members the Courtyard sends home"),
    "bonfire_exchange_max": _("the most exchanges at the Bonfire"),
    "wall_exchange_max": _("the most exchanges at the Wall"),
    "barrel_delivery_infamy": _("the infamy for each barrel delivered"),
    "per_player": _("the discs per player"),
    "supply": _("the souls of each colour"),
    "plague_card_souls": _("the souls a plague card shows"),
    "plague_card_max": _("the most souls on a plague card"),
    "rewards": _("the rewards"),
    "endgame_requirements": _("the end-game requirements"),
    "endgame_effects": _("the end-game effects"),
    "amount": _("its amounts"),
    "tie_breakers": _("the tie-breakers"),
    "known_tie_breakers": _("the tie-breakers the app knows"),
    "halves_per_diploma": _("the halves that make a diploma"),
    "brown_circle": _("the brown circle"),
    "desks_per_player": _("the Desks per player"),
    "toll": _("the toll"),
    "circle_colour": _("the colour of its circle"),
    "position": _("its place in the row"),
    "rule": _("the rule"),
    "effect": _("its effect"),
    "conditions": _("where it may be used"),
    "guardian_circle_at_least": _("the highest circle it may be used on"),
    "guardian_circle_at_most": _("the deepest circle it may be used on"),
    "primitive": _("what it does"),
    "target": _("whom it reaches"),
    "count": _("how many it reaches"),
    "uses": _("how many times"),
    "cross_wall": _("whether it crosses the Wall"),
    "ids": _("the guardians chosen"),
    "barrels_required_max": _("the most barrels a card may ask"),
    "pagan_colour": _("the colour of the pagan souls"),
    "guardians": _("the number of guardians"),
    "starting_skulls_max": _("the most starting skulls"),
    "standees_fill": _("whether a standee fills its shield"),
    "definition": _("its definition"),
    "gains": _("what returning souls gives"),
    "coins_max": _("the most coins a player may hold"),
    "from": _("where it came from"),
    "on": _("the day it came"),
    "fraud_without_barrels": _("fraud cards without their barrels"),
    "toll_on_guardian_push": _("a toll for a soul a guardian pushes"),
    "loan_any_time": _("loans at any time"),
    "dante_fraud_optional": _("Dante's fraud step"),
    "expansion_replaces_guardians": _("whether the expansion replaces the guardians"),
    "loan_for_toll": _("a loan for a toll"),
    "fraud_in_hand_scores": _("fraud cards left in hand"),
    "plutus": _("Plutus"),
    "phlegyas": _("Phlegyas"),
}

ORDINALS = (
    _("first"),
    _("second"),
    _("third"),
    _("fourth"),
    _("fifth"),
    _("sixth"),
    _("seventh"),
    _("eighth"),
    _("ninth"),
    _("tenth"),
)


def _nth(index: int) -> str:
    """'the third one' for index 2."""
    if 0 <= index < len(ORDINALS):
        return gettext("its %(nth)s entry", nth=ORDINALS[index])
    return gettext("its entry number %(n)s", n=index + 1)


def _at(raw: Any, path: Where) -> Any:
    value = raw
    for step in path:
        try:
            value = value[step]
        except (KeyError, IndexError, TypeError):
            return None
    return value


def _side_name(raw: Any, index: int) -> str:
    players = _at(raw, ("sides", index, "players"))
    if isinstance(players, list) and players and all(type(p) is int for p in players):
        low, high = min(players), max(players)
        if low == high:
            return gettext("the board side for %(players)s players", players=low)
        return gettext("the board side for %(low)s–%(high)s players", low=low, high=high)
    return gettext("board side %(n)s", n=index + 1)


def _guardian_name(raw: Any, index: int) -> str:
    gid = _at(raw, ("guardians", index, "id"))
    if isinstance(gid, str) and gid in GUARDIANS:
        return gettext("%(guardian)s's card", guardian=GUARDIANS[gid])
    return gettext("guardian card %(n)s", n=index + 1)


def _location_name(raw: Any, index: int) -> str:
    lid = _at(raw, ("locations", index, "id"))
    if isinstance(lid, str) and lid in LOCATIONS:
        return gettext("the %(location)s tile", location=LOCATIONS[lid])
    return gettext("Florence tile %(n)s", n=index + 1)


def _circle_key(key: str | int) -> str | None:
    text = str(key)
    return text if text.isdigit() and 1 <= int(text) <= 9 else None


def _field(step: str | int) -> str:
    if isinstance(step, int):
        return _nth(step)
    if step in FIELD_NAMES:
        return str(FIELD_NAMES[step])
    if _circle_key(step):
        return gettext("entry %(n)s", n=step)
    return gettext("one of its values")


def _on_a_side(raw: Any, index: int, rest: list[str | int]) -> tuple[list[str], list[str | int]]:
    """A board side's entry: the side by its player counts, then the circle and shield, the lines or the gate on
    it; the steps of ``rest`` not named here are given back."""
    parts = [_side_name(raw, index)]
    if len(rest) >= 2 and rest[0] == "circles" and _circle_key(rest[1]):
        parts.append(gettext("circle %(n)s", n=rest[1]))
        rest = rest[2:]
        if rest and isinstance(rest[0], int):
            parts.append(gettext("its %(nth)s shield", nth=ORDINALS[rest[0]]) if rest[0] < 8 else _nth(rest[0]))
            rest = rest[1:]
    elif len(rest) >= 2 and rest[0] == "lines" and isinstance(rest[1], str):
        shield = rest[1]
        known = len(shield) <= 24 and shield.isalnum()
        parts.append(
            gettext("the lines down from shield %(shield)s", shield=shield.upper())
            if known
            else str(FIELD_NAMES["lines"])
        )
        rest = rest[2:]
    elif len(rest) >= 2 and rest[0] == "gates" and isinstance(rest[1], int):
        parts.append(gettext("gate %(n)s of the Wall of Dis", n=rest[1] + 1))
        rest = rest[2:]
    return parts, rest


def _section_step(head: str | int, rest: list[str | int]) -> str | None:
    """The place inside a section that the next two steps name ("space 3" of the Phlegethon), or None."""
    if len(rest) < 2:
        return None
    key, item = rest[0], rest[1]
    if head == "phlegethon" and key == "start" and _circle_key(item):
        return gettext("where the cube of circle %(n)s starts", n=item)
    if head in ("phlegethon", "loan_track") and isinstance(item, int):
        return gettext("space %(n)s", n=item + 1)
    if head == "tower" and key == "heights" and isinstance(item, int):
        return gettext("floor %(n)s", n=item + 1)
    if head == "dante" and key == "steps" and isinstance(item, int):
        return gettext("step %(n)s", n=item + 1)
    if head == "dante" and key == "paths" and _circle_key(item):
        return gettext("the path for %(n)s players", n=item)
    if head == "souls" and key == "supply" and _circle_key(item):
        return gettext("the souls of circle %(n)s's colour", n=item)
    if head == "default_layout" and key == "quarters" and isinstance(item, str):
        quarter = quarter_name(item) if item in ("lily", "eagle", "key", "cross") else None
        return gettext("the %(quarter)s quarter", quarter=quarter) if quarter else gettext("one quarter")
    return None


def where_in_words(where: Where, raw: dict[str, Any] | None = None) -> str:
    """An edition entry as the physical game names it: ``("circles", 2, "infamy")`` is
    "circle 3, its infamy"; with the raw edition a board side is named by its player counts and a
    guardian by its card ("Medusa's card")."""
    if not where:
        return gettext("the file")
    head, rest = where[0], list(where[1:])
    parts: list[str]
    if head == "circles" and rest and isinstance(rest[0], int):
        number = _at(raw, ("circles", rest[0], "number"))
        parts = [gettext("circle %(n)s", n=number if type(number) is int and 1 <= number <= 9 else rest[0] + 1)]
        rest = rest[1:]
    elif head == "sides" and rest and isinstance(rest[0], int):
        parts, rest = _on_a_side(raw, rest[0], rest[1:])
    elif head == "guardians" and rest and isinstance(rest[0], int):
        parts, rest = [_guardian_name(raw, rest[0])], rest[1:]
    elif head == "locations" and rest and isinstance(rest[0], int):
        parts, rest = [_location_name(raw, rest[0])], rest[1:]
    elif head == "economy" and rest and rest[0] in ("start_florins", "start_drachmas"):
        coins = gettext("its florins") if rest[0] == "start_florins" else gettext("its drachmas")
        parts, rest = [gettext("the starting purse"), coins], rest[1:]
    elif (step := _section_step(head, rest)) is not None:
        parts, rest = [str(SECTION_NAMES[str(head)]), step], rest[2:]
    elif head == "expansion" and rest and rest[0] in ("plutus", "phlegyas"):
        parts, rest = [gettext("%(guardian)s's card", guardian=GUARDIANS[str(rest[0])])], rest[1:]
    elif head == "checks":
        parts, rest = [str(SECTION_NAMES["checks"])], []  # a check mark's key is a path of the file: never shown
    elif isinstance(head, str) and head in SECTION_NAMES:
        parts = [str(SECTION_NAMES[head])]
    else:
        parts = [gettext("one of its values")]
    return ", ".join(parts + [_field(entry) for entry in rest])


def _said(value: Any) -> str:
    """A parameter in words: numbers as numbers, text in quotes, lists joined; never a repr."""
    if type(value) is int:
        return str(value)
    if isinstance(value, str):
        text = value.strip("'\"")[:24]
        return f"“{text}”" if text else "“”"
    if isinstance(value, list | tuple):
        return ", ".join(_said(v) for v in value[:10])
    return "?"


def edition_error_text(exc: EditionError, raw: dict[str, Any] | None = None) -> str:
    """The refusal of an edition file in the reader's language, naming the entry in words."""
    sentence = SENTENCES.get(exc.code, SENTENCES["invalid"])
    params: dict[str, str] = {key: _said(value) for key, value in exc.params.items()}
    where = where_in_words(exc.where, raw)
    params["where"] = where[:1].upper() + where[1:]
    if exc.code == "missing":
        what = where_in_words((*exc.where, str(exc.params.get("key", ""))), raw) if exc.where else None
        if exc.where == () and isinstance(exc.params.get("key"), str):
            what = where_in_words((str(exc.params["key"]),), raw)
        params["what"] = what or gettext("an entry")
    if exc.code == "lacks_quarter":
        quarters = exc.params.get("quarters", [])
        params["quarters"] = ", ".join(quarter_name(str(q)) for q in quarters) if isinstance(quarters, list) else "?"
    if exc.code in ("line_not_one_down", "no_line_down", "unknown_shield"):
        for key in ("origin", "shield"):
            if isinstance(exc.params.get(key), str):
                params[key] = str(exc.params[key]).upper()[:24]
    if exc.code == "guardians_share_shield":
        for key in ("first", "second"):
            params[key] = str(GUARDIANS.get(str(exc.params.get(key)), params.get(key, "?")))
    return _fill(str(sentence), params)


class _Filled(dict[str, str]):
    def __missing__(self, key: str) -> str:
        return "?"


def _fill(sentence: str, params: dict[str, str]) -> str:
    return sentence % _Filled(params)
