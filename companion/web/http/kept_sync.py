"""Flask asks, for every hook and view it calls (~16 a tap: the before- and after-request functions, the view, the
teardowns), whether the function is a coroutine function (``Flask.ensure_sync``: ``inspect.iscoroutinefunction``,
~0.6 µs each). A function's answer never changes: it is kept, once per function."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Flask

__all__ = ["KEPT_FUNCTIONS", "install"]

KEPT_FUNCTIONS = 4096
"""Functions whose answer is kept at most (the app has ~100 hooks and views; past this, Flask's own check)."""


def install(app: Flask) -> None:
    """Keep ``app.ensure_sync``'s answer for each function it is asked about."""
    ask = app.ensure_sync
    kept: dict[Any, Callable[..., Any]] = {}

    def ensure_sync(func: Callable[..., Any]) -> Callable[..., Any]:
        try:
            found = kept.get(func)
        except TypeError:  # a callable that cannot be a key: asked every time
            return ask(func)
        if found is None:
            found = ask(func)
            if len(kept) < KEPT_FUNCTIONS:
                kept[func] = found
        return found

    app.ensure_sync = ensure_sync  # type: ignore[method-assign]
