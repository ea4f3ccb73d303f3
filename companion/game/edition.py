"""The physical game as data: board geometry and every number, loaded and validated.

``parse_edition(text)`` turns an edition file's JSON text into a frozen ``Edition`` or
raises ``EditionError`` with a message that names the bad entry. A game pins the
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
import hashlib
import json
import re
from dataclasses import dataclass
from typing import Any

__all__ = [
    "Circle",
    "Edition",
    "EditionError",
    "Guardian",
    "Location",
    "Shield",
    "Side",
    "content_hash",
    "parse_edition",
]

SOURCES_V1 = ("rulebook", "estimated")
SOURCE_TAGS = ("estimated", "assumption", "checked")  # checked: confirmed on a real board (the guided check)
RULEBOOK_TAG = re.compile(r"^rulebook: seed (\d{3}) (\S.*)$")
REFERENCE_TAG = re.compile(r"^reference: RULES\.md §\d+(\.\d+)*$")
ADJACENCY_RULES = ("row_and_lines", "row", "lines")


class EditionError(ValueError):
    """An edition file is malformed; the message names the offending entry."""


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
            raise EditionError(f"{name}: expected an object")
        return value

    def player_hexes(self) -> dict[str, str]:
        """Each player colour's id with the colour it is drawn in (``players.colours[].hex``)."""
        return {str(c["id"]): str(c["hex"]) for c in self.section("players")["colours"]}

    def player_hex(self, colour: str) -> str:
        """The colour a player of ``colour`` is drawn in: the one lookup the map, the cards and the charts use."""
        return self.player_hexes().get(colour, "#888888")

    def economy(self, key: str) -> int:
        """A price or amount from the ``economy`` section."""
        return int(self.section("economy")[key])

    def side_for(self, players: int) -> Side:
        """The board side used with this many players."""
        for side in self.sides.values():
            if players in side.players:
                return side
        raise EditionError(f"sides: no board side for {players} players")

    @property
    def track_circles(self) -> tuple[int, ...]:
        """The circles that have a sin track (2–9)."""
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

    @property
    def wall(self) -> tuple[int, int]:
        """The circles the Wall of Dis stands between (upper, lower)."""
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

    def assumption(self, name: str) -> bool:
        """A reading of ours where the rulebook is silent, as the edition sets it (a table may switch it)."""
        return bool(self.section("assumptions")[name])


def _need(obj: Any, key: str, where: str) -> Any:
    if not isinstance(obj, dict) or key not in obj:
        raise EditionError(f"{where}: missing '{key}'")
    return obj[key]


def source_tag_ok(value: Any, version: int = 2) -> bool:
    """Whether ``value`` is a provenance tag this edition format accepts."""
    if version == 1:
        return value in SOURCES_V1
    return isinstance(value, str) and (
        value in SOURCE_TAGS or bool(RULEBOOK_TAG.match(value)) or bool(REFERENCE_TAG.match(value))
    )


def _check_source(obj: Any, where: str, version: int = 2) -> None:
    source = _need(obj, "source", where)
    values = source.values() if isinstance(source, dict) else [source]
    for value in values:
        if not source_tag_ok(value, version):
            if version == 1:
                raise EditionError(f"{where}.source: {value!r} is neither 'rulebook' nor 'estimated'")
            raise EditionError(
                f"{where}.source: {value!r} is not 'rulebook: seed NNN <page>', "
                "'reference: RULES.md §N', 'estimated', 'assumption' or 'checked'"
            )


def _parse_side(
    raw: Any, circles: dict[int, Circle], quarters: tuple[str, ...], where: str, top: dict[str, Any]
) -> Side:
    sid = str(_need(raw, "id", where))
    where = f"sides[{sid}]"
    _check_source(raw, where, int(top["format_version"]))
    below_wall = int(top["wall"]["between"][1])
    shields: dict[str, Shield] = {}
    rows: dict[int, tuple[str, ...]] = {}
    raw_circles = _need(raw, "circles", where)
    for number in circles:
        row = raw_circles.get(str(number))
        if not row:
            raise EditionError(f"{where}.circles['{number}']: circle {number} has no shields")
        ids = []
        for index, entry in enumerate(row):
            shield_id = str(_need(entry, "id", f"{where}.circles['{number}'][{index}]"))
            quarter = _need(entry, "quarter", f"{where}.circles['{number}'][{index}]")
            if quarter not in quarters:
                raise EditionError(f"{where}: shield '{shield_id}' has unknown quarter symbol {quarter!r}")
            if shield_id in shields:
                raise EditionError(f"{where}: shield '{shield_id}' appears twice")
            shields[shield_id] = Shield(shield_id, number, index, quarter)
            ids.append(shield_id)
        missing = [q for q in quarters if q not in {shields[i].quarter for i in ids}]
        if missing:
            raise EditionError(f"{where}.circles['{number}']: circle {number} lacks quarter symbol(s) {missing}")
        rows[number] = tuple(ids)
    extra = set(raw_circles) - {str(n) for n in circles}
    if extra:
        raise EditionError(f"{where}.circles: unknown circle(s) {sorted(extra)}")
    lines: dict[str, tuple[str, ...]] = {}
    for origin, targets in _need(raw, "lines", where).items():
        if origin not in shields:
            raise EditionError(f"{where}.lines['{origin}']: a line from unknown shield '{origin}'")
        for target in targets:
            if target not in shields:
                raise EditionError(f"{where}.lines['{origin}']: a line to unknown shield '{target}'")
            down, up = shields[target].circle, shields[origin].circle
            if down != up + 1:
                raise EditionError(
                    f"{where}.lines['{origin}'] -> '{target}': a line must go exactly one circle down "
                    f"(from circle {up}, this one reaches circle {down})"
                )
        lines[origin] = tuple(targets)
    last = max(circles)
    for shield in shields.values():
        if shield.circle < last and not lines.get(shield.id):
            raise EditionError(f"{where}.lines: shield '{shield.id}' has no line down")
    gates: dict[str, str] = {}
    for gate in _need(raw, "gates", where):
        gate_id = str(_need(gate, "id", f"{where}.gates"))
        above = _need(gate, "above", f"{where}.gates[{gate_id}]")
        if above not in shields or shields[above].circle != below_wall:
            raise EditionError(f"{where}.gates[{gate_id}]: gate stands over no circle-{below_wall} shield ({above!r})")
        gates[gate_id] = str(above)
    return Side(
        id=sid,
        players=tuple(int(p) for p in _need(raw, "players", where)),
        shields=shields,
        rows=rows,
        lines=lines,
        gates=gates,
        gate_above={shield: gate for gate, shield in gates.items()},
        adjacency=str(top["adjacency"]["rule"]),
    )


def parse_edition(text: str) -> Edition:
    """Parse and validate an edition file; raise ``EditionError`` naming the bad entry."""
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as exc:
        raise EditionError(f"not valid JSON: {exc}") from exc
    except RecursionError:
        raise EditionError("not an edition: the JSON is nested too deeply") from None
    if not isinstance(raw, dict):
        raise EditionError("not an edition: the file holds no JSON object")
    if _need(raw, "format", "edition") != "inferno-companion/edition":
        raise EditionError("format: expected 'inferno-companion/edition'")
    version = raw.get("format_version", 1)
    if type(version) is not int:
        raise EditionError(f"format_version: {version!r} is not 1 or 2")
    if version == 1:
        raw = upcast_v1(raw)
    elif version != 2:
        raise EditionError(f"format_version: {version} is not 1 or 2")
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
    ):
        _check_source(_need(raw, section, "edition"), section, version)
    wall = _need(raw["wall"], "between", "wall")
    if len(wall) != 2 or int(wall[1]) != int(wall[0]) + 1:
        raise EditionError(f"wall.between: {wall} is not two circles one above the other")
    if raw["adjacency"].get("rule") not in ADJACENCY_RULES:
        raise EditionError(f"adjacency.rule: {raw['adjacency'].get('rule')!r} is not one of {list(ADJACENCY_RULES)}")
    circles: dict[int, Circle] = {}
    for i, c in enumerate(_need(raw, "circles", "edition")):
        where = f"circles[{i}]"
        _check_source(c, where, version)
        number = int(_need(c, "number", where))
        circles[number] = Circle(
            number,
            str(_need(c, "colour", where)),
            str(_need(c, "hex", where)),
            str(_need(c, "sin", where)),
            int(_need(c, "infamy", where)),
            bool(_need(c, "track", where)),
        )
    if sorted(circles) != list(range(1, 10)):
        raise EditionError(f"circles: expected circles 1-9, found {sorted(circles)}")
    quarters = []
    for i, q in enumerate(_need(raw, "quarters", "edition")):
        _check_source(q, f"quarters[{i}]", version)
        quarters.append(str(_need(q, "id", f"quarters[{i}]")))
    sides = {}
    for i, s in enumerate(_need(raw, "sides", "edition")):
        side = _parse_side(s, circles, tuple(quarters), f"sides[{i}]", raw)
        sides[side.id] = side
    players = raw["players"]
    colours = {}
    for i, colour in enumerate(_need(players, "colours", "players")):
        _check_source(colour, f"players.colours[{i}]", version)
        colours[str(_need(colour, "id", f"players.colours[{i}]"))] = str(
            _need(colour, "letter", f"players.colours[{i}]")
        )
    edition = Edition(
        id=str(_need(raw, "id", "edition")),
        name=str(_need(raw, "name", "edition")),
        content_hash=content_hash(text),
        raw=raw,
        circles=circles,
        sides=sides,
        quarters=tuple(quarters),
        colours=colours,
        min_players=int(_need(players, "min", "players")),
        max_players=int(_need(players, "max", "players")),
        standees_fill=bool(_need(raw["empty_shield"], "standees_fill", "empty_shield")),
    )
    for count in range(edition.min_players, edition.max_players + 1):
        edition.side_for(count)
    _check_lists(edition)
    return edition


def _check_lists(edition: Edition) -> None:
    raw = edition.raw
    for key in ("locations", "guardians"):
        for i, item in enumerate(_need(raw, key, "edition")):
            _check_source(item, f"{key}[{i}]", int(raw["format_version"]))
    located = {loc["circle"] for loc in raw["locations"]}
    if located != set(edition.track_circles):
        raise EditionError(f"locations: expected one location per sin track circle, found circles {sorted(located)}")
    for i, guardian in enumerate(raw["guardians"]):
        for j, step in enumerate(_need(guardian, "effect", f"guardians[{i}]")):
            if _need(step, "primitive", f"guardians[{i}].effect[{j}]") not in PRIMITIVES:
                raise EditionError(
                    f"guardians[{i}].effect[{j}]: unknown primitive {step['primitive']!r}; known: {sorted(PRIMITIVES)}"
                )
            if step.get("target", TARGETS[0]) not in TARGETS:
                raise EditionError(
                    f"guardians[{i}].effect[{j}]: unknown target {step['target']!r}; known: {list(TARGETS)}"
                )
    penalties = raw["loan_track"]["penalties"]
    if not penalties or penalties[0] != 0:
        raise EditionError("loan_track.penalties: space 0 (no loan) must cost 0")
    scale = raw["phlegethon"]["scale"]
    minimum = int(_need(raw["phlegethon"], "minimum_value", "phlegethon"))
    if not any(int(v) >= minimum for v in scale):
        raise EditionError(f"phlegethon.minimum_value: no space of the scale is worth {minimum} or more")
    tiles = raw["tracks"]["bonus_tiles"]
    if int(tiles["silver"]) + int(tiles["gold"]) != len(edition.track_circles):
        raise EditionError(
            f"tracks.bonus_tiles: {tiles['silver']} silver + {tiles['gold']} gold tiles for "
            f"{len(edition.track_circles)} sin tracks (one tile per track)"
        )
    known = raw["scoring"]["known_tie_breakers"]
    unknown = [b for b in raw["scoring"]["tie_breakers"] if b not in known]
    if unknown or any(b not in TIE_BREAKERS for b in known):
        raise EditionError(f"scoring.tie_breakers: unknown tie-breaker(s) {unknown}; known: {list(TIE_BREAKERS)}")
    shortcut = raw["dante"].get("shortcut", {})
    for count in range(edition.min_players, edition.max_players + 1):
        if str(count) not in raw["dante"]["paths"] and not (
            count in shortcut.get("players", ()) and str(shortcut.get("path_of")) in raw["dante"]["paths"]
        ):
            raise EditionError(f"dante.paths: no path for {count} players (and no shortcut over another path)")
    for circle, start in raw["phlegethon"]["start"].items():
        if not 0 <= int(start) < len(scale):
            raise EditionError(f"phlegethon.start['{circle}']: space {start} is off the scale (0-{len(scale) - 1})")


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
