"""Rebuilding the game from its events: ``evolve`` applies one fact; ``replay`` folds them.

``evolve`` holds no rules and never rejects an event: a recorded event is a fact. It is a
``match`` over the closed set of game events, ending in ``assert_never`` so that mypy
names any event type a projection forgot.

A switch of edition (``EditionChanged``) means "this game was played on the corrected edition all
along": the state after it is the fold of every event before it (earlier switches left out) on the
new edition, from its set-up values on. So each state remembers the events folded into it, newest
first, as a chain of pairs shared between states (``_PAST``, held in the state's ``__dict__`` outside
its dataclass fields: it is no part of the table, of a state's equality or of a snapshot). A state read
back from a snapshot does not know its past: a switch applied to it raises ``NeedsWholeLog`` and the log
is replayed.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from companion.game.edition import Edition
from companion.game.edition_switch import edition_from_text
from companion.game.projection_florence import FLORENCE_EVENTS, evolve_florence
from companion.game.state import Floor, GameState, Phase, PlayerInfo, PlayerState, Soul
from events.catalog import (
    BellReturned,
    BellTaken,
    CoinsGained,
    CoinsPaid,
    Corrected,
    CubeMoved,
    DeskPlaced,
    DiplomaAwarded,
    DiscPlaced,
    EditionChanged,
    Event,
    FlorinsExchanged,
    FraudCardPlayed,
    GameCreated,
    GameEnded,
    GuardianMoved,
    HalfDiplomaGained,
    HalfDiplomasPlaced,
    InfamyChanged,
    LoanTaken,
    NextGameCreated,
    PlagueCardRevealed,
    PlagueDeckExhausted,
    SkullAdvanced,
    SoulBroughtIn,
    SoulCorrected,
    SoulLaidDown,
    SoulMoved,
    SoulPetrified,
    SoulShifted,
    StartingSkullPlaced,
    StyxCrossed,
    TableModeChosen,
    TollPaid,
    TurnEnded,
    TurnQuarterSet,
    WallPassGranted,
)

__all__ = ["PROJECTION_VERSION", "NeedsWholeLog", "evolve", "initial_state", "replay"]

# Bump on any change to what ``evolve`` (or the state's shape) makes of an event, here, in
# ``projection_florence`` or in the tally: stored snapshots of older projections are then ignored.
PROJECTION_VERSION = 1

_PAST = "_past"  # the events folded into a state, newest first: (event, older pairs) ending in None


class NeedsWholeLog(ValueError):
    """A switch of edition applied to a state whose past is unknown (read back from a snapshot)."""


def _counts(d: dict[int, int], colour: int, delta: int) -> dict[int, int]:
    out = dict(d)
    out[colour] = out.get(colour, 0) + delta
    if out[colour] <= 0:
        del out[colour]
    return out


def initial_state(edition: Edition, created: GameCreated) -> GameState:
    """The table right after set-up, from the creation event and its pinned edition."""
    count = len(created.players)
    economy = edition.section("economy")
    florins = created.start_florins or (int(economy["start_florins"]),) * count
    drachmas = created.start_drachmas or (int(economy["start_drachmas"]),) * count
    family = edition.section("family")
    tower = edition.section("tower")
    floors = tuple(Floor(int(h)) for h in tower["heights"][: int(tower["start_floors"])])
    guests = frozenset(int(c) for c in edition.section("guests")["colours"])
    barrels = frozenset(int(c) for c in edition.section("barrels")["colours"])
    players = tuple(
        PlayerState(
            florins=florins[i],
            drachmas=drachmas[i],
            palace_guests=guests,
            market_barrels=barrels,
            home_nobles=int(family["nobles"]),
            home_urchins=int(family["start_urchins_at_home"]),
            reserve_urchins=int(family["urchins"]) - int(family["start_urchins_at_home"]),
            tower=floors,
            fraud_hand=int(economy["start_fraud_cards"]),
        )
        for i in range(count)
    )
    side = edition.sides[created.side]
    florence = {loc.location: loc.quarter for loc in created.florence} or {
        location: quarter
        for quarter, locations in edition.section("default_layout")["quarters"].items()
        for location in locations
    }
    guardians = {g.guardian: g.shield for g in created.guardians}
    supply = {int(c): int(n) for c, n in edition.section("souls")["supply"].items()}
    phlegethon = {int(c): int(i) for c, i in edition.section("phlegethon")["start"].items()}
    state = GameState(
        edition=edition,
        side=side,
        players=tuple(
            PlayerInfo(s.name, s.colour, edition.colours.get(s.colour, s.name[:1].upper())) for s in created.players
        ),
        expansion=created.expansion,
        p=players,
        hell={},
        cemetery={},
        supply=supply,
        phlegethon=phlegethon,
        florence=florence,
        guardians=guardians,
    )
    state.__dict__[_PAST] = (created, None)
    return state


FOLDS_CACHED = 64
"""How many of the latest folds ``evolve`` remembers: judging a command folds its events onto the game (a batch's
running state), recording it folds the same events onto the same state, and the undo bar tells the action by
folding them once more; the second and third folds are found here."""

_FOLDS: OrderedDict[tuple[int, int], tuple[GameState, Event, GameState]] = OrderedDict()


def evolve(state: GameState, event: Event) -> GameState:
    """Apply one recorded event. Never refuses: the rules were checked before recording.

    A state and an event are never changed once made, so the state one event leads to from one state is found
    again among the latest folds (``FOLDS_CACHED``), by the two objects themselves (each fold holds them: their
    ids are not reused while it is cached)."""
    key = (id(state), id(event))
    cached = _FOLDS.get(key)
    if cached is not None and cached[0] is state and cached[1] is event:
        return cached[2]
    after = _switched(state, event) if isinstance(event, EditionChanged) else _apply(state, event)
    if after is state:
        after = replace(state)
    after.__dict__[_PAST] = (event, state.__dict__.get(_PAST, _UNKNOWN))
    _FOLDS[key] = (state, event, after)
    if len(_FOLDS) > FOLDS_CACHED:
        _FOLDS.popitem(last=False)
    return after


_UNKNOWN: Any = ("unknown",)  # the end of the past of a state read back from a snapshot


def _switched(state: GameState, event: EditionChanged) -> GameState:
    """The table as if it had been played on the edition of ``event`` from its set-up on."""
    past: list[Event] = []
    node = state.__dict__.get(_PAST, _UNKNOWN)
    while node is not None:
        if node is _UNKNOWN:
            raise NeedsWholeLog("a switch of edition is replayed from the whole log")
        past.append(node[0])
        node = node[1]
    created = past.pop()
    if not isinstance(created, GameCreated):
        raise NeedsWholeLog("a switch of edition is replayed from the game's creation")
    edition = edition_from_text(event.content)
    again = initial_state(edition, created)
    for evt in reversed(past):
        if not isinstance(evt, EditionChanged):  # the new edition answers for every earlier one
            again = _apply(again, evt)
    return again


_FLORENCE_TYPES = frozenset(FLORENCE_EVENTS)
"""Florence's events by their class, sent on to ``projection_florence`` before the match below (no event class is a
subclass of another, so the class alone says where an event is folded)."""


def _apply(state: GameState, event: Event) -> GameState:
    if type(event) in _FLORENCE_TYPES:
        return evolve_florence(state, event)
    match event:
        case StartingSkullPlaced(player=p, track=track):
            skulls = dict(state.p[p].skulls)
            skulls[track] = skulls.get(track, state.edition.first_level) + 1
            return state.with_player(p, skulls=skulls)
        case PlagueCardRevealed(souls=souls):
            cemetery, supply = state.cemetery, state.supply
            for colour in souls:
                cemetery = _counts(cemetery, colour, 1)
                supply = _counts(supply, colour, -1)
            return replace(state, cemetery=cemetery, supply=supply, needs_plague_card=False)
        case PlagueDeckExhausted():
            return replace(state, needs_plague_card=False, plague_deck_empty=True)
        case LoanTaken(player=p, drachmas=d, ship_to=ship, infamy_penalty=penalty):
            pl = state.p[p]
            return state.with_player(p, ship=ship, drachmas=pl.drachmas + d, infamy=pl.infamy - penalty)
        case CoinsPaid(player=p, florins=f, drachmas=d):
            pl = state.p[p]
            return state.with_player(p, florins=pl.florins - f, drachmas=pl.drachmas - d)
        case CoinsGained(player=p, florins=f, drachmas=d):
            pl = state.p[p]
            return state.with_player(p, florins=pl.florins + f, drachmas=pl.drachmas + d)
        case FlorinsExchanged(player=p, florins=f, drachmas=d):
            pl = state.p[p]
            return state.with_player(p, florins=pl.florins - f, drachmas=pl.drachmas + d)
        case InfamyChanged(player=p, amount=amount):
            return state.with_player(p, infamy=state.p[p].infamy + amount)
        case SoulBroughtIn(player=p, colour=colour, shield=shield, cost=cost):
            cemetery = _counts(state.cemetery, colour, -1)
            state = state.with_player(p, drachmas=state.p[p].drachmas - cost)
            return replace(
                state,
                hell={**state.hell, shield: Soul(colour)},
                cemetery=cemetery,
                needs_plague_card=not cemetery and not state.plague_deck_empty,
            )
        case SoulMoved(player=p, from_shield=start, path=path, wall_pass_used=used):
            hell = dict(state.hell)
            soul = hell.pop(start)
            hell[path[-1]] = soul
            if used:
                state = state.with_player(p, wall_passes=state.p[p].wall_passes - 1)
            return replace(state, hell=hell)
        case SoulLaidDown(player=p, shield=shield, infamy=infamy):
            hell = {**state.hell, shield: replace(state.hell[shield], laid=True)}
            state = state.with_player(p, infamy=state.p[p].infamy + infamy)
            return replace(state, hell=hell)
        case DiscPlaced(player=p, gate=gate):
            return state.with_player(p, discs=state.p[p].discs | {gate})
        case SoulCorrected(shield=shield, colour=colour, laid=laid, petrified=petrified):
            hell = {k: v for k, v in state.hell.items() if k != shield}
            if colour:
                hell[shield] = Soul(colour, laid=laid or petrified, petrified=petrified)
            return replace(state, hell=hell)
        case SkullAdvanced(player=p, track=track, level=level):
            return state.with_player(p, skulls={**state.p[p].skulls, track: level})
        case DiplomaAwarded(player=p, track=track):
            return state.with_player(p, diplomas=state.p[p].diplomas | {track})
        case HalfDiplomaGained(player=p):
            return state.with_player(p, half_diplomas=state.p[p].half_diplomas + 1)
        case HalfDiplomasPlaced(player=p, tracks=tracks):
            return replace(state, half_choices={**state.half_choices, p: tracks})
        case CubeMoved(circle=circle, space=space):
            return replace(state, phlegethon={**state.phlegethon, circle: space})
        case Corrected():
            return apply_correction(state, event)
        case EditionChanged():
            return _switched(state, event)
        case TableModeChosen(mode=mode):
            return replace(state, table_mode=mode)
        case TurnQuarterSet(quarter=quarter):
            return replace(state, quarter=quarter, phase=Phase.FLORENCE)
        case TurnEnded(player=p, next_player=nxt):
            left = state.final_turns_left
            if left is not None and p != state.end_trigger:
                left -= 1
            return replace(
                state,
                active=nxt,
                turn=state.turn + 1,
                phase=Phase.HELL,
                quarter=None,
                action=None,
                used=frozenset(),
                final_turns_left=left,
            )
        case GuardianMoved(guardian=g, to_shield=shield):
            return replace(state, guardians={**state.guardians, g: shield})
        case SoulPetrified(shield=shield):
            return replace(state, hell={**state.hell, shield: replace(state.hell[shield], laid=True, petrified=True)})
        case SoulShifted(from_shield=a, to_shield=b):
            hell = dict(state.hell)
            hell[b] = hell.pop(a)
            return replace(state, hell=hell)
        case WallPassGranted(player=p, uses=uses):
            return state.with_player(p, wall_passes=state.p[p].wall_passes + uses)
        case FraudCardPlayed(player=p, play=play, drachmas=d, reason=reason):
            pl = state.p[p]
            scored = pl.hand_scored + (reason == "in_hand_at_end")
            return state.with_player(
                p, drachmas=pl.drachmas - d, endgames=(*pl.endgames, play.endgame), hand_scored=scored
            )
        case DeskPlaced(player=p, shield=shield, from_shield=old):
            desks = [d for d in state.p[p].desks if d != old] if old else list(state.p[p].desks)
            return state.with_player(p, desks=(*desks, shield))
        case TollPaid(player=p, owner=owner, drachmas=d):
            state = state.with_player(p, drachmas=state.p[p].drachmas - d)
            return state.with_player(owner, drachmas=state.p[owner].drachmas + d)
        case BellTaken(player=p):
            return state.with_player(p, bells=state.p[p].bells + 1)
        case BellReturned(player=p):
            return state.with_player(p, bells=state.p[p].bells - 1)
        case StyxCrossed(colour=colour, count=count):
            cemetery = _counts(state.cemetery, colour, -count)
            supply = _counts(state.supply, colour, count)
            return replace(
                state, cemetery=cemetery, supply=supply, needs_plague_card=not cemetery and not state.plague_deck_empty
            )
        case GameEnded(reason=reason):
            return replace(state, phase=Phase.OVER, ended=reason)
        case NextGameCreated():
            return state  # a pointer to the table's next game: nothing on this board changes
        case GameCreated():
            raise ValueError("GameCreated starts a game; it cannot be applied to one")
        case _:
            raise ValueError(f"no projection for event {type(event).__name__}")


def apply_correction(state: GameState, c: Corrected) -> GameState:
    """Apply a correction recorded by the table (the new value simply replaces the old)."""
    match c.what:
        case "resource":
            return state.with_player(c.player, **{c.key: c.value})
        case "skull":
            return state.with_player(c.player, skulls={**state.p[c.player].skulls, int(c.key): c.value})
        case "diploma":
            track = int(c.key)
            diplomas = state.p[c.player].diplomas
            return state.with_player(c.player, diplomas=diplomas | {track} if c.value else diplomas - {track})
        case "disc":
            discs = state.p[c.player].discs
            return state.with_player(c.player, discs=discs | {c.key} if c.value else discs - {c.key})
        case "cemetery":
            cemetery = {**state.cemetery, int(c.key): c.value}
            cemetery = {k: v for k, v in cemetery.items() if v > 0}
            return replace(state, cemetery=cemetery, needs_plague_card=not cemetery and not state.plague_deck_empty)
        case "cube":
            return replace(state, phlegethon={**state.phlegethon, int(c.key): c.value})
        case "guardian":
            return replace(state, guardians={**state.guardians, c.key: c.shield})
        case "dante":
            return replace(state, dante=c.value)
    return state


def replay(edition: Edition, events: Iterable[Event]) -> GameState:
    """Fold a game's effective events (the first must be ``GameCreated``)."""
    iterator = iter(events)
    first = next(iterator, None)
    if not isinstance(first, GameCreated):
        raise ValueError("a game's log must start with GameCreated")
    state = initial_state(edition, first)
    for evt in iterator:
        state = evolve(state, evt)
    return state
