"""The shape of an edition file: each top-level section with the type and range of every value in it
(docs/edition-format.md "Limits"), checked before any value is used; ``check_shape`` walks a whole file
through it, then through the references between its entries (``references``)."""

from __future__ import annotations

import functools
import re
from typing import Any

from companion.game.edition.checks import (
    Check,
    boolean,
    check_date,
    choice,
    edition_name,
    fail,
    integer,
    lines_ok,
    list_of,
    mapping,
    number_key,
    object_of,
    pair,
    quick,
    rows_ok,
    shallow_extras,
    text,
)
from companion.game.edition.limits import (
    ADJACENCY_RULES,
    ASSUMPTIONS,
    EFFECT_IDS,
    HEX_COLOUR,
    MAX_COINS,
    MAX_INFAMY_RANGE,
    MAX_LOAN_SPACES,
    MAX_PLAYERS,
    MAX_SCALE,
    MAX_SHIELDS_PER_CIRCLE,
    MAX_SIDES,
    MAX_SMALL,
    MAX_TEXT,
    MAX_TOWER_FLOORS,
    MAX_TRACK_LENGTH,
    PIECE_ID,
    POSITIONS,
    PRIMITIVES,
    REQUIREMENT_IDS,
    REWARD_IDS,
    SLUG,
    STEP_KINDS,
    STYX_GROUPS,
    TARGETS,
    TIE_BREAKERS,
)
from companion.game.edition.model import EditionError
from companion.game.edition.references import check_references

SMALL = integer(0, MAX_SMALL)
CIRCLE = integer(1, 9)
CIRCLES = list_of(CIRCLE, 1, 9)
PIECE = text(PIECE_ID)
GLYPH = text(re.compile(r"^\S{1,2}$"), "bad_text", 2)
ECONOMY_KEYS = (
    "bring_soul_cost",
    "bribe_any_quarter",
    "special_entry_noble",
    "florin_to_drachma",
    "guardian_use",
    "styx_use",
    "fraud_at_wall",
    "fraud_not_from_hand",
    "council_infamy",
    "dante_final_infamy",
)


def _board(v: int) -> dict[str, Check]:
    """The players, the quarter symbols, the nine circles, the Wall and the board sides."""
    row = list_of(object_of({"id": PIECE, "quarter": PIECE}), 0, MAX_SHIELDS_PER_CIRCLE, "too_many_shields")
    side = {
        "id": PIECE,
        "players": list_of(integer(1, MAX_PLAYERS), 1, MAX_PLAYERS),
        "circles": quick(rows_ok, mapping(number_key(1, 9), row, most=9)),
        "lines": quick(
            lines_ok, mapping(PIECE, list_of(PIECE, 0, MAX_SHIELDS_PER_CIRCLE), most=9 * MAX_SHIELDS_PER_CIRCLE)
        ),
        "gates": list_of(object_of({"id": PIECE, "above": PIECE}), 0, MAX_SHIELDS_PER_CIRCLE),
    }
    colour = {"id": PIECE, "letter": GLYPH, "hex": text(HEX_COLOUR, "bad_colour_code")}
    circle = {
        "number": CIRCLE,
        "colour": PIECE,
        "hex": text(HEX_COLOUR, "bad_colour_code"),
        "sin": PIECE,
        "infamy": SMALL,
        "track": boolean,
    }
    return {
        "players": object_of(
            {
                "min": integer(1, MAX_PLAYERS),
                "max": integer(1, MAX_PLAYERS),
                "colours": list_of(object_of(colour, source=v), 1, 12),
            },
            source=v,
        ),
        "quarters": list_of(object_of({"id": PIECE}, {"glyph": GLYPH}, source=v), 1, 6),
        "circles": list_of(object_of(circle, source=v), 9, 9),
        "wall": object_of({"between": list_of(CIRCLE, 2, 2)}, source=v),
        "sides": list_of(object_of(side, source=v), 1, MAX_SIDES),
    }


def _tracks(v: int) -> dict[str, Check]:
    """The sin tracks, the Phlegethon, the economy, the loan track and Dante's walk."""
    shortcut = object_of(
        {"players": list_of(integer(1, MAX_PLAYERS), 0, MAX_PLAYERS), "skips": list_of(integer(0, 39), 0, 40)},
        {"path_of": integer(1, MAX_PLAYERS)},
    )
    return {
        "tracks": object_of(
            {
                "first_level": integer(0, MAX_TRACK_LENGTH - 1),
                "length": integer(1, MAX_TRACK_LENGTH),
                "first_four": CIRCLES,
                "last_four": CIRCLES,
                "bonus_tiles": object_of({"silver": integer(0, 9), "gold": integer(0, 9)}),
            },
            source=v,
        ),
        "phlegethon": object_of(
            {
                "scale": list_of(integer(0, MAX_SMALL), 2, MAX_SCALE),
                "start": mapping(number_key(1, 9), integer(0, MAX_SCALE - 1), most=9),
                "minimum_value": integer(0, MAX_SMALL),
            },
            source=v,
        ),
        "economy": object_of(
            {
                **{key: SMALL for key in ECONOMY_KEYS},
                "loan_drachmas": integer(1, MAX_SMALL),  # 0 would leave a debtor borrowing for ever
                "start_florins": integer(0, MAX_COINS),
                "start_drachmas": integer(0, MAX_COINS),
                "start_fraud_cards": integer(0, 20),
            },
            source=v,
        ),
        "loan_track": object_of(
            {
                "penalties": list_of(integer(0, 999), 1, MAX_LOAN_SPACES),
                "symbol_after": integer(0, MAX_LOAN_SPACES - 1),
                "instant_penalty": integer(0, 999),
            },
            source=v,
        ),
        "dante": object_of(
            {
                "steps": list_of(object_of({"kind": choice(STEP_KINDS)}, {"circle": CIRCLE}), 1, 40),
                "paths": mapping(number_key(1, MAX_PLAYERS), list_of(integer(0, 39), 1, 40), 1, MAX_PLAYERS),
            },
            {"shortcut": shortcut},
            source=v,
        ),
    }


def _pieces(v: int) -> dict[str, Check]:
    """The family, the tower, the Florence locations and their layout, the actions and the pieces in the box."""
    return {
        "family": object_of(
            {"nobles": integer(0, 12), "urchins": integer(0, 12), "start_urchins_at_home": integer(0, 12)},
            source=v,
        ),
        "tower": object_of(
            {
                "heights": list_of(integer(0, MAX_SMALL), 1, MAX_TOWER_FLOORS),
                "start_floors": integer(1, MAX_TOWER_FLOORS),
                "spaces_per_floor": integer(1, 10),
            },
            source=v,
        ),
        "locations": list_of(
            object_of({"id": PIECE, "circle": CIRCLE, "kind": choice(("free", "special"))}, source=v), 1, 9
        ),
        "default_layout": object_of({"quarters": mapping(PIECE, list_of(PIECE, 0, 9), most=6)}),
        "actions": object_of(
            {
                "bank_base": integer(0, 20),
                "bank_per_guest": integer(0, 20),
                "courtyard_members_home": integer(0, 20),
                "bonfire_exchange_max": integer(0, 20),
                "wall_exchange_max": integer(0, 20),
                "barrel_delivery_infamy": list_of(SMALL, 1, 9),
            },
            source=v,
        ),
        "guests": object_of({"colours": CIRCLES}, source=v),
        "barrels": object_of({"colours": CIRCLES}, source=v),
        "discs": object_of({"per_player": integer(0, 10)}, source=v),
        "souls": object_of(
            {
                "supply": mapping(number_key(1, 9), SMALL, 9, 9),
                "plague_card_souls": integer(1, 20),
                "plague_card_max": integer(1, 20),
            },
            source=v,
        ),
    }


def _endgame(v: int) -> dict[str, Check]:
    """The reward and end-game menus, the scoring and the expansion."""
    menu_item = {
        ids: object_of(
            {"id": choice(ids)},
            {"amount": pair(0, MAX_SMALL), "track": boolean, "circle": boolean, "colours": boolean},
        )
        for ids in (REWARD_IDS, REQUIREMENT_IDS, EFFECT_IDS)
    }
    expansion_guardian = object_of({"position": choice(POSITIONS)}, {"circle_colour": PIECE, "circle": CIRCLE})
    breakers = list_of(choice(TIE_BREAKERS), 0, len(TIE_BREAKERS))
    return {
        "menus": object_of(
            {
                "rewards": list_of(menu_item[REWARD_IDS], 1, len(REWARD_IDS)),
                "endgame_requirements": list_of(menu_item[REQUIREMENT_IDS], 1, len(REQUIREMENT_IDS)),
                "endgame_effects": list_of(menu_item[EFFECT_IDS], 1, len(EFFECT_IDS)),
            },
            source=v,
        ),
        "scoring": object_of(
            {"halves_per_diploma": integer(1, 4), "known_tie_breakers": breakers},
            {"tie_breakers": breakers},
            source=v,
        ),
        "expansion": object_of(
            {
                "desks_per_player": integer(0, 10),
                "toll": integer(0, 20),
                "plutus": expansion_guardian,
                "phlegyas": expansion_guardian,
            },
            source=v,
        ),
    }


def _guardians(v: int) -> dict[str, Check]:
    """The adjacency rule, the guardians and the ones a game starts with."""
    effect = object_of(
        {"primitive": choice(tuple(sorted(PRIMITIVES)))},
        {"target": choice(TARGETS), "count": integer(1, 6), "uses": integer(1, 6), "cross_wall": boolean},
    )
    conditions = object_of({}, {"guardian_circle_at_least": CIRCLE, "guardian_circle_at_most": CIRCLE})
    guardian = object_of(
        {
            "id": PIECE,
            "start": object_of({"circle": CIRCLE, "position": choice(POSITIONS)}),
            "effect": list_of(effect, 0, 6),
        },
        {"conditions": conditions},
        source=v,
    )
    return {
        "adjacency": object_of({"rule": choice(ADJACENCY_RULES)}, source=v),
        "guardians": list_of(guardian, 1, 12),
        "default_guardians": object_of({"ids": list_of(PIECE, 0, 6)}),
    }


def _table_rules(v: int) -> dict[str, Check]:
    """The rules a table may read its own way: fraud, Limbo, set-up, empty shields, the Styx, ranges, assumptions."""
    return {
        "fraud": object_of({"barrels_required_max": integer(0, 9)}, source=v),
        "limbo": object_of({"circle": CIRCLE, "pagan_colour": CIRCLE}, source=v),
        "setup": object_of({"guardians": integer(0, 6), "starting_skulls_max": integer(0, 8)}, source=v),
        "empty_shield": object_of({"standees_fill": boolean}, source=v),
        "styx": object_of({"gains": mapping(number_key(1, 9), list_of(choice(STYX_GROUPS), 1, 2), 1, 9)}, source=v),
        "ranges": object_of(
            {"infamy": pair(-MAX_INFAMY_RANGE, MAX_INFAMY_RANGE), "coins_max": integer(1, MAX_COINS)}, source=v
        ),
        "assumptions": object_of({name: boolean for name in ASSUMPTIONS}, source=v),
    }


@functools.lru_cache(maxsize=2)
def schema(version: int) -> dict[str, Check]:
    """Each top-level section of an edition of format ``version`` and the shape and range of every value in it."""
    return {
        **_board(version),
        **_tracks(version),
        **_pieces(version),
        **_endgame(version),
        **_guardians(version),
        **_table_rules(version),
    }


TOP_OPTIONAL: dict[str, Check] = {
    "checks": mapping(text(None, "bad_text", MAX_TEXT), check_date, most=1000),
    "imported": object_of({"from": text(None, "bad_text", MAX_TEXT), "on": check_date}),
}
TOP_KEYS = frozenset({"format", "format_version", "id", "name", *TOP_OPTIONAL})


def check_shape(raw: dict[str, Any], version: int) -> None:
    """Every value's type and range, then every id it names and how the numbers fit together."""
    for key, top_check in {"id": text(SLUG, "bad_slug", 48), "name": edition_name, **TOP_OPTIONAL}.items():
        if key in raw:
            top_check(raw[key], (key,))
        elif key in ("id", "name"):
            raise fail("missing", (), f"missing '{key}'", key=key)
    sections = schema(version)
    shallow_extras(raw, TOP_KEYS | frozenset(sections), ())
    for section in (
        "players",
        "tracks",
        "phlegethon",
        "economy",
        "loan_track",
        "dante",
        "family",
        "tower",
        "actions",
        "guests",
        "barrels",
        "discs",
        "souls",
        "menus",
        "scoring",
        "expansion",
        "wall",
        "adjacency",
        "fraud",
        "limbo",
        "setup",
        "empty_shield",
        "styx",
        "ranges",
        "assumptions",
        "circles",
        "quarters",
        "sides",
        "locations",
        "default_layout",
        "guardians",
        "default_guardians",
    ):
        if section not in raw:
            raise EditionError(f"edition: missing '{section}'", "missing", (), {"key": section})
        sections[section](raw[section], (section,))
    check_references(raw)
