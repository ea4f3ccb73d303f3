"""A switch of edition in words: each difference between two editions as a player reads it on the
components ("Circle 3: infamy 2 → 3", "Shield 2B shows the Key, not the Eagle", "a line from 2B
down to 3C added", "Phlegethon track: 1 2 3 4 5 → 1 2 3 5 8"), and the entry a switch would record
otherwise (who, what, and what changes), told with the history's sentences."""

from __future__ import annotations

from typing import Any

from companion.editions.diff import Difference
from companion.game.game_or_tally import AnyState
from companion.web.words.catalogue import gettext, lazy_gettext
from companion.web.words.glossary import colour_name, guardian_name, location_name, quarter_name
from companion.web.words.history import narrate
from events.catalog import Event

__all__ = ["entry_change", "tell_difference"]

_ = lazy_gettext

# The components as the box names them, for the sections of an edition file
PARTS = {
    "circles": _("Circle"),
    "wall": _("The Wall of Dis"),
    "tracks": _("The sin tracks"),
    "phlegethon": _("Phlegethon track"),
    "economy": _("Costs and payments"),
    "loan_track": _("Loan track"),
    "dante": _("Dante's track"),
    "family": _("Family members"),
    "tower": _("The tower"),
    "actions": _("Florence's locations"),
    "guests": _("Guests"),
    "barrels": _("Barrels"),
    "discs": _("Safe-passage discs"),
    "souls": _("Souls"),
    "adjacency": _("Neighbouring shields"),
    "guardians": _("Guardian card"),
    "default_guardians": _("The guardians of a new game"),
    "styx": _("The Styx"),
    "ranges": _("What the app accepts"),
    "assumptions": _("The table's readings of the rules"),
    "fraud": _("Fraud cards"),
    "scoring": _("Final scoring"),
    "expansion": _("Plutus & Phlegyas"),
    "limbo": _("Limbo"),
    "setup": _("Set-up"),
    "players": _("Players"),
    "quarters": _("Quarter symbols"),
    "default_layout": _("Florence's layout in a new game"),
    "empty_shield": _("Empty shields"),
    "menus": _("Card and tile menus"),
    "locations": _("Florence's locations"),
    "name": _("The edition's name"),
    "id": _("The edition's name"),
    "format": _("The file's format"),
    "format_version": _("The file's format"),
}

# Values as the components print them
VALUES = {
    "infamy": _("infamy"),
    "colour": _("colour"),
    "sin": _("sin"),
    "track": _("sin track"),
    "scale": _("spaces"),
    "start": _("start"),
    "minimum_value": _("lowest value"),
    "penalties": _("infamy per space"),
    "symbol_after": _("the symbol after space"),
    "instant_penalty": _("infamy for a loan past the symbol"),
    "bring_soul_cost": _("bringing a soul in"),
    "loan_drachmas": _("drachmas of a loan"),
    "bribe_any_quarter": _("a bribe for another quarter"),
    "special_entry_noble": _("a noble into a special location"),
    "florin_to_drachma": _("florins per drachma"),
    "guardian_use": _("using a guardian"),
    "styx_use": _("using the Styx"),
    "fraud_at_wall": _("a fraud card at the Wall"),
    "fraud_not_from_hand": _("a fraud card not from the hand"),
    "council_infamy": _("infamy of the family council"),
    "dante_final_infamy": _("infamy of Dante's last step"),
    "start_florins": _("starting florins"),
    "start_drachmas": _("starting drachmas"),
    "start_fraud_cards": _("fraud cards dealt at the start"),
    "nobles": _("nobles"),
    "urchins": _("urchins"),
    "start_urchins_at_home": _("urchins at home at the start"),
    "heights": _("floor heights"),
    "start_floors": _("floors at the start"),
    "spaces_per_floor": _("spaces per floor"),
    "first_level": _("first level"),
    "length": _("levels"),
    "first_four": _("first four"),
    "last_four": _("last four"),
    "bonus_tiles": _("bonus tiles"),
    "silver": _("silver"),
    "gold": _("gold"),
    "supply": _("souls in the supply"),
    "plague_card_souls": _("souls on a plague card"),
    "plague_card_max": _("most souls on a plague card"),
    "per_player": _("per player"),
    "colours": _("colours"),
    "paths": _("steps walked"),
    "steps": _("steps"),
    "shortcut": _("the Shortcut tile"),
    "skips": _("steps skipped"),
    "path_of": _("path of"),
    "kind": _("kind"),
    "circle": _("circle"),
    "between": _("between circles"),
    "bank_base": _("Bank pays"),
    "bank_per_guest": _("Bank pays per guest"),
    "courtyard_members_home": _("members home from the Courtyard"),
    "bonfire_exchange_max": _("most florins exchanged at the Bonfire"),
    "wall_exchange_max": _("most florins exchanged at the Wall"),
    "barrel_delivery_infamy": _("infamy per barrel delivered"),
    "barrels_required_max": _("most barrels a card asks"),
    "tie_breakers": _("tie-breakers"),
    "halves_per_diploma": _("halves per diploma"),
    "desks_per_player": _("Desks per player"),
    "toll": _("toll"),
    "brown_circle": _("the brown circle"),
    "rule": _("rule"),
    "effect": _("effect"),
    "conditions": _("conditions"),
    "position": _("position"),
    "ids": _("guardians"),
    "standees_fill": _("a standee fills its shield"),
    "players": _("players"),
    "min": _("fewest players"),
    "max": _("most players"),
    "guardians": _("guardians"),
    "starting_skulls_max": _("most starting skulls"),
    "pagan_colour": _("pagan soul colour"),
    "coins_max": _("most coins"),
}


def _word(key: Any) -> str:
    if isinstance(key, int):
        return str(key + 1)  # an index: the n-th, counted from 1
    if key in VALUES:
        return str(VALUES[key])
    text = str(key)
    return text if text.isdigit() else text.replace("_", " ")


def _value(value: Any) -> str:
    """A value the way a component prints it: numbers in a row, yes or no, names in words."""
    if value is None:
        return "—"
    if isinstance(value, bool):
        return gettext("yes") if value else gettext("no")
    if isinstance(value, list):
        return " ".join(_value(v) for v in value) if value else "—"
    if isinstance(value, dict):
        return ", ".join(f"{_word(k)} {_value(v)}" for k, v in value.items())
    if isinstance(value, str):
        for words in (quarter_name, location_name, guardian_name):
            said = words(value)
            if said and said != value:
                return said
        return value.replace("_", " ")
    return str(value)


def _side_name(raw: dict[str, Any], side: str) -> str:
    for entry in raw.get("sides", []):
        if entry.get("id") == side and entry.get("players"):
            return gettext("the side for %(a)s–%(b)s players", a=entry["players"][0], b=entry["players"][-1])
    return gettext("the other board side")


def _board(d: Difference, raw: dict[str, Any]) -> str:
    if d.kind == "symbol":
        return gettext(
            "Shield %(shield)s shows the %(new)s, not the %(old)s",
            shield=str(d.where[1]).upper(),
            new=quarter_name(d.new),
            old=quarter_name(d.old),
        )
    if d.kind == "line":
        origin, target = str(d.where[1]).upper(), str(d.where[2]).upper()
        if d.new:
            return gettext("A line from %(a)s down to %(b)s added", a=origin, b=target)
        return gettext("The line from %(a)s down to %(b)s removed", a=origin, b=target)
    if d.kind == "gate":
        shield = str(d.where[1]).upper()
        if d.new:
            return gettext("A gate of the Wall above %(shield)s added", shield=shield)
        return gettext("The gate of the Wall above %(shield)s removed", shield=shield)
    if d.kind == "shields":
        return gettext("Circle %(n)s: %(old)s shields → %(new)s", n=d.where[1], old=d.old, new=d.new)
    side = _side_name(raw, str(d.where[0]))
    return gettext("Board %(side)s added", side=side) if d.new else gettext("Board %(side)s removed", side=side)


def _change(what: str, d: Difference) -> str:
    if d.old is None:
        return gettext("%(what)s: %(new)s added", what=what, new=_value(d.new))
    if d.new is None:
        return gettext("%(what)s: %(old)s removed", what=what, old=_value(d.old))
    return gettext("%(what)s: %(old)s → %(new)s", what=what, old=_value(d.old), new=_value(d.new))


def tell_difference(d: Difference, raw: dict[str, Any]) -> str:
    """One difference as a player reads it (``raw``: the new edition, to name its board sides and cards)."""
    if d.kind != "value":
        return _board(d, raw)
    where = d.where
    head = str(where[0]) if where else ""
    if head == "sides":
        return _change(gettext("Board %(side)s", side=_side_name(raw, str(where[1]))), d)
    if head == "circles" and len(where) >= 3 and isinstance(where[1], int):
        return _change(gettext("Circle %(n)s: %(what)s", n=where[1] + 1, what=_word(where[2])), d)
    if head == "phlegethon" and where[1:2] == ("start",) and len(where) == 3:
        what = gettext("Phlegethon track: start of the cube of circle %(n)s", n=where[2])
        return _change(what, Difference("value", where, _space(d.old), _space(d.new)))
    if head == "phlegethon" and where[1:] == ("scale",):
        return _change(str(PARTS["phlegethon"]), d)
    if head == "souls" and where[1:2] == ("supply",) and len(where) == 3:
        return _change(gettext("Souls in the supply: %(colour)s", colour=colour_name(int(where[2]))), d)
    if head == "guardians" and len(where) >= 2 and isinstance(where[1], int):
        guardians = raw.get("guardians", [])
        name = guardian_name(guardians[where[1]].get("id", "")) if where[1] < len(guardians) else str(where[1] + 1)
        rest = " ".join(_word(k) for k in where[2:])
        what = gettext("Guardian card %(name)s", name=name) + (f": {rest}" if rest else "")
        return _change(what, d)
    part = str(PARTS.get(head, head.replace("_", " ")))
    rest = " ".join(_word(k) for k in where[1:])
    return _change(f"{part}: {rest}" if rest else part, d)


def _space(index: Any) -> Any:
    """A cube's start as the table counts spaces: from 1."""
    return gettext("space %(n)s", n=index + 1) if isinstance(index, int) else index


def entry_change(recorded: tuple[Event, ...], instead: tuple[Event, ...], before: AnyState) -> list[str]:
    """What an entry recorded and what the new edition would record for it, as history sentences:
    the sentences only the recorded entry has ("no longer: …") and those only the new one has."""
    said = [narrate(e, before) for e in recorded]
    now = [narrate(e, before) for e in instead]
    out = [gettext("No longer: %(sentence)s", sentence=s) for s in said if s not in now]
    out += [gettext("Instead: %(sentence)s", sentence=s) for s in now if s not in said]
    return out
