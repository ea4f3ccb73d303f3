"""Replaying a log *through the rules*: does every recorded entry still hold?

Each action is re-decided from its stored command against the state the earlier actions
produce, and must give exactly the events that were recorded. The first action that is
refused, or that would now record different events, is reported with its index. Used by
``companion replay`` and ``companion import``, and to re-check later entries after an
earlier one is corrected.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from companion.game.commands import CreateGame, Redo, ReplaceEntry, StartTally, SwitchEditionFrom, Undo
from companion.game.edition import Edition
from companion.game.errors import RuleViolation
from companion.game.game_or_tally import AnyState, decide_any, decide_start, evolve_any, replay_any
from companion.game.timeline import build_timeline, decide_redo, decide_undo, records_of
from events.catalog import Event

__all__ = ["Breach", "LoggedAction", "actions_of", "audit", "commands_of"]


@dataclass(frozen=True)
class LoggedAction:
    """One recorded action: its first seq, the command that made it, and its events."""

    seq: int
    command: Any
    events: tuple[Event, ...]


@dataclass(frozen=True)
class Breach:
    """The first entry that no longer holds."""

    seq: int
    index: int  # position of the action's first event in the log (0-based)
    code: str
    params: dict[str, Any]
    rule: str


def audit(edition: Edition, actions: Sequence[LoggedAction]) -> tuple[AnyState | None, Breach | None]:
    """Re-decide every action in order; return the final state and the first breach, if any."""
    state: AnyState | None = None
    seen: list[LoggedAction] = []
    index = 0
    for action in actions:
        try:
            expected = _decide(edition, state, seen, action)
        except RuleViolation as exc:
            return state, Breach(action.seq, index, exc.code, exc.params, exc.rule)
        if tuple(expected) != action.events:
            return state, Breach(
                action.seq,
                index,
                "different_events",
                {
                    "recorded": [type(e).__name__ for e in action.events],
                    "decided": [type(e).__name__ for e in expected],
                },
                "the rules now record different events for this entry",
            )
        seen.append(action)
        if isinstance(action.command, (Undo, Redo, ReplaceEntry, SwitchEditionFrom)):
            timeline = build_timeline(records_of(seen))
            state = replay_any(edition, timeline.effective_events())
        elif state is None:
            state = replay_any(edition, action.events)
        else:
            for evt in action.events:
                state = evolve_any(state, evt)
        index += len(action.events)
    return state, None


def _decide(edition: Edition, state: AnyState | None, seen: list[LoggedAction], action: LoggedAction) -> list[Event]:
    command = action.command
    if command is None:
        raise RuleViolation("no_command", {"seq": action.seq})
    if isinstance(command, (CreateGame, StartTally)):
        if state is not None:
            raise RuleViolation("game_exists", {})
        return decide_start(edition, command)
    if state is None:
        raise RuleViolation("no_game", {})
    if isinstance(command, (Undo, Redo, ReplaceEntry, SwitchEditionFrom)):
        timeline = build_timeline(records_of(seen))
        if isinstance(command, SwitchEditionFrom):
            from companion.game.edition_recheck import decide_switch_from

            return list(decide_switch_from(edition, timeline, commands_of(seen), command.content, command.entry).events)
        if isinstance(command, Undo):
            return list(decide_undo(timeline, command.to_action))
        if isinstance(command, Redo):
            return [decide_redo(timeline)]
        from companion.game.replacement import decide_replace

        recheck = decide_replace(edition, timeline, command.target, command.replacement, commands_of(seen))
        if recheck.reason is not None:
            raise recheck.reason
        return list(recheck.events)
    return decide_any(state, command)


def commands_of(actions: Sequence[LoggedAction]) -> dict[int, Any]:
    """Each entry's command as it stands now: a replaced entry answers with its replacement."""
    commands = {a.seq: a.command for a in actions}
    for a in actions:
        if isinstance(a.command, ReplaceEntry):
            commands[a.command.target] = a.command.replacement
    return commands


def actions_of(records: Sequence[tuple[int, int, Event, Any]]) -> list[LoggedAction]:
    """Group (seq, action, event, command-or-None) rows into actions."""
    grouped: dict[int, tuple[Any, list[Event]]] = {}
    for _seq, action, event, command in records:
        if action not in grouped:
            grouped[action] = (command, [])
        grouped[action][1].append(event)
    return [LoggedAction(seq, cmd, tuple(evts)) for seq, (cmd, evts) in grouped.items()]
