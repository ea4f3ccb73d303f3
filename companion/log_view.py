"""A game's log as read now, typed by what it holds: the view the service gives every page, the API,
the CLI, the read models and the exports (a recorded game's ``GameView`` or a quick tally's ``TallyView``).

It sits below the service and imports only the core and the event store's row, so everything that
reads a view (``readmodels``, ``formats``) depends on this module, never on the service that makes it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Generic, TypeGuard, TypeVar

from companion.game.edition import Edition
from companion.game.game_or_tally import AnyState
from companion.game.state import GameState
from companion.game.tally import TallyState
from companion.game.timeline import Timeline
from events.store import StoredEvent

__all__ = ["AnyView", "GameView", "LogView", "TallyView", "is_game", "is_tally"]

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
        """The state right before the live action ``seq``, when it is one of the latest held for undo."""
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
