"""What a player asks for: imperative, frozen dataclasses that ``rules.decide`` judges.

Every command names the ``player`` it acts for (a seat index). Options are referred to by
stable ids (shield ids, colours as circle numbers, location ids), never by their position
in a list on some screen.
"""

from __future__ import annotations

from dataclasses import dataclass

from events.catalog import EndgameHalf, GuardianSetup, LocationSetup, SeatSetup

__all__ = [
    "COMMAND_TYPES",
    "BringSoul",
    "Command",
    "CreateGame",
    "EndTurn",
    "EnterCircle",
    "EnterPlayer",
    "LogCommand",
    "MoveSoul",
    "PlaceHalfDiplomas",
    "Redo",
    "RevealPlagueCard",
    "StartTally",
    "TakeLoan",
    "TallyCommand",
    "Undo",
]


@dataclass(frozen=True)
class CreateGame:
    """Start a game. Empty tuples mean the edition's defaults (layout, guardians, coins)."""

    players: tuple[SeatSetup, ...]
    expansion: bool = False
    plague_card: tuple[int, ...] = ()
    florence: tuple[LocationSetup, ...] = ()
    guardians: tuple[GuardianSetup, ...] = ()
    start_florins: tuple[int, ...] = ()
    start_drachmas: tuple[int, ...] = ()
    starting_skulls: tuple[tuple[int, ...], ...] = ()


@dataclass(frozen=True)
class TakeLoan:
    """Borrow 2 drachmas: the Ship moves one space down the loan track."""

    player: int


@dataclass(frozen=True)
class BringSoul:
    """Pay Charon and put a soul of ``colour`` from the Cemetery on an empty Limbo shield."""

    player: int
    colour: int
    shield: str
    borrow: bool = False


@dataclass(frozen=True)
class MoveSoul:
    """Move the standing soul on ``from_shield`` to ``to_shield``.

    ``via`` picks one fall among several that reach the same shield (every shield passed,
    the landing last); empty means the cheapest.
    """

    player: int
    from_shield: str
    to_shield: str
    via: tuple[str, ...] = ()
    borrow: bool = False


@dataclass(frozen=True)
class EndTurn:
    """Finish the turn; the next player clockwise becomes active."""

    player: int


@dataclass(frozen=True)
class RevealPlagueCard:
    """The Cemetery is empty: the table enters the souls shown on the next plague card."""

    player: int
    souls: tuple[int, ...]
    deck_empty: bool = False


@dataclass(frozen=True)
class PlaceHalfDiplomas:
    """At final scoring, turn pairs of half diplomas into diplomas on these tracks."""

    player: int
    tracks: tuple[int, ...]


@dataclass(frozen=True)
class StartTally:
    """Begin a quick tally: the players of a game played without the app."""

    players: tuple[str, ...]


@dataclass(frozen=True)
class EnterCircle:
    """Quick tally: a circle's empty shields and its cube's space (0 = the leftmost)."""

    circle: int
    empty: int
    cube: int


@dataclass(frozen=True)
class EnterPlayer:
    """Quick tally: one player's end state (skulls in track order, circles 2-9)."""

    player: int
    infamy: int
    skulls: tuple[int, ...]
    diplomas: tuple[int, ...] = ()
    half_diplomas: int = 0
    ship: int = 0
    endgames: tuple[EndgameHalf, ...] = ()


@dataclass(frozen=True)
class Undo:
    """Take back the latest entry, or every entry from ``to_action`` on (a log command)."""

    to_action: int | None = None


@dataclass(frozen=True)
class Redo:
    """Put back the most recently undone entry (a log command)."""


Command = TakeLoan | BringSoul | MoveSoul | EndTurn | RevealPlagueCard | PlaceHalfDiplomas | CreateGame
TallyCommand = StartTally | EnterCircle | EnterPlayer | PlaceHalfDiplomas
LogCommand = Undo | Redo

COMMAND_TYPES: dict[str, type] = {
    cls.__name__: cls
    for cls in (
        CreateGame,
        TakeLoan,
        BringSoul,
        MoveSoul,
        EndTurn,
        RevealPlagueCard,
        PlaceHalfDiplomas,
        StartTally,
        EnterCircle,
        EnterPlayer,
        Undo,
        Redo,
    )
}
