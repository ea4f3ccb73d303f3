"""What an htmx request says about itself (that it came from htmx), and what a page answers it."""

from __future__ import annotations

from flask import current_app
from werkzeug.wrappers import Response

__all__ = ["Answer", "is_htmx"]

Answer = Response | tuple[str, int] | tuple[str, int, dict[str, str]]  # what a page returns


def is_htmx() -> bool:
    """Whether this request came from htmx (flask-htmx reads the HX-Request header)."""
    return bool(current_app.htmx)  # type: ignore[attr-defined]
