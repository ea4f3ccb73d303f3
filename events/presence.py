"""The contract of presence shared between server processes, whatever the engine: ``SharedPresence``.

Each process records the live pages it holds open (a holder, its game and its seat) and renews them;
it reads the other processes' pages to count who is at a table. Presence is not game state: rows
expire unless their process renews them, so a process that dies leaves rows that simply age out.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Protocol

__all__ = ["SharedPresence"]


class SharedPresence(Protocol):
    """The open live pages of every server process, shared through the database."""

    def hold_presence(self, process: str, held: Sequence[tuple[str, str, str]], now: float) -> None: ...

    def drop_presence(self, holders: Sequence[str], before: float) -> None: ...

    def presence_elsewhere(self, process: str, since: float) -> dict[str, Counter[str]]: ...
