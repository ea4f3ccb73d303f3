"""The quick tally's one-page sheet: its form shape, the values it shows, and the entries a save records.

The whole end-of-game board (every circle and every player) is one form posted once. Each
circle or player whose values differ from what is recorded becomes one ``EnterCircle`` or
``EnterPlayer`` command, so undo still takes back one entry at a time.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from marshmallow import ValidationError

from companion.game.commands import EnterCircle, EnterPlayer
from companion.game.tally import TallyState, decide_tally, evolve_tally
from companion.service import Conflict, GameService, Outcome
from companion.web.forms.tally import FRAUD_FIELDS, TallySheetForm
from events.catalog import EndgameHalf, Event

__all__ = [
    "PlayerValues",
    "SheetValues",
    "changed_entries",
    "endgame_halves",
    "posted_values",
    "record_sheet",
    "recorded_values",
]

EFFECTS_WITH_TRACK = ("skull", "cube_right")


@dataclass(frozen=True)
class PlayerValues:
    """One player's values as the sheet shows them."""

    infamy: int
    skulls: dict[int, int]
    diplomas: frozenset[int]
    half_diplomas: int
    ship: int
    endgames: tuple[EndgameHalf, ...]
    drachmas: int = 0  # shown only when the edition's tie-breakers read coins
    florins: int = 0


@dataclass(frozen=True)
class SheetValues:
    """What each control of the sheet shows: the recorded entries, else the board at its start."""

    empty: dict[int, int]
    cubes: dict[int, int]
    players: tuple[PlayerValues, ...]


def recorded_values(state: TallyState) -> SheetValues:
    """The sheet as recorded (circles and players not entered yet show the starting board)."""
    edition = state.edition
    start = {int(c): int(i) for c, i in edition.section("phlegethon")["start"].items()}
    tracks = edition.track_circles
    players = []
    for i in range(len(state.names)):
        e = state.players.get(i)
        if e is None:
            players.append(PlayerValues(0, dict.fromkeys(tracks, 0), frozenset(), 0, 0, ()))
        else:
            skulls = dict(zip(tracks, e.skulls, strict=True))
            diplomas = frozenset(e.diplomas)
            players.append(
                PlayerValues(e.infamy, skulls, diplomas, e.half_diplomas, e.ship, e.endgames, e.drachmas, e.florins)
            )
    return SheetValues(
        empty={c: state.circles[c].empty if c in state.circles else 0 for c in tracks},
        cubes={c: state.circles[c].cube if c in state.circles else start[c] for c in tracks},
        players=tuple(players),
    )


def endgame_halves(effects: list[str], amounts: list[str], tracks: list[str]) -> tuple[EndgameHalf, ...]:
    """The fraud cards' end-game halves the table picked (rows without an effect are skipped)."""
    halves = []
    for effect, amount, track in zip(effects, amounts, tracks, strict=False):
        if not effect:
            continue
        halves.append(
            EndgameHalf(
                requirement="always",
                effect=effect,
                effect_amount=int(amount) if amount.strip().lstrip("-").isdigit() else 0,
                effect_track=int(track) if effect in EFFECTS_WITH_TRACK and track.isdigit() else 0,
            )
        )
    return tuple(halves)


def _as_values(state: TallyState, data: dict[str, Any]) -> SheetValues:
    base = recorded_values(state)
    empty, cubes = dict(base.empty), dict(base.cubes)
    for c in data["circles"]:
        if c["empty"] is not None:
            empty[c["circle"]] = c["empty"]
        if c["cube"] is not None:
            cubes[c["circle"]] = c["cube"]
    players = list(base.players)
    for p in data["players"]:
        if not 0 <= p["player"] < len(players):
            continue
        skulls = {t: int(p["skulls"].get(t, 0)) for t in state.edition.track_circles}
        endgames = endgame_halves(*(p[f] for f in FRAUD_FIELDS))
        diplomas = frozenset(p["diplomas"])
        players[p["player"]] = PlayerValues(
            p["infamy"], skulls, diplomas, p["halves"], p["ship"], endgames, p["drachmas"], p["florins"]
        )
    return SheetValues(empty, cubes, tuple(players))


def posted_values(state: TallyState, form: Mapping[str, str]) -> SheetValues:
    """What a refused form held, so the table does not tap it all again (unreadable: as recorded)."""
    try:
        return _as_values(state, TallySheetForm().load(dict(form.items())))
    except ValidationError:
        return recorded_values(state)


def changed_entries(state: TallyState, data: dict[str, Any]) -> list[EnterCircle | EnterPlayer]:
    """One command per circle or player whose sheet values differ from the recorded entry."""
    tracks = state.edition.track_circles
    sheet = _as_values(state, data)
    commands: list[EnterCircle | EnterPlayer] = []
    for c in tracks:
        entered = state.circles.get(c)
        if entered is None or (entered.empty, entered.cube) != (sheet.empty[c], sheet.cubes[c]):
            commands.append(EnterCircle(c, sheet.empty[c], sheet.cubes[c]))
    for i, v in enumerate(sheet.players):
        command = EnterPlayer(
            i,
            v.infamy,
            tuple(v.skulls[t] for t in tracks),
            tuple(sorted(v.diplomas)),
            v.half_diplomas,
            v.ship,
            v.endgames,
            v.drachmas,
            v.florins,
        )
        e = state.players.get(i)
        recorded = (
            None
            if e is None
            else EnterPlayer(
                i,
                e.infamy,
                e.skulls,
                tuple(e.diplomas),
                e.half_diplomas,
                e.ship,
                tuple(e.endgames),
                e.drachmas,
                e.florins,
            )
        )
        if command != recorded:
            commands.append(command)
    return commands


def record_sheet(svc: GameService, game_id: str, data: dict[str, Any]) -> Outcome:
    """Check every changed entry first (nothing is recorded if one is refused), then record each."""
    view = svc.view(game_id)
    assert isinstance(view.state, TallyState)
    trial: TallyState = view.state
    commands = changed_entries(trial, data)
    if not commands:  # what the sheet says is what is recorded: a double tap, or a save with nothing changed
        return Outcome(view, (), duplicate=True)
    behind = data["seq"] != view.seq and svc.store.recorded_under_key(game_id, f"{data['key']}.0") is None
    if behind:  # a screen behind the log (not a double tap, whose keys say so): the conflict, before any rule
        fresh = svc.view(game_id, fresh=True)
        if data["seq"] != fresh.seq:
            raise Conflict(fresh, data["seq"])
        assert isinstance(fresh.state, TallyState)
        trial = fresh.state
        commands = changed_entries(trial, data)
    for command in commands:
        for event in decide_tally(trial, command):
            trial = evolve_tally(trial, event)
    events: list[Event] = []
    seq, duplicate = data["seq"], True
    for n, command in enumerate(commands):
        outcome = svc.execute(game_id, seq, command, f"{data['key']}.{n}")
        seq, duplicate = outcome.view.seq, duplicate and outcome.duplicate
        events.extend(outcome.events)
    return Outcome(outcome.view, tuple(events), duplicate)
