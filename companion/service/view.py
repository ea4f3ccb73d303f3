"""Views of a log: what the service gives every page, the API and the CLI, typed by what they hold
(a recorded game or a quick tally), and how one is built: replayed from the start or from a
snapshot, or brought forward from the view kept before by the actions recorded since."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Generic, TypeGuard, TypeVar

from companion.formats.commands import event_from_stored_row
from companion.game.any_log import AnyState, evolve_any, replay_any
from companion.game.edition import Edition
from companion.game.state import GameState
from companion.game.tally import TallyState
from companion.game.timeline import Action, Recorded, Timeline
from events.catalog import ActionRedone, ActionUndone
from events.store import StoredEvent

__all__ = [
    "PRIORS_KEPT",
    "AnyView",
    "GameView",
    "LogView",
    "TallyView",
    "advance",
    "cyclic_gc_paused",
    "decoded",
    "is_game",
    "is_tally",
    "live_actions",
    "rebuild",
]

State = TypeVar("State", bound=AnyState, covariant=True)


@dataclass(frozen=True)
class LogView(Generic[State]):
    """A log as read now: its rows, which actions are in effect, and the rebuilt state (a recorded
    game's ``GameState`` or a quick tally's ``TallyState``, as ``kind`` says)."""

    game_id: str
    kind: str
    edition: Edition
    rows: tuple[StoredEvent, ...]
    timeline: Timeline
    state: State
    seq: int
    read_token: str
    write_token: str
    join_code: str | None = None
    # the state before each of the latest live actions, oldest first: (action seq, state before it)
    priors: tuple[tuple[int, AnyState], ...] = field(default=(), compare=False, repr=False)

    def row(self, seq: int) -> StoredEvent:
        """The stored row with this seq."""
        return self.rows[seq - 1]

    def state_before(self, seq: int) -> AnyState | None:
        """The state right before the live action ``seq``, when it is one of the latest kept."""
        for action, state in reversed(self.priors):
            if action == seq:
                return state
        return None


AnyView = LogView[AnyState]  # a log of either kind, as the service reads it
GameView = LogView[GameState]  # a recorded game
TallyView = LogView[TallyState]  # a quick tally


def is_game(view: AnyView) -> TypeGuard[GameView]:
    """Whether ``view`` is a recorded game's."""
    return isinstance(view.state, GameState)


def is_tally(view: AnyView) -> TypeGuard[TallyView]:
    """Whether ``view`` is a quick tally's."""
    return isinstance(view.state, TallyState)


PRIORS_KEPT = 8  # undo of the latest actions, one by one, never replays the log


@contextmanager
def cyclic_gc_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector while a game is rebuilt.

    A rebuild makes tens of thousands of small acyclic objects (rows, events, states): each few
    hundred trigger a collection that walks every object in the process, the view cache included,
    and finds nothing to free. Reference counting still frees everything as usual; the collector
    is switched back on (if it was on) as soon as the rebuild is done.
    """
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()


def decoded(rows: tuple[StoredEvent, ...]) -> tuple[Recorded, ...]:
    decode = event_from_stored_row
    return tuple(Recorded(r.seq, r.action, decode(r.type, r.version, r.data)) for r in rows)


def live_actions(timeline: Timeline) -> list[Action]:
    return [a for a in timeline.actions if a.seq in timeline.live and a.replaces is None]


def rebuild(
    edition: Edition, timeline: Timeline, base: tuple[int, AnyState] | None = None
) -> tuple[AnyState, tuple[tuple[int, AnyState], ...]]:
    """Replay the timeline (from ``base``, a state at a seq, when given), keeping the state
    before each of its latest live actions."""
    live = live_actions(timeline)
    if base is None:
        if len(live) < 2:
            return replay_any(edition, timeline.effective_events()), ()
        split = max(1, len(live) - PRIORS_KEPT)
        state = replay_any(edition, [e for a in live[:split] for e in timeline.events_of(a.seq)])
    else:
        at, state = base
        live = [a for a in live if a.seq > at]
        split = max(0, len(live) - PRIORS_KEPT)
        for action in live[:split]:
            for evt in timeline.events_of(action.seq):
                state = evolve_any(state, evt)
    priors: list[tuple[int, AnyState]] = []
    for action in live[split:]:
        priors.append((action.seq, state))
        for evt in timeline.events_of(action.seq):
            state = evolve_any(state, evt)
    return state, () if timeline.replacements else tuple(priors)


def advance(
    view: AnyView, timeline: Timeline, added: tuple[Action, ...]
) -> tuple[AnyState, tuple[tuple[int, AnyState], ...]] | None:
    """The state after ``added`` (whole new actions) from ``view``'s, or ``None`` to replay."""
    state = view.state
    priors = list(view.priors)
    for action in added:
        first = action.events[0]
        if action.replaces is not None:
            return None
        if isinstance(first, ActionUndone):
            for evt in action.events:
                assert isinstance(evt, ActionUndone)
                if not priors or priors[-1][0] != evt.action:
                    return None
                state = priors.pop()[1]
        elif isinstance(first, ActionRedone):
            for evt in action.events:
                assert isinstance(evt, ActionRedone)
                back = timeline.action(evt.action)
                # put back as the latest live action, unreplaced, and the only action added
                if len(added) > 1 or back.replaces is not None or back.seq != max(timeline.live):
                    return None
                if timeline.replacement_of(back.seq) is not None:
                    return None
                priors.append((back.seq, state))
                for e in back.events:
                    state = evolve_any(state, e)
        else:
            priors.append((action.seq, state))
            for evt in action.events:
                state = evolve_any(state, evt)
    return state, tuple(priors[-PRIORS_KEPT:])
