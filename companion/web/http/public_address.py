"""The public address: ``PUBLIC_URL`` (env ``COMPANION_PUBLIC_URL``, e.g. ``https://inferno.example.org``). When set,
every link and QR code the app draws says that address, whatever ``Host`` a request carries, and a request for any
other host is refused (400), so no visitor can make a page point phones elsewhere.
"""

from __future__ import annotations

import os
from typing import Any
from urllib.parse import urlsplit

from flask import Flask

from companion.web.http.middleware import wrap_wsgi_app

__all__ = ["PublicAddress", "install"]


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


def install(app: Flask) -> None:
    """Serve ``app`` at its public address, when one is configured."""
    public = str(app.config.get("PUBLIC_URL") or os.environ.get("COMPANION_PUBLIC_URL") or "")
    if public:
        wrap_wsgi_app(app, PublicAddress(app.wsgi_app, public))
