"""The physical game as data: an edition's frozen types (its circles, board sides, shields, guardians and numbers),
the error a malformed file raises and the hash a game pins."""

from __future__ import annotations

import functools
import hashlib
from dataclasses import dataclass
from typing import Any

from companion.game.edition.limits import EXPANSION_GUARDIANS


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
