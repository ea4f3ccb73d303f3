"""The state of a game at one moment: frozen dataclasses rebuilt by folding the log.

Nothing here is ever mutated: ``projection.evolve`` returns new values with ``dataclasses.replace``. Dicts inside
these dataclasses are treated as frozen too (they are replaced, never changed in place).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from companion.game.edition import Edition, Side
from events.catalog import EndgameHalf, Reward

__all__ = [
    "Floor",
    "GameState",
    "Phase",
    "Piece",
    "PlayerInfo",
    "PlayerState",
    "Soul",
    "tower_with",
    "tower_without",
    "without_one",
]


class Phase(StrEnum):
    """Where the active player's turn stands."""

    HELL = "hell"  # one soul move is due
    FLORENCE = "florence"  # send a member, accuse, or hold the family council
    ACTION = "action"  # the chosen location's optional effects, then end the turn
    DONE = "done"  # the Florence action is complete; only "end turn" remains
    OVER = "over"  # the game has ended; final scoring


@dataclass(frozen=True)
class Soul:
    """A soul on a shield. ``colour`` is the number of the circle of its sin."""

    colour: int
    laid: bool = False
    petrified: bool = False


@dataclass(frozen=True)
class Piece:
    """Something in a tower: a guest or barrel (with its circle colour) or a family member."""

    kind: str  # "guest", "barrel", "noble", "urchin"
    colour: int = 0


@dataclass(frozen=True)
class Floor:
    """One tower floor: its height (the Palace's pay) and what stands on it."""

    height: int
    pieces: tuple[Piece, ...] = ()


@dataclass(frozen=True)
class PlayerInfo:
    """Who sits in a seat: name, colour and the letter drawn on their markers."""

    name: str
    colour: str
    letter: str


@dataclass(frozen=True)
class PlayerState:
    """Everything a player owns or has scored."""

    florins: int
    drachmas: int
    infamy: int = 0
    ship: int = 0
    skulls: dict[int, int] = field(default_factory=dict)
    diplomas: frozenset[int] = frozenset()
    half_diplomas: int = 0
    discs: frozenset[str] = frozenset()
    home_nobles: int = 0
    home_urchins: int = 0
    reserve_urchins: int = 0
    placed: tuple[tuple[str, str], ...] = ()  # (location, "noble"|"urchin") in Florence
    tower: tuple[Floor, ...] = ()
    palace_guests: frozenset[int] = frozenset()  # this player's notables still waiting in the Palace
    market_barrels: frozenset[int] = frozenset()  # this player's barrels still in the Market
    barrels_delivered: frozenset[int] = frozenset()
    fraud_hand: int = 0
    endgames: tuple[EndgameHalf, ...] = ()  # end-game halves of the fraud cards this player played
    hand_scored: int = 0  # cards left in hand entered at final scoring (edition fraud_in_hand_scores)
    wall_passes: int = 0
    bells: int = 0
    desks: tuple[str, ...] = ()

    def skull(self, track: int, first_level: int = 0) -> int:
        """The skull level on ``track`` (``first_level`` when the player has no skull there)."""
        return self.skulls.get(track, first_level)

    def pieces(self, kind: str) -> tuple[Piece, ...]:
        """Every piece of ``kind`` in the tower."""
        return tuple(p for f in self.tower for p in f.pieces if p.kind == kind)

    def has_in_tower(self, kind: str, colour: int) -> bool:
        """Whether a guest or barrel of this colour stands in the tower."""
        return any(p.kind == kind and p.colour == colour for f in self.tower for p in f.pieces)

    def floor_of(self, kind: str, colour: int = 0) -> int | None:
        """The floor (index) holding a piece of this kind and colour, if any."""
        for i, f in enumerate(self.tower):
            if any(p.kind == kind and p.colour == colour for p in f.pieces):
                return i
        return None

    def members_at(self, location: str) -> tuple[str, ...]:
        """The kinds of this player's family members standing on ``location``."""
        return tuple(kind for loc, kind in self.placed if loc == location)

    @property
    def at_home(self) -> int:
        """Family members available at home."""
        return self.home_nobles + self.home_urchins


def tower_with(tower: tuple[Floor, ...], floor: int, piece: Piece) -> tuple[Floor, ...]:
    """The tower with ``piece`` added on ``floor``."""
    floors = list(tower)
    floors[floor] = replace(floors[floor], pieces=(*floors[floor].pieces, piece))
    return tuple(floors)


def tower_without(tower: tuple[Floor, ...], floor: int, kind: str, colour: int = 0) -> tuple[Floor, ...]:
    """The tower with one piece of this kind and colour taken off ``floor``."""
    floors = list(tower)
    pieces = list(floors[floor].pieces)
    pieces.remove(Piece(kind, colour))
    floors[floor] = replace(floors[floor], pieces=tuple(pieces))
    return tuple(floors)


def without_one(placed: tuple[tuple[str, str], ...], location: str, kind: str) -> tuple[tuple[str, str], ...]:
    """``placed`` minus one member of ``kind`` on ``location``."""
    items = list(placed)
    items.remove((location, kind))
    return tuple(items)


@dataclass(frozen=True)
class GameState:
    """The whole table: Hell, Florence, every player, and whose turn it is."""

    edition: Edition
    side: Side
    players: tuple[PlayerInfo, ...]
    expansion: bool
    p: tuple[PlayerState, ...]
    hell: dict[str, Soul]
    cemetery: dict[int, int]
    supply: dict[int, int]
    phlegethon: dict[int, int]  # circle -> index on the edition's scale
    florence: dict[str, str]  # location -> quarter
    guardians: dict[str, str]  # guardian -> shield
    active: int = 0
    turn: int = 1
    phase: Phase = Phase.HELL
    quarter: str | None = None
    dante: int = 0  # position on this player count's path
    final_turns_left: int | None = None
    ended: str | None = None
    needs_plague_card: bool = False
    plague_deck_empty: bool = False
    half_choices: dict[int, tuple[int, ...]] = field(default_factory=dict)  # final scoring choices
    action: str | None = None  # the location whose action the active player is taking
    used: frozenset[str] = frozenset()  # that location's optional effects already used
    bonus_tiles: dict[int, Reward] = field(default_factory=dict)  # track -> what its tile gives
    end_trigger: int | None = None  # who moved Dante onto the last step
    table_mode: str = "shared"  # "shared": one phone for all; "seats": each phone acts for its own player

    def player(self, index: int) -> PlayerState:
        """The state of player ``index``."""
        return self.p[index]

    def with_player(self, index: int, **changes: Any) -> GameState:
        """A copy with player ``index`` changed."""
        players = list(self.p)
        players[index] = replace(players[index], **changes)
        return replace(self, p=tuple(players))

    def occupied(self, shield: str) -> bool:
        """Whether ``shield`` is not empty: a soul of any kind stands on it, or a guardian standee
        does (edition ``empty_shield``: one meaning in play and at final scoring, seed 000 p.11,
        pp.16–17, pp.22–23). A Plutus Desk sits below a shield and never fills it (seed 002)."""
        if shield in self.hell:
            return True
        return self.standee_fills(shield)

    def standee_fills(self, shield: str) -> bool:
        """Whether a guardian standee on ``shield`` makes it not empty (edition
        ``empty_shield.standees_fill``): the standee's half of ``occupied``."""
        return self.edition.standees_fill and shield in self.guardians.values()

    def takes_standee(self, shield: str, guardian: str) -> bool:
        """Whether ``guardian``'s standee may be put on ``shield``: a shield of the board that is
        not occupied and where no other standee stands. Two standees never share a shield, even
        when standees do not fill shields (the edition's ``empty_shield`` note says so)."""
        if shield not in self.side.shields or self.occupied(shield):
            return False
        return all(s != shield for g, s in self.guardians.items() if g != guardian)

    def empty_shields(self, circle: int) -> tuple[str, ...]:
        """The empty shields of ``circle`` (see ``occupied``), left to right."""
        return tuple(s for s in self.side.row(circle) if not self.occupied(s))

    def cemetery_total(self) -> int:
        """How many souls wait in the Cemetery."""
        return sum(self.cemetery.values())
