"""Static files go out compressed once per file at the best level, fresh after an edit, with ETags and 304s."""

from __future__ import annotations

import gzip
import os
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import brotli
import flask_compress.flask_compress as flask_compress_module
import pytest
from backports import zstd
from flask import Flask
from flask.testing import FlaskClient

from companion.web import ROOT
from companion.web.http import static_files as static_compress

STATIC = ROOT / "static"
CHROMIUM = "gzip, deflate, br, zstd"
DECODE: dict[str | None, Callable[[bytes], bytes]] = {
    None: lambda b: b,
    "br": brotli.decompress,
    "gzip": gzip.decompress,
    "zstd": zstd.decompress,
}


@pytest.fixture
def count_compressions(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """Counts every compression: the memo's (per encoding) and Flask-Compress's (per request)."""
    counts: dict[str, int] = {"flask_compress": 0}
    for name, compress in list(static_compress.COMPRESSORS.items()):
        counts[name] = 0

        def counted(data: bytes, name: str = name, compress: Callable[[bytes], bytes] = compress) -> bytes:
            counts[name] += 1
            return compress(data)

        monkeypatch.setitem(static_compress.COMPRESSORS, name, counted)
    whole, streamed = flask_compress_module._compress_data, flask_compress_module._compress_chunks

    def counted_whole(*args: Any) -> bytes:
        counts["flask_compress"] += 1
        return whole(*args)

    def counted_streamed(*args: Any) -> Iterator[bytes]:
        counts["flask_compress"] += 1
        return streamed(*args)

    monkeypatch.setattr(flask_compress_module, "_compress_data", counted_whole)
    monkeypatch.setattr(flask_compress_module, "_compress_chunks", counted_streamed)
    return counts


@pytest.mark.parametrize("name", ["css/app.css", "vendor/htmx-2.0.11.min.js", "js/table.js", "icons/icon.svg"])
@pytest.mark.parametrize(
    ("accept", "encoding"),
    [(CHROMIUM, "br"), ("gzip", "gzip"), ("zstd", "zstd"), ("br;q=0, gzip", "gzip"), ("", None), ("identity", None)],
)
def test_every_encoding_reads_back_as_the_file(
    client: FlaskClient, name: str, accept: str, encoding: str | None
) -> None:
    response = client.get(f"/static/{name}", headers={"Accept-Encoding": accept})
    assert response.status_code == 200
    assert response.headers.get("Content-Encoding") == encoding
    assert "Accept-Encoding" in response.headers["Vary"]
    plain = (STATIC / name).read_bytes()
    served = static_compress.lean_css(plain) if name.endswith(".css") and encoding else plain
    assert DECODE[encoding](response.data) == served
    assert int(response.headers["Content-Length"]) == len(response.data)


def test_a_style_sheet_goes_out_without_its_comments_and_with_every_rule() -> None:
    css = b'/* head */\na { color: red; } /* one */\nb::after { content: "/* kept */"; }\n/* two\n lines */\nc{}'
    assert static_compress.lean_css(css) == b'a { color: red; } b::after { content: "/* kept */"; }\nc{}'
    sheet = (STATIC / "css/app.css").read_bytes()
    lean = static_compress.lean_css(sheet)
    assert b"/*" in sheet and b"/*" not in lean
    assert lean == re.sub(rb"/\*.*?\*/\s*", b"", sheet, flags=re.S)  # app.css has no string holding "/*"


def test_brotli_is_at_its_best_level(client: FlaskClient) -> None:
    for name in ("css/app.css", "vendor/htmx-2.0.11.min.js"):
        plain = (STATIC / name).read_bytes()
        body = client.get(f"/static/{name}", headers={"Accept-Encoding": CHROMIUM}).data
        assert len(body) <= len(brotli.compress(plain, quality=11))
        assert len(body) < len(brotli.compress(plain, quality=5))  # Flask-Compress's level for pages


def test_a_file_is_compressed_once_however_often_it_is_asked(
    client: FlaskClient, count_compressions: dict[str, int]
) -> None:
    first = client.get("/static/css/app.css", headers={"Accept-Encoding": CHROMIUM})
    assert count_compressions == {"flask_compress": 0, "br": 1, "zstd": 0, "gzip": 0}
    for _ in range(5):
        again = client.get("/static/css/app.css", headers={"Accept-Encoding": CHROMIUM})
        assert again.data == first.data
    client.get("/static/css/app.css", headers={"Accept-Encoding": "gzip"})
    client.get("/static/css/app.css", headers={"Accept-Encoding": "gzip"})
    assert count_compressions == {"flask_compress": 0, "br": 1, "zstd": 0, "gzip": 1}


def a_static_folder_with(app: Flask, tmp_path: Path, name: str, text: str) -> tuple[Path, FlaskClient]:
    """The app serves a folder of its own holding one file, ``name`` with ``text``: the file and a client."""
    folder = tmp_path / "static"
    folder.mkdir()
    file = folder / name
    file.write_text(text, encoding="utf-8")
    app.static_folder = str(folder)
    return file, app.test_client()


def edit(file: Path, text: str, seconds_later: int) -> None:
    """Write ``text`` over ``file`` and move its time on by ``seconds_later``, as an editor saving it would."""
    file.write_text(text, encoding="utf-8")
    stat = file.stat()
    os.utime(file, ns=(stat.st_atime_ns, stat.st_mtime_ns + seconds_later * 1_000_000_000))


def test_an_edited_file_is_served_fresh(app: Flask, tmp_path: Path) -> None:
    sheet, client = a_static_folder_with(app, tmp_path, "site.css", "body { color: red; }\n" * 60)
    first = client.get("/static/site.css", headers={"Accept-Encoding": "br"})
    assert brotli.decompress(first.data) == sheet.read_bytes()

    edited = "body { color: navy; }\n" * 70  # another size and another time: a new version
    edit(sheet, edited, seconds_later=2)
    second = client.get("/static/site.css", headers={"Accept-Encoding": "br"})
    assert brotli.decompress(second.data).decode() == edited
    assert second.headers["ETag"] != first.headers["ETag"]
    stale = client.get("/static/site.css", headers={"Accept-Encoding": "br", "If-None-Match": first.headers["ETag"]})
    assert stale.status_code == 200


def test_the_same_size_edited_in_place_is_seen_by_its_time(app: Flask, tmp_path: Path) -> None:
    script, client = a_static_folder_with(app, tmp_path, "a.js", "let a = 1;\n" * 80)
    client.get("/static/a.js", headers={"Accept-Encoding": "br"})
    edit(script, "let b = 2;\n" * 80, seconds_later=1)  # the same size: only the time tells
    answer = client.get("/static/a.js", headers={"Accept-Encoding": "br"})
    assert brotli.decompress(answer.data).decode().startswith("let b = 2;")


def test_if_none_match_gives_304_per_encoding(client: FlaskClient) -> None:
    first = client.get("/static/js/table.js", headers={"Accept-Encoding": CHROMIUM})
    etag = first.headers["ETag"]
    assert etag.endswith('-br"')
    again = client.get("/static/js/table.js", headers={"Accept-Encoding": CHROMIUM, "If-None-Match": etag})
    assert again.status_code == 304
    assert again.data == b""
    assert again.headers["ETag"] == etag
    other = client.get("/static/js/table.js", headers={"Accept-Encoding": "gzip", "If-None-Match": etag})
    assert other.status_code == 200  # another representation: the br ETag does not match it
    assert gzip.decompress(other.data) == (STATIC / "js/table.js").read_bytes()
    plain = client.get("/static/js/table.js")
    assert plain.headers["ETag"] not in (etag, other.headers["ETag"])
    assert client.get("/static/js/table.js", headers={"If-None-Match": plain.headers["ETag"]}).status_code == 304


def test_head_answers_the_headers_of_get(client: FlaskClient) -> None:
    get = client.get("/static/css/app.css", headers={"Accept-Encoding": CHROMIUM})
    head = client.head("/static/css/app.css", headers={"Accept-Encoding": CHROMIUM})
    assert head.status_code == 200
    assert head.data == b""
    for header in ("Content-Encoding", "Content-Length", "ETag", "Content-Type", "Last-Modified"):
        assert head.headers[header] == get.headers[header]


def test_cache_headers_match_flasks_own(client: FlaskClient) -> None:
    compressed = client.get("/static/css/app.css", headers={"Accept-Encoding": "br"})
    plain = client.get("/static/css/app.css")
    assert compressed.headers["Cache-Control"] == plain.headers["Cache-Control"]
    assert compressed.headers["Last-Modified"] == plain.headers["Last-Modified"]
    assert compressed.headers["Content-Type"] == plain.headers["Content-Type"] == "text/css; charset=utf-8"


@pytest.mark.parametrize(
    "path", ["/static/nothing.css", "/static/css/", "/static/../pyproject.toml", "/static/%2e%2e/README.md"]
)
def test_a_missing_file_is_404(client: FlaskClient, path: str) -> None:
    assert client.get(path, headers={"Accept-Encoding": CHROMIUM}).status_code == 404


def test_an_icon_goes_out_as_it_is(client: FlaskClient, count_compressions: dict[str, int]) -> None:
    response = client.get("/static/icons/icon-192.png", headers={"Accept-Encoding": CHROMIUM})
    assert response.status_code == 200
    assert "Content-Encoding" not in response.headers
    assert response.data == (STATIC / "icons/icon-192.png").read_bytes()
    assert sum(count_compressions.values()) == 0


def test_a_range_request_gets_the_plain_bytes(client: FlaskClient) -> None:
    response = client.get("/static/css/app.css", headers={"Accept-Encoding": CHROMIUM, "Range": "bytes=0-99"})
    assert response.status_code == 206
    assert "Content-Encoding" not in response.headers
    assert response.data == (STATIC / "css/app.css").read_bytes()[:100]


def test_pages_stay_with_flask_compress(client: FlaskClient, count_compressions: dict[str, int]) -> None:
    response = client.get("/", headers={"Accept-Encoding": CHROMIUM})
    assert response.headers["Content-Encoding"] == "br"
    assert "<html" in brotli.decompress(response.data).decode()
    assert count_compressions["flask_compress"] == 1
    assert count_compressions["br"] == 0
