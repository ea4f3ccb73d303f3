"""What an htmx request says about itself, read through flask-htmx, and what a page answers it."""

from __future__ import annotations

from flask_htmx import HTMX
from werkzeug.wrappers import Response

__all__ = ["Answer", "htmx", "is_htmx"]

Answer = Response | tuple[str, int] | tuple[str, int, dict[str, str]]  # what a page returns

htmx = HTMX()
"""flask-htmx's view of the request (``bool(htmx)``, ``htmx.trigger``, ``htmx.target``…); ``create_app`` registers it,
and templates see it as ``htmx``."""


def is_htmx() -> bool:
    """Whether this request came from htmx (its ``HX-Request`` header)."""
    return bool(htmx)
