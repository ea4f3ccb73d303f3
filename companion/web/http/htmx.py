"""What an htmx request says about itself (that it came from htmx), and what a page answers it."""

from __future__ import annotations

from flask.globals import _cv_request
from werkzeug.wrappers import Response

__all__ = ["Answer", "is_htmx"]

Answer = Response | tuple[str, int] | tuple[str, int, dict[str, str]]  # what a page returns


def is_htmx() -> bool:
    """Whether this request came from htmx: its ``HX-Request`` header is "true", as flask-htmx reads it (~5 asks an
    answer: read from the request's environ, not through the app's and the request's proxies); False outside one."""
    ctx = _cv_request.get(None)
    return ctx is not None and ctx.request.environ.get("HTTP_HX_REQUEST") == "true"
