"""Correcting an earlier entry: replace it with what really happened, then check every later
entry again and report the first that no longer holds (PRODUCT.md lesson 4).

The replacement is decided against the state just before the entry. Each later entry is then
re-decided from its command; it holds when the rules accept it and record exactly the same
events. If one no longer holds, the replacement is refused with that entry and the reason, and
the table can undo from that entry on (not everything in between) and replace again.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.game.edition import Edition
from companion.game.errors import Choice, RuleViolation
from companion.game.game_or_tally import decide_any, evolve_any, replay_any
from companion.game.timeline import Timeline
from events.catalog import EntryReplaced, Event

__all__ = ["Recheck", "decide_replace"]


@dataclass(frozen=True)
class Recheck:
    """The outcome of a replacement: its events and the first later entry that breaks."""

    events: tuple[Event, ...]
    checked: tuple[int, ...]
    broken: int | None
    reason: RuleViolation | None


def decide_replace(
    edition: Edition, timeline: Timeline, target: int, replacement: Any, commands: Mapping[int, Any]
) -> Recheck:
    """Decide ``replacement`` in place of the entry at ``target`` and re-check every later entry."""
    replaceable = [seq for seq in timeline.undoable if timeline.action(seq).replaces is None]
    if target not in replaceable:
        raise RuleViolation(
            "not_replaceable",
            {"action": target},
            [Choice("choice.replace", {"action": s}) for s in replaceable[-5:]],
        )
    state = replay_any(edition, timeline.effective_events(before=target))
    new_events = decide_any(state, replacement)
    for evt in new_events:
        state = evolve_any(state, evt)
    checked: list[int] = []
    for seq in timeline.later_entries(target):
        command = commands.get(seq)
        recorded = timeline.events_of(seq)
        try:
            if command is None:
                raise RuleViolation("no_command", {"seq": seq})
            expected = decide_any(state, command)
        except RuleViolation as exc:
            return Recheck((EntryReplaced(target), *new_events), tuple(checked), seq, exc)
        if tuple(expected) != recorded:
            differs = RuleViolation("different_events", {"seq": seq})
            return Recheck((EntryReplaced(target), *new_events), tuple(checked), seq, differs)
        checked.append(seq)
        for evt in recorded:
            state = evolve_any(state, evt)
    return Recheck((EntryReplaced(target), *new_events), tuple(checked), None, None)
