"""A tap's answer and a live refresh compressed fast: brotli at quality 1 (Flask-Compress keeps level 5
for whole pages).

An htmx answer is a few parts of the game, ~1-12 KB. Brotli at quality 5 takes ~0.2-0.27 ms of the
server's CPU for it, at quality 1 ~0.05-0.08 ms, for ~20 % more bytes on the wire (2.4 against 3.0 KB
for a 12 KB answer): a table's Wi-Fi carries that in a fraction of the time saved, and the server, which
answers 32 phones one after another after every tap, is where the time goes. Whole pages (a first load,
~70 KB) keep Flask-Compress's quality 5, where bytes count more.

Registered after ``Compress(app)``, so it runs before it: an answer it compressed carries a
``Content-Encoding``, which Flask-Compress leaves alone (still adding ``Vary: Accept-Encoding``).
"""

from __future__ import annotations

import functools

import brotli
from flask import Flask, Response, current_app
from flask.globals import _cv_request
from flask_compress import Compress
from werkzeug.http import parse_accept_header

__all__ = ["QUALITY", "LeanCompress", "install", "takes_brotli"]

QUALITY = 1


@functools.lru_cache(maxsize=256)
def takes_brotli(accept_encoding: str) -> bool:
    """Whether a phone sending ``Accept-Encoding: accept_encoding`` accepts brotli (``request.accept_encodings``),
    worked out once per header: a phone sends the same one on every request."""
    return parse_accept_header(accept_encoding)["br"] > 0


def compress_answer(response: Response) -> Response:
    """After an htmx request: its HTML answer in brotli at ``QUALITY`` when the phone accepts brotli."""
    environ = _cv_request.get().request.environ  # read once, not through ``request``'s proxy for each header
    if environ.get("HTTP_HX_REQUEST") != "true" or response.direct_passthrough or response.is_streamed:
        return response
    if not 200 <= response.status_code < 300 or response.mimetype != "text/html":
        return response
    if "Content-Encoding" in response.headers or not takes_brotli(environ.get("HTTP_ACCEPT_ENCODING", "")):
        return response
    data = response.get_data()
    if len(data) < current_app.config["COMPRESS_MIN_SIZE"]:  # Flask-Compress's: below it, sent as it is
        return response
    response.set_data(brotli.compress(data, quality=QUALITY))
    response.headers["Content-Encoding"] = "br"
    return response


def install(app: Flask) -> None:
    """Compress ``app``'s htmx answers fast; call after ``Compress(app)`` (after-request functions run
    last registered first)."""
    app.after_request(compress_answer)


class LeanCompress(Compress):
    """Flask-Compress, leaving at once an answer it would leave as it is: one already encoded (an htmx answer,
    ``compress_answer``), not a success, not of a compressed type, or below ``COMPRESS_MIN_SIZE``, each after the
    same ``Vary: Accept-Encoding`` as Flask-Compress adds.

    Flask-Compress worked out the phone's encodings (``_choose_algorithm``) and read the request and the config
    through their proxies before any of these checks, on every request (~10-15 µs). Any other answer (one to
    compress, a stream) goes through its own ``after_request`` unchanged. ``tests/web/http/test_compression.py``
    holds the two equal over answers of every kind."""

    def after_request(self, response: Response | None) -> Response:
        if not response or response.is_streamed:
            return super().after_request(response)
        headers = response.headers
        vary: str | None = None
        encoded = False
        for name, value in headers._list:  # once through werkzeug's own list: no lookup of a missing name raises
            low = name.lower()
            if low == "vary" and vary is None:
                vary = value
            elif low == "content-encoding":
                encoded = True
        if not vary:
            headers["Vary"] = "Accept-Encoding"
        elif "accept-encoding" not in vary.lower():
            headers["Vary"] = f"{vary}, Accept-Encoding"
        if encoded or not 200 <= response.status_code < 300 or response.mimetype not in self.compress_mimetypes_set:
            return response
        length = response.content_length
        app = self.app or current_app
        if length is not None and length < app.config["COMPRESS_MIN_SIZE"]:
            return response
        return super().after_request(response)
