"""The readable history: each recorded action with its sentences and whether it is in effect."""

from __future__ import annotations

import weakref
from dataclasses import dataclass, replace
from typing import Any

from companion.game.game_or_tally import evolve_any, replay_any
from companion.game.timeline import Action, Recorded, build_timeline, records_of
from companion.service import AnyView, is_game
from companion.service.caches import Lru
from companion.web.words.catalogue import language
from companion.web.words.history import narrate
from events.catalog import ActionRedone, ActionUndone, EntriesSetAside, EntryReplaced, GameCreated, TallyStarted

__all__ = ["Entry", "HistoryFold", "history_entries", "latest_entries", "state_at"]


@dataclass(frozen=True)
class Entry:
    """One action in the history."""

    seq: int
    recorded_at: str
    actor: str | None
    sentences: tuple[str, ...]
    in_effect: bool
    log_control: bool  # an undo or redo entry
    player: int | None
    command_type: str | None = None
    replaced_by: int | None = None
    turn: int = 0
    undid: tuple[int, ...] = ()  # for an undo: the entries it took back


def _player_of(action: Action) -> int | None:
    for evt in action.events:
        player = getattr(evt, "player", None)
        if isinstance(player, int):
            return player
    return None


def _entry(view: AnyView, action: Action, sentences: list[str], turn: int) -> Entry:
    row = view.row(action.seq)
    replacement = view.timeline.replacement_of(action.seq)
    return Entry(
        seq=action.seq,
        recorded_at=row.recorded_at,
        actor=row.actor,
        sentences=tuple(s for s in sentences if s),
        in_effect=action.seq in view.timeline.live,
        log_control=action.is_log_control,
        player=_player_of(action),
        command_type=(row.command or {}).get("type"),
        replaced_by=replacement.seq if replacement is not None else None,
        turn=turn,
        undid=tuple(e.action for e in action.events if isinstance(e, ActionUndone)),
    )


def _tell(view: AnyView, action: Action, before: Any) -> tuple[list[str], Any]:
    """The sentences of a game action or a replacement, and the state after it."""
    sentences: list[str] = []
    state = before
    for evt in action.events:
        if isinstance(evt, (GameCreated, TallyStarted)):
            state = replay_any(view.edition, [evt])
            sentences.append(narrate(evt, state))
            continue
        if isinstance(evt, (EntryReplaced, EntriesSetAside)):
            sentences.append(narrate(evt, state))
            continue
        sentences.append(narrate(evt, state))
        state = evolve_any(state, evt)
    return sentences, state


class HistoryFold:
    """The history told action by action, resumable: a longer log of the same game continues from
    where the fold stopped (the log only grows), so a long game is not told again from the start.

    What each entry says is fixed when it is told; whether it is in effect or corrected is read
    from the view it is shown with.
    """

    def __init__(self) -> None:
        self.told: list[Entry] = []  # each action as told, with its effect when it was told
        self._records: list[Recorded] = []
        self._snapshots: dict[int, Any] = {}
        self._done: list[int] = []
        self._state: Any = None

    @property
    def actions(self) -> int:
        """How many actions are told."""
        return len(self.told)

    def advance(self, view: AnyView) -> HistoryFold:
        """Tell the actions of ``view`` not told yet (``view`` is this game, at least as long)."""
        state = self._state
        done = self._done
        for action in view.timeline.actions[len(self.told) :]:
            self._records += records_of([action])
            turn = getattr(state, "turn", 0)
            if action.is_log_control:
                sentences = [narrate(evt, state) for evt in action.events]
                for evt in action.events:
                    if isinstance(evt, ActionUndone):
                        done.remove(evt.action)
                    elif isinstance(evt, ActionRedone):
                        done.append(evt.action)
                if any(
                    isinstance(e, (ActionUndone, ActionRedone)) and view.timeline.action(e.action).sets_aside
                    for e in action.events
                ):
                    done[:] = build_timeline(self._records).done  # entries set aside come back, or go again
                state = self._snapshots[done[-1]]
            elif action.sets_aside:
                so_far = build_timeline(self._records)
                before = replay_any(view.edition, so_far.effective_events(before=action.sets_aside[0]))
                sentences, state = _tell(view, action, before)
                done[:] = so_far.done
            elif action.replaces is not None:
                so_far = build_timeline(self._records)
                before = replay_any(view.edition, so_far.effective_events(before=action.replaces))
                sentences, _after = _tell(view, action, before)
                state = replay_any(view.edition, so_far.effective_events())
                done.append(action.seq)
            else:
                sentences, state = _tell(view, action, state)
                done.append(action.seq)
            if not action.is_log_control:
                self._snapshots[action.seq] = state
            self.told.append(_entry(view, action, sentences, turn or getattr(state, "turn", 0)))
        self._state = state
        return self

    def entries(self, view: AnyView) -> list[Entry]:
        """Every told action as an entry of ``view``, oldest first (in effect and corrected as now)."""
        live, replacements = view.timeline.live, view.timeline.replacements
        out = []
        for entry in self.told:
            in_effect = entry.seq in live
            replacement = replacements.get(entry.seq)
            replaced_by = replacement.seq if replacement is not None else None
            if entry.in_effect != in_effect or entry.replaced_by != replaced_by:
                entry = replace(entry, in_effect=in_effect, replaced_by=replaced_by)
            out.append(entry)
        return out


def history_entries(view: AnyView) -> list[Entry]:
    """Every action of the game, oldest first, told against the state it was recorded in.

    The state after each action is held, so an undo returns to the state after the last action
    still in effect without replaying the log; only a replacement replays it.
    """
    return HistoryFold().advance(view).entries(view)


TOLD_KEPT = 2048
"""How many latest entries, told in a language from a state, a process keeps (``_told``)."""

_TOLD: Lru[tuple[str, int, int], tuple[weakref.ref[Action], weakref.ref[Any], list[str]]] = Lru(TOLD_KEPT)


def _told(view: AnyView, action: Action, before: Any) -> list[str]:
    """``_tell``'s sentences, held by the action and the state it is told from, and the language: an undo tells
    the entry before it as it was told when that one was recorded, and the entry it undid (the one to redo) from
    the state it was told from then; a redo tells that entry once more.

    A state and an action are never changed once made: they are found by the objects themselves, held weakly
    (a game left aside is not held alive by its entries; an id reused by another object is told afresh)."""
    key = (language(), id(action), id(before))
    held = _TOLD.get(key)
    if held is not None and held[0]() is action and held[1]() is before:
        return held[2]
    sentences, _after = _tell(view, action, before)
    _TOLD.put(key, (weakref.ref(action), weakref.ref(before), sentences))
    return sentences


def latest_entries(view: AnyView) -> tuple[Entry | None, Entry | None]:
    """The entry "undo" would take back and the one "redo" would put back, told cheaply.

    The undone entry was undone from the state the game is in now, so it is told against it;
    the latest entry is told against one replay of everything before it.
    """
    timeline = view.timeline
    last: Entry | None = None
    latest = timeline.last_undoable
    if latest is not None:
        action = timeline.action(latest)
        target = action.replaces if action.replaces is not None else action.seq
        before = view.state_before(target) if action.replaces is None else None
        if before is None:
            before = replay_any(view.edition, timeline.effective_events(before=target))
        last = _entry(view, action, _told(view, action, before), getattr(before, "turn", 0))
    redo: Entry | None = None
    if timeline.undone:
        action = timeline.action(timeline.undone[-1])
        before = view.state
        if action.sets_aside:  # it would set entries aside again: told from before them
            before = replay_any(view.edition, timeline.effective_events(before=action.sets_aside[0]))
        redo = _entry(view, action, _told(view, action, before), (view.state.turn if is_game(view) else 0))
    return last, redo


def state_at(view: AnyView, seq: int) -> Any:
    """The game right after the entry at ``seq``.

    For an entry still in effect: the final timeline's entries up to it (a clean replay, without
    detours later undone); otherwise the log as it stood right after that entry was recorded.
    """
    timeline = view.timeline
    if seq in timeline.live:
        keep = {a for a in timeline.done if a <= seq}
        events = [
            e for a in timeline.actions if a.seq in keep and a.replaces is None for e in timeline.events_of(a.seq)
        ]
        return replay_any(view.edition, events)
    records = records_of(a for a in timeline.actions if a.seq <= seq)
    return replay_any(view.edition, build_timeline(records).effective_events())
