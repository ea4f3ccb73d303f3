"""What an htmx request says about itself: that it came from htmx, and which parts of the game the
phone shows now (``HX-Game-Parts``)."""

from __future__ import annotations

from flask import current_app

__all__ = ["is_htmx"]


def is_htmx() -> bool:
    """Whether this request came from htmx (flask-htmx reads the HX-Request header)."""
    return bool(current_app.htmx)  # type: ignore[attr-defined]
