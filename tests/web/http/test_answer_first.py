"""A request's context is popped once its answer is sent, where the server says it closes an answer after its last
byte (``web.http.answer_first``): the teardown (the store given back to the pool) is no longer part of the time a phone
waits. Anywhere else, and for a stream or an error raised, Flask's own order holds."""

from __future__ import annotations

import http.client
import threading
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask, Response
from flask.globals import _cv_app, _cv_request
from werkzeug.test import EnvironBuilder

from companion.web import create_app
from companion.web.http.answer_first import POP_AFTER_SEND, sent_first
from companion.web.http.db import service
from companion.web.process import process
from testkit.live_client import serving


@pytest.fixture(autouse=True)
def _no_context_left() -> Iterator[None]:
    """Each test ends with no request context pushed (one left would be seen by the tests after it, in this thread)."""
    yield
    left = _cv_request.get(None)
    while _cv_request.get(None) is not None:
        _cv_request.get().pop()
    assert left is None


def _app(tmp_path: Path, testing: bool = True) -> Flask:
    app = create_app(
        {"TESTING": testing, "DATABASE": str(tmp_path / "a.sqlite3"), "SECRET_KEY": "t", "WTF_CSRF_ENABLED": False}
    )
    app.config["PROPAGATE_EXCEPTIONS"] = testing
    torn: list[BaseException | None] = []
    app.extensions["torn"] = torn

    @app.teardown_request
    def note(exc: BaseException | None) -> None:
        torn.append(exc)

    @app.get("/test/store")
    def uses_the_store() -> str:
        service()  # takes a connection of the pool for the request
        return "held"

    @app.get("/test/stream")
    def streams() -> Response:
        def lines() -> Iterator[str]:
            yield "a\n"
            yield "b\n"

        return Response(lines(), mimetype="text/plain")

    @app.get("/test/fails")
    def fails() -> str:
        raise RuntimeError("a view that fails")  # the app's error page answers it

    @app.get("/test/interrupted")
    def interrupted() -> str:
        raise KeyboardInterrupt

    return app


def _served(app: Any, path: str, flagged: bool = True) -> tuple[list[str], Iterable[bytes]]:
    """``path`` through the app as a WSGI server calls it (``sent_first`` when ``flagged``): its status and body,
    not yet read nor closed."""
    environ = EnvironBuilder(path=path).get_environ()
    started: list[str] = []

    def start_response(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> None:
        started.append(status)

    caller = sent_first(app) if flagged else app
    return started, caller(environ, start_response)


def _in_the_pool(app: Flask) -> int:
    return len(process(app).stores._idle)


def test_the_context_is_popped_when_the_server_closes_the_answer(tmp_path: Path) -> None:
    app = _app(tmp_path)
    before = _in_the_pool(app)
    started, body = _served(app, "/test/store")
    assert started == ["200 OK"]
    assert b"".join(body) == b"held"  # the answer, written while the request still holds its context
    assert _cv_request.get(None) is not None
    assert _cv_app.get().g.get("store") is not None  # its connection not yet given back
    assert app.extensions["torn"] == []
    body.close()  # type: ignore[attr-defined]  # what the server does after the last byte
    assert _cv_request.get(None) is None and _cv_app.get(None) is None
    assert app.extensions["torn"] == [None]
    assert _in_the_pool(app) == max(before, 1)  # the connection is back for the next request


def test_without_the_servers_word_flask_pops_before_answering(tmp_path: Path) -> None:
    app = _app(tmp_path)
    started, body = _served(app, "/test/store", flagged=False)
    assert started == ["200 OK"]
    assert _cv_request.get(None) is None  # popped before the body was read
    assert app.extensions["torn"] == [None]
    assert b"".join(body) == b"held"


def test_a_stream_is_popped_at_once(tmp_path: Path) -> None:
    """A live page's stream is held open for minutes: its request gives its connection back before it streams."""
    app = _app(tmp_path)
    started, body = _served(app, "/test/stream")
    assert started == ["200 OK"]
    assert _cv_request.get(None) is None
    assert app.extensions["torn"] == [None]
    assert b"".join(body) == b"a\nb\n"
    body.close()  # type: ignore[attr-defined]
    assert app.extensions["torn"] == [None]  # not torn down twice


def test_a_file_the_server_sends_is_popped_at_once(tmp_path: Path) -> None:
    app = _app(tmp_path)
    started, body = _served(app, "/static/icons/icon-192.png")  # not text: a file sent by Flask's own view
    assert started == ["200 OK"]
    assert _cv_request.get(None) is None
    assert app.extensions["torn"] == [None]
    assert b"".join(body).startswith(b"\x89PNG")
    body.close()  # type: ignore[attr-defined]


def test_an_error_page_is_answered_then_torn_down(tmp_path: Path) -> None:
    """A view that fails answers the app's error page (``pages.errors``), its context popped when the page is sent."""
    app = _app(tmp_path, testing=False)
    started, body = _served(app, "/test/fails")
    try:
        assert started == ["500 INTERNAL SERVER ERROR"]
        assert _cv_request.get(None) is not None
        assert app.extensions["torn"] == []
        assert b"".join(body)
    finally:
        body.close()  # type: ignore[attr-defined]
    assert _cv_request.get(None) is None
    assert app.extensions["torn"] == [None]  # handled by the app: Flask's teardown is told of no error either


def test_an_error_raised_out_of_the_app_pops_before_it_leaves(tmp_path: Path) -> None:
    """What no error page handles (an interrupt) leaves the app at once, its context popped and told of it."""
    app = _app(tmp_path)
    with pytest.raises(KeyboardInterrupt):
        _served(app, "/test/interrupted")
    assert _cv_request.get(None) is None
    assert [type(e) for e in app.extensions["torn"]] == [KeyboardInterrupt]


def test_the_snapshot_job_runs_after_the_context_is_popped(tmp_path: Path) -> None:
    """The answer's own ``close()`` (its ``call_on_close`` jobs) comes after the pop, as under Flask's order."""
    app = _app(tmp_path)
    order: list[str] = []

    @app.get("/test/job")
    def job() -> Response:
        response = Response("job")
        response.call_on_close(lambda: order.append("job, popped" if _cv_request.get(None) is None else "job, held"))
        return response

    _, body = _served(app, "/test/job")
    b"".join(body)
    body.close()  # type: ignore[attr-defined]
    assert order == ["job, popped"]


def test_a_real_server_gives_every_connection_back(tmp_path: Path) -> None:
    """Through werkzeug's threaded server (it closes each answer after its last byte): taps on kept connections and
    at once from several phones, each request torn down, the pool holding its connections again."""
    app = _app(tmp_path)
    with serving(app) as (host, port):

        def phone(times: int, failures: list[str]) -> None:
            conn = http.client.HTTPConnection(host, port, timeout=10)
            try:
                for _ in range(times):
                    conn.request("GET", "/test/store")
                    answer = conn.getresponse()
                    if answer.status != 200 or answer.read() != b"held":
                        failures.append(str(answer.status))
            finally:
                conn.close()

        failures: list[str] = []
        phones = [threading.Thread(target=phone, args=(10, failures)) for _ in range(6)]
        for t in phones:
            t.start()
        for t in phones:
            t.join(20)
        assert failures == []
        # the last answer's close runs just after its last byte: wait for it to be torn down
        for _ in range(200):
            if len(app.extensions["torn"]) == 60:
                break
            threading.Event().wait(0.01)
    assert app.extensions["torn"] == [None] * 60
    assert 1 <= _in_the_pool(app) <= process(app).stores.kept


def test_companion_serve_serves_the_app_as_a_server_that_closes_after_sending(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from companion.cli.serve import _companion_app

    monkeypatch.setenv("COMPANION_DB", str(tmp_path / "served.sqlite3"))
    monkeypatch.setenv("COMPANION_SECRET_KEY", "served-" + "x" * 24)
    served = _companion_app()
    environ = EnvironBuilder(path="/").get_environ()
    statuses: list[str] = []
    body = served(environ, lambda status, headers, exc_info=None: statuses.append(status))
    assert environ[POP_AFTER_SEND] is True
    assert statuses == ["200 OK"]
    assert _cv_request.get(None) is not None  # held until the server closes the answer
    b"".join(body)
    body.close()
    assert _cv_request.get(None) is None
