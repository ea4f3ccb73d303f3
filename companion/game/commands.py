"""What a player asks for: imperative, frozen dataclasses that ``rules.decide`` judges.

Every command names the ``player`` it acts for (a seat index). Options are referred to by
stable ids (shield ids, colours as circle numbers, location ids), never by their position
in a list on some screen.
"""

from __future__ import annotations

from dataclasses import dataclass

from events.catalog import EndgameHalf, FraudPlay, GuardianSetup, GuardianUse, LocationSetup, Reward, SeatSetup

__all__ = [
    "COMMAND_TYPES",
    "Accuse",
    "BringSoul",
    "ChooseTableMode",
    "Command",
    "Correct",
    "CorrectSoul",
    "CreateGame",
    "DeliverBarrel",
    "EndTurn",
    "EnterCircle",
    "EnterPlayer",
    "ExchangeFlorins",
    "HoldCouncil",
    "LogCommand",
    "MoveInTower",
    "MoveSoul",
    "PlaceDisc",
    "PlaceHalfDiplomas",
    "PlayFraud",
    "RaiseCube",
    "Redo",
    "ReplaceEntry",
    "ReturnFromTower",
    "RevealPlagueCard",
    "SendMember",
    "StartNextGame",
    "StartTally",
    "SummonFerryman",
    "SwitchEdition",
    "SwitchEditionFrom",
    "TakeBarrel",
    "TakeGuest",
    "TakeLoan",
    "TallyCommand",
    "Undo",
    "UseGuardian",
    "UseStyx",
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
    table_mode: str = "shared"


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
class SummonFerryman:
    """Instead of the usual soul move: return a Bell; Phlegyas to ``phlegyas_to``; the soul on
    ``soul_from`` sideways to ``soul_to`` (same circle); then its regular move to ``landing``."""

    player: int
    phlegyas_to: str
    soul_from: str
    soul_to: str
    landing: str
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
class SendMember:
    """Florence: send a noble or an urchin from home to ``location`` (``bribe``: any quarter, 2 drachmas)."""

    player: int
    kind: str
    location: str
    bribe: bool = False
    borrow: bool = False


@dataclass(frozen=True)
class Accuse:
    """Florence: accuse the sinners of ``location`` where a member of the player stands.

    ``member`` picks the accuser when both kinds stand there; ``floor`` the tower floor it
    goes to (-1: the rules' choice). ``bonus`` says what the track's bonus tile gives the
    first time it is taken. The Dante step's optional choices come with the command too.
    """

    player: int
    location: str
    member: str = ""
    floor: int = -1
    bribe: bool = False
    borrow: bool = False
    bonus: Reward | None = None
    dante_guardian: GuardianUse | None = None
    dante_fraud: FraudPlay | None = None


@dataclass(frozen=True)
class HoldCouncil:
    """Florence, when nothing else is possible: −2 infamy, then one thing back.

    ``choice``: "member" (from ``source``: "tower" or a location, of ``kind``), "guest" or
    "barrel" (of ``colour``), or "none" when nothing can come back.
    """

    player: int
    choice: str
    source: str = ""
    kind: str = ""
    colour: int = 0


@dataclass(frozen=True)
class TakeBarrel:
    """The Market: a barrel of ``colour`` to an empty space on tower ``floor``."""

    player: int
    colour: int
    floor: int


@dataclass(frozen=True)
class TakeGuest:
    """The Palace: a guest of ``colour`` to an empty space on ``floor``; florins = its height."""

    player: int
    colour: int
    floor: int


@dataclass(frozen=True)
class ReturnFromTower:
    """The Courtyard: family members of these kinds come home from these tower floors."""

    player: int
    floors: tuple[int, ...]
    kinds: tuple[str, ...]


@dataclass(frozen=True)
class MoveInTower:
    """The Courtyard: rearrange the tower, one piece at a time."""

    player: int
    kind: str
    colour: int
    from_floor: int
    to_floor: int


@dataclass(frozen=True)
class ExchangeFlorins:
    """The Bonfire (up to 3) or the Wall (up to 2): florins become drachmas."""

    player: int
    florins: int


@dataclass(frozen=True)
class RaiseCube:
    """The Bonfire: a Phlegethon cube one space right."""

    player: int
    circle: int


@dataclass(frozen=True)
class PlaceDisc:
    """The Bonfire: a safe-passage disc on a gate of the Wall of Dis."""

    player: int
    gate: str


@dataclass(frozen=True)
class DeliverBarrel:
    """The Wall: a barrel from the tower to the supply panel, for infamy."""

    player: int
    colour: int


@dataclass(frozen=True)
class UseGuardian:
    """The Bonfire, for 1 drachma: move a guardian and (optionally) apply its effect."""

    player: int
    use: GuardianUse
    borrow: bool = False


@dataclass(frozen=True)
class UseStyx:
    """The Bonfire, for 2 drachmas: return ``count`` souls of ``colour`` for skull steps."""

    player: int
    colour: int
    count: int
    first_track: int = 0
    last_track: int = 0
    borrow: bool = False


@dataclass(frozen=True)
class PlayFraud:
    """The Wall, for 2 drachmas (+1 when not from hand): play a fraud card."""

    player: int
    play: FraudPlay
    borrow: bool = False


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
    drachmas: int = 0  # asked only when the edition's tie-breakers read coins (``tally.coins_asked``)
    florins: int = 0


@dataclass(frozen=True)
class ChooseTableMode:
    """Switch between one shared phone (``shared``) and a phone per seat (``seats``)."""

    mode: str


@dataclass(frozen=True)
class SwitchEdition:
    """Play on under a corrected edition (``content``: the edition file's exact text)."""

    content: str


@dataclass(frozen=True)
class SwitchEditionFrom:
    """Switch to a corrected edition from the entry at ``entry`` on, the first that the new edition
    would record otherwise: the entries from there are set aside and recorded again where they are
    still legal (a log command, undone as one step)."""

    content: str
    entry: int


@dataclass(frozen=True)
class Correct:
    """Set a value to match the physical board (see ``Corrected`` for ``what`` and ``key``)."""

    what: str
    reason: str
    player: int = -1
    key: str = ""
    value: int = 0
    shield: str = ""


@dataclass(frozen=True)
class CorrectSoul:
    """Set what stands on a shield to match the board (``colour`` 0: nothing)."""

    shield: str
    colour: int
    reason: str
    laid: bool = False
    petrified: bool = False


@dataclass(frozen=True)
class StartNextGame:
    """Tell a finished game's phones that the table started a new game (its read-only token,
    signed by the app for this game)."""

    read_token: str
    proof: str


@dataclass(frozen=True)
class ReplaceEntry:
    """Replace the entry recorded at ``target`` by ``replacement`` (a log command).

    Every later entry is checked again; the first one that no longer holds is reported.
    """

    target: int
    replacement: object


@dataclass(frozen=True)
class Undo:
    """Take back the latest entry, or every entry from ``to_action`` on (a log command)."""

    to_action: int | None = None


@dataclass(frozen=True)
class Redo:
    """Put back the most recently undone entry (a log command)."""


Command = (
    TakeLoan
    | BringSoul
    | MoveSoul
    | SummonFerryman
    | EndTurn
    | RevealPlagueCard
    | SendMember
    | Accuse
    | HoldCouncil
    | TakeBarrel
    | TakeGuest
    | ReturnFromTower
    | MoveInTower
    | ExchangeFlorins
    | RaiseCube
    | PlaceDisc
    | DeliverBarrel
    | UseGuardian
    | UseStyx
    | PlayFraud
    | PlaceHalfDiplomas
    | Correct
    | CorrectSoul
    | ChooseTableMode
    | StartNextGame
    | CreateGame
)
TallyCommand = StartTally | EnterCircle | EnterPlayer | PlaceHalfDiplomas
LogCommand = Undo | Redo | ReplaceEntry | SwitchEditionFrom

COMMAND_TYPES: dict[str, type] = {
    cls.__name__: cls
    for cls in (
        CreateGame,
        TakeLoan,
        BringSoul,
        MoveSoul,
        SummonFerryman,
        EndTurn,
        RevealPlagueCard,
        SendMember,
        Accuse,
        HoldCouncil,
        TakeBarrel,
        TakeGuest,
        ReturnFromTower,
        MoveInTower,
        ExchangeFlorins,
        RaiseCube,
        PlaceDisc,
        DeliverBarrel,
        UseGuardian,
        UseStyx,
        PlayFraud,
        PlaceHalfDiplomas,
        Correct,
        CorrectSoul,
        ChooseTableMode,
        StartNextGame,
        SwitchEdition,
        SwitchEditionFrom,
        StartTally,
        EnterCircle,
        EnterPlayer,
        Undo,
        Redo,
    )
}
