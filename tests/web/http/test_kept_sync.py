"""Whether a hook or a view is a coroutine function is asked once per function (``http/kept_sync``), and the answer
is Flask's own: a plain function is called as it is, every request, and what cannot be kept is asked every time."""

from __future__ import annotations

from typing import Any

import flask.app
import pytest

from companion.web import create_app


def test_each_function_is_asked_about_once_and_answered_as_flask_answers(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "s.sqlite3"), "SECRET_KEY": "k"})
    asked: list[Any] = []
    real = flask.app.iscoroutinefunction

    def counting(func: Any) -> bool:
        asked.append(func)
        return real(func)

    monkeypatch.setattr(flask.app, "iscoroutinefunction", counting)
    calls: list[str] = []

    @app.get("/_t/plain")
    def plain() -> str:
        calls.append("plain")
        return "plain"

    client = app.test_client()
    for _ in range(3):
        assert client.get("/_t/plain").text == "plain"
    assert calls == ["plain"] * 3
    assert len(asked) == len({id(f) for f in asked})  # no function asked twice over three requests
    assert any(getattr(f, "__name__", "") == "plain" for f in asked)
    assert app.ensure_sync(plain) is plain  # Flask's answer for a plain function: the function itself


def test_a_callable_that_cannot_be_kept_is_asked_every_time(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "s.sqlite3"), "SECRET_KEY": "k"})

    class Unhashable:
        __hash__ = None  # type: ignore[assignment]

        def __call__(self) -> str:
            return "ok"

    asked: list[Any] = []
    real = flask.app.iscoroutinefunction
    monkeypatch.setattr(flask.app, "iscoroutinefunction", lambda f: asked.append(f) or real(f))
    thing = Unhashable()
    assert app.ensure_sync(thing) is thing
    assert app.ensure_sync(thing) is thing
    assert len(asked) == 2
