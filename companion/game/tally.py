"""The quick tally: score a game played without the app from its end state (RULES.md §7).

The table enters, one entry at a time, each circle's empty shields and cube space and each
player's infamy, skulls, diplomas, half diplomas, Ship and fraud end-game effects. Every
entry is an event (so it can be undone) and is checked against the ranges of the physical
tracks. Scoring uses exactly the same code as a recorded game (``scoring.score``).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from companion.game.commands import EnterCircle, EnterPlayer, PlaceHalfDiplomas, StartTally
from companion.game.edition import Edition, Side
from companion.game.errors import RuleViolation
from companion.game.rules.corrections import infamy_range
from companion.game.scoring import BoardFacts, PlayerFacts, Scoresheet, check_half_choice, score
from events.catalog import (
    Event,
    HalfDiplomasPlaced,
    TallyCircleEntered,
    TallyPlayerEntered,
    TallyStarted,
)

__all__ = [
    "TallyState",
    "coins_asked",
    "decide_start_tally",
    "decide_tally",
    "evolve_tally",
    "replay_tally",
    "tally_score",
]


@dataclass(frozen=True)
class TallyState:
    """What the table has entered so far."""

    edition: Edition
    side: Side
    names: tuple[str, ...]
    circles: dict[int, TallyCircleEntered] = field(default_factory=dict)
    players: dict[int, TallyPlayerEntered] = field(default_factory=dict)
    half_choices: dict[int, tuple[int, ...]] = field(default_factory=dict)

    @property
    def complete(self) -> bool:
        """Whether every circle and every player has been entered."""
        return set(self.circles) == set(self.edition.track_circles) and set(self.players) == set(range(len(self.names)))


def _range(field_name: str, value: int, low: int, high: int, **where: Any) -> None:
    if not low <= value <= high:
        raise RuleViolation(
            "out_of_range",
            {"field": field_name, "value": value, "min": low, "max": high, **where},
        )


COIN_TIE_BREAKERS = {"most_drachmas": "drachmas", "most_florins": "florins"}


def coins_asked(edition: Edition) -> tuple[str, ...]:
    """The coins (``drachmas``, ``florins``) a tally asks of each player: those the edition's
    tie-breakers read (``scoring.tie_breakers``), in the order they break ties; none otherwise."""
    breakers = edition.section("scoring")["tie_breakers"]
    return tuple(COIN_TIE_BREAKERS[b] for b in breakers if b in COIN_TIE_BREAKERS)


def decide_start_tally(edition: Edition, cmd: StartTally) -> list[Event]:
    """Begin a tally: 1–4 players with distinct names; the board side follows the count."""
    names = tuple(n.strip() for n in cmd.players)
    if not edition.min_players <= len(names) <= edition.max_players:
        raise RuleViolation(
            "player_count", {"count": len(names), "min": edition.min_players, "max": edition.max_players}
        )
    if any(not n for n in names):
        raise RuleViolation("player_name_missing", {})
    if len({n.casefold() for n in names}) != len(names):
        raise RuleViolation("player_names_repeat", {"names": sorted(n for n in names if names.count(n) > 1)})
    side = edition.side_for(len(names)).id
    return [TallyStarted(edition.id, edition.content_hash, names, side)]


def decide_tally(state: TallyState, cmd: EnterCircle | EnterPlayer | PlaceHalfDiplomas) -> list[Event]:
    """Check one entry against the ranges of the physical board and record it."""
    edition = state.edition
    match cmd:
        case EnterCircle(circle=circle, empty=empty, cube=cube):
            if circle not in edition.track_circles:
                tracks = edition.track_circles
                raise RuleViolation(
                    "out_of_range", {"field": "circle", "value": circle, "min": min(tracks), "max": max(tracks)}
                )
            _range("empty", empty, 0, len(state.side.row(circle)), circle=circle)
            scale = edition.section("phlegethon")["scale"]
            _range("cube", cube, 0, len(scale) - 1, circle=circle)
            return [TallyCircleEntered(circle, empty, cube)]
        case EnterPlayer():
            _range("player", cmd.player, 0, len(state.names) - 1)
            _range("infamy", cmd.infamy, *infamy_range(edition))
            tracks = edition.track_circles
            if len(cmd.skulls) != len(tracks):
                raise RuleViolation(
                    "out_of_range",
                    {"field": "skulls", "value": len(cmd.skulls), "min": len(tracks), "max": len(tracks)},
                )
            for track, level in zip(tracks, cmd.skulls, strict=True):
                _range("skull", level, edition.first_level, edition.track_length, track=track)
            bad = [d for d in cmd.diplomas if d not in tracks]
            if bad or len(set(cmd.diplomas)) != len(cmd.diplomas):
                raise RuleViolation(
                    "diploma_tracks",
                    {"diplomas": list(cmd.diplomas)},
                )
            # At most a diploma's worth of halves for every track (2 x 8 = 16 in the shipped edition).
            _range("half_diplomas", cmd.half_diplomas, 0, edition.halves_per_diploma * len(tracks))
            _range("ship", cmd.ship, 0, len(edition.loan_penalties) - 1)
            coins_max = int(edition.section("ranges")["coins_max"])
            _range("drachmas", cmd.drachmas, 0, coins_max)
            _range("florins", cmd.florins, 0, coins_max)
            return [
                TallyPlayerEntered(
                    cmd.player,
                    cmd.infamy,
                    tuple(cmd.skulls),
                    tuple(sorted(cmd.diplomas)),
                    cmd.half_diplomas,
                    cmd.ship,
                    tuple(cmd.endgames),
                    cmd.drachmas,
                    cmd.florins,
                )
            ]
        case PlaceHalfDiplomas(player=player, tracks=chosen):
            entered = state.players.get(player)
            if entered is None:
                raise RuleViolation("player_not_entered", {"player": player})
            # The halves to pair include those the fraud cards' end-game halves give (step 1 first).
            halves = tally_score(state).players[player].half_diplomas
            check_half_choice(edition, frozenset(entered.diplomas), halves, chosen)
            return [HalfDiplomasPlaced(player, tuple(chosen))]
    raise RuleViolation("unknown_command", {})


def evolve_tally(state: TallyState, event: Event) -> TallyState:
    """Apply one tally event."""
    match event:
        case TallyCircleEntered(circle=circle):
            return replace(state, circles={**state.circles, circle: event})
        case TallyPlayerEntered(player=player):
            return replace(
                state,
                players={**state.players, player: event},
                half_choices={k: v for k, v in state.half_choices.items() if k != player},
            )
        case HalfDiplomasPlaced(player=player, tracks=tracks):
            return replace(state, half_choices={**state.half_choices, player: tracks})
    raise ValueError(f"no tally projection for {type(event).__name__}")


def replay_tally(edition: Edition, events: list[Event]) -> TallyState:
    """Fold a tally's effective events (the first must be ``TallyStarted``)."""
    first = events[0]
    if not isinstance(first, TallyStarted):
        raise ValueError("a tally's log must start with TallyStarted")
    state = TallyState(edition, edition.sides[first.side], first.players)
    for evt in events[1:]:
        state = evolve_tally(state, evt)
    return state


def tally_score(state: TallyState) -> Scoresheet:
    """Score what was entered (circles not yet entered count as no empty shield, cube at start)."""
    edition = state.edition
    start = {int(c): int(i) for c, i in edition.section("phlegethon")["start"].items()}
    board = BoardFacts(
        empty={c: state.circles[c].empty if c in state.circles else 0 for c in edition.track_circles},
        cubes={c: state.circles[c].cube if c in state.circles else start[c] for c in edition.track_circles},
    )
    players = []
    for i, name in enumerate(state.names):
        entry = state.players.get(i)
        if entry is None:
            players.append(PlayerFacts(name, 0, {}, frozenset(), 0, 0))
            continue
        players.append(
            PlayerFacts(
                name=name,
                infamy=entry.infamy,
                skulls=dict(zip(edition.track_circles, entry.skulls, strict=True)),
                diplomas=frozenset(entry.diplomas),
                half_diplomas=entry.half_diplomas,
                ship=entry.ship,
                endgames=entry.endgames,
                half_choice=state.half_choices.get(i),
                requirements_checked=False,
                drachmas=entry.drachmas,
                florins=entry.florins,
            )
        )
    return score(edition, board, players)
