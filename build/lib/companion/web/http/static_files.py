"""Serves ``static/`` text files compressed once per process at the best level, never per request.

Each file is read and compressed on its first request (brotli quality 11, else zstd 19, else gzip 9,
by the client's ``Accept-Encoding``; a style sheet without its comments) and kept in memory, keyed
by its path with its modification time and size, so an edited file is compressed afresh.
Flask-Compress (``COMPRESS_BR_LEVEL``) still compresses the pages, whose text changes with every
request; it leaves an answer that already has a ``Content-Encoding`` alone. A client that accepts
none of these encodings, a file that is not text (an icon) and a ``Range`` request get Flask's own
static view, unchanged.
"""

from __future__ import annotations

import gzip
import hashlib
import mimetypes
import os
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass, field

import brotli
from flask import Flask, Response, current_app, request
from werkzeug.exceptions import NotFound
from werkzeug.security import safe_join

try:  # Python 3.14 has zstd in the standard library; before it, Flask-Compress installs the backport
    from compression import zstd  # type: ignore[import-not-found,unused-ignore]
except ImportError:  # pragma: no cover - depends on the Python version
    from backports import zstd  # type: ignore[import-not-found,no-redef,unused-ignore]

__all__ = ["ENCODINGS", "StaticVariants", "install", "lean_css"]

# the server's preference when the client accepts several equally: the smallest first
COMPRESSORS: dict[str, Callable[[bytes], bytes]] = {
    "br": lambda data: brotli.compress(data, quality=11),
    "zstd": lambda data: zstd.compress(data, 19),
    "gzip": lambda data: gzip.compress(data, compresslevel=9, mtime=0),
}
ENCODINGS = tuple(COMPRESSORS)
TEXT_TYPES = frozenset(
    {
        "text/css",
        "text/javascript",
        "application/javascript",
        "application/json",
        "application/manifest+json",
        "image/svg+xml",
        "text/plain",
        "text/html",
    }
)


@dataclass
class _File:
    """One version of a file (its stamp: modification time and size), plain and as compressed so far."""

    stamp: tuple[int, int]
    digest: str
    plain: bytes
    encoded: dict[str, bytes] = field(default_factory=dict)


class StaticVariants:
    """The memo: each file's bytes per encoding, computed once per version of the file."""

    def __init__(self) -> None:
        self._files: dict[str, _File] = {}
        self._lock = threading.Lock()
        self.compressions = 0  # how many times a file was compressed (once per file, version and encoding)

    def get(self, path: str, encoding: str) -> tuple[bytes, str, float]:
        """The file's bytes in ``encoding``, their ETag and the file's modification time."""
        stat = os.stat(path)
        stamp = (stat.st_mtime_ns, stat.st_size)
        with self._lock:  # one compression per file and encoding even when two phones ask at once
            known = self._files.get(path)
            if known is None or known.stamp != stamp:
                with open(path, "rb") as f:
                    plain = f.read()
                    stamp = (os.fstat(f.fileno()).st_mtime_ns, len(plain))
                if path.endswith(".css"):
                    plain = lean_css(plain)
                known = _File(stamp, hashlib.sha256(plain).hexdigest()[:24], plain)
                self._files[path] = known
            body = known.encoded.get(encoding)
            if body is None:
                body = COMPRESSORS[encoding](known.plain)
                known.encoded[encoding] = body
                self.compressions += 1
        return body, f"{known.digest}-{encoding}", stat.st_mtime


_CSS_COMMENT = re.compile(rb"(\"(?:\\.|[^\"\\])*\"|'(?:\\.|[^'\\])*')|/\*.*?\*/\s*", re.S)


def lean_css(css: bytes) -> bytes:
    """A style sheet without its comments (they are for whoever reads the file, not for phones):
    about 500 bytes of a first load. Strings are kept as they are, even one holding ``/*``."""
    return _CSS_COMMENT.sub(lambda m: m.group(1) or b"", css)


def _text_type(filename: str, app: Flask) -> str | None:
    kind = mimetypes.guess_type(filename)[0]
    compressible = TEXT_TYPES | set(app.config.get("COMPRESS_MIMETYPES", ()))
    return kind if kind in compressible else None


def install(app: Flask) -> StaticVariants:
    """Serve ``app``'s static files through the memo (after ``Compress(app)`` or without it)."""
    variants = StaticVariants()

    def static(filename: str) -> Response:
        kind = _text_type(filename, current_app)
        encoding = request.accept_encodings.best_match(ENCODINGS) if kind else None
        if kind is None or encoding is None or request.range is not None or current_app.static_folder is None:
            answer = current_app.send_static_file(filename)  # Flask's own static view
            if kind is not None:
                answer.vary.add("Accept-Encoding")
            return answer
        path = safe_join(current_app.static_folder, filename)
        if path is None or not os.path.isfile(path):
            raise NotFound()
        body, etag, modified = variants.get(path, encoding)
        answer = Response(body, mimetype=kind)
        answer.headers["Content-Encoding"] = encoding
        answer.vary.add("Accept-Encoding")
        answer.set_etag(etag)
        answer.last_modified = modified  # type: ignore[assignment]
        max_age = current_app.get_send_file_max_age(filename)
        if max_age is None:
            answer.cache_control.no_cache = True
        else:
            answer.cache_control.public = True
            answer.cache_control.max_age = max_age
        answer.make_conditional(request)
        return answer

    app.view_functions["static"] = static
    return variants
