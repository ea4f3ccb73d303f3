"""NUL characters are refused at the door, the same on every engine.

PostgreSQL cannot hold a NUL character in text (nor ``\\u0000`` in JSON), so a NUL anywhere in what a
visitor sends (the path, the query, a header, a form field, a JSON body, an uploaded file, written
raw or as the JSON escape ``\\u0000``) would reach the store and answer 500 there, while SQLite
stored it. Every request is checked before any page or API call runs: a NUL is a 400, on both.
"""

from __future__ import annotations

import re
from typing import Any

from flask import Flask, abort, request

__all__ = ["carries_nul", "install"]

# A JSON ``\u0000`` escape: the backslash before ``u`` is not itself escaped (an odd run of backslashes).
_JSON_NUL = re.compile(rb"(?<!\\)(?:\\\\)*\\u0000")


def carries_nul(raw: bytes) -> bool:
    """Whether ``raw`` holds a NUL byte or a JSON ``\\u0000`` escape."""
    return b"\x00" in raw or (b"\\u0000" in raw and _JSON_NUL.search(raw) is not None)


def _text_has_nul(*texts: Any) -> bool:
    return any("\x00" in str(t) for t in texts)


def _encoded_nul(raw: bytes) -> bool:
    """Whether a query string or a url-encoded body decodes to a NUL somewhere: a raw NUL byte or ``%00``
    (werkzeug decodes nothing else to it; a typed ``%00`` is sent as ``%2500``)."""
    return b"\x00" in raw or b"%00" in raw


def _headers_hold_nul(environ: dict[str, Any]) -> bool:
    return any(
        "\x00" in value
        for name, value in environ.items()
        if isinstance(value, str) and (name.startswith("HTTP_") or name in ("CONTENT_TYPE", "CONTENT_LENGTH"))
    )


def refuse_nul() -> None:
    """Before every request: a 400 if anything it sends holds a NUL character.

    The path, the query, the headers and a url-encoded form are read as they came, without decoding them
    (``tests/safety/test_nul_refused.py`` holds the two readings equal); the form is still parsed once, by the
    page, from the body read here."""
    environ = request.environ
    if "\x00" in request.path or _encoded_nul(request.query_string) or _headers_hold_nul(environ):
        abort(400, description="A NUL character is not allowed.")
    method = request.method
    if method == "GET" or method == "HEAD" or method == "OPTIONS":
        return
    mimetype = request.mimetype
    if mimetype == "application/x-www-form-urlencoded":
        if _encoded_nul(request.get_data(cache=True)):
            abort(400, description="A NUL character is not allowed.")
        return
    if mimetype == "multipart/form-data":
        if any(_text_has_nul(k, v) for k, v in request.form.items(multi=True)):
            abort(400, description="A NUL character is not allowed.")
        for upload in request.files.values():
            content = upload.read()
            upload.seek(0)
            if carries_nul(content):
                abort(400, description="A NUL character is not allowed.")
        return
    if carries_nul(request.get_data(cache=True)):
        abort(400, description="A NUL character is not allowed.")


def install(app: Flask) -> None:
    """Refuse NUL characters before any other check of ``app`` runs."""
    app.before_request(refuse_nul)
