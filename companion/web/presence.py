"""Who is at the table now: the phones with a live connection open, by seat.

Presence is not game state (it is never logged and is lost on restart); it lives in the app
object, not in a module, and is shared by the threads that serve live connections.
"""

from __future__ import annotations

import itertools
import threading
from collections import Counter

__all__ = ["Presence"]


class Presence:
    """Live connections per game, each labelled with its seat ("0", "1"..., "shared" or "viewer")."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._connections: dict[str, dict[int, str]] = {}
        self._ids = itertools.count(1)
        self._version: dict[str, int] = {}

    def join(self, game_id: str, seat: str) -> int:
        """Register a connection; returns its id for ``leave``."""
        with self._lock:
            cid = next(self._ids)
            self._connections.setdefault(game_id, {})[cid] = seat
            self._version[game_id] = self._version.get(game_id, 0) + 1
            return cid

    def leave(self, game_id: str, cid: int) -> None:
        """Forget a connection that closed."""
        with self._lock:
            self._connections.get(game_id, {}).pop(cid, None)
            self._version[game_id] = self._version.get(game_id, 0) + 1

    def version(self, game_id: str) -> int:
        """A counter that changes whenever someone joins or leaves ``game_id``."""
        with self._lock:
            return self._version.get(game_id, 0)

    def seats(self, game_id: str) -> Counter[str]:
        """How many connections each seat label has for ``game_id``."""
        with self._lock:
            return Counter(self._connections.get(game_id, {}).values())
