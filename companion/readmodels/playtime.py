"""Time at the table, read from the log's timestamps: how long a game lasted and each player's share.

A player's share of a turn runs from the end of the previous turn (or the game's creation) to
the end of their own; the time after the last turn ended, up to the game's end, goes to the
player whose turn it was. Only entries in effect count (undone entries are skipped; a replaced
entry counts at its own time).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from companion.log_view import GameView
from events.catalog import GameEnded, TurnEnded

__all__ = ["PlayTime", "format_minutes", "play_time"]


@dataclass(frozen=True)
class PlayTime:
    """When a game started and last moved, its length, and each player's seconds of it."""

    started: datetime
    finished: datetime
    seconds: int
    per_player: tuple[int, ...]

    @property
    def minutes(self) -> int:
        """The length in whole minutes, rounded (at least 1 once anything was played)."""
        return max(1, round(self.seconds / 60)) if self.seconds else 0

    def share(self, player: int) -> int:
        """A player's share of the game, in percent (rounded)."""
        return round(100 * self.per_player[player] / self.seconds) if self.seconds else 0


def _when(text: str) -> datetime:
    return datetime.fromisoformat(text)


def play_time(view: GameView, players: int) -> PlayTime | None:
    """The game's time at the table, or None for an empty log."""
    if not view.rows:
        return None
    timeline = view.timeline
    started = _when(view.rows[0].recorded_at)
    mark = started
    last = started
    active = 0
    per_player = [0] * players
    for action in timeline.actions:
        if action.seq not in timeline.live or action.replaces is not None:
            continue
        at = _when(view.row(action.seq).recorded_at)
        for event in timeline.events_of(action.seq):
            if isinstance(event, TurnEnded) and 0 <= event.player < players:
                per_player[event.player] += max(0, int((at - mark).total_seconds()))
                mark = at
                active = event.next_player
            elif isinstance(event, GameEnded) and at > mark:
                per_player[active] += int((at - mark).total_seconds())
                mark = at
        last = max(last, at)
    seconds = max(0, int((mark - started).total_seconds()))
    return PlayTime(started, last, seconds, tuple(per_player))


def format_minutes(seconds: int) -> tuple[int, int]:
    """Seconds as (hours, minutes), minutes rounded."""
    minutes = round(seconds / 60)
    return divmod(minutes, 60)
