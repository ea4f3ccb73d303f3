"""Answers go out compressed when the phone accepts it; the live stream never is (nor buffered)."""

from __future__ import annotations

import gzip
import http.client
import re

import brotli

from companion.web import COMPRESSION

# ``server`` (tests/web/conftest.py): the app on a real socket, as a phone reaches it


def game(addr: tuple[str, int]) -> str:
    conn = http.client.HTTPConnection(*addr, timeout=10)
    body = "key=zip-create-001&name=Ana&name=Ben&colour=crimson&colour=navy&plague=2&plague=3"
    conn.request("POST", "/games", body=body, headers={"Content-Type": "application/x-www-form-urlencoded"})
    response = conn.getresponse()
    response.read()
    assert response.status == 303
    return str(response.getheader("Location"))


def test_the_game_page_is_sent_gzipped_and_reads_back_the_same(server: tuple[str, int]) -> None:
    path = game(server)
    conn = http.client.HTTPConnection(*server, timeout=10)
    conn.request("GET", path)
    plain = conn.getresponse().read()
    conn.request("GET", path, headers={"Accept-Encoding": "gzip"})
    response = conn.getresponse()
    body = response.read()
    assert response.getheader("Content-Encoding") == "gzip"
    assert len(body) < len(plain) / 3
    assert gzip.decompress(body).decode().count('class="') == plain.decode().count('class="')


def test_the_style_sheet_is_sent_compressed(server: tuple[str, int]) -> None:
    conn = http.client.HTTPConnection(*server, timeout=10)
    conn.request("GET", "/static/css/app.css")
    plain = conn.getresponse().read()
    conn.request("GET", "/static/css/app.css", headers={"Accept-Encoding": "gzip, deflate, br, zstd"})  # Chromium's
    response = conn.getresponse()
    body = response.read()
    assert response.getheader("Content-Encoding") in ("zstd", "br")  # a file is streamed: no gzip for streams
    assert len(body) < len(plain) / 2


def test_the_live_stream_is_never_compressed(server: tuple[str, int]) -> None:
    path = game(server)
    conn = http.client.HTTPConnection(*server, timeout=5)
    conn.request("GET", f"{path}/events?since=0", headers={"Accept-Encoding": "gzip, br, zstd"})
    response = conn.getresponse()
    assert response.getheader("Content-Type", "").startswith("text/event-stream")
    assert response.getheader("Content-Encoding") is None
    assert response.readline().decode().startswith("retry:")  # the first event arrives as written
    conn.close()


def test_a_taps_answer_and_a_whole_page_go_out_in_brotli(server: tuple[str, int]) -> None:
    """An htmx answer and the whole page in brotli (Flask-Compress); a phone refusing brotli gets gzip."""
    path = game(server)
    conn = http.client.HTTPConnection(*server, timeout=10)
    got = {}
    for label, headers in {
        "page": {"Accept-Encoding": "gzip, br"},
        "answer": {"Accept-Encoding": "gzip, br", "HX-Request": "true"},
        "no br": {"Accept-Encoding": "gzip, br;q=0", "HX-Request": "true"},
        "plain": {"HX-Request": "true"},
    }.items():
        conn.request("GET", path, headers=headers)
        response = conn.getresponse()
        got[label] = (response.getheader("Content-Encoding"), response.getheader("Vary") or "", response.read())
    plain = got["plain"][2]
    assert got["plain"][0] is None and len(plain) > 4000
    answer = brotli.decompress(got["answer"][2])
    assert got["answer"][0] == "br" and without_keys(answer) == without_keys(plain)  # each form's key is fresh
    assert "Accept-Encoding" in got["answer"][1]  # a cache keeps each encoding apart
    assert got["no br"][0] == "gzip" and without_keys(gzip.decompress(got["no br"][2])) == without_keys(plain)
    assert got["page"][0] == "br" and len(brotli.decompress(got["page"][2])) > len(plain)  # the whole page
    level = COMPRESSION["COMPRESS_BR_LEVEL"]
    assert isinstance(level, int)
    assert brotli.compress(answer, quality=level) == got["answer"][2]


def without_keys(html: bytes) -> bytes:
    return re.sub(rb'name="key" value="[^"]*"', b"", html)


def test_a_phone_that_takes_zstd_gets_it(server: tuple[str, int]) -> None:
    """Chromium's ``Accept-Encoding`` names zstd: its answers go out in zstd, cheaper for the server than brotli."""
    from backports import zstd

    path = game(server)
    conn = http.client.HTTPConnection(*server, timeout=10)
    conn.request("GET", path, headers={"Accept-Encoding": "gzip, deflate, br, zstd", "HX-Request": "true"})
    response = conn.getresponse()
    body = response.read()
    assert response.getheader("Content-Encoding") == "zstd"
    assert b'id="part-' in zstd.decompress(body)
