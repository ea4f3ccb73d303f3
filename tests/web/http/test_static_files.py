"""Static files through WhiteNoise: compressed once ahead (brotli at its best level, gzip), a style sheet without
its comments, each encoding reading back as the file, ETags and 304, HEAD, Range, no-cache, 404s, and a changed file
compressed again when the next app is made; the pages stay with Flask-Compress."""

from __future__ import annotations

import gzip
import os
import re
from collections.abc import Callable
from pathlib import Path

import brotli
import pytest
from backports import zstd
from flask.testing import FlaskClient

from companion.web import ROOT
from companion.web.http.static_files import lean_css, prepare

STATIC = ROOT / "static"
CHROMIUM = "gzip, deflate, br, zstd"
DECODE: dict[str | None, Callable[[bytes], bytes]] = {
    None: lambda b: b,
    "br": brotli.decompress,
    "gzip": gzip.decompress,
}


def served_as(name: str) -> bytes:
    """What the app serves for ``static/name``: a style sheet without its comments."""
    plain = (STATIC / name).read_bytes()
    return lean_css(plain) if name.endswith(".css") else plain


@pytest.mark.parametrize("name", ["css/app.css", "vendor/htmx-2.0.11.min.js", "js/table.js", "icons/icon.svg"])
@pytest.mark.parametrize(
    ("accept", "encoding"),
    [(CHROMIUM, "br"), ("gzip", "gzip"), ("zstd", None), ("", None), ("identity", None)],
)
def test_every_encoding_reads_back_as_the_file(
    client: FlaskClient, name: str, accept: str, encoding: str | None
) -> None:
    response = client.get(f"/static/{name}", headers={"Accept-Encoding": accept})
    assert response.status_code == 200
    assert response.headers.get("Content-Encoding") == encoding
    assert "Accept-Encoding" in response.headers["Vary"]
    assert DECODE[encoding](response.data) == served_as(name)
    assert int(response.headers["Content-Length"]) == len(response.data)


def test_a_style_sheet_goes_out_without_its_comments_and_with_every_rule() -> None:
    css = b'/* head */\na { color: red; } /* one */\nb::after { content: "/* kept */"; }\n/* two\n lines */\nc{}'
    assert lean_css(css) == b'a { color: red; } b::after { content: "/* kept */"; }\nc{}'
    sheet = (STATIC / "css/app.css").read_bytes()
    lean = lean_css(sheet)
    assert b"/*" in sheet and b"/*" not in lean
    assert lean == re.sub(rb"/\*.*?\*/\s*", b"", sheet, flags=re.S)  # app.css has no string holding "/*"


def test_brotli_is_at_its_best_level(client: FlaskClient) -> None:
    for name in ("css/app.css", "vendor/htmx-2.0.11.min.js"):
        body = client.get(f"/static/{name}", headers={"Accept-Encoding": CHROMIUM}).data
        assert len(body) <= len(brotli.compress(served_as(name), quality=11))
        assert len(body) < len(brotli.compress(served_as(name), quality=5))  # Flask-Compress's level for pages


def test_a_file_is_compressed_once_and_again_only_once_changed(tmp_path: Path) -> None:
    source, target = tmp_path / "static", tmp_path / "built"
    source.mkdir()
    script = source / "a.js"
    script.write_text("let a = 1;\n" * 80, encoding="utf-8")
    prepare(source, target)
    made = (target / "a.js.br").stat().st_mtime_ns, (target / "a.js.br").stat().st_ino
    prepare(source, target)  # nothing changed: nothing made again
    assert ((target / "a.js.br").stat().st_mtime_ns, (target / "a.js.br").stat().st_ino) == made
    script.write_text("let b = 2;\n" * 80, encoding="utf-8")  # the same size: only the time tells
    stat = script.stat()
    os.utime(script, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))
    prepare(source, target)
    assert brotli.decompress((target / "a.js.br").read_bytes()).decode().startswith("let b = 2;")
    assert gzip.decompress((target / "a.js.gz").read_bytes()).decode().startswith("let b = 2;")


def test_if_none_match_gives_304(client: FlaskClient) -> None:
    first = client.get("/static/js/table.js", headers={"Accept-Encoding": CHROMIUM})
    etag = first.headers["ETag"]
    again = client.get("/static/js/table.js", headers={"Accept-Encoding": CHROMIUM, "If-None-Match": etag})
    assert again.status_code == 304
    assert again.data == b""
    other = client.get("/static/js/table.js", headers={"Accept-Encoding": "gzip"})
    assert gzip.decompress(other.data) == served_as("js/table.js")


def test_head_answers_the_headers_of_get(client: FlaskClient) -> None:
    get = client.get("/static/css/app.css", headers={"Accept-Encoding": CHROMIUM})
    head = client.head("/static/css/app.css", headers={"Accept-Encoding": CHROMIUM})
    assert head.status_code == 200
    assert head.data == b""
    for header in ("Content-Encoding", "Content-Length", "ETag", "Content-Type", "Last-Modified"):
        assert head.headers[header] == get.headers[header]


def test_a_phone_asks_again_before_using_its_copy(client: FlaskClient) -> None:
    compressed = client.get("/static/css/app.css", headers={"Accept-Encoding": "br"})
    plain = client.get("/static/css/app.css")
    assert compressed.headers["Cache-Control"] == plain.headers["Cache-Control"] == "no-cache"
    assert compressed.headers["Last-Modified"] == plain.headers["Last-Modified"]
    assert compressed.headers["Content-Type"].startswith("text/css")


@pytest.mark.parametrize(
    "path", ["/static/nothing.css", "/static/css/", "/static/../pyproject.toml", "/static/%2e%2e/README.md"]
)
def test_a_missing_file_is_404(client: FlaskClient, path: str) -> None:
    assert client.get(path, headers={"Accept-Encoding": CHROMIUM}).status_code == 404


def test_an_icon_goes_out_as_it_is(client: FlaskClient) -> None:
    response = client.get("/static/icons/icon-192.png", headers={"Accept-Encoding": CHROMIUM})
    assert response.status_code == 200
    assert "Content-Encoding" not in response.headers
    assert response.data == (STATIC / "icons/icon-192.png").read_bytes()


def test_a_range_request_gets_those_bytes_of_the_encoding_sent(client: FlaskClient) -> None:
    whole = client.get("/static/css/app.css", headers={"Accept-Encoding": CHROMIUM})
    response = client.get("/static/css/app.css", headers={"Accept-Encoding": CHROMIUM, "Range": "bytes=0-99"})
    assert response.status_code == 206
    assert response.headers["Content-Encoding"] == whole.headers["Content-Encoding"]
    assert response.data == whole.data[:100]
    plain = client.get("/static/css/app.css", headers={"Range": "bytes=0-99"})
    assert plain.status_code == 206 and plain.data == served_as("css/app.css")[:100]


def test_pages_stay_with_flask_compress(client: FlaskClient) -> None:
    response = client.get("/", headers={"Accept-Encoding": CHROMIUM})
    assert response.headers["Content-Encoding"] == "zstd"  # what Flask-Compress prefers (companion.web.COMPRESSION)
    assert "<html" in zstd.decompress(response.data).decode()
    response = client.get("/", headers={"Accept-Encoding": "gzip, br"})
    assert response.headers["Content-Encoding"] == "br"
    assert "<html" in brotli.decompress(response.data).decode()
