"""The readable history: each recorded action with its sentences and whether it is in effect."""

from __future__ import annotations

from dataclasses import dataclass

from companion.game.projection import evolve, initial_state, replay
from companion.game.state import GameState
from companion.game.timeline import Action
from companion.service import GameView
from companion.web.narrate import narrate
from events.catalog import ActionRedone, ActionUndone, GameCreated

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


def _player_of(action: Action) -> int | None:
    for evt in action.events:
        player = getattr(evt, "player", None)
        if isinstance(player, int):
            return player
    return None


def history_entries(view: GameView) -> list[Entry]:
    """Every action of the game, oldest first, told against the state it was recorded in."""
    entries: list[Entry] = []
    done: list[int] = []
    state: GameState | None = None
    live = set(view.timeline.done)
    for action in view.timeline.actions:
        row = view.row(action.seq)
        sentences: list[str] = []
        if action.is_log_control:
            for evt in action.events:
                sentences.append(narrate(evt, state) if state is not None else "")
                if isinstance(evt, ActionUndone):
                    done.remove(evt.action)
                elif isinstance(evt, ActionRedone):
                    done.append(evt.action)
            state = replay(view.edition, [e for a in view.timeline.actions if a.seq in set(done) for e in a.events])
        else:
            for evt in action.events:
                if isinstance(evt, GameCreated):
                    state = initial_state(view.edition, evt)
                    sentences.append(narrate(evt, state))
                    continue
                assert state is not None
                sentences.append(narrate(evt, state))
                state = evolve(state, evt)
            done.append(action.seq)
        entries.append(
            Entry(
                seq=action.seq,
                recorded_at=row.recorded_at,
                actor=row.actor,
                sentences=tuple(s for s in sentences if s),
                in_effect=action.seq in live,
                log_control=action.is_log_control,
                player=_player_of(action),
            )
        )
    return entries
