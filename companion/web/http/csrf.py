"""CSRF protection whose verdict on a token is kept: Flask-WTF's ``CSRFProtect``, remembering the pairs it found
valid.

Every tap is a POST with the page's token, the same for as long as the phone keeps its session, and Flask-WTF checks
it afresh each time (its signature unsigned and compared: ~15-40 µs a tap). Tokens never expire here
(``WTF_CSRF_TIME_LIMIT`` is ``None``): a token valid once for a session's raw token stays valid, so the pair found
valid is kept (a bounded number, the oldest let go) and a tap that sends it again passes without the check. Any other
pair, an exempt view, a secure request whose referrer is checked, and any time limit set, go through Flask-WTF's own
check unchanged. A method not checked (a GET) returns at once, as Flask-WTF's check does, without reading the app and
the request through their proxies.
"""

from __future__ import annotations

import threading
from typing import Any

from flask import Flask, g
from flask.globals import _cv_app, _cv_request
from flask_wtf.csrf import CSRFProtect

__all__ = ["KeptCSRFProtect"]

KEPT = 4096  # valid pairs kept per process: a session each, and more tables than one process serves


class KeptCSRFProtect(CSRFProtect):  # type: ignore[misc]  # Flask-WTF ships no types
    """``CSRFProtect`` that keeps the (secret, session token, sent token) triples it found valid."""

    def __init__(self, app: Any = None, kept: int = KEPT) -> None:
        self._valid: dict[tuple[str, str, str], None] = {}
        self._kept = kept
        self._lock = threading.Lock()
        super().__init__(app)

    def _triple(self, app: Flask, session: Any) -> tuple[str, str, str] | None:
        config = app.config
        if config.get("WTF_CSRF_TIME_LIMIT", 3600) is not None:
            return None  # a token that expires: its verdict changes with time
        raw = session.get(config["WTF_CSRF_FIELD_NAME"])
        sent = self._get_csrf_token()  # Flask-WTF's own reading: the form's field, else its headers
        secret = config.get("WTF_CSRF_SECRET_KEY") or app.secret_key
        if not isinstance(raw, str) or not isinstance(sent, str) or not secret:
            return None
        return str(secret), raw, sent

    def protect(self, apply_exemptions: bool = False) -> None:
        # the request's context read once, not through ``request``'s, ``current_app``'s and ``session``'s proxies (~10
        # reads a tap, ~0.8 µs each)
        ctx = _cv_request.get()
        req, app = ctx.request, ctx.app
        config = app.config
        if req.method not in config["WTF_CSRF_METHODS"]:
            return  # a GET: Flask-WTF's check returns at once too, marking nothing (its exemptions change nothing)
        triple = self._triple(app, ctx.session)
        secure = req.is_secure and config["WTF_CSRF_SSL_STRICT"]
        if triple is not None and triple in self._valid and not secure:
            if apply_exemptions and (not req.endpoint or self._is_exempt()):
                return  # as Flask-WTF: an exempt view is not marked
            _cv_app.get().g.csrf_valid = True  # what Flask-WTF marks after its check
            return
        super().protect(apply_exemptions)
        if triple is not None and g.get("csrf_valid"):
            with self._lock:
                self._valid[triple] = None
                while len(self._valid) > self._kept:
                    del self._valid[next(iter(self._valid))]
