"""``Server-Timing``: each answer's time in the app, told only when the server is asked to (``SERVER_TIMING``)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from flask import Flask

from companion.web import create_app
from companion.web.http.server_timing import HEADER, ServerTiming, parse


def timed_app(tmp_path: Path, **config: object) -> Flask:
    settings = {"TESTING": True, "DATABASE": str(tmp_path / "t.sqlite3"), "SECRET_KEY": "t", "WTF_CSRF_ENABLED": False}
    return create_app({**settings, **config})


def test_an_answer_says_nothing_of_its_time_unless_asked(tmp_path: Path) -> None:
    app = timed_app(tmp_path)
    assert not isinstance(app.wsgi_app, ServerTiming)
    for path in ("/", "/no-such-page", "/static/app.css"):
        assert app.test_client().get(path).headers.get(HEADER) is None, path


def test_every_answer_tells_its_time_in_the_app_and_its_cpu_when_asked(tmp_path: Path) -> None:
    app = timed_app(tmp_path, SERVER_TIMING=True)
    client = app.test_client()
    form = {"key": "timed-key-00001", "name": ["Ana", "Ben"], "colour": ["crimson", "navy"], "plague": ["2", "3", "5"]}
    created = client.post("/games", data={**form, "layout": "default"})
    assert created.status_code == 303, created.data
    game = created.headers["Location"]
    for method, path, status in (("GET", "/", 200), ("GET", game, 200), ("GET", "/no-such-page", 404)):
        began = time.perf_counter()
        answer = client.open(path, method=method)
        waited_ms = (time.perf_counter() - began) * 1000
        assert answer.status_code == status, path
        metrics = parse(answer.headers.get(HEADER))
        assert set(metrics) == {"app", "cpu"}, path
        assert 0 < metrics["app"] <= waited_ms, path  # the app's part of what the client waited for
        assert 0 <= metrics["cpu"] <= metrics["app"] * 1.05 + 0.05, path  # this thread's CPU within it
    assert parse(created.headers.get(HEADER))["app"] > 0  # a recorded entry's answer (a redirect) too


def test_the_time_is_taken_when_the_answer_begins_and_an_error_in_start_is_passed_on() -> None:
    seen: list[tuple[str, list[tuple[str, str]], object]] = []

    def slow(environ: dict[str, object], start_response: object) -> list[bytes]:
        time.sleep(0.02)
        start_response("500 INTERNAL SERVER ERROR", [("Content-Type", "text/plain")], ("exc", "info", None))  # type: ignore[operator]
        return [b"x"]

    body = ServerTiming(slow)({}, lambda status, headers, exc_info=None: seen.append((status, headers, exc_info)))
    assert list(body) == [b"x"]
    ((status, headers, exc_info),) = seen
    assert status.startswith("500") and exc_info == ("exc", "info", None)
    metrics = parse(dict(headers)[HEADER])
    assert metrics["app"] >= 20 and metrics["cpu"] < 10  # asleep: the wall clock ran, the CPU hardly


@pytest.mark.parametrize(
    ("value", "metrics"),
    [
        ("app;dur=2.31, cpu;dur=2.18", {"app": 2.31, "cpu": 2.18}),
        ('db;desc="the log";dur="0.5"', {"db": 0.5}),
        ("cache, app;dur=1", {"app": 1.0}),  # a metric without a duration is left out
        ("app;dur=fast", {}),
        ("", {}),
        (None, {}),
    ],
)
def test_a_server_timing_value_is_read_metric_by_metric(value: str | None, metrics: dict[str, float]) -> None:
    assert parse(value) == metrics
