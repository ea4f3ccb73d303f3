"""The physical game as data: board geometry and every number, loaded and validated.

``parse_edition(text)`` turns an edition file's JSON text into a frozen ``Edition`` or
raises ``EditionError`` with a message that names the bad entry. A game pins the
edition's ``content_hash``; the shell keeps that exact text so a recorded game never
changes when the file is edited (RULES.md "The unknown numbers").
"""

from __future__ import annotations

import hashlib
import json
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

SOURCES = ("rulebook", "estimated", "checked")


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

    def row(self, circle: int) -> tuple[str, ...]:
        """The shields of ``circle``, left to right."""
        return self.rows[circle]

    def adjacent(self, shield: str) -> tuple[str, ...]:
        """Shields next to ``shield``: row neighbours and shields joined to it by a line."""
        s = self.shields[shield]
        row = self.rows[s.circle]
        near = [row[i] for i in (s.index - 1, s.index + 1) if 0 <= i < len(row)]
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

    # The numbers below are read through properties of ``raw`` so that the edition
    # file stays the single place where each number is written.
    def section(self, name: str) -> dict[str, Any]:
        """A top-level section of the edition file."""
        value = self.raw[name]
        if not isinstance(value, dict):
            raise EditionError(f"{name}: expected an object")
        return value

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


def _need(obj: Any, key: str, where: str) -> Any:
    if not isinstance(obj, dict) or key not in obj:
        raise EditionError(f"{where}: missing '{key}'")
    return obj[key]


def _check_source(obj: Any, where: str) -> None:
    source = _need(obj, "source", where)
    values = source.values() if isinstance(source, dict) else [source]
    for value in values:
        if value not in SOURCES:
            raise EditionError(f"{where}.source: {value!r} is neither 'rulebook' nor 'estimated'")


def _parse_side(raw: Any, circles: dict[int, Circle], quarters: tuple[str, ...], where: str) -> Side:
    sid = str(_need(raw, "id", where))
    where = f"sides[{sid}]"
    _check_source(raw, where)
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
        if above not in shields or shields[above].circle != 6:
            raise EditionError(f"{where}.gates[{gate_id}]: gate stands over no circle-6 shield ({above!r})")
        gates[gate_id] = str(above)
    return Side(
        id=sid,
        players=tuple(int(p) for p in _need(raw, "players", where)),
        shields=shields,
        rows=rows,
        lines=lines,
        gates=gates,
        gate_above={shield: gate for gate, shield in gates.items()},
    )


def parse_edition(text: str) -> Edition:
    """Parse and validate an edition file; raise ``EditionError`` naming the bad entry."""
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as exc:
        raise EditionError(f"not valid JSON: {exc}") from exc
    if _need(raw, "format", "edition") != "inferno-companion/edition":
        raise EditionError("format: expected 'inferno-companion/edition'")
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
    ):
        _check_source(_need(raw, section, "edition"), section)
    circles: dict[int, Circle] = {}
    for i, c in enumerate(_need(raw, "circles", "edition")):
        where = f"circles[{i}]"
        _check_source(c, where)
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
        _check_source(q, f"quarters[{i}]")
        quarters.append(str(_need(q, "id", f"quarters[{i}]")))
    sides = {}
    for i, s in enumerate(_need(raw, "sides", "edition")):
        side = _parse_side(s, circles, tuple(quarters), f"sides[{i}]")
        sides[side.id] = side
    players = raw["players"]
    colours = {}
    for i, colour in enumerate(_need(players, "colours", "players")):
        _check_source(colour, f"players.colours[{i}]")
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
    )
    for count in range(edition.min_players, edition.max_players + 1):
        edition.side_for(count)
    _check_lists(edition)
    return edition


def _check_lists(edition: Edition) -> None:
    raw = edition.raw
    for key in ("locations", "guardians"):
        for i, item in enumerate(_need(raw, key, "edition")):
            _check_source(item, f"{key}[{i}]")
    located = {loc["circle"] for loc in raw["locations"]}
    if located != set(edition.track_circles):
        raise EditionError(f"locations: expected one location per sin track circle, found circles {sorted(located)}")
    for i, guardian in enumerate(raw["guardians"]):
        for j, step in enumerate(_need(guardian, "effect", f"guardians[{i}]")):
            if _need(step, "primitive", f"guardians[{i}].effect[{j}]") not in PRIMITIVES:
                raise EditionError(
                    f"guardians[{i}].effect[{j}]: unknown primitive {step['primitive']!r}; known: {sorted(PRIMITIVES)}"
                )
    penalties = raw["loan_track"]["penalties"]
    if not penalties or penalties[0] != 0:
        raise EditionError("loan_track.penalties: space 0 (no loan) must cost 0")
    scale = raw["phlegethon"]["scale"]
    if not scale or scale[0] != 1:
        raise EditionError("phlegethon.scale: the leftmost space must be worth 1 (the minimum)")
    for circle, start in raw["phlegethon"]["start"].items():
        if not 0 <= int(start) < len(scale):
            raise EditionError(f"phlegethon.start['{circle}']: space {start} is off the scale (0-{len(scale) - 1})")


PRIMITIVES = frozenset({"petrify", "descend", "wall_pass", "shift"})
