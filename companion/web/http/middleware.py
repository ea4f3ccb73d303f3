"""Puts WSGI middleware around the application, the way Flask's documentation does it.

The proxy headers (``security``), the public address (``public_address``) and the static files
(``static_files``) each wrap ``app.wsgi_app``; the assignment lives here once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from flask import Flask

if TYPE_CHECKING:
    from _typeshed.wsgi import WSGIApplication

__all__ = ["wrap_wsgi_app"]


def wrap_wsgi_app(app: Flask, wrapped: WSGIApplication) -> None:
    """Serve ``app`` through ``wrapped``, a middleware built around the current ``app.wsgi_app``."""
    # Flask's own pattern (``app.wsgi_app = ProxyFix(app.wsgi_app)``): mypy sees a method replaced.
    app.wsgi_app = wrapped  # type: ignore[method-assign,assignment]
