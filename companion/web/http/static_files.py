"""Static files served by WhiteNoise, each text file compressed once, ahead of any request.

``prepare`` copies ``static/`` into the instance folder, a style sheet without its comments (they are for whoever
reads the file, not for phones), with a brotli (``.br``) and a gzip (``.gz``) copy beside each text file, made
again only for a file changed since. WhiteNoise serves that folder at ``/static/``, in front of the app: the encoding
a phone accepts, an ETag, ``Range`` and ``HEAD``, and ``Cache-Control: no-cache`` (file names carry no version, so a
phone asks again and is answered 304 while the file is the same). A folder that cannot be written (a read-only
install) is served as it is, uncompressed.
"""

from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path

from flask import Flask
from whitenoise import WhiteNoise
from whitenoise.compress import Compressor
from whitenoise.responders import Headers

from companion.web.http.middleware import wrap_wsgi_app

__all__ = ["install", "lean_css", "prepare"]

_CSS_COMMENT = re.compile(rb"(\"(?:\\.|[^\"\\])*\"|'(?:\\.|[^'\\])*')|/\*.*?\*/\s*", re.S)


def lean_css(css: bytes) -> bytes:
    """A style sheet without its comments. Strings are left as they are, even one holding ``/*``."""
    return _CSS_COMMENT.sub(lambda m: m.group(1) or b"", css)


def _write(path: Path, data: bytes, mtime_ns: int) -> None:
    """``data`` to ``path`` at once for any reader (written beside it, then renamed), dated ``mtime``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".", suffix=".part")
    with os.fdopen(handle, "wb") as f:
        f.write(data)
    os.utime(temporary, ns=(mtime_ns, mtime_ns))
    os.replace(temporary, path)


def prepare(source: Path, target: Path) -> Path:
    """``target`` holding ``source``'s files and their compressed copies, each made again when its source changed."""
    compressor = Compressor(quiet=True)
    for path in sorted(p for p in source.rglob("*") if p.is_file()):
        copy = target / path.relative_to(source)
        mtime = path.stat().st_mtime_ns
        if copy.exists() and copy.stat().st_mtime_ns == mtime:
            continue
        data = path.read_bytes()
        if path.suffix == ".css":
            data = lean_css(data)
        for stale in (copy.with_name(copy.name + ".br"), copy.with_name(copy.name + ".gz")):
            stale.unlink(missing_ok=True)
        if compressor.should_compress(path.name) and data:
            brotli = compressor.compress_brotli(data)
            if compressor.is_compressed_effectively("Brotli", str(copy), len(data), brotli):
                _write(copy.with_name(copy.name + ".br"), brotli, mtime)
                _write(copy.with_name(copy.name + ".gz"), compressor.compress_gzip(data), mtime)
        _write(copy, data, mtime)  # last: a copy as new as its source says its compressed copies are made
    return target


def install(app: Flask, headers: tuple[tuple[str, str], ...] = ()) -> None:
    """Serve ``app``'s static folder through WhiteNoise, compressed ahead into the instance folder, each file with
    ``Cache-Control: no-cache`` and ``headers``."""

    def add_headers(served: Headers, path: str, url: str) -> None:
        served["Cache-Control"] = "no-cache"
        for name, value in headers:
            served[name] = value

    if app.static_folder is None:
        return
    source = Path(app.static_folder)
    try:
        root = prepare(source, Path(app.instance_path) / "static")
    except OSError:
        app.logger.warning("static files served uncompressed: the instance folder cannot be written", exc_info=True)
        root = source
    prefix = (app.static_url_path or "/static").strip("/") + "/"
    wrap_wsgi_app(
        app, WhiteNoise(app.wsgi_app, root=str(root), prefix=prefix, max_age=None, add_headers_function=add_headers)
    )
