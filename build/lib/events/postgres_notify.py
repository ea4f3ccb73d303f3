"""Live updates across processes on PostgreSQL: every committed append is announced on ``CHANNEL``.

The ``events_announce`` trigger of ``events.postgres`` sends ``NOTIFY companion_events,
'<game_id> <last_seq>'`` for each game an insert moved, delivered when (and only if) its
transaction commits; ``Notifications`` and ``listen`` hear them, on a connection of their own.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import psycopg

__all__ = ["CHANNEL", "Appended", "Notifications", "listen"]

CHANNEL = "companion_events"


@dataclass(frozen=True)
class Appended:
    """A committed append somewhere in the cluster: the game and its new last seq."""

    game_id: str
    last_seq: int


class Notifications:
    """A ``LISTEN`` on the append channel, on a connection of its own: ``poll`` returns the appends committed since.

    Use it as a context manager; ``poll`` is meant for one thread (or greenlet) at a time.
    """

    def __init__(self, url: str) -> None:
        self.conn = psycopg.connect(url, autocommit=True)
        self.conn.execute(f"LISTEN {CHANNEL}")

    def poll(self, timeout: float) -> list[Appended]:
        """Wait up to ``timeout`` seconds for the first append, then take every one already arrived."""
        notes = list(self.conn.notifies(timeout=timeout, stop_after=1))
        if notes:
            notes += self.conn.notifies(timeout=0.001)
        found = []
        for note in notes:
            game_id, _, seq = note.payload.rpartition(" ")
            found.append(Appended(game_id, int(seq)))
        return found

    def close(self) -> None:
        """Stop listening and close the connection."""
        self.conn.close()

    def __enter__(self) -> Notifications:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()


def listen(url: str, callback: Callable[[Appended], None], stop: Callable[[], bool], timeout: float = 1.0) -> None:
    """Call ``callback`` for every append committed by any process, until ``stop()`` is true.

    Blocks: run it in a thread (or a greenlet). ``stop`` is checked at least every ``timeout``
    seconds. A notification only says which game moved and its new last seq: read the log for
    the events (or compare with a cached projection's seq).
    """
    with Notifications(url) as feed:
        while not stop():
            for appended in feed.poll(timeout):
                callback(appended)
