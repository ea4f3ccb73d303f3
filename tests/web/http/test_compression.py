"""Answers go out compressed when the phone accepts it; the live stream never is (nor buffered)."""

from __future__ import annotations

import gzip
import http.client
import re

import brotli
from flask import Flask, Response, request
from flask_compress import Compress
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.web import COMPRESSION
from companion.web.http.answers_compression import LeanCompress, takes_brotli

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


def test_a_taps_answer_goes_out_in_fast_brotli_and_a_whole_page_in_the_smaller_one(server: tuple[str, int]) -> None:
    """An htmx answer at brotli quality 1 (answers_compression: ~0.05 ms of CPU against ~0.2 ms at the
    pages' quality 5); the whole page keeps quality 5; a phone refusing brotli gets gzip."""
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
    assert brotli.compress(answer, quality=1) == got["answer"][2]  # quality 1, not Flask-Compress's 5


def without_keys(html: bytes) -> bytes:
    return re.sub(rb'name="key" value="[^"]*"', b"", html)


@settings(max_examples=300, deadline=None)
@given(
    parts=st.lists(
        st.tuples(
            st.sampled_from(["br", "gzip", "deflate", "*", "BR", "identity", "zstd", "b r", ""]),
            st.sampled_from(["", ";q=0", ";q=0.5", ";q=1", ";q=0.000", ";q=x", "; q=0.2"]),
        ),
        max_size=4,
    ),
    sep=st.sampled_from([",", ", ", " ,"]),
)
def test_brotli_is_taken_exactly_when_the_request_says_so(parts: list[tuple[str, str]], sep: str) -> None:
    """``takes_brotli`` (kept per header) says what ``request.accept_encodings["br"] > 0`` says, for any header."""
    header = sep.join(name + q for name, q in parts)
    app = Flask(__name__)
    with app.test_request_context("/", headers={"Accept-Encoding": header}):
        assert takes_brotli(header) == (request.accept_encodings["br"] > 0)


def _answer(body: bytes, mimetype: str, status: int, vary: str | None, encoded: bool, streamed: bool) -> Response:
    response = Response(iter([body]) if streamed else body, status=status, mimetype=mimetype)
    if vary is not None:
        response.headers["Vary"] = vary
    if encoded:
        response.headers["Content-Encoding"] = "br"
    return response


@settings(max_examples=300, deadline=None)
@given(
    size=st.sampled_from([0, 10, 499, 500, 501, 6_000]),
    mimetype=st.sampled_from(["text/html", "application/json", "text/css", "text/event-stream", "image/png"]),
    status=st.sampled_from([200, 201, 204, 299, 303, 304, 404, 500]),
    vary=st.sampled_from([None, "", "Cookie", "accept-encoding", "Cookie, Accept-Encoding", "Origin"]),
    encoded=st.booleans(),
    streamed=st.booleans(),
    accept=st.sampled_from(["", "gzip", "br", "gzip, deflate, br, zstd", "identity", "zstd;q=0, gzip"]),
)
def test_the_lean_compress_answers_as_flask_compress_does(
    size: int, mimetype: str, status: int, vary: str | None, encoded: bool, streamed: bool, accept: str
) -> None:
    """``LeanCompress`` leaves at once what Flask-Compress would leave, after the same ``Vary``; the rest it hands on:
    the same headers and bytes as Flask-Compress's own answer, for every kind of answer and every phone."""
    answers = []
    for kind in (Compress, LeanCompress):
        app = Flask(__name__)
        app.config.update(COMPRESSION)
        compress = kind(app)
        body = (b"<p>Inferno</p>\n" * 500)[:size]
        with app.test_request_context("/", headers={"Accept-Encoding": accept} if accept else {}):
            answer = compress.after_request(_answer(body, mimetype, status, vary, encoded, streamed))
            # the Date header's value is the clock's, which may tick between the two answers: its place is compared
            headers = [(k, "<now>" if k == "Date" else v) for k, v in answer.headers.items()]
            answers.append((answer.status_code, headers, answer.get_data()))
    assert answers[0] == answers[1]
