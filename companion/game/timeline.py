"""Undo and redo as facts: which recorded actions are in effect, and what to append next.

An *action* is the batch of events one command appended; it is named by the seq of its
first event. ``ActionUndone`` and ``ActionRedone`` events take actions out of effect and
put them back; nothing is ever deleted. An action that starts with ``EntriesSetAside`` takes
earlier entries out of effect itself and records what stands for them (a switch of edition
from an earlier entry): undoing it puts them back, as one step; redoing it sets them aside
again. The game state is the fold of the events of the actions in effect, in log order, so
replaying the log always gives the live state.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import cached_property
from typing import Protocol

from companion.game.errors import Choice, RuleViolation
from events.catalog import ActionRedone, ActionUndone, EntriesSetAside, EntryReplaced, Event

__all__ = [
    "Action",
    "Batch",
    "Recorded",
    "Timeline",
    "build_timeline",
    "decide_redo",
    "decide_undo",
    "extend_timeline",
    "records_of",
]


@dataclass(frozen=True)
class Recorded:
    """One event as read from the log: its seq and the action it belongs to."""

    seq: int
    action: int
    event: Event


@dataclass(frozen=True)
class Action:
    """A batch of events appended by one command (or one undo/redo)."""

    seq: int
    events: tuple[Event, ...]

    @property
    def is_log_control(self) -> bool:
        """Whether this action is an undo or a redo rather than a game action."""
        return isinstance(self.events[0], (ActionUndone, ActionRedone))

    @property
    def replaces(self) -> int | None:
        """The entry this action replaces, when it is a replacement."""
        first = self.events[0]
        return first.target if isinstance(first, EntryReplaced) else None

    @property
    def sets_aside(self) -> tuple[int, ...]:
        """The earlier entries this action takes out of effect while it is in effect."""
        first = self.events[0]
        return first.actions if isinstance(first, EntriesSetAside) else ()


@dataclass(frozen=True)
class Timeline:
    """Every action, which game actions are in effect, and the redo stack."""

    actions: tuple[Action, ...]  # in log order: by their seqs, ascending
    done: tuple[int, ...]
    undone: tuple[int, ...]  # a stack: the last entry is redone first
    live: frozenset[int] = field(default=frozenset(), compare=False)
    replacements: dict[int, Action] = field(default_factory=dict, compare=False)  # target -> latest live one
    corrections: tuple[Action, ...] = field(default=(), compare=False)  # every replacement, live or not
    set_aside: dict[int, tuple[int, ...]] = field(default_factory=dict, compare=False)  # what each action took out

    def replacement_of(self, seq: int) -> Action | None:
        """The replacement in effect for the entry at ``seq`` (the latest one), if any."""
        return self.replacements.get(seq)

    def events_of(self, seq: int) -> tuple[Event, ...]:
        """The events an entry contributes now: its own, or those of its replacement."""
        replacement = self.replacements.get(seq)
        if replacement is not None:
            return replacement.events[1:]
        action = self.by_seq[seq]
        return action.events[1:] if action.sets_aside else action.events

    def effective_events(self, before: int | None = None) -> Iterator[Event]:
        """The events of the actions in effect, in log order (only those before ``before``)."""
        for action in self.actions:
            if before is not None and action.seq >= before:
                return
            if action.seq in self.live and action.replaces is None:
                yield from self.events_of(action.seq)

    def action(self, seq: int) -> Action:
        """The action that starts at ``seq`` (found among the actions, in log order, by halving: ``by_seq`` is made
        only where a replay asks it of every action)."""
        actions = self.actions
        i = bisect_left(actions, seq, key=_seq_of)
        if i == len(actions) or actions[i].seq != seq:
            raise KeyError(seq)
        return actions[i]

    @cached_property
    def by_seq(self) -> dict[int, Action]:
        """Each action by its seq, made once a timeline is asked it: a tap's fresh timeline copies no index of every
        action (a complete game's ~250 a tap); ``action`` answers it one at a time."""
        return {a.seq: a for a in self.actions}

    @cached_property
    def undoable(self) -> tuple[int, ...]:
        """Game actions that may be undone, oldest first (set-up never is)."""
        return self.done[1:]

    @property
    def last_undoable(self) -> int | None:
        """The game action undo would take back (``undoable[-1]``), found without copying ``undoable``: every answer's
        undo bar asks it of a fresh timeline."""
        done = self.done
        return done[-1] if len(done) > 1 else None

    def later_entries(self, seq: int) -> tuple[int, ...]:
        """Entries in effect after ``seq``, in log order (replacements excluded)."""
        return tuple(a.seq for a in self.actions if a.seq > seq and a.seq in self.live and a.replaces is None)


def _seq_of(action: Action) -> int:
    return action.seq


class Batch(Protocol):
    """What one command appended: its first seq and its events (an ``Action``, or the audit's ``LoggedAction``)."""

    @property
    def seq(self) -> int: ...

    @property
    def events(self) -> tuple[Event, ...]: ...


def records_of(batches: Iterable[Batch]) -> list[Recorded]:
    """The records of ``batches`` as the log holds them: each batch's events at its first seq on, in order."""
    return [Recorded(b.seq + i, b.seq, e) for b in batches for i, e in enumerate(b.events)]


def _group(records: Iterable[Recorded]) -> tuple[Action, ...]:
    grouped: dict[int, list[Event]] = {}
    for record in records:
        grouped.setdefault(record.action, []).append(record.event)
    return tuple(Action(seq, tuple(evts)) for seq, evts in grouped.items())


def _settle(
    actions: tuple[Action, ...], done: list[int], undone: list[int], set_aside: dict[int, tuple[int, ...]]
) -> None:
    """Move ``done``/``undone`` through ``actions`` in log order (``set_aside``: what each action
    that sets entries aside took out, filled as they come)."""
    for action in actions:
        first = action.events[0]
        if isinstance(first, ActionUndone):
            for evt in action.events:
                assert isinstance(evt, ActionUndone)
                done.remove(evt.action)
                undone.append(evt.action)
                back = set_aside.get(evt.action, ())
                if back:  # its entries come back into effect, in log order
                    done[:] = sorted([*done, *back])
        elif isinstance(first, ActionRedone):
            for evt in action.events:
                assert isinstance(evt, ActionRedone)
                undone.remove(evt.action)
                done[:] = [a for a in done if a not in set_aside.get(evt.action, ())]
                done.append(evt.action)
        else:
            if action.sets_aside:
                set_aside[action.seq] = action.sets_aside
                done[:] = [a for a in done if a not in action.sets_aside]
            done.append(action.seq)
            undone.clear()


def _timeline(
    actions: tuple[Action, ...],
    done: list[int],
    undone: list[int],
    corrections: tuple[Action, ...],
    set_aside: dict[int, tuple[int, ...]],
) -> Timeline:
    live = frozenset(done)
    replacements = {target: a for a in corrections if a.seq in live and (target := a.replaces) is not None}
    return Timeline(actions, tuple(done), tuple(undone), live, replacements, corrections, set_aside)


def build_timeline(records: Iterable[Recorded]) -> Timeline:
    """Group a game's events into actions and work out which are in effect."""
    actions = _group(records)
    done: list[int] = []
    undone: list[int] = []
    set_aside: dict[int, tuple[int, ...]] = {}
    _settle(actions, done, undone, set_aside)
    corrections = tuple(a for a in actions if a.replaces is not None)
    return _timeline(actions, done, undone, corrections, set_aside)


def extend_timeline(timeline: Timeline, records: Iterable[Recorded]) -> Timeline:
    """``timeline`` with whole actions recorded after it (equal to building it from every record)."""
    added = _group(records)
    if not added:
        return timeline
    done = list(timeline.done)
    undone = list(timeline.undone)
    set_aside = dict(timeline.set_aside)  # kept with the timeline: not worked out again from every action
    _settle(added, done, undone, set_aside)
    corrections = timeline.corrections + tuple(a for a in added if a.replaces is not None)
    return _timeline(timeline.actions + added, done, undone, corrections, set_aside)


def decide_undo(timeline: Timeline, to_action: int | None = None) -> tuple[ActionUndone, ...]:
    """Undo the latest action, or every action from ``to_action`` on ("undo to here")."""
    undoable = timeline.undoable
    if not undoable:
        raise RuleViolation("nothing_to_undo")
    if to_action is None:
        return (ActionUndone(undoable[-1]),)
    if to_action not in undoable:
        raise RuleViolation(
            "not_undoable",
            {"action": to_action},
            [Choice("choice.undo_to", {"action": seq}) for seq in undoable[-5:]],
        )
    index = undoable.index(to_action)
    out: list[ActionUndone] = []
    pending = list(undoable[index:])
    while pending:  # newest first; an entry set aside by one undone here comes back, so goes too
        seq = pending.pop()
        out.append(ActionUndone(seq))
        back = [a for a in timeline.action(seq).sets_aside if a >= to_action]
        pending = sorted([*pending, *back])
    return tuple(out)


def decide_redo(timeline: Timeline) -> ActionRedone:
    """Put back the most recently undone action, while no new action was recorded since."""
    if not timeline.undone:
        undos = [a.seq for a in timeline.actions if isinstance(a.events[0], ActionUndone)]
        recorded_since = bool(undos) and any(not a.is_log_control and a.seq > undos[-1] for a in timeline.actions)
        raise RuleViolation("nothing_to_redo" if recorded_since else "nothing_undone")
    return ActionRedone(timeline.undone[-1])
