"""What the shared SQL of every role asks of an engine (``SqlEngine``), and the helpers every role uses.

A shared query marks its parameters with ``?``; each engine runs it through its own hooks
(``_execute``, ``_one``, ``_all``: PostgreSQL's turn ``?`` into ``%s``) and opens its own write
transactions (``_transaction``).
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Sequence
from contextlib import AbstractContextManager
from datetime import UTC, datetime
from typing import Any

__all__ = ["SqlEngine", "command_of", "utc_now"]


def utc_now() -> str:
    """The time a row is recorded at: UTC, ISO 8601, to the millisecond."""
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def command_of(text: str | None) -> dict[str, Any] | None:
    """A stored command, parsed (``None`` stays ``None``)."""
    return None if text is None else dict(json.loads(text))


class SqlEngine(ABC):
    """The hooks through which every role's shared SQL runs; each engine's connection supplies them."""

    @abstractmethod
    def _execute(self, query: str, params: Sequence[Any] = ()) -> None:
        """Run ``query`` (parameters marked ``?``)."""

    @abstractmethod
    def _one(self, query: str, params: Sequence[Any] = ()) -> tuple[Any, ...] | None:
        """The first row ``query`` returns, if any."""

    @abstractmethod
    def _all(self, query: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """Every row ``query`` returns."""

    @abstractmethod
    def _transaction(self) -> AbstractContextManager[object]:
        """One write transaction (inside an open one, SQLite joins it and PostgreSQL makes a savepoint)."""
