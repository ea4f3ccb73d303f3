"""Two hosting details: the public address and a database outage.

``PUBLIC_URL`` (env ``COMPANION_PUBLIC_URL``, e.g. ``https://inferno.example.org``): when set, every
link and QR code the app draws says that address, whatever ``Host`` a request carries, and a request
for any other host is refused (400), so no visitor can make a page point phones elsewhere.

A database that does not answer (a lost connection, a full or vanished disk, no free connection)
answers 503 with ``Retry-After``, never a bare 500: the request may or may not have been recorded,
and sending it again with the same idempotency key is safe (it is recorded at most once).
"""

from __future__ import annotations

import logging
import os
import sqlite3
from typing import Any
from urllib.parse import urlsplit

from flask import Flask, jsonify, render_template, request

from companion.web.http.middleware import wrap_wsgi_app
from companion.web.words.catalogue import gettext

__all__ = ["RETRY_AFTER_SECONDS", "PublicAddress", "install"]

log = logging.getLogger(__name__)

RETRY_AFTER_SECONDS = 5
OUTAGE = (
    "The database did not answer, so this request may or may not have been recorded. "
    "Send it again with the same idempotency key: it is recorded at most once."
)


class PublicAddress:
    """WSGI middleware: requests for the public host only, seen as the public scheme and host."""

    def __init__(self, app: Any, url: str) -> None:
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.netloc:
            raise ValueError(f"PUBLIC_URL must be an http(s) address such as https://inferno.example.org, not {url!r}")
        self.app = app
        self.scheme = parts.scheme
        self.host = parts.netloc.lower()
        default_port = {"http": "80", "https": "443"}[self.scheme]
        self.hosts = {self.host, f"{self.host}:{default_port}"} if ":" not in self.host else {self.host}

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Any:
        host = str(environ.get("HTTP_HOST") or environ.get("SERVER_NAME") or "").lower()
        if host not in self.hosts:
            body = b"Unknown host: use the app's public address.\n"
            start_response(
                "400 Bad Request", [("Content-Type", "text/plain; charset=utf-8"), ("Content-Length", str(len(body)))]
            )
            return [body]
        environ["HTTP_HOST"] = self.host
        environ["wsgi.url_scheme"] = self.scheme
        return self.app(environ, start_response)


def _outage_errors() -> tuple[type[Exception], ...]:
    errors: list[type[Exception]] = [sqlite3.OperationalError]
    try:
        import psycopg
        import psycopg_pool
    except ImportError:  # PostgreSQL support not installed
        return tuple(errors)
    return (*errors, psycopg.OperationalError, psycopg_pool.PoolTimeout)


def install(app: Flask) -> None:
    """The public address (when configured) and the 503 of a database outage, on ``app``."""
    public = str(app.config.get("PUBLIC_URL") or os.environ.get("COMPANION_PUBLIC_URL") or "")
    if public:
        wrap_wsgi_app(app, PublicAddress(app.wsgi_app, public))

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
