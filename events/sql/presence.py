"""The queries of presence both engines share (``SqlSharedPresence``): reading the other processes' open pages.

Each engine writes presence its own way (``hold_presence``, ``drop_presence``: SQLite under its
writers' lock, PostgreSQL in one statement of column arrays); the read is the same SQL on both.
"""

from __future__ import annotations

from abc import abstractmethod
from collections import Counter
from collections.abc import Sequence

from events.sql.engine import SqlEngine

__all__ = ["SqlSharedPresence"]


class SqlSharedPresence(SqlEngine):
    """Presence (not game state) as both engines read it; each engine supplies the writes."""

    @abstractmethod
    def hold_presence(self, process: str, held: Sequence[tuple[str, str, str]], now: float) -> None:
        """Record (or renew, at ``now``) the open pages of ``process``: (holder, game_id, seat) each."""

    @abstractmethod
    def drop_presence(self, holders: Sequence[str], before: float) -> None:
        """Forget the pages ``holders`` (they closed) and every page not renewed since ``before``."""

    def presence_elsewhere(self, process: str, since: float) -> dict[str, Counter[str]]:
        """The open pages of every other process renewed since ``since``: seats counted by game."""
        rows = self._all(
            "SELECT game_id, seat, COUNT(*) FROM presence WHERE process <> ? AND seen_at >= ? GROUP BY game_id, seat",
            (process, since),
        )
        found: dict[str, Counter[str]] = {}
        for game_id, seat, count in rows:
            found.setdefault(str(game_id), Counter())[str(seat)] = int(count)
        return found
