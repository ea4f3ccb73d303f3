"""What can happen in a game of Inferno: every event as a frozen, past-tense dataclass.

Each event class carries a stable ``TYPE`` name and a ``VERSION``. The log stores the
type, the version and the fields; ``events.codec`` turns them into JSON and back and
upcasts old versions. This module imports only the standard library, so the pure game
core (``companion.game``) may depend on it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar, TypeVar

__all__ = ["EVENT_TYPES", "Event", "event"]

E = TypeVar("E", bound="Event")

EVENT_TYPES: dict[str, type[Event]] = {}


class Event:
    """Base class of every event: a fact that happened; never rejected, never edited."""

    TYPE: ClassVar[str]
    VERSION: ClassVar[int]


def event(type_name: str, version: int) -> Callable[[type[E]], type[E]]:
    """Register a frozen dataclass as the current version of event ``type_name``."""

    def register(cls: type[E]) -> type[E]:
        if type_name in EVENT_TYPES:
            raise ValueError(f"event type {type_name!r} registered twice")
        cls.TYPE = type_name
        cls.VERSION = version
        EVENT_TYPES[type_name] = cls
        return cls

    return register


# --------------------------------------------------------------------------- card texts as data


@dataclass(frozen=True)
class Reward:
    """What a card, tile or step gives, from the edition's bounded menu (``menus.rewards``).

    ``kind`` is one of florins, drachmas, infamy, skull, half_diploma, tower_floor, urchin,
    cube_right, disc, nothing; ``amount``, ``track`` (a circle) and ``gate`` qualify it.
    """

    kind: str
    amount: int = 0
    track: int = 0
    gate: str = ""


@dataclass(frozen=True)
class EndgameHalf:
    """A fraud card's end-game half: a requirement and an effect, both from the edition's menus.

    Requirements: always, barrels (``colours``), guests_at_least, skull_at_least (``track``),
    diplomas_at_least, no_loans, floors_at_least (``amount``). Effects: infamy,
    infamy_per_diploma (``effect_amount``), skull, cube_right (``effect_track``), half_diploma.
    """

    requirement: str
    effect: str
    colours: tuple[int, ...] = ()
    track: int = 0
    amount: int = 0
    effect_amount: int = 0
    effect_track: int = 0


@dataclass(frozen=True)
class FraudPlay:
    """A fraud card as the table reads it when playing it (its text is not public).

    ``source``: hand, lineup or deck. ``barrels``: the barrel colours its instant half
    needs in the tower. ``reward``: the instant reward chosen. ``endgame``: its end-game half.
    """

    source: str
    barrels: tuple[int, ...]
    reward: Reward
    endgame: EndgameHalf


@dataclass(frozen=True)
class GuardianUse:
    """Using a guardian: where its standee goes and the souls its effect acts on.

    ``targets`` are shields of souls near the new shield; ``destinations`` give, per target,
    where a ``shift`` puts it or which shield a ``descend`` lands on (empty: the rules' choice).
    ``effect`` False moves the standee without using the effect.
    """

    guardian: str
    to_shield: str
    effect: bool = True
    targets: tuple[str, ...] = ()
    destinations: tuple[str, ...] = ()
    desk_below: str = ""
    desk_from: str = ""


# --------------------------------------------------------------------------- set-up


@dataclass(frozen=True)
class SeatSetup:
    """One player as entered at game creation."""

    name: str
    colour: str


@dataclass(frozen=True)
class GuardianSetup:
    """A guardian standee placed in Hell at set-up."""

    guardian: str
    shield: str


@dataclass(frozen=True)
class LocationSetup:
    """Which Florence location tile lies in which quarter."""

    location: str
    quarter: str


@event("GameCreated", 2)
@dataclass(frozen=True)
class GameCreated(Event):
    """A table started a game: players in turn order, board side, edition pinned by hash."""

    edition_id: str
    edition_hash: str
    players: tuple[SeatSetup, ...]
    side: str
    expansion: bool
    florence: tuple[LocationSetup, ...]
    guardians: tuple[GuardianSetup, ...]
    start_florins: tuple[int, ...]
    start_drachmas: tuple[int, ...]


@event("TableModeChosen", 1)
@dataclass(frozen=True)
class TableModeChosen(Event):
    """How the table enters actions: ``shared`` (any phone acts for the active player) or
    ``seats`` (each phone acts only for the player whose seat it took)."""

    mode: str


@event("EditionChanged", 1)
@dataclass(frozen=True)
class EditionChanged(Event):
    """The table switched the game to a corrected edition: from here on the rules and the map
    use it. ``content`` is the edition file's exact text, so the log alone replays the switch."""

    edition_id: str
    edition_hash: str
    content: str


@event("StartingSkullPlaced", 1)
@dataclass(frozen=True)
class StartingSkullPlaced(Event):
    """A player's Family card put a skull on a sin track at set-up."""

    player: int
    track: int


@event("PlagueCardRevealed", 1)
@dataclass(frozen=True)
class PlagueCardRevealed(Event):
    """The table turned a plague card; its souls (by circle colour) went to the Cemetery."""

    souls: tuple[int, ...]


@event("PlagueDeckExhausted", 1)
@dataclass(frozen=True)
class PlagueDeckExhausted(Event):
    """The Cemetery emptied and the table had no plague card left to reveal."""


# --------------------------------------------------------------------------- money


@event("LoanTaken", 1)
@dataclass(frozen=True)
class LoanTaken(Event):
    """A player borrowed: the Ship moved down the loan track and drachmas were gained."""

    player: int
    drachmas: int
    ship_from: int
    ship_to: int
    infamy_penalty: int


@event("CoinsPaid", 1)
@dataclass(frozen=True)
class CoinsPaid(Event):
    """A player paid coins to the bank for ``reason`` (a stable reason code)."""

    player: int
    florins: int
    drachmas: int
    reason: str


@event("CoinsGained", 1)
@dataclass(frozen=True)
class CoinsGained(Event):
    """A player received coins from the bank for ``reason``."""

    player: int
    florins: int
    drachmas: int
    reason: str


@event("FlorinsExchanged", 1)
@dataclass(frozen=True)
class FlorinsExchanged(Event):
    """A player changed florins into drachmas at the Bonfire or the Wall."""

    player: int
    florins: int
    drachmas: int


@event("InfamyChanged", 1)
@dataclass(frozen=True)
class InfamyChanged(Event):
    """A player's infamy moved by ``amount`` (negative for a loss) for ``reason``."""

    player: int
    amount: int
    reason: str


# --------------------------------------------------------------------------- Hell


@event("SoulBroughtIn", 1)
@dataclass(frozen=True)
class SoulBroughtIn(Event):
    """A soul left the Cemetery, crossed the Acheron and stood on a Limbo shield."""

    player: int
    colour: int
    shield: str
    cost: int


@event("SoulMoved", 1)
@dataclass(frozen=True)
class SoulMoved(Event):
    """A standing soul fell along the lines; ``path`` lists every shield after the start."""

    player: int
    from_shield: str
    path: tuple[str, ...]
    wall_pass_used: bool


@event("SoulLaidDown", 1)
@dataclass(frozen=True)
class SoulLaidDown(Event):
    """A soul reached its own circle, was laid down and scored infamy for the mover."""

    player: int
    shield: str
    infamy: int


@event("TollPaid", 1)
@dataclass(frozen=True)
class TollPaid(Event):
    """A soul crossed another player's Desk (below ``shield``): its owner got a drachma."""

    player: int
    owner: int
    shield: str
    drachmas: int


@event("TurnQuarterSet", 1)
@dataclass(frozen=True)
class TurnQuarterSet(Event):
    """The shield where this turn's soul ended fixed the Florence quarter."""

    player: int
    quarter: str


@event("GameEnded", 1)
@dataclass(frozen=True)
class GameEnded(Event):
    """The game is over (``reason``: sudden_death or final_turns_done); scoring follows."""

    reason: str
    player: int


@event("DiscPlaced", 1)
@dataclass(frozen=True)
class DiscPlaced(Event):
    """A player put one of their safe-passage discs on a gate of the Wall of Dis."""

    player: int
    gate: str


# --------------------------------------------------------------------------- Florence


@event("MemberSent", 1)
@dataclass(frozen=True)
class MemberSent(Event):
    """A family member (noble or urchin) went from home to a Florence location."""

    player: int
    kind: str
    location: str
    bribe: bool


@event("OptionTaken", 1)
@dataclass(frozen=True)
class OptionTaken(Event):
    """One of the current location's optional effects was used (each at most once per visit)."""

    player: int
    location: str
    option: str


@event("UrchinJoined", 1)
@dataclass(frozen=True)
class UrchinJoined(Event):
    """An urchin left the reserve: onto ``location`` beside the member just placed, or home."""

    player: int
    location: str


@event("TowerFloorBuilt", 1)
@dataclass(frozen=True)
class TowerFloorBuilt(Event):
    """The next floor of a player's tower was built."""

    player: int
    height: int


@event("MemberWentHome", 1)
@dataclass(frozen=True)
class MemberWentHome(Event):
    """A family member went home from the tower (``floor``) or a location (``source``)."""

    player: int
    kind: str
    source: str
    floor: int


@event("PieceMoved", 1)
@dataclass(frozen=True)
class PieceMoved(Event):
    """A piece moved between floors of its owner's tower (the Courtyard's rearrangement)."""

    player: int
    kind: str
    colour: int
    from_floor: int
    to_floor: int


@event("BarrelTaken", 1)
@dataclass(frozen=True)
class BarrelTaken(Event):
    """A barrel came from the Market to a tower floor."""

    player: int
    colour: int
    floor: int


@event("GuestTaken", 1)
@dataclass(frozen=True)
class GuestTaken(Event):
    """A guest (notable) came from the Palace to a tower floor."""

    player: int
    colour: int
    floor: int


@event("BarrelDelivered", 1)
@dataclass(frozen=True)
class BarrelDelivered(Event):
    """A barrel left the tower for its space on the supply panel (the Wall)."""

    player: int
    colour: int
    floor: int


@event("GuestReturned", 1)
@dataclass(frozen=True)
class GuestReturned(Event):
    """The family council sent a guest from the tower back to the Palace."""

    player: int
    colour: int
    floor: int


@event("BarrelReturned", 1)
@dataclass(frozen=True)
class BarrelReturned(Event):
    """The family council sent a barrel from the tower back to the Market."""

    player: int
    colour: int
    floor: int


@event("CouncilHeld", 1)
@dataclass(frozen=True)
class CouncilHeld(Event):
    """A player with nothing else to do held the family council."""

    player: int


@event("AccusationMade", 1)
@dataclass(frozen=True)
class AccusationMade(Event):
    """A player accused the sinners of a location where a family member of theirs stood."""

    player: int
    location: str
    kind: str
    bribe: bool


@event("AccuserToTower", 1)
@dataclass(frozen=True)
class AccuserToTower(Event):
    """Step 1 of an accusation: the accuser moved from the location to a tower floor."""

    player: int
    location: str
    kind: str
    floor: int


@event("SoulAddedToCemetery", 1)
@dataclass(frozen=True)
class SoulAddedToCemetery(Event):
    """A soul of ``colour`` came from the supply into the Cemetery, owned by no one."""

    colour: int
    reason: str


@event("SupplyExhausted", 1)
@dataclass(frozen=True)
class SupplyExhausted(Event):
    """No soul of ``colour`` was left in the supply, so none went to the Cemetery."""

    colour: int
    reason: str


@event("BonusTileRevealed", 1)
@dataclass(frozen=True)
class BonusTileRevealed(Event):
    """The table entered what a sin track's bonus tile gives (it stays on the track)."""

    track: int
    reward: Reward


@event("DanteMoved", 1)
@dataclass(frozen=True)
class DanteMoved(Event):
    """Dante advanced one step on his path; ``kind`` is that step's reward type."""

    player: int
    position: int
    kind: str
    circle: int


@event("EndTriggered", 1)
@dataclass(frozen=True)
class EndTriggered(Event):
    """Dante reached the Purgatory gate: every other player takes exactly one more turn."""

    player: int


# --------------------------------------------------------------------------- guardians, fraud, the expansion


@event("GuardianMoved", 1)
@dataclass(frozen=True)
class GuardianMoved(Event):
    """A player moved a guardian standee to an empty shield (``reason``: bonfire, dante, ferry)."""

    player: int
    guardian: str
    from_shield: str
    to_shield: str
    reason: str


@event("SoulPetrified", 1)
@dataclass(frozen=True)
class SoulPetrified(Event):
    """Medusa's gaze: the soul is laid down where it stands, scores nothing, keeps its shield."""

    player: int
    shield: str


@event("SoulShifted", 1)
@dataclass(frozen=True)
class SoulShifted(Event):
    """A soul moved sideways to an empty shield of the same circle (a guardian, the ferryman)."""

    player: int
    from_shield: str
    to_shield: str


@event("WallPassGranted", 1)
@dataclass(frozen=True)
class WallPassGranted(Event):
    """A guardian lets the player cross the Wall of Dis once without a disc."""

    player: int
    uses: int


@event("FraudCardPlayed", 1)
@dataclass(frozen=True)
class FraudCardPlayed(Event):
    """A fraud card was played; its instant reward follows, its end-game half waits for scoring."""

    player: int
    play: FraudPlay
    drachmas: int
    reason: str


@event("DeskPlaced", 1)
@dataclass(frozen=True)
class DeskPlaced(Event):
    """Plutus: a player's Desk went right below ``shield`` (moved from ``from_shield`` if reused)."""

    player: int
    shield: str
    from_shield: str


@event("BellTaken", 1)
@dataclass(frozen=True)
class BellTaken(Event):
    """Phlegyas: instead of moving the standee, the player took a Bell."""

    player: int


@event("BellReturned", 1)
@dataclass(frozen=True)
class BellReturned(Event):
    """A player returned a Bell to summon the ferryman instead of the usual soul move."""

    player: int


@event("StyxCrossed", 1)
@dataclass(frozen=True)
class StyxCrossed(Event):
    """The Styx: souls of one colour went from the Cemetery back to the supply."""

    player: int
    colour: int
    count: int


# --------------------------------------------------------------------------- sin tracks, diplomas, Phlegethon


@event("SkullAdvanced", 1)
@dataclass(frozen=True)
class SkullAdvanced(Event):
    """A player's skull rose on a sin track to ``level`` (``reason``: accusation, styx, bonus...)."""

    player: int
    track: int
    level: int
    reason: str


@event("DiplomaAwarded", 1)
@dataclass(frozen=True)
class DiplomaAwarded(Event):
    """A player placed a diploma on a sin track (at most one per track)."""

    player: int
    track: int
    reason: str


@event("HalfDiplomaGained", 1)
@dataclass(frozen=True)
class HalfDiplomaGained(Event):
    """A player took a half-diploma token."""

    player: int
    reason: str


@event("HalfDiplomasPlaced", 1)
@dataclass(frozen=True)
class HalfDiplomasPlaced(Event):
    """At final scoring a player turned pairs of half diplomas into diplomas on these tracks."""

    player: int
    tracks: tuple[int, ...]


@event("CubeMoved", 1)
@dataclass(frozen=True)
class CubeMoved(Event):
    """A Phlegethon cube moved to ``space`` on the scale (the Bonfire moves it right)."""

    player: int
    circle: int
    space: int
    reason: str


# --------------------------------------------------------------------------- corrections


@event("SoulCorrected", 1)
@dataclass(frozen=True)
class SoulCorrected(Event):
    """The table set what stands on a shield to match the board (``colour`` 0: nothing)."""

    shield: str
    colour: int
    laid: bool
    petrified: bool
    reason: str


@event("Corrected", 1)
@dataclass(frozen=True)
class Corrected(Event):
    """The table set a value to match the physical board, with its reason.

    ``what``: a player's resource (``key``: florins, drachmas, infamy, ship, half_diplomas,
    fraud_hand, bells, wall_passes, home_nobles, home_urchins, reserve_urchins), skull (``key``:
    the track), diploma (``key``: the track; ``value`` 1 or 0), disc (``key``: the gate; 1 or 0),
    cemetery (``key``: the colour), cube (``key``: the circle; ``value``: the space), guardian
    (``key``: the guardian; ``value`` unused, ``shield`` set), dante (``value``: the position).
    ``previous`` is what the app had before.
    """

    what: str
    player: int
    key: str
    value: int
    previous: int
    reason: str
    shield: str = ""


@event("EntryReplaced", 1)
@dataclass(frozen=True)
class EntryReplaced(Event):
    """An earlier entry is replaced by what really happened: the events after this one in the
    same batch stand in for the events of the action at ``target``."""

    target: int


# --------------------------------------------------------------------------- turns


@event("TurnEnded", 1)
@dataclass(frozen=True)
class TurnEnded(Event):
    """The active player finished their turn; the next player clockwise is active."""

    player: int
    next_player: int


# --------------------------------------------------------------------------- quick tally


@event("TallyStarted", 1)
@dataclass(frozen=True)
class TallyStarted(Event):
    """A table began a quick tally of a game played without the app: players and board side."""

    edition_id: str
    edition_hash: str
    players: tuple[str, ...]
    side: str


@event("TallyCircleEntered", 1)
@dataclass(frozen=True)
class TallyCircleEntered(Event):
    """The end state of one circle: its empty shields and its cube's space on the scale."""

    circle: int
    empty: int
    cube: int


@event("TallyPlayerEntered", 1)
@dataclass(frozen=True)
class TallyPlayerEntered(Event):
    """The end state of one player (skulls listed in track order, circles 2-9)."""

    player: int
    infamy: int
    skulls: tuple[int, ...]
    diplomas: tuple[int, ...]
    half_diplomas: int
    ship: int
    endgames: tuple[EndgameHalf, ...]
    drachmas: int = 0  # entered only when the edition breaks ties by coins (older entries: 0)
    florins: int = 0


# --------------------------------------------------------------------------- the log itself


@event("ActionUndone", 1)
@dataclass(frozen=True)
class ActionUndone(Event):
    """The action recorded at ``action`` (its first sequence number) was taken back."""

    action: int


@event("EntriesSetAside", 1)
@dataclass(frozen=True)
class EntriesSetAside(Event):
    """The first event of an action that takes the entries ``actions`` out of effect and records,
    after it, what stands for them now (a switch of edition from an earlier entry: the switch, then
    the entries ``recorded_again`` decided once more). Undoing that action puts them back."""

    actions: tuple[int, ...]
    recorded_again: tuple[int, ...]


@event("ActionRedone", 1)
@dataclass(frozen=True)
class ActionRedone(Event):
    """An undone action was put back."""

    action: int


# --------------------------------------------------------------------------- after the game


@event("NextGameCreated", 1)
@dataclass(frozen=True)
class NextGameCreated(Event):
    """After the end, the table started a new game with the same players and seats (the first
    player rotated); ``read_token`` is the new game's read-only address, from which the phones
    of this game reach it, and ``proof`` the app's keyed signature binding it to this game (so an
    entry sent by hand cannot lead the phones to another game). It changes nothing on this board."""

    read_token: str
    proof: str
