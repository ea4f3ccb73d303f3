"""The readable history: each recorded action with its sentences and whether it is in effect."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.game.dispatch import evolve_any, replay_any
from companion.game.timeline import Action, Recorded, build_timeline
from companion.service import GameView
from companion.web.narrate import narrate
from events.catalog import GameCreated, TallyStarted

__all__ = ["Entry", "history_entries"]


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


def _player_of(action: Action) -> int | None:
    for evt in action.events:
        player = getattr(evt, "player", None)
        if isinstance(player, int):
            return player
    return None


def history_entries(view: GameView) -> list[Entry]:
    """Every action of the game, oldest first, told against the state it was recorded in."""
    entries: list[Entry] = []
    records: list[Recorded] = []
    state: Any = None
    live = set(view.timeline.done)
    for action in view.timeline.actions:
        row = view.row(action.seq)
        records += [Recorded(action.seq + i, action.seq, e) for i, e in enumerate(action.events)]
        sentences: list[str] = []
        if action.is_log_control or action.replaces is not None:
            so_far = build_timeline(records)
            if action.replaces is not None:
                before = replay_any(view.edition, so_far.effective_events(before=action.replaces))
                sentences.append(narrate(action.events[0], before))
                for evt in action.events[1:]:
                    sentences.append(narrate(evt, before))
                    before = evolve_any(before, evt)
            else:
                sentences += [narrate(evt, state) for evt in action.events]
            state = replay_any(view.edition, so_far.effective_events())
        else:
            for evt in action.events:
                if isinstance(evt, (GameCreated, TallyStarted)):
                    state = replay_any(view.edition, [evt])
                    sentences.append(narrate(evt, state))
                    continue
                sentences.append(narrate(evt, state))
                state = evolve_any(state, evt)
        replacement = view.timeline.replacement_of(action.seq)
        entries.append(
            Entry(
                seq=action.seq,
                recorded_at=row.recorded_at,
                actor=row.actor,
                sentences=tuple(s for s in sentences if s),
                in_effect=action.seq in live,
                log_control=action.is_log_control,
                player=_player_of(action),
                command_type=(row.command or {}).get("type"),
                replaced_by=replacement.seq if replacement is not None else None,
            )
        )
    return entries
