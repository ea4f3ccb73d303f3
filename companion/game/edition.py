"""The physical game as data: board geometry and every number, loaded and validated.

``parse_edition(text)`` turns an edition file's JSON text into a frozen ``Edition`` or raises
``EditionError`` (and nothing else, whatever the text) with a message that names the bad entry and
a ``code``, ``where`` and ``params`` that pages say in words (``companion.web.words.edition_errors``).
Every value the app reads is checked for its type and range (``_schema``, docs/edition-format.md
"Limits") before any is used, then every id it names and how the numbers fit together. A game pins the
edition's ``content_hash``; the shell keeps that exact text so a recorded game never
changes when the file is edited (RULES.md "The unknown numbers").

Provenance (``source``) tags: ``rulebook: seed NNN <page>`` (the rulebook seed says it on that
page), ``reference: RULES.md §N`` (the project's digest, not the rulebook), ``estimated`` (a
guess), ``assumption`` (our reading where the rulebook is silent) and ``checked`` (confirmed on a
real board by the editor's guided check). Format version 1 files,
pinned by games recorded before, used only ``rulebook`` and ``estimated``; ``upcast_v1`` gives
them the sections added since, holding the values the code used to hard-code.
"""

from __future__ import annotations

import copy
import datetime
import functools
import hashlib
import json
import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

__all__ = [
    "ERROR_CODES",
    "SOURCE_GROUPS",
    "Circle",
    "Edition",
    "EditionError",
    "Guardian",
    "Location",
    "Shield",
    "Side",
    "content_hash",
    "parse_edition",
    "path_text",
]

SOURCES_V1 = ("rulebook", "estimated")
SOURCE_TAGS = ("estimated", "assumption", "checked")  # checked: confirmed on a real board (the guided check)
RULEBOOK_TAG = re.compile(r"^rulebook: seed (\d{3}) (\S.*)$")
REFERENCE_TAG = re.compile(r"^reference: RULES\.md §\d+(\.\d+)*$")
# A source map names fields of its object, or one of these groups of values the object stands for:
# a board side's ``geometry`` (its circles, lines and gates), the wall's ``gates`` (on every side).
SOURCE_GROUPS = frozenset({"geometry", "gates"})
# Statements format-2 files written before ``rulings`` named in a source map (games pin such copies);
# a file now says them in ``rulings``.
LEGACY_STATEMENTS = frozenset({"one_term", "at_scoring", "guardians_to_empty", "desks", "needs_own_disc"})
MAX_RULINGS = 12
ADJACENCY_RULES = ("row_and_lines", "row", "lines")


def dante_path_of(dante: dict[str, Any], players: int) -> tuple[int, ...] | None:
    """The step indexes Dante walks with ``players`` players on the edition whose ``dante`` section this is: that
    count's own path, else, for a count under ``shortcut.players``, the path of ``shortcut.path_of`` players without
    the steps the Shortcut tile skips (RULES.md §2 step 7); None when the edition gives neither."""
    own = dante["paths"].get(str(players))
    if own is not None:
        return tuple(int(i) for i in own)
    shortcut = dante.get("shortcut") or {}
    base = dante["paths"].get(str(shortcut.get("path_of")))
    if players not in shortcut.get("players", ()) or base is None:
        return None
    skips = {int(s) for s in shortcut.get("skips", ())}
    return tuple(int(i) for i in base if int(i) not in skips)


class EditionError(ValueError):
    """An edition file is malformed. ``str(exc)`` is an English sentence naming the entry (the CLI
    and the logs print it); ``code`` says what is wrong (one of ``ERROR_CODES``), ``where`` is the
    entry as a path of keys and list indexes (``("circles", 2, "infamy")``) and ``params`` holds the
    values the sentence names (``{"value": -1, "min": 0, "max": 99}``), so a page can say it in words.
    """

    def __init__(
        self,
        message: str,
        code: str = "invalid",
        where: tuple[str | int, ...] = (),
        params: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.where = tuple(where)
        self.params = dict(params or {})

    def retold(self, prefix: str) -> EditionError:
        """The same error with ``prefix`` (a file name) before its sentence."""
        return EditionError(f"{prefix}: {self}", self.code, self.where, self.params)


def content_hash(text: str) -> str:
    """The sha256 of an edition file's exact text: what a game pins."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class Circle:
    """One circle of Hell: its colour, its sin and the infamy a soul scores on arrival."""

    number: int
    colour: str
    hex: str
    sin: str
    infamy: int
    track: bool


@dataclass(frozen=True)
class Shield:
    """A space on a circle's row, carrying one Florence quarter symbol."""

    id: str
    circle: int
    index: int
    quarter: str


@dataclass(frozen=True)
class Side:
    """One side of the board (1–2 or 3–4 players): shields, lines down, Wall gates."""

    id: str
    players: tuple[int, ...]
    shields: dict[str, Shield]
    rows: dict[int, tuple[str, ...]]
    lines: dict[str, tuple[str, ...]]
    gates: dict[str, str]
    gate_above: dict[str, str]
    adjacency: str = "row_and_lines"

    def row(self, circle: int) -> tuple[str, ...]:
        """The shields of ``circle``, left to right."""
        return self.rows[circle]

    def adjacent(self, shield: str) -> tuple[str, ...]:
        """Shields next to ``shield`` by the edition's ``adjacency.rule``: row neighbours
        (``row``), shields joined to it by a line (``lines``), or both (``row_and_lines``)."""
        s = self.shields[shield]
        row = self.rows[s.circle]
        near: list[str] = []
        if self.adjacency in ("row_and_lines", "row"):
            near += [row[i] for i in (s.index - 1, s.index + 1) if 0 <= i < len(row)]
        if self.adjacency in ("row_and_lines", "lines"):
            near += list(self.lines.get(shield, ()))
            near += [up for up, downs in self.lines.items() if shield in downs]
        return tuple(dict.fromkeys(near))


@dataclass(frozen=True)
class Location:
    """A Florence location tile: free or special, and the sin colour it accuses."""

    id: str
    circle: int
    kind: str


@dataclass(frozen=True)
class Guardian:
    """A guardian: where its standee starts and its effect as primitives with conditions."""

    id: str
    start_circle: int
    start_position: str
    effect: tuple[dict[str, Any], ...]
    conditions: dict[str, int]


@dataclass(frozen=True)
class Edition:
    """Every number and the geometry of one physical edition, pinned by content hash."""

    id: str
    name: str
    content_hash: str
    raw: dict[str, Any]
    circles: dict[int, Circle]
    sides: dict[str, Side]
    quarters: tuple[str, ...]
    colours: dict[str, str]
    min_players: int
    max_players: int
    standees_fill: bool = True  # edition empty_shield.standees_fill: a standee fills its shield

    # The numbers below are read through properties of ``raw`` so that the edition
    # file stays the single place where each number is written.
    def section(self, name: str) -> dict[str, Any]:
        """A top-level section of the edition file."""
        value = self.raw[name]
        if not isinstance(value, dict):
            raise EditionError(f"{name}: expected an object", "not_object", (name,), {})
        return value

    def player_hexes(self) -> dict[str, str]:
        """Each player colour's id with the colour it is drawn in (``players.colours[].hex``): a copy of its own."""
        return dict(self._player_hexes)

    @functools.cached_property
    def _player_hexes(self) -> dict[str, str]:
        """``player_hexes``, read once per edition (each player's marker on every answer asks it)."""
        return {str(c["id"]): str(c["hex"]) for c in self.section("players")["colours"]}

    def player_hex(self, colour: str) -> str:
        """The colour a player of ``colour`` is drawn in: the one lookup the map, the cards and the charts use."""
        return self._player_hexes.get(colour, "#888888")

    def economy(self, key: str) -> int:
        """A price or amount from the ``economy`` section."""
        return int(self.section("economy")[key])

    def side_for(self, players: int) -> Side:
        """The board side used with this many players."""
        for side in self.sides.values():
            if players in side.players:
                return side
        raise EditionError(f"sides: no board side for {players} players", "no_side", ("sides",), {"players": players})

    @functools.cached_property
    def locations_by_id(self) -> dict[str, dict[str, Any]]:
        """The location tiles by id, read once per edition (an accusation asks ~3 times, every Florence phase's
        options and drawn board once). Read only: callers never change it."""
        return {loc["id"]: loc for loc in self.raw["locations"]}

    def dante_path(self, players: int) -> tuple[int, ...]:
        """The step indexes Dante walks with ``players`` players (``dante_path_of``), worked out once per count; empty
        for a count the edition gives no path (never one it plays: validation refuses an edition without one)."""
        paths = self._dante_paths
        path = paths.get(players)
        if path is None:
            path = paths[players] = dante_path_of(self.section("dante"), players) or ()
        return path

    @functools.cached_property
    def _dante_paths(self) -> dict[int, tuple[int, ...]]:
        return {}

    @functools.cached_property
    def track_circles(self) -> tuple[int, ...]:
        """The circles that have a sin track (2–9); worked out once per edition (the circles never change)."""
        return tuple(n for n, c in sorted(self.circles.items()) if c.track)

    @property
    def track_length(self) -> int:
        """The highest skull level on a sin track."""
        return int(self.section("tracks")["length"])

    @property
    def loan_penalties(self) -> tuple[int, ...]:
        """End-of-game infamy lost per Ship space (space 0 first)."""
        return tuple(int(v) for v in self.section("loan_track")["penalties"])

    @property
    def first_level(self) -> int:
        """The skull level of a player who has not advanced on a track."""
        return int(self.section("tracks")["first_level"])

    @functools.cached_property
    def wall(self) -> tuple[int, int]:
        """The circles the Wall of Dis stands between (upper, lower); read once per edition (a soul's every step
        asks it)."""
        upper, lower = (int(c) for c in self.section("wall")["between"])
        return upper, lower

    @property
    def limbo(self) -> int:
        """The circle where souls from the Cemetery enter Hell."""
        return int(self.section("limbo")["circle"])

    @property
    def pagan_colour(self) -> int:
        """The colour of the pagan souls Dante's pagan step puts into the Cemetery."""
        return int(self.section("limbo")["pagan_colour"])

    @property
    def halves_per_diploma(self) -> int:
        """How many half-diploma tokens make one diploma at final scoring."""
        return int(self.section("scoring")["halves_per_diploma"])

    @property
    def minimum_space(self) -> int:
        """The leftmost Phlegethon space a cube may fall to: the first worth the minimum value."""
        phlegethon = self.section("phlegethon")
        minimum = int(phlegethon["minimum_value"])
        return next(i for i, v in enumerate(phlegethon["scale"]) if int(v) >= minimum)

    @property
    def expansion_guardians(self) -> tuple[str, ...]:
        """The guardians the expansion places (seed 002: Plutus and Phlegyas), as the edition's
        ``expansion`` section names them."""
        return tuple(g for g in EXPANSION_GUARDIANS if g in self.section("expansion"))

    def assumption(self, name: str) -> bool:
        """A reading of ours where the rulebook is silent, as the edition sets it (a table may switch it)."""
        return bool(self.section("assumptions")[name])


# ---------------------------------------------------------------------------------------------
# Limits: what a board, a box and the app's pages can hold (docs/edition-format.md "Limits").
MAX_FILE_CHARS = 512 * 1024
MAX_SHIELDS_PER_CIRCLE = 8  # the map draws a circle's row in one band; past 8 its shields stop being tappable
MAX_PLAYERS = 4
MAX_SIDES = 4
MAX_LIST = 64  # any other list (menus, guardians, quarters, …)
MAX_TRACK_LENGTH = 20
MAX_SCALE = 20  # Phlegethon spaces
MAX_LOAN_SPACES = 20
MAX_TOWER_FLOORS = 10
MAX_SMALL = 99  # a price, an amount, an infamy on a circle, a count of pieces
MAX_COINS = 999  # ranges.coins_max itself
MAX_INFAMY_RANGE = 9999
MAX_TEXT = 200
MAX_DEPTH = 8  # how deep a note may nest (the file's own values nest at most 6 deep)
SLUG = re.compile(r"^[a-z0-9][a-z0-9-]{0,47}$")
PIECE_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,23}$")  # a shield, gate, colour, quarter, guardian, location id
HEX_COLOUR = re.compile(r"^#[0-9a-fA-F]{6}$")
DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")
STEP_KINDS = ("start", "pagan", "fraud", "diploma", "final")
POSITIONS = ("far_left", "far_right")
STYX_GROUPS = ("first_four", "last_four")
REWARD_IDS = (
    "florins",
    "drachmas",
    "infamy",
    "skull",
    "half_diploma",
    "tower_floor",
    "urchin",
    "cube_right",
    "disc",
    "nothing",
)
REQUIREMENT_IDS = (
    "always",
    "barrels",
    "guests_at_least",
    "skull_at_least",
    "diplomas_at_least",
    "no_loans",
    "floors_at_least",
)
EFFECT_IDS = ("infamy", "infamy_per_diploma", "skull", "half_diploma", "cube_right")
ASSUMPTIONS = (
    "fraud_without_barrels",
    "toll_on_guardian_push",
    "loan_any_time",
    "dante_fraud_optional",
    "expansion_replaces_guardians",
    "loan_for_toll",
    "fraud_in_hand_scores",
)
EXPANSION_GUARDIANS = ("plutus", "phlegyas")

# Every code the validator can raise: the words module gives each a sentence in every language.
ERROR_CODES = (
    "invalid",
    "too_large",
    "not_json",
    "too_deep",
    "not_a_number",
    "duplicate_key",
    "not_object",
    "wrong_format",
    "wrong_version",
    "missing",
    "not_integer",
    "not_boolean",
    "not_text",
    "not_list",
    "out_of_range",
    "too_few",
    "too_many",
    "text_too_long",
    "bad_text",
    "bad_id",
    "bad_slug",
    "bad_name",
    "bad_colour_code",
    "bad_date",
    "not_a_choice",
    "bad_source",
    "source_names_no_field",
    "duplicate_id",
    "unknown_circle",
    "unknown_quarter",
    "unknown_shield",
    "unknown_guardian",
    "unknown_location",
    "unknown_colour",
    "unknown_tie_breaker",
    "wrong_circles",
    "no_shields",
    "too_many_shields",
    "lacks_quarter",
    "line_not_one_down",
    "no_line_down",
    "no_gate",
    "gate_off_wall",
    "wall_not_adjacent",
    "no_side",
    "too_few_colours",
    "location_per_track",
    "layout_incomplete",
    "loan_start_not_free",
    "no_minimum_space",
    "off_the_scale",
    "bonus_tiles",
    "no_dante_path",
    "step_off_path",
    "step_needs_track",
    "track_group",
    "tower_start",
    "min_above_max",
    "start_beyond_purse",
    "guardians_count",
    "guardians_share_shield",
    "plague_card",
    "urchins_at_home",
)

Where = tuple[str | int, ...]


def path_text(where: Where) -> str:
    """An entry's path as the file spells it (``circles[2].infamy``): for the CLI and the logs only."""
    out = ""
    for step in where:
        if isinstance(step, int):
            out += f"[{step}]"
        elif re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", step):
            out += f".{step}" if out else step
        else:
            out += f"['{step}']"
    return out or "edition"


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "…"


def _fail(code: str, where: Where, sentence: str, **params: Any) -> EditionError:
    return EditionError(f"{path_text(where)}: {sentence}", code, where, params)


Check = Callable[[Any, Where], None]


def _integer(low: int, high: int) -> Check:
    def check(value: Any, where: Where) -> None:
        if type(value) is not int:
            raise _fail("not_integer", where, f"{_short(value)} is not a whole number", value=_short(value))
        if not low <= value <= high:
            raise _fail(
                "out_of_range",
                where,
                f"{value} is out of range ({low} to {high})",
                value=value,
                min=low,
                max=high,
            )

    return check


def _boolean(value: Any, where: Where) -> None:
    if type(value) is not bool:
        raise _fail("not_boolean", where, f"{_short(value)} is not true or false", value=_short(value))


def _text(pattern: re.Pattern[str] | None = None, code: str = "bad_id", longest: int = MAX_TEXT) -> Check:
    def check(value: Any, where: Where) -> None:
        if not isinstance(value, str):
            raise _fail("not_text", where, f"{_short(value)} is not text", value=_short(value))
        if len(value) > longest:
            raise _fail("text_too_long", where, f"longer than {longest} characters", max=longest)
        if pattern is not None and not pattern.fullmatch(value):
            raise _fail(code, where, f"{_short(value)} is not a valid {code.removeprefix('bad_')}", value=value)

    return check


def _choice(choices: tuple[str, ...]) -> Check:
    def check(value: Any, where: Where) -> None:
        if not isinstance(value, str) or value not in choices:
            raise _fail(
                "not_a_choice",
                where,
                f"{_short(value)} is not one of {list(choices)}",
                value=_short(value),
                choices=list(choices),
            )

    return check


def _list(item: Check, fewest: int = 0, most: int = MAX_LIST, many: str = "too_many") -> Check:
    def check(value: Any, where: Where) -> None:
        if not isinstance(value, list):
            raise _fail("not_list", where, f"{_short(value)} is not a list", value=_short(value))
        if len(value) < fewest:
            raise _fail("too_few", where, f"holds {len(value)}, needs at least {fewest}", min=fewest, count=len(value))
        if len(value) > most:
            raise _fail(many, where, f"holds {len(value)}, at most {most}", max=most, count=len(value))
        for i, entry in enumerate(value):
            item(entry, (*where, i))

    return check


def _pair(low: int, high: int) -> Check:
    """Two whole numbers, the first not above the second: a range such as ``[1, 6]``."""
    numbers = _list(_integer(low, high), 2, 2)

    def check(value: Any, where: Where) -> None:
        numbers(value, where)
        if value[0] > value[1]:
            raise _fail("min_above_max", where, f"{value[0]} is above {value[1]}", min=value[0], max=value[1])

    return check


def _object(fields: dict[str, Check], optional: dict[str, Check] | None = None, source: int | None = None) -> Check:
    """An object with ``fields`` (each required), ``optional`` ones and, when ``source`` is a
    format version, a provenance ``source``. Other keys (notes) are kept and not read."""

    known = frozenset(fields) | frozenset(optional or {})

    def check(value: Any, where: Where) -> None:
        if not isinstance(value, dict):
            raise _fail("not_object", where, f"{_short(value)} is not an object", value=_short(value))
        if source is not None:
            _check_source(value, where, source)
        for key, field in fields.items():
            if key not in value:
                raise _fail("missing", where, f"missing '{key}'", key=key)
            field(value[key], (*where, key))
        for key, field in (optional or {}).items():
            if key in value:
                field(value[key], (*where, key))
        _shallow_extras(value, known, where)

    return check


def _shallow_extras(value: dict[str, Any], known: frozenset[str], where: Where) -> None:
    """Keys the app does not read (notes) may hold anything but a value nested deeper than
    ``MAX_DEPTH``: it would break the code that copies or writes the file out again."""
    for key, inner in value.items():
        if key not in known and isinstance(inner, dict | list) and not _nests_within(inner, MAX_DEPTH):
            raise _fail("too_deep", (*where, key), f"nested deeper than {MAX_DEPTH} levels", max=MAX_DEPTH)


def _nests_within(value: Any, levels: int) -> bool:
    if isinstance(value, dict | list):
        if levels == 0:
            return False
        return all(_nests_within(inner, levels - 1) for inner in (value.values() if isinstance(value, dict) else value))
    return True


def _mapping(key: Check, item: Check, fewest: int = 0, most: int = MAX_LIST) -> Check:
    def check(value: Any, where: Where) -> None:
        if not isinstance(value, dict):
            raise _fail("not_object", where, f"{_short(value)} is not an object", value=_short(value))
        for k in value:
            key(k, (*where, k))
        if len(value) < fewest:
            raise _fail("too_few", where, f"holds {len(value)}, needs at least {fewest}", min=fewest, count=len(value))
        if len(value) > most:
            raise _fail("too_many", where, f"holds {len(value)}, at most {most}", max=most, count=len(value))
        for k, v in value.items():
            item(v, (*where, k))

    return check


def _number_key(low: int, high: int) -> Check:
    """An object key naming a number (a circle ``"3"``, a player count ``"4"``)."""

    def check(value: Any, where: Where) -> None:
        if not (isinstance(value, str) and re.fullmatch(r"[1-9][0-9]?", value) and low <= int(value) <= high):
            raise _fail(
                "out_of_range",
                where,
                f"{_short(value)} is not a number from {low} to {high}",
                value=value,
                min=low,
                max=high,
            )

    return check


def _quick(ok: Callable[[Any], bool], slow: Check) -> Check:
    """``slow``, skipped when ``ok`` sees at a glance that the value is fine (the board's
    geometry is most of a file: this keeps a parse near a millisecond)."""

    def check(value: Any, where: Where) -> None:
        if not ok(value):
            slow(value, where)

    return check


def _piece_ok(value: Any) -> bool:
    return type(value) is str and PIECE_ID.fullmatch(value) is not None


def _rows_ok(value: Any) -> bool:
    if type(value) is not dict or len(value) > 9:
        return False
    for key, row in value.items():
        if key not in _CIRCLE_KEYS or type(row) is not list or len(row) > MAX_SHIELDS_PER_CIRCLE:
            return False
        for shield in row:
            if type(shield) is not dict or not _piece_ok(shield.get("id")) or not _piece_ok(shield.get("quarter")):
                return False
            if any(type(v) is not str for v in shield.values()):
                return False  # the slow path judges what else a shield holds
    return True


def _lines_ok(value: Any) -> bool:
    if type(value) is not dict or len(value) > 9 * MAX_SHIELDS_PER_CIRCLE:
        return False
    for key, targets in value.items():
        if not _piece_ok(key) or type(targets) is not list or len(targets) > MAX_SHIELDS_PER_CIRCLE:
            return False
        if not all(_piece_ok(t) for t in targets):
            return False
    return True


_CIRCLE_KEYS = frozenset(str(n) for n in range(1, 10))


def source_tag_ok(value: Any, version: int = 2) -> bool:
    """Whether ``value`` is a provenance tag this edition format accepts."""
    if version == 1:
        return isinstance(value, str) and value in SOURCES_V1
    return isinstance(value, str) and (
        value in SOURCE_TAGS or bool(RULEBOOK_TAG.match(value)) or bool(REFERENCE_TAG.match(value))
    )


def _check_source(obj: dict[str, Any], where: Where, version: int = 2) -> None:
    if "source" not in obj:
        raise _fail("missing", where, "missing 'source'", key="source")
    source = obj["source"]
    if isinstance(source, dict) and version >= 2:  # format 1 files named loose keys; they still replay
        for key in source:
            if key not in obj and key not in SOURCE_GROUPS and key not in LEGACY_STATEMENTS:
                name = key if len(key) <= 40 else key[:39] + "…"
                raise _fail(
                    "source_names_no_field",
                    (*where, "source", name),
                    f"{_short(key)} is not a value of this entry (say a statement in 'rulings')",
                    key=name,
                )
    if "rulings" in obj:
        _rulings(version)(obj["rulings"], (*where, "rulings"))
    values = list(source.values()) if isinstance(source, dict) else [source]
    for value in values:
        if not source_tag_ok(value, version):
            at = (*where, "source")
            if version == 1:
                raise _fail(
                    "bad_source", at, f"{_short(value)} is neither 'rulebook' nor 'estimated'", value=_short(value)
                )
            raise _fail(
                "bad_source",
                at,
                f"{_short(value)} is not 'rulebook: seed NNN <page>', "
                "'reference: RULES.md §N', 'estimated', 'assumption' or 'checked'",
                value=_short(value),
            )


def _rulings(version: int) -> Check:
    """``rulings``: statements the rulebook (or the digest) makes about an entry, each ``says``
    (the statement, in words) with its ``source`` (a provenance tag: where it is said)."""
    return _list(_object({"says": _text(None, "bad_text", 2 * MAX_TEXT)}, source=version), 1, MAX_RULINGS)


@functools.lru_cache(maxsize=2)
def _schema(version: int) -> dict[str, Check]:
    """Each top-level section of an edition and the shape and range of every value in it."""
    v = version
    small = _integer(0, MAX_SMALL)
    circle = _integer(1, 9)
    circles = _list(circle, 1, 9)
    piece = _text(PIECE_ID)
    menu_item = {
        ids: _object(
            {"id": _choice(ids)},
            {"amount": _pair(0, MAX_SMALL), "track": _boolean, "circle": _boolean, "colours": _boolean},
        )
        for ids in (REWARD_IDS, REQUIREMENT_IDS, EFFECT_IDS)
    }
    expansion_guardian = _object({"position": _choice(POSITIONS)}, {"circle_colour": piece, "circle": circle})
    economy_keys = (
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
    return {
        "players": _object(
            {
                "min": _integer(1, MAX_PLAYERS),
                "max": _integer(1, MAX_PLAYERS),
                "colours": _list(
                    _object(
                        {
                            "id": piece,
                            "letter": _text(re.compile(r"^\S{1,2}$"), "bad_text", 2),
                            "hex": _text(HEX_COLOUR, "bad_colour_code"),
                        },
                        source=v,
                    ),
                    1,
                    12,
                ),
            },
            source=v,
        ),
        "quarters": _list(
            _object({"id": piece}, {"glyph": _text(re.compile(r"^\S{1,2}$"), "bad_text", 2)}, source=v), 1, 6
        ),
        "circles": _list(
            _object(
                {
                    "number": circle,
                    "colour": piece,
                    "hex": _text(HEX_COLOUR, "bad_colour_code"),
                    "sin": piece,
                    "infamy": small,
                    "track": _boolean,
                },
                source=v,
            ),
            9,
            9,
        ),
        "wall": _object({"between": _list(circle, 2, 2)}, source=v),
        "sides": _list(
            _object(
                {
                    "id": piece,
                    "players": _list(_integer(1, MAX_PLAYERS), 1, MAX_PLAYERS),
                    "circles": _quick(
                        _rows_ok,
                        _mapping(
                            _number_key(1, 9),
                            _list(
                                _object({"id": piece, "quarter": piece}), 0, MAX_SHIELDS_PER_CIRCLE, "too_many_shields"
                            ),
                            most=9,
                        ),
                    ),
                    "lines": _quick(
                        _lines_ok,
                        _mapping(piece, _list(piece, 0, MAX_SHIELDS_PER_CIRCLE), most=9 * MAX_SHIELDS_PER_CIRCLE),
                    ),
                    "gates": _list(_object({"id": piece, "above": piece}), 0, MAX_SHIELDS_PER_CIRCLE),
                },
                source=v,
            ),
            1,
            MAX_SIDES,
        ),
        "tracks": _object(
            {
                "first_level": _integer(0, MAX_TRACK_LENGTH - 1),
                "length": _integer(1, MAX_TRACK_LENGTH),
                "first_four": circles,
                "last_four": circles,
                "bonus_tiles": _object({"silver": _integer(0, 9), "gold": _integer(0, 9)}),
            },
            source=v,
        ),
        "phlegethon": _object(
            {
                "scale": _list(_integer(0, MAX_SMALL), 2, MAX_SCALE),
                "start": _mapping(_number_key(1, 9), _integer(0, MAX_SCALE - 1), most=9),
                "minimum_value": _integer(0, MAX_SMALL),
            },
            source=v,
        ),
        "economy": _object(
            {
                **{key: small for key in economy_keys},
                "loan_drachmas": _integer(1, MAX_SMALL),  # 0 would leave a debtor borrowing for ever
                "start_florins": _integer(0, MAX_COINS),
                "start_drachmas": _integer(0, MAX_COINS),
                "start_fraud_cards": _integer(0, 20),
            },
            source=v,
        ),
        "loan_track": _object(
            {
                "penalties": _list(_integer(0, 999), 1, MAX_LOAN_SPACES),
                "symbol_after": _integer(0, MAX_LOAN_SPACES - 1),
                "instant_penalty": _integer(0, 999),
            },
            source=v,
        ),
        "dante": _object(
            {
                "steps": _list(_object({"kind": _choice(STEP_KINDS)}, {"circle": circle}), 1, 40),
                "paths": _mapping(_number_key(1, MAX_PLAYERS), _list(_integer(0, 39), 1, 40), 1, MAX_PLAYERS),
            },
            {
                "shortcut": _object(
                    {
                        "players": _list(_integer(1, MAX_PLAYERS), 0, MAX_PLAYERS),
                        "skips": _list(_integer(0, 39), 0, 40),
                    },
                    {"path_of": _integer(1, MAX_PLAYERS)},
                )
            },
            source=v,
        ),
        "family": _object(
            {"nobles": _integer(0, 12), "urchins": _integer(0, 12), "start_urchins_at_home": _integer(0, 12)},
            source=v,
        ),
        "tower": _object(
            {
                "heights": _list(_integer(0, MAX_SMALL), 1, MAX_TOWER_FLOORS),
                "start_floors": _integer(1, MAX_TOWER_FLOORS),
                "spaces_per_floor": _integer(1, 10),
            },
            source=v,
        ),
        "locations": _list(
            _object({"id": piece, "circle": circle, "kind": _choice(("free", "special"))}, source=v), 1, 9
        ),
        "default_layout": _object({"quarters": _mapping(piece, _list(piece, 0, 9), most=6)}),
        "actions": _object(
            {
                "bank_base": _integer(0, 20),
                "bank_per_guest": _integer(0, 20),
                "courtyard_members_home": _integer(0, 20),
                "bonfire_exchange_max": _integer(0, 20),
                "wall_exchange_max": _integer(0, 20),
                "barrel_delivery_infamy": _list(small, 1, 9),
            },
            source=v,
        ),
        "guests": _object({"colours": circles}, source=v),
        "barrels": _object({"colours": circles}, source=v),
        "discs": _object({"per_player": _integer(0, 10)}, source=v),
        "souls": _object(
            {
                "supply": _mapping(_number_key(1, 9), small, 9, 9),
                "plague_card_souls": _integer(1, 20),
                "plague_card_max": _integer(1, 20),
            },
            source=v,
        ),
        "menus": _object(
            {
                "rewards": _list(menu_item[REWARD_IDS], 1, len(REWARD_IDS)),
                "endgame_requirements": _list(menu_item[REQUIREMENT_IDS], 1, len(REQUIREMENT_IDS)),
                "endgame_effects": _list(menu_item[EFFECT_IDS], 1, len(EFFECT_IDS)),
            },
            source=v,
        ),
        "scoring": _object(
            {
                "halves_per_diploma": _integer(1, 4),
                "known_tie_breakers": _list(_choice(TIE_BREAKERS), 0, len(TIE_BREAKERS)),
            },
            {"tie_breakers": _list(_choice(TIE_BREAKERS), 0, len(TIE_BREAKERS))},
            source=v,
        ),
        "expansion": _object(
            {
                "desks_per_player": _integer(0, 10),
                "toll": _integer(0, 20),
                "plutus": expansion_guardian,
                "phlegyas": expansion_guardian,
            },
            source=v,
        ),
        "adjacency": _object({"rule": _choice(ADJACENCY_RULES)}, source=v),
        "guardians": _list(
            _object(
                {
                    "id": piece,
                    "start": _object({"circle": circle, "position": _choice(POSITIONS)}),
                    "effect": _list(
                        _object(
                            {"primitive": _choice(tuple(sorted(PRIMITIVES)))},
                            {
                                "target": _choice(TARGETS),
                                "count": _integer(1, 6),
                                "uses": _integer(1, 6),
                                "cross_wall": _boolean,
                            },
                        ),
                        0,
                        6,
                    ),
                },
                {"conditions": _object({}, {"guardian_circle_at_least": circle, "guardian_circle_at_most": circle})},
                source=v,
            ),
            1,
            12,
        ),
        "default_guardians": _object({"ids": _list(piece, 0, 6)}),
        "fraud": _object({"barrels_required_max": _integer(0, 9)}, source=v),
        "limbo": _object({"circle": circle, "pagan_colour": circle}, source=v),
        "setup": _object({"guardians": _integer(0, 6), "starting_skulls_max": _integer(0, 8)}, source=v),
        "empty_shield": _object({"standees_fill": _boolean}, source=v),
        "styx": _object({"gains": _mapping(_number_key(1, 9), _list(_choice(STYX_GROUPS), 1, 2), 1, 9)}, source=v),
        "ranges": _object(
            {"infamy": _pair(-MAX_INFAMY_RANGE, MAX_INFAMY_RANGE), "coins_max": _integer(1, MAX_COINS)}, source=v
        ),
        "assumptions": _object({name: _boolean for name in ASSUMPTIONS}, source=v),
    }


def _date(value: Any, where: Where) -> None:
    _text(DATE, "bad_date", 10)(value, where)
    try:
        datetime.date.fromisoformat(value)
    except ValueError:
        raise _fail("bad_date", where, f"{_short(value)} is not a date (YYYY-MM-DD)", value=value) from None


def _name(value: Any, where: Where) -> None:
    _text(None, "bad_name", 60)(value, where)
    if not value.strip() or CONTROL.search(value):
        raise _fail("bad_name", where, "a name is 1 to 60 characters with no control characters")


_TOP_OPTIONAL: dict[str, Check] = {
    "checks": _mapping(_text(None, "bad_text", MAX_TEXT), _date, most=1000),
    "imported": _object({"from": _text(None, "bad_text", MAX_TEXT), "on": _date}),
}


def _load_json(text: Any) -> Any:
    """The JSON value of ``text``: refuses NaN, infinities, numbers too big for a float and duplicate keys."""
    if not isinstance(text, str):
        raise EditionError("not an edition: no text", "not_json", (), {})
    if len(text) > MAX_FILE_CHARS:
        raise EditionError(
            f"not an edition: the file is larger than {MAX_FILE_CHARS // 1024} KB",
            "too_large",
            (),
            {"max_kb": MAX_FILE_CHARS // 1024},
        )

    def constant(name: str) -> Any:
        raise EditionError(
            f"not an edition: {name} is not a number a board can hold", "not_a_number", (), {"value": name}
        )

    def real(digits: str) -> float:
        value = float(digits)
        if not math.isfinite(value):
            raise EditionError(
                f"not an edition: {digits[:20]} is not a number a board can hold",
                "not_a_number",
                (),
                {"value": digits[:20]},
            )
        return value

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        out = dict(items)
        if len(out) != len(items):
            seen: set[str] = set()
            key = next(k for k, _v in items if k in seen or seen.add(k))  # type: ignore[func-returns-value]
            raise EditionError(
                f"not an edition: the key {_short(key)} appears twice in one object",
                "duplicate_key",
                (),
                {"key": key[:40]},
            )
        return out

    try:
        return json.loads(
            text.removeprefix("\ufeff"), parse_constant=constant, parse_float=real, object_pairs_hook=pairs
        )
    except json.JSONDecodeError as exc:
        raise EditionError(f"not valid JSON: {exc}", "not_json", (), {"line": exc.lineno, "column": exc.colno}) from exc
    except RecursionError:
        raise EditionError("not an edition: the JSON is nested too deeply", "too_deep", (), {}) from None


def _parse_side(
    raw: dict[str, Any], circles: dict[int, Circle], quarters: tuple[str, ...], index: int, top: dict[str, Any]
) -> Side:
    sid = str(raw["id"])
    at: Where = ("sides", index)
    where = f"sides[{sid}]"
    below_wall = int(top["wall"]["between"][1])
    shields: dict[str, Shield] = {}
    rows: dict[int, tuple[str, ...]] = {}
    raw_circles = raw["circles"]
    extra = set(raw_circles) - {str(n) for n in circles}
    if extra:
        raise EditionError(
            f"{where}.circles: unknown circle(s) {sorted(extra)}",
            "unknown_circle",
            (*at, "circles"),
            {"circles": sorted(extra)},
        )
    for number in circles:
        row = raw_circles.get(str(number))
        if not row:
            raise EditionError(
                f"{where}.circles['{number}']: circle {number} has no shields",
                "no_shields",
                (*at, "circles", str(number)),
                {"circle": number},
            )
        ids = []
        for i, entry in enumerate(row):
            shield_id, quarter = entry["id"], entry["quarter"]
            spot: Where = (*at, "circles", str(number), i)
            if quarter not in quarters:
                raise EditionError(
                    f"{where}: shield '{shield_id}' has unknown quarter symbol {quarter!r}",
                    "unknown_quarter",
                    (*spot, "quarter"),
                    {"shield": shield_id, "quarter": quarter},
                )
            if shield_id in shields:
                raise EditionError(
                    f"{where}: shield '{shield_id}' appears twice", "duplicate_id", (*spot, "id"), {"id": shield_id}
                )
            shields[shield_id] = Shield(shield_id, number, i, quarter)
            ids.append(shield_id)
        missing = [q for q in quarters if q not in {shields[i].quarter for i in ids}]
        if missing:
            raise EditionError(
                f"{where}.circles['{number}']: circle {number} lacks quarter symbol(s) {missing}",
                "lacks_quarter",
                (*at, "circles", str(number)),
                {"circle": number, "quarters": missing},
            )
        rows[number] = tuple(ids)
    lines: dict[str, tuple[str, ...]] = {}
    for origin, targets in raw["lines"].items():
        spot = (*at, "lines", origin)
        if origin not in shields:
            raise EditionError(
                f"{where}.lines['{origin}']: a line from unknown shield '{origin}'",
                "unknown_shield",
                spot,
                {"shield": origin},
            )
        for target in targets:
            if target not in shields:
                raise EditionError(
                    f"{where}.lines['{origin}']: a line to unknown shield '{target}'",
                    "unknown_shield",
                    spot,
                    {"shield": target},
                )
            down, up = shields[target].circle, shields[origin].circle
            if down != up + 1:
                raise EditionError(
                    f"{where}.lines['{origin}'] -> '{target}': a line must go exactly one circle down "
                    f"(from circle {up}, this one reaches circle {down})",
                    "line_not_one_down",
                    spot,
                    {"origin": origin, "target": target, "from": up, "to": down},
                )
        lines[origin] = tuple(dict.fromkeys(targets))
    last = max(circles)
    for shield in shields.values():
        if shield.circle < last and not lines.get(shield.id):
            raise EditionError(
                f"{where}.lines: shield '{shield.id}' has no line down",
                "no_line_down",
                (*at, "lines"),
                {"shield": shield.id},
            )
    gates: dict[str, str] = {}
    for i, gate in enumerate(raw["gates"]):
        gate_id, above = gate["id"], gate["above"]
        if above not in shields or shields[above].circle != below_wall:
            raise EditionError(
                f"{where}.gates[{gate_id}]: gate stands over no circle-{below_wall} shield ({above!r})",
                "gate_off_wall",
                (*at, "gates", i, "above"),
                {"shield": above, "circle": below_wall},
            )
        if gate_id in gates or above in gates.values():
            raise EditionError(
                f"{where}.gates[{gate_id}]: a gate appears twice", "duplicate_id", (*at, "gates", i), {"id": gate_id}
            )
        gates[gate_id] = str(above)
    if not gates:
        raise EditionError(
            f"{where}.gates: no gate in the Wall of Dis (a soul could never pass it)", "no_gate", (*at, "gates"), {}
        )
    return Side(
        id=sid,
        players=tuple(dict.fromkeys(int(p) for p in raw["players"])),
        shields=shields,
        rows=rows,
        lines=lines,
        gates=gates,
        gate_above={shield: gate for gate, shield in gates.items()},
        adjacency=str(top["adjacency"]["rule"]),
    )


def parse_edition(text: str) -> Edition:
    """Parse and validate an edition file; raise ``EditionError`` (and nothing else) naming the bad entry.

    A UTF-8 byte order mark before the JSON is accepted. Every value the app reads is checked
    for its type and its range (docs/edition-format.md "Limits"), and every id it names exists.
    """
    raw = _load_json(text)
    try:
        return _parse_raw(raw, text)
    except EditionError:
        raise
    except (TypeError, KeyError, ValueError, AttributeError, IndexError, OverflowError, StopIteration) as exc:
        # A shape no check above foresaw: still the file's fault, never a crash.
        raise EditionError(f"not an edition the app can play ({type(exc).__name__})", "invalid", (), {}) from exc
    except RecursionError:
        raise EditionError("not an edition: the JSON is nested too deeply", "too_deep", (), {}) from None


def _parse_raw(raw: Any, text: str) -> Edition:
    if not isinstance(raw, dict):
        raise EditionError("not an edition: the file holds no JSON object", "not_object", (), {})
    if raw.get("format") != "inferno-companion/edition":
        if "format" not in raw:
            raise _fail("missing", (), "missing 'format'", key="format")
        raise _fail("wrong_format", ("format",), "expected 'inferno-companion/edition'", value=_short(raw["format"]))
    version = raw.get("format_version", 1)
    if type(version) is not int or version not in (1, 2):
        raise _fail("wrong_version", ("format_version",), f"{_short(version)} is not 1 or 2", value=_short(version))
    if version == 1:
        raw = upcast_v1(raw)
    _check_shape(raw, version)
    circles: dict[int, Circle] = {}
    for c in raw["circles"]:
        circles[c["number"]] = Circle(c["number"], c["colour"], c["hex"], c["sin"], c["infamy"], c["track"])
    quarters = tuple(q["id"] for q in raw["quarters"])
    sides: dict[str, Side] = {}
    for i, s in enumerate(raw["sides"]):
        if s["id"] in sides:
            raise _fail("duplicate_id", ("sides", i, "id"), f"side {s['id']!r} appears twice", id=s["id"])
        sides[s["id"]] = _parse_side(s, circles, quarters, i, raw)
    players = raw["players"]
    edition = Edition(
        id=raw["id"],
        name=raw["name"],
        content_hash=content_hash(text),
        raw=raw,
        circles=circles,
        sides=sides,
        quarters=quarters,
        colours={c["id"]: c["letter"] for c in players["colours"]},
        min_players=players["min"],
        max_players=players["max"],
        standees_fill=raw["empty_shield"]["standees_fill"],
    )
    for count in range(edition.min_players, edition.max_players + 1):
        if not any(count in side.players for side in sides.values()):
            raise _fail("no_side", ("sides",), f"no board side for {count} players", players=count)
    _check_guardian_starts(edition)
    return edition


_TOP_KEYS = frozenset({"format", "format_version", "id", "name", *_TOP_OPTIONAL})


def _check_shape(raw: dict[str, Any], version: int) -> None:
    """Every value's type and range, then every id it names and how the numbers fit together."""
    for key, top_check in {"id": _text(SLUG, "bad_slug", 48), "name": _name, **_TOP_OPTIONAL}.items():
        if key in raw:
            top_check(raw[key], (key,))
        elif key in ("id", "name"):
            raise _fail("missing", (), f"missing '{key}'", key=key)
    schema = _schema(version)
    _shallow_extras(raw, _TOP_KEYS | frozenset(schema), ())
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
        schema[section](raw[section], (section,))
    _check_references(raw)


def _unique(items: list[Any], where: Where, what: str) -> None:
    seen: set[Any] = set()
    for i, item in enumerate(items):
        if item in seen:
            raise _fail("duplicate_id", (*where, i), f"{what} {_short(item)} appears twice", id=item)
        seen.add(item)


def _check_references(raw: dict[str, Any]) -> None:
    """Every id named exists, every number fits the others (after the shape of each value is known)."""
    numbers = [c["number"] for c in raw["circles"]]
    if sorted(numbers) != list(range(1, 10)):
        raise _fail(
            "wrong_circles",
            ("circles",),
            f"expected circles 1-9, found {sorted(numbers)}",
            found=sorted(numbers),
            expected=list(range(1, 10)),
        )
    tracks = sorted(c["number"] for c in raw["circles"] if c["track"])
    colours_by_circle = {c["number"]: c["colour"] for c in raw["circles"]}
    upper, lower = raw["wall"]["between"]
    if lower != upper + 1:
        raise _fail(
            "wall_not_adjacent",
            ("wall", "between"),
            f"{[upper, lower]} is not two circles one above the other",
            upper=upper,
            lower=lower,
        )
    _unique([q["id"] for q in raw["quarters"]], ("quarters",), "quarter")
    quarters = {q["id"] for q in raw["quarters"]}
    players = raw["players"]
    if players["min"] > players["max"]:
        raise _fail(
            "min_above_max",
            ("players", "min"),
            f"{players['min']} is above the most players {players['max']}",
            min=players["min"],
            max=players["max"],
        )
    _unique([c["id"] for c in players["colours"]], ("players", "colours"), "player colour")
    if len(players["colours"]) < players["max"]:
        raise _fail(
            "too_few_colours",
            ("players", "colours"),
            f"{len(players['colours'])} colours for up to {players['max']} players",
            count=len(players["colours"]),
            players=players["max"],
        )
    for i, side in enumerate(raw["sides"]):
        _unique(side["players"], ("sides", i, "players"), "player count")
    tracks_section = raw["tracks"]
    if tracks_section["first_level"] >= tracks_section["length"]:
        raise _fail(
            "out_of_range",
            ("tracks", "first_level"),
            f"{tracks_section['first_level']} is out of range (0 to {tracks_section['length'] - 1})",
            value=tracks_section["first_level"],
            min=0,
            max=tracks_section["length"] - 1,
        )
    for group in STYX_GROUPS:
        _unique(tracks_section[group], ("tracks", group), "circle")
        for j, n in enumerate(tracks_section[group]):
            if n not in tracks:
                raise _fail("track_group", ("tracks", group, j), f"circle {n} has no sin track", circle=n)
    scale = raw["phlegethon"]["scale"]
    start = raw["phlegethon"]["start"]
    if sorted(int(c) for c in start) != tracks:
        raise _fail(
            "wrong_circles",
            ("phlegethon", "start"),
            f"expected a start for each sin track circle {tracks}",
            found=sorted(int(c) for c in start),
            expected=tracks,
        )
    for circle_key, space in start.items():
        if not 0 <= space < len(scale):
            raise EditionError(
                f"phlegethon.start['{circle_key}']: space {space} is off the scale (0-{len(scale) - 1})",
                "off_the_scale",
                ("phlegethon", "start", circle_key),
                {"value": space, "min": 0, "max": len(scale) - 1},
            )
    coins_max = raw["ranges"]["coins_max"]
    for key in ("start_florins", "start_drachmas"):
        if raw["economy"][key] > coins_max:
            raise _fail(
                "start_beyond_purse",
                ("economy", key),
                f"{raw['economy'][key]} is more than the {coins_max} coins a player may hold (ranges.coins_max)",
                value=raw["economy"][key],
                max=coins_max,
            )
    low, high = raw["ranges"]["infamy"]
    if not low <= 0 <= high:
        raise _fail(
            "out_of_range",
            ("ranges", "infamy"),
            f"the infamy range {[low, high]} must hold 0 (every player starts there)",
            value=0,
            min=low,
            max=high,
        )
    loan = raw["loan_track"]
    if loan["penalties"][0] != 0:
        raise _fail(
            "loan_start_not_free",
            ("loan_track", "penalties"),
            "space 0 (no loan) must cost 0",
            value=loan["penalties"][0],
        )
    if loan["symbol_after"] >= len(loan["penalties"]):
        raise _fail(
            "out_of_range",
            ("loan_track", "symbol_after"),
            f"{loan['symbol_after']} is out of range (0 to {len(loan['penalties']) - 1})",
            value=loan["symbol_after"],
            min=0,
            max=len(loan["penalties"]) - 1,
        )
    dante = raw["dante"]
    steps = dante["steps"]
    for j, step in enumerate(steps):
        if step["kind"] in ("diploma", "final") and step.get("circle") not in tracks:
            raise _fail(
                "step_needs_track",
                ("dante", "steps", j),
                f"a {step['kind']} step names no sin track circle",
                kind=step["kind"],
            )
    for count, path in dante["paths"].items():
        for j, index in enumerate(path):
            if index >= len(steps):
                raise _fail(
                    "step_off_path",
                    ("dante", "paths", count, j),
                    f"step {index} is not among the {len(steps)} steps",
                    value=index,
                    max=len(steps) - 1,
                )
    for count in range(players["min"], players["max"] + 1):
        path = dante_path_of(dante, count)
        if path is None:
            raise _fail(
                "no_dante_path",
                ("dante", "paths"),
                f"no path for {count} players (and no shortcut over another path)",
                players=count,
            )
        if not path:
            raise _fail(
                "no_dante_path", ("dante", "paths"), f"no step left on the path for {count} players", players=count
            )
    family = raw["family"]
    if family["start_urchins_at_home"] > family["urchins"]:
        raise _fail(
            "urchins_at_home",
            ("family", "start_urchins_at_home"),
            f"{family['start_urchins_at_home']} urchins at home out of {family['urchins']}",
            value=family["start_urchins_at_home"],
            max=family["urchins"],
        )
    tower = raw["tower"]
    if tower["start_floors"] > len(tower["heights"]):
        raise _fail(
            "tower_start",
            ("tower", "start_floors"),
            f"{tower['start_floors']} floors at the start of a tower of {len(tower['heights'])}",
            value=tower["start_floors"],
            max=len(tower["heights"]),
        )
    locations = raw["locations"]
    _unique([loc["id"] for loc in locations], ("locations",), "location")
    located = sorted(loc["circle"] for loc in locations)
    if located != tracks:
        raise _fail(
            "location_per_track",
            ("locations",),
            f"expected one location per sin track circle, found circles {located}",
            found=located,
            tracks=tracks,
        )
    layout = raw["default_layout"]["quarters"]
    placed: list[str] = []
    for quarter, ids in layout.items():
        if quarter not in quarters:
            raise _fail(
                "unknown_quarter",
                ("default_layout", "quarters", quarter),
                f"unknown quarter {quarter!r}",
                quarter=quarter,
            )
        for j, loc in enumerate(ids):
            if loc not in {x["id"] for x in locations}:
                raise _fail(
                    "unknown_location",
                    ("default_layout", "quarters", quarter, j),
                    f"unknown location {loc!r}",
                    location=loc,
                )
            if loc in placed:
                raise _fail(
                    "duplicate_id",
                    ("default_layout", "quarters", quarter, j),
                    f"location {loc!r} is in two quarters",
                    id=loc,
                )
            placed.append(loc)
    if sorted(placed) != sorted(x["id"] for x in locations):
        raise _fail("layout_incomplete", ("default_layout", "quarters"), "every location needs a quarter")
    for part in ("guests", "barrels"):
        _unique(raw[part]["colours"], (part, "colours"), "colour")
    souls = raw["souls"]
    if souls["plague_card_souls"] > souls["plague_card_max"]:
        raise _fail(
            "plague_card",
            ("souls", "plague_card_souls"),
            f"{souls['plague_card_souls']} souls on a plague card of at most {souls['plague_card_max']}",
            value=souls["plague_card_souls"],
            max=souls["plague_card_max"],
        )
    menus = raw["menus"]
    for menu in ("rewards", "endgame_requirements", "endgame_effects"):
        _unique([item["id"] for item in menus[menu]], ("menus", menu), "menu entry")
    scoring = raw["scoring"]
    _unique(scoring["known_tie_breakers"], ("scoring", "known_tie_breakers"), "tie-breaker")
    unknown = [b for b in scoring.get("tie_breakers", []) if b not in scoring["known_tie_breakers"]]
    if unknown:
        raise _fail(
            "unknown_tie_breaker",
            ("scoring", "tie_breakers"),
            f"unknown tie-breaker(s) {unknown}; known: {list(TIE_BREAKERS)}",
            breakers=unknown,
        )
    _unique(scoring.get("tie_breakers", []), ("scoring", "tie_breakers"), "tie-breaker")
    tiles = raw["tracks"]["bonus_tiles"]
    if tiles["silver"] + tiles["gold"] != len(tracks):
        raise _fail(
            "bonus_tiles",
            ("tracks", "bonus_tiles"),
            f"{tiles['silver']} silver + {tiles['gold']} gold tiles for {len(tracks)} sin tracks (one tile per track)",
            silver=tiles["silver"],
            gold=tiles["gold"],
            tracks=len(tracks),
        )
    if not any(v >= raw["phlegethon"]["minimum_value"] for v in scale):
        raise _fail(
            "no_minimum_space",
            ("phlegethon", "minimum_value"),
            f"no space of the scale is worth {raw['phlegethon']['minimum_value']} or more",
            value=raw["phlegethon"]["minimum_value"],
        )
    expansion = raw["expansion"]
    for key, value in expansion.items():
        if key.endswith("_circle"):
            _integer(1, 9)(value, ("expansion", key))
    for guardian in EXPANSION_GUARDIANS:
        start_at = expansion[guardian]
        if "circle" not in start_at:
            colour = start_at.get("circle_colour")
            if colour is None:
                raise _fail("missing", ("expansion", guardian), "missing 'circle_colour'", key="circle_colour")
            if f"{colour}_circle" not in expansion and colour not in colours_by_circle.values():
                raise _fail(
                    "unknown_colour",
                    ("expansion", guardian, "circle_colour"),
                    f"no circle is {colour!r}",
                    colour=colour,
                )
    guardians = raw["guardians"]
    ids = [g["id"] for g in guardians]
    _unique(ids, ("guardians",), "guardian")
    for i, g in enumerate(guardians):
        if g["id"] in EXPANSION_GUARDIANS:
            raise _fail("duplicate_id", ("guardians", i, "id"), f"{g['id']!r} is an expansion guardian", id=g["id"])
        conditions = g.get("conditions", {})
        if conditions.get("guardian_circle_at_least", 1) > conditions.get("guardian_circle_at_most", 9):
            raise _fail(
                "min_above_max",
                ("guardians", i, "conditions"),
                "its lowest circle is below its highest",
                min=conditions.get("guardian_circle_at_least", 1),
                max=conditions.get("guardian_circle_at_most", 9),
            )
    chosen = raw["default_guardians"]["ids"]
    _unique(chosen, ("default_guardians", "ids"), "guardian")
    for j, g in enumerate(chosen):
        if g not in ids:
            raise _fail("unknown_guardian", ("default_guardians", "ids", j), f"unknown guardian {g!r}", guardian=g)
    if len(chosen) != raw["setup"]["guardians"]:
        raise _fail(
            "guardians_count",
            ("default_guardians", "ids"),
            f"{len(chosen)} default guardians for a set-up of {raw['setup']['guardians']}",
            count=len(chosen),
            wanted=raw["setup"]["guardians"],
        )
    for n, _groups in raw["styx"]["gains"].items():
        if int(n) > 9:
            raise _fail("out_of_range", ("styx", "gains", n), f"{n} souls", value=int(n), min=1, max=9)
    if raw["setup"]["starting_skulls_max"] > len(tracks):
        raise _fail(
            "out_of_range",
            ("setup", "starting_skulls_max"),
            f"{raw['setup']['starting_skulls_max']} starting skulls on {len(tracks)} tracks",
            value=raw["setup"]["starting_skulls_max"],
            min=0,
            max=len(tracks),
        )


def _check_guardian_starts(edition: Edition) -> None:
    """The default guardians start on different shields of every side, with and without the expansion."""
    raw = edition.raw
    by_id = {g["id"]: g for g in raw["guardians"]}
    for i, side_raw in enumerate(raw["sides"]):
        side = edition.sides[side_raw["id"]]
        base = list(raw["default_guardians"]["ids"])
        with_expansion = list(EXPANSION_GUARDIANS) + (
            [] if raw["assumptions"]["expansion_replaces_guardians"] else base
        )
        for chosen in (base, with_expansion):
            _distinct_starts(edition, side, i, chosen, by_id)


def _distinct_starts(edition: Edition, side: Side, i: int, chosen: list[str], by_id: dict[str, Any]) -> None:
    expansion = edition.raw["expansion"]
    taken: dict[str, str] = {}
    for g in chosen:
        if g in by_id:
            circle, position = by_id[g]["start"]["circle"], by_id[g]["start"]["position"]
        else:
            start = expansion[g]
            if "circle" in start:
                circle = start["circle"]
            elif f"{start['circle_colour']}_circle" in expansion:
                circle = expansion[f"{start['circle_colour']}_circle"]
            else:
                circle = next(n for n, c in edition.circles.items() if c.colour == start["circle_colour"])
            position = start["position"]
        row = side.row(circle)
        shield = row[0] if position == "far_left" else row[-1]
        if shield in taken:
            raise _fail(
                "guardians_share_shield",
                ("default_guardians", "ids"),
                f"{taken[shield]!r} and {g!r} would start on the same shield of side {side.id}",
                first=taken[shield],
                second=g,
                side=i,
            )
        taken[shield] = g


PRIMITIVES = frozenset({"petrify", "descend", "wall_pass", "shift"})
TARGETS = ("adjacent_standing_soul",)  # the souls an effect may reach: standing, next to the standee
TIE_BREAKERS = ("fewest_loans", "most_diplomas", "most_drachmas", "most_florins")

# What the code hard-coded before format version 2 moved it into the edition.
_V1_DEFAULTS: dict[str, Any] = {
    "limbo": {"circle": 1, "pagan_colour": 1, "source": "rulebook"},
    "setup": {"guardians": 2, "starting_skulls_max": 2, "source": "rulebook"},
    "empty_shield": {"standees_fill": True, "source": "estimated"},
    "styx": {
        "gains": {"1": ["first_four"], "2": ["last_four"], "3": ["first_four", "last_four"]},
        "source": "rulebook",
    },
    "ranges": {"infamy": [-200, 999], "coins_max": 99, "source": "estimated"},
    "assumptions": {
        "fraud_without_barrels": True,
        "toll_on_guardian_push": False,
        "loan_any_time": True,
        "dante_fraud_optional": True,
        "expansion_replaces_guardians": True,
        "loan_for_toll": True,
        "fraud_in_hand_scores": False,
        "source": "estimated",
    },
}


def upcast_v1(raw: dict[str, Any]) -> dict[str, Any]:
    """A format-1 edition with the sections added in format 2, holding the old built-in values."""
    out = copy.deepcopy(raw)
    for section in ("scoring", "tracks", "phlegethon"):
        if not isinstance(out.get(section), dict):
            return out  # the validator names the section that is missing or not an object
    for section, values in _V1_DEFAULTS.items():
        out.setdefault(section, copy.deepcopy(values))
    out.setdefault("wall", {"between": [5, 6], "source": "rulebook"})
    out.setdefault("adjacency", {"rule": "row_and_lines", "source": "estimated"})
    out.setdefault("fraud", {"barrels_required_max": 2, "source": "estimated"})
    out["scoring"].setdefault("halves_per_diploma", 2)
    out["scoring"].setdefault("known_tie_breakers", list(TIE_BREAKERS))
    out["tracks"].setdefault("first_level", 0)
    out["tracks"].setdefault("bonus_tiles", {"silver": 4, "gold": 4})
    out["phlegethon"].setdefault("minimum_value", 1)
    out["format_version"] = 1
    return out
