"""Properties of random legal play (hypothesis): souls land only on empty shields and never
beyond their circle; replaying the log always gives the live state; undo restores exactly."""

from __future__ import annotations

from dataclasses import dataclass, field

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.game.commands import (
    BringSoul,
    CreateGame,
    EndTurn,
    MoveSoul,
)
from companion.game.edition import Edition
from companion.game.projection import evolve, replay
from companion.game.rules import decide, decide_create
from companion.game.state import GameState, Phase
from companion.game.timeline import Recorded, build_timeline, decide_redo, decide_undo
from events.catalog import Event, SoulBroughtIn, SoulMoved
from testkit.random_play import choices
from tests.builders import seats


@dataclass
class Play:
    """A game driven by random legal choices, keeping the log as the store would."""

    edition: Edition
    records: list[Recorded] = field(default_factory=list)
    live: GameState | None = None

    def append(self, events: list[Event]) -> None:
        first = len(self.records) + 1
        self.records += [Recorded(first + i, first, e) for i, e in enumerate(events)]

    def replayed(self) -> GameState:
        return replay(self.edition, build_timeline(self.records).effective_events())


def check_board(state: GameState) -> None:
    for shield, soul in state.hell.items():
        circle = state.side.shields[shield].circle
        assert circle <= soul.colour, f"{soul} beyond its circle on {shield}"
        if circle == soul.colour:
            assert soul.laid, f"{soul} reached its circle on {shield} but stands"
    assert not set(state.hell) & set(state.guardians.values())


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), players=st.integers(1, 4), card=st.lists(st.integers(1, 9), min_size=2, max_size=6))
def test_random_legal_play_keeps_every_invariant(edition: Edition, data, players: int, card: list[int]) -> None:
    play = Play(edition)
    play.append(decide_create(edition, CreateGame(players=seats(players), plague_card=tuple(card))))
    live = play.replayed()
    for _ in range(data.draw(st.integers(5, 120), label="steps")):
        if live.phase is Phase.OVER:
            break
        roll = data.draw(st.integers(0, 9), label="roll")
        timeline = build_timeline(play.records)
        if roll == 0 and timeline.undoable:
            before_last = replay(
                edition, [e for a in timeline.actions if a.seq in timeline.done[:-1] for e in a.events]
            )
            play.append(list(decide_undo(timeline)))
            live = play.replayed()
            assert live == before_last, "undo did not restore the exact prior state"
            continue
        if roll == 1 and timeline.undone:
            play.append([decide_redo(timeline)])
            live = play.replayed()
            continue
        options = choices(live)
        command = data.draw(st.sampled_from(options), label="command")
        events = decide(live, command)
        for evt in events:
            if isinstance(evt, SoulMoved):
                assert evt.path[-1] not in live.hell, "a soul landed on an occupied shield"
                assert all(s in live.hell or s in live.guardians.values() for s in evt.path[:-1])
            if isinstance(evt, SoulBroughtIn):
                assert not live.occupied(evt.shield)
        play.append(events)
        for evt in events:
            live = evolve(live, evt)
        check_board(live)
        assert live == play.replayed(), "replaying the log does not give the live state"


@settings(max_examples=20, deadline=None)
@given(data=st.data())
def test_undo_of_any_move_restores_the_exact_prior_state(edition: Edition, data) -> None:
    play = Play(edition)
    play.append(decide_create(edition, CreateGame(players=seats(2), plague_card=(3, 5, 7, 9))))
    live = play.replayed()
    for _ in range(data.draw(st.integers(1, 25))):
        options = [c for c in choices(live) if isinstance(c, (BringSoul, MoveSoul, EndTurn))]
        if not options:
            break
        before = live
        command = data.draw(st.sampled_from(options))
        play.append(decide(live, command))
        if isinstance(command, (BringSoul, MoveSoul)):
            play.append(list(decide_undo(build_timeline(play.records))))
            assert play.replayed() == before
            play.append([decide_redo(build_timeline(play.records))])
        live = play.replayed()
