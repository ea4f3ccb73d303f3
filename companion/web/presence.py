"""Who is at the table now: the pages with a live connection open, by seat.

Presence is not game state (it is never logged and is lost on restart); the notifier of the app
keeps it, adding a connection when its stream starts and removing it when the stream ends.
"""

from __future__ import annotations

import threading
from collections import Counter

__all__ = ["Presence"]


class Presence:
    """Live connections per game, each labelled with its seat ("0", "1"..., "shared" or "viewer")."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._connections: dict[str, dict[int, str]] = {}
        self._version: dict[str, int] = {}

    def join_as(self, game_id: str, cid: int, seat: str) -> None:
        """Register connection ``cid`` (unique in this process) of ``game_id`` at ``seat``."""
        with self._lock:
            self._connections.setdefault(game_id, {})[cid] = seat
            self._version[game_id] = self._version.get(game_id, 0) + 1

    def leave(self, game_id: str, cid: int) -> None:
        """Forget a connection that closed (a game nobody is connected to is forgotten too)."""
        with self._lock:
            game = self._connections.get(game_id, {})
            if game.pop(cid, None) is None:
                return
            self._version[game_id] = self._version.get(game_id, 0) + 1
            if not game:
                del self._connections[game_id]

    def version(self, game_id: str) -> int:
        """A counter that changes whenever someone joins or leaves ``game_id``."""
        with self._lock:
            return self._version.get(game_id, 0)

    def snapshot(self, game_id: str) -> tuple[int, Counter[str]]:
        """The version and the seats of ``game_id``, read together."""
        with self._lock:
            return self._version.get(game_id, 0), Counter(self._connections.get(game_id, {}).values())

    def seats(self, game_id: str) -> Counter[str]:
        """How many connections each seat label has for ``game_id``."""
        with self._lock:
            return Counter(self._connections.get(game_id, {}).values())
