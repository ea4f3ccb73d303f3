"""Who is at the table now: the pages with a live connection open, by seat, in every server process.

Presence is not game state (it is never logged and is lost on restart). The notifier of each
process keeps its own connections here, adding one when its stream starts and removing it when the
stream ends, and shares them through the store's ``presence`` table; what the other processes hold
is merged in (``merge_elsewhere``), so a phone served by one worker sees a phone served by another.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Iterable

__all__ = ["Presence"]


class Presence:
    """Live connections per game, each labelled with its seat ("0", "1"..., "shared" or "viewer")."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._connections: dict[str, dict[int, str]] = {}
        self._elsewhere: dict[str, Counter[str]] = {}  # other processes' connections, by game
        self._version: dict[str, int] = {}

    def join_as(self, game_id: str, cid: int, seat: str) -> None:
        """Register connection ``cid`` (unique in this process) of ``game_id`` at ``seat``."""
        with self._lock:
            self._connections.setdefault(game_id, {})[cid] = seat
            self._version[game_id] = self._version.get(game_id, 0) + 1

    def leave(self, game_id: str, cid: int) -> None:
        """Forget a connection that closed (a game nobody here is connected to is forgotten too)."""
        with self._lock:
            game = self._connections.get(game_id, {})
            if game.pop(cid, None) is None:
                return
            self._version[game_id] = self._version.get(game_id, 0) + 1
            if not game:
                del self._connections[game_id]
                self._elsewhere.pop(game_id, None)

    def merge_elsewhere(self, found: dict[str, Counter[str]], games: Iterable[str]) -> list[str]:
        """Take what the other processes hold for ``games`` (those listened to here); the games whose
        count changed (their version moved, so their pages must be told)."""
        changed = []
        with self._lock:
            for game_id in games:
                now = found.get(game_id, Counter())
                if now == self._elsewhere.get(game_id, Counter()):
                    continue
                if now and game_id in self._connections:
                    self._elsewhere[game_id] = now
                else:
                    self._elsewhere.pop(game_id, None)
                self._version[game_id] = self._version.get(game_id, 0) + 1
                changed.append(game_id)
        return changed

    def version(self, game_id: str) -> int:
        """A counter that changes whenever someone joins or leaves ``game_id``."""
        with self._lock:
            return self._version.get(game_id, 0)

    def snapshot(self, game_id: str) -> tuple[int, Counter[str]]:
        """The version and the seats of ``game_id`` (here and elsewhere), read together."""
        with self._lock:
            return self._version.get(game_id, 0), self._seats(game_id)

    def seats(self, game_id: str) -> Counter[str]:
        """How many connections each seat label has for ``game_id``, in every process."""
        with self._lock:
            return self._seats(game_id)

    def _seats(self, game_id: str) -> Counter[str]:
        here = Counter(self._connections.get(game_id, {}).values())
        return here + self._elsewhere.get(game_id, Counter())
