"""A page's addresses built once per process: ``url_for`` kept by what it is asked.

A tap's answer asks for the same few addresses every time (the game's forms: ``/g/<id>/send``, its undo bar,
its live links), ~10 an answer at ~12-24 µs each in werkzeug's builder. An address depends only on the
endpoint, its values, the app's URL map and the path the app is mounted at (``script_root``): kept by those,
with a bound. A call that asks for more (``_external``, ``_anchor``, ``_method``, ``_scheme``), whose values
are not plain text and numbers, whose endpoint is relative to the request's blueprint (``.page``), or made
outside a request, is built as usual.
"""

from __future__ import annotations

import functools
from typing import Any

from flask import Flask, url_for
from flask.globals import _cv_request

__all__ = ["install", "kept_url_for"]

_PLAIN = (str, int)


@functools.lru_cache(maxsize=8192)
def _kept(url_map: object, script_root: str, endpoint: str, values: tuple[tuple[str, Any], ...]) -> str:
    return url_for(endpoint, **dict(values))


def kept_url_for(endpoint: str, **values: Any) -> str:
    """``flask.url_for`` for a path within this app, built once per process for the same request (the request's
    context read once, not through ``request`` and ``current_app``: an answer asks ~20 addresses)."""
    ctx = _cv_request.get(None)
    if ctx is None or endpoint.startswith("."):  # no request, or relative to the request's blueprint
        return url_for(endpoint, **values)
    for key, value in values.items():
        if key.startswith("_") or not isinstance(value, _PLAIN):
            return url_for(endpoint, **values)
    values_asked = tuple(values.items())  # in the order given: a query keeps it
    return _kept(ctx.app.url_map, ctx.request.script_root, endpoint, values_asked)


def install(app: Flask) -> None:
    """The templates' ``url_for`` is the kept one."""
    app.jinja_env.globals["url_for"] = kept_url_for
