"""Before a switch of edition: replay the whole log under the new edition, through the rules.

As for a corrected entry (``companion.game.replacement``), each entry in effect is re-decided
from its command, now with the new edition, and holds when the rules accept it and record the
same events. The first entry that no longer holds is named, and the switch is refused until
the table corrects it (or undoes from it).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.game.any_log import AnyState, decide_any, evolve_any, replay_any
from companion.game.commands import SwitchEdition
from companion.game.edition_switch import decide_switch, edition_from_text
from companion.game.errors import RuleViolation
from companion.game.timeline import Timeline
from events.catalog import Event

__all__ = ["SwitchCheck", "recheck_switch"]


@dataclass(frozen=True)
class SwitchCheck:
    """What a switch would record, the entries re-checked, and the first that breaks (with why)."""

    events: tuple[Event, ...]
    checked: tuple[int, ...]
    broken: int | None
    reason: RuleViolation | None


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
        if isinstance(command, SwitchEdition):
            checked.append(seq)  # an earlier switch: the edition being checked answers instead
            continue
        try:
            if command is None:
                raise RuleViolation("no_command", {"seq": seq})
            expected = decide_any(replayed, command)
        except RuleViolation as exc:
            return SwitchCheck(events, tuple(checked), seq, exc)
        if tuple(expected) != recorded:
            differs = RuleViolation(
                "different_events", {"seq": seq}, rule="the rules would now record something else for this entry"
            )
            return SwitchCheck(events, tuple(checked), seq, differs)
        checked.append(seq)
        for evt in recorded:
            replayed = evolve_any(replayed, evt)
    return SwitchCheck(events, tuple(checked), None, None)
