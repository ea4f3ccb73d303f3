"""How the service builds a view of a log: replayed from the start or from a snapshot, or brought
forward from the view built before by the actions recorded since (``companion.log_view`` holds the
view types themselves)."""

from __future__ import annotations

import gc
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

from companion.formats.commands import event_from_stored_row
from companion.game.edition import Edition
from companion.game.game_or_tally import AnyState, evolve_any, replay_any
from companion.game.projection import NeedsWholeLog
from companion.game.timeline import Action, Recorded, Timeline, extend_timeline
from companion.log_view import AnyView
from events.catalog import ActionRedone, ActionUndone, EditionChanged, Event
from events.store import NewEvent, StoredEvent, stored_event

__all__ = [
    "PRIOR_STATES",
    "advance",
    "brought_forward",
    "cyclic_gc_paused",
    "decoded",
    "live_actions",
    "rebuild",
    "rows_as_stored",
    "switches",
]

PRIOR_STATES = 8  # states held before the latest actions: undoing them one by one never replays the log


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
        split = max(1, len(live) - PRIOR_STATES)
        state = replay_any(edition, [e for a in live[:split] for e in timeline.events_of(a.seq)])
    else:
        at, state = base
        live = [a for a in live if a.seq > at]
        split = max(0, len(live) - PRIOR_STATES)
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
    return state, tuple(priors[-PRIOR_STATES:])


def brought_forward(view: AnyView, new_rows: tuple[StoredEvent, ...], events: Sequence[Event] | None = None) -> AnyView:
    """``view`` brought forward by whole actions appended since it was built; ``events``: the rows' events
    when the caller holds them (it just judged and stored them), folded as they are, not decoded from the
    rows again (an event's trip to JSON and back gives it back equal: ``tests/events/test_codec.py``)."""
    if not new_rows:
        return view
    if events is None:
        added = decoded(new_rows)
    else:
        added = tuple(Recorded(r.seq, r.action, e) for r, e in zip(new_rows, events, strict=True))
    timeline = extend_timeline(view.timeline, added)
    new_actions = timeline.actions[len(view.timeline.actions) :]
    try:
        advanced = None if _sets_aside(timeline, new_actions) else advance(view, timeline, new_actions)
    except NeedsWholeLog:  # a switch of edition onto a state read back from a snapshot
        advanced = None
    state, priors = advanced if advanced is not None else rebuild(view.edition, timeline)
    return replace(
        view,
        rows=view.rows + new_rows,
        timeline=timeline,
        state=state,
        seq=new_rows[-1].seq,
        priors=priors,
    )


def switches(timeline: Timeline) -> bool:
    """Whether a switch of edition is in effect in ``timeline``."""
    return any(isinstance(e, EditionChanged) for seq in timeline.done for e in timeline.events_of(seq))


def _sets_aside(timeline: Timeline, added: tuple[Action, ...]) -> bool:
    """Whether ``added`` sets entries aside or puts them back (a switch from an earlier entry, or
    its undo or redo): the state then folds the entries in effect again."""
    for action in added:
        if action.sets_aside:
            return True
        for evt in action.events:
            if isinstance(evt, (ActionUndone, ActionRedone)) and timeline.action(evt.action).sets_aside:
                return True
    return False


def rows_as_stored(
    first: int,
    events: list[NewEvent],
    recorded_at: str,
    key: str,
    command: dict[str, Any] | None,
    actor: str | None,
) -> tuple[StoredEvent, ...]:
    """The rows an append just stored, as the store's ``read`` would give them back.

    Each payload is the event's own (``to_new_events``) and the command is ``command_to_json``'s: the codec writes both
    as the log reads them back, keys sorted and lists for tuples, so they are taken as they are, not read back through
    JSON. ``tests/service/test_as_read.py`` holds every payload and command in that form; ``test_view_cache`` holds a
    served view's rows equal to a cold start's, key order included."""
    return tuple(
        stored_event(first + i, first, evt.type, evt.version, evt.data, recorded_at, None, None, None)
        if i
        else stored_event(first, first, evt.type, evt.version, evt.data, recorded_at, key, command, actor)
        for i, evt in enumerate(events)
    )
