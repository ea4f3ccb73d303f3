"""A database that does not answer (a lost connection, a full or vanished disk, no free connection) answers 503 with
``Retry-After``, never a bare 500: the request may or may not have been recorded, and sending it again with the same
idempotency key is safe (it is recorded at most once).
"""

from __future__ import annotations

import logging
import sqlite3
from typing import Any

from flask import Flask, jsonify, render_template, request

from companion.web.words.catalogue import gettext

__all__ = ["RETRY_AFTER_SECONDS", "install"]

log = logging.getLogger(__name__)

RETRY_AFTER_SECONDS = 5
OUTAGE = (
    "The database did not answer, so this request may or may not have been recorded. "
    "Send it again with the same idempotency key: it is recorded at most once."
)


def _outage_errors() -> tuple[type[Exception], ...]:
    errors: list[type[Exception]] = [sqlite3.OperationalError]
    try:
        import psycopg
        import psycopg_pool
    except ImportError:  # PostgreSQL support not installed
        return tuple(errors)
    return (*errors, psycopg.OperationalError, psycopg_pool.PoolTimeout)


def install(app: Flask) -> None:
    """Answer a database outage on ``app`` with a 503 the phone can retry."""

    def outage(exc: Exception) -> Any:
        log.warning("the database did not answer: %s", exc)
        headers = {"Retry-After": str(RETRY_AFTER_SECONDS)}
        if request.path.startswith("/api/"):
            return jsonify({"code": "unavailable", "message": OUTAGE}), 503, headers
        text = gettext(
            "The game's records did not answer, so this may not have been recorded. "
            "Wait a few seconds and try again: nothing is recorded twice."
        )
        return render_template("pages/error.html", title=gettext("Try again"), text=text), 503, headers

    for error in _outage_errors():
        app.register_error_handler(error, outage)
