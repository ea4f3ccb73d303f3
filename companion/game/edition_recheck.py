"""Before a switch of edition: replay the whole log under the new edition, through the rules.

As for a corrected entry (``companion.game.replacement``), each entry in effect is re-decided
from its command, now with the new edition, and holds when the rules accept it and record the
same events. The first entry that no longer holds is named (with what it would record now, or
why it is refused), and the table may switch *from there*: the entries from that one on are set
aside, the switch is recorded, and each is decided once more under the new edition; those the
rules now refuse are listed for the table to enter again. That whole step is one action, so one
undo takes it back.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from companion.game.commands import SwitchEdition, SwitchEditionFrom
from companion.game.edition import Edition
from companion.game.edition_switch import decide_switch, edition_from_text
from companion.game.errors import RuleViolation
from companion.game.game_or_tally import AnyState, decide_any, evolve_any, replay_any
from companion.game.timeline import Timeline
from events.catalog import EditionChanged, EntriesSetAside, Event

__all__ = ["Rerecorded", "SwitchCheck", "decide_switch_from", "recheck_switch"]


@dataclass(frozen=True)
class SwitchCheck:
    """What a switch would record, the entries re-checked, and the first that breaks (with why).

    For the entry that breaks: ``before`` is the game just before it under the new edition, and
    ``instead`` what the rules would record for it now (empty when they refuse it: see ``reason``).
    """

    events: tuple[Event, ...]
    checked: tuple[int, ...]
    broken: int | None
    reason: RuleViolation | None
    before: AnyState | None = None
    instead: tuple[Event, ...] = ()


def recheck_switch(state: AnyState, timeline: Timeline, commands: Mapping[int, Any], content: str) -> SwitchCheck:
    """Decide a switch to ``content`` for the game at ``state`` and re-check every entry under it.

    Raises ``RuleViolation`` when the switch itself is refused (an invalid edition, a board the
    pieces do not fit); otherwise reports the first entry that would no longer hold, if any.
    """
    events = tuple(decide_switch(state, SwitchEdition(content)))
    edition = edition_from_text(content)
    first = timeline.done[0]
    try:
        replayed: AnyState = replay_any(edition, timeline.events_of(first))
    except (KeyError, ValueError, IndexError) as exc:
        reason = RuleViolation("edition_breaks_setup", {"detail": str(exc)}, rule="the set-up must fit the edition")
        return SwitchCheck(events, (), first, reason)
    checked: list[int] = []
    for seq in timeline.later_entries(first):
        command = commands.get(seq)
        recorded = timeline.events_of(seq)
        if isinstance(command, (SwitchEdition, SwitchEditionFrom)):
            # an earlier switch: the edition being checked answers instead; what a switch from an
            # earlier entry recorded again is re-checked entry by entry, as recorded
            checked.append(seq)
            for evt in recorded:
                if not isinstance(evt, (EntriesSetAside, EditionChanged)):
                    replayed = evolve_any(replayed, evt)
            continue
        try:
            if command is None:
                raise RuleViolation("no_command", {"seq": seq})
            expected = decide_any(replayed, command)
        except RuleViolation as exc:
            return SwitchCheck(events, tuple(checked), seq, exc, replayed)
        if tuple(expected) != recorded:
            differs = RuleViolation(
                "different_events", {"seq": seq}, rule="the rules would now record something else for this entry"
            )
            return SwitchCheck(events, tuple(checked), seq, differs, replayed, tuple(expected))
        checked.append(seq)
        for evt in recorded:
            replayed = evolve_any(replayed, evt)
    return SwitchCheck(events, tuple(checked), None, None)


@dataclass(frozen=True)
class Rerecorded:
    """A switch from an earlier entry: the events of its one action, the entries recorded again,
    and those the rules now refuse (each with why), for the table to enter again."""

    events: tuple[Event, ...]
    again: tuple[int, ...]
    dropped: tuple[tuple[int, RuleViolation], ...]


def _entries(timeline: Timeline, commands: Mapping[int, Any], seqs: tuple[int, ...]) -> Iterator[tuple[int, Any]]:
    """Each entry's command in log order; a switch from an earlier entry stands for those it recorded again."""
    for seq in seqs:
        command = commands.get(seq)
        action = timeline.action(seq)
        if isinstance(command, SwitchEditionFrom) and action.sets_aside:
            first = action.events[0]
            assert isinstance(first, EntriesSetAside)
            yield from _entries(timeline, commands, first.recorded_again)
        elif not isinstance(command, SwitchEdition):  # an earlier switch: the new edition answers instead
            yield seq, command


def decide_switch_from(
    pinned: Edition, timeline: Timeline, commands: Mapping[int, Any], content: str, entry: int
) -> Rerecorded:
    """Switch to ``content`` from ``entry`` on: the first entry the new edition would record otherwise.

    Raises ``RuleViolation`` when the switch itself is refused, when every entry holds (a plain
    switch does), or when ``entry`` is not the first that breaks (the screen was drawn before).
    """
    state = replay_any(pinned, timeline.effective_events())
    check = recheck_switch(state, timeline, commands, content)
    if check.broken is None:
        raise RuleViolation("edition_switch_holds", {}, rule="a switch from an entry is for one that breaks")
    if check.broken != entry or entry not in timeline.undoable:
        raise RuleViolation("edition_switch_from_moved", {"entry": entry}, rule="switch from the entry that breaks")
    later = (entry, *timeline.later_entries(entry))
    before = replay_any(pinned, timeline.effective_events(before=entry))
    switch = decide_switch(before, SwitchEdition(content))
    now = before
    for evt in switch:
        now = evolve_any(now, evt)
    events: list[Event] = list(switch)
    again: list[int] = []
    dropped: list[tuple[int, RuleViolation]] = []
    for seq, command in _entries(timeline, commands, later):
        try:
            if command is None:
                raise RuleViolation("no_command", {"seq": seq})
            decided = decide_any(now, command)
        except RuleViolation as exc:
            dropped.append((seq, exc))
            continue
        again.append(seq)
        events += decided
        for evt in decided:
            now = evolve_any(now, evt)
    return Rerecorded((EntriesSetAside(later, tuple(again)), *events), tuple(again), tuple(dropped))
