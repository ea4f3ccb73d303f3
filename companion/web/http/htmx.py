"""What an htmx request says about itself, read through flask-htmx, and what a page answers it."""

from __future__ import annotations

from typing import Any

import flask_htmx
from flask_htmx import HTMX
from flask_htmx.responses import HTMXResponseClientRedirect
from werkzeug.wrappers import Response

__all__ = ["Answer", "client_redirect", "htmx", "htmx_answer", "is_htmx"]

Answer = Response | tuple[str, int] | tuple[str, int, dict[str, str]]  # what a page returns

htmx = HTMX()
"""flask-htmx's view of the request (``bool(htmx)``, ``htmx.trigger``, ``htmx.target``…); ``create_app`` registers it,
and templates see it as ``htmx``."""


def is_htmx() -> bool:
    """Whether this request came from htmx (its ``HX-Request`` header)."""
    return bool(htmx)


def client_redirect(url: str) -> Response:
    """An answer that has htmx load ``url`` as a whole page (``HX-Redirect``)."""
    answer: Response = HTMXResponseClientRedirect(url)
    return answer


def htmx_answer(*args: Any, **headers: Any) -> Response:
    """``flask.make_response(*args)`` with htmx's response headers named as flask-htmx names them (``retarget``,
    ``reswap``, ``replace_url``, ``trigger_after_settle``…)."""
    answer: Response = flask_htmx.make_response(*args, **headers)
    return answer
