"""The session cookie is checked once, then kept with what it holds (``http/security.SessionOverHttps``).

A phone sends the same signed cookie with every tap, choice and live refresh; Flask made a serializer and checked
its signature and age on each. Kept, it must still refuse what Flask refused (a forged or tampered cookie, one
signed with another key, one too old once the hour of trust is over) and give each request its own copy, so
nothing one request changes in place reaches the next.
"""

from __future__ import annotations

import copy
from datetime import timedelta
from typing import Any

import pytest
from flask import Flask, Response, request, session
from flask.sessions import SecureCookieSessionInterface
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.web import create_app
from companion.web.http import security


def _app(tmp_path: Any, secret: str = "one") -> Flask:
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "s.sqlite3"), "SECRET_KEY": secret})

    @app.get("/_t/set")
    def set_() -> str:
        session["seats"] = {"game": 1}
        return "set"

    @app.get("/_t/read")
    def read() -> str:
        return repr(session.get("seats"))

    @app.get("/_t/change-in-place")
    def change_in_place() -> str:
        session["seats"]["game"] = 99  # changed in place, not marked: Flask writes no cookie
        return repr(session["seats"])

    return app


def _cookie(app: Flask) -> str:
    client = app.test_client()
    client.get("/_t/set")
    cookie = client.get_cookie(app.config.get("SESSION_COOKIE_NAME", "session"))
    assert cookie is not None
    return cookie.value


def test_a_kept_cookie_reads_as_flask_read_it_and_a_change_in_place_stays_in_its_request(tmp_path: Any) -> None:
    app = _app(tmp_path)
    value = _cookie(app)
    client = app.test_client()
    client.set_cookie("session", value)
    assert client.get("/_t/read").text == "{'game': 1}"
    assert client.get("/_t/change-in-place").text == "{'game': 99}"
    assert client.get("/_t/read").text == "{'game': 1}"  # the kept copy was not changed by the request before
    interface = app.session_interface
    assert isinstance(interface, security.SessionOverHttps)
    assert interface.get_signing_serializer(app) is interface.get_signing_serializer(app)  # made once


@pytest.mark.parametrize("how", ["tampered", "other key", "garbage"])
def test_a_cookie_flask_refuses_is_refused_kept_or_not(tmp_path: Any, how: str) -> None:
    app = _app(tmp_path)
    good = _cookie(app)
    client = app.test_client()
    client.set_cookie("session", good)
    assert client.get("/_t/read").text == "{'game': 1}"  # the good one is now kept
    if how == "tampered":
        payload, _, signature = good.rpartition(".")
        bad = f"{payload}.{'A' if signature[0] != 'A' else 'B'}{signature[1:]}"
    elif how == "other key":
        bad = _cookie(_app(tmp_path / "other", secret="two"))
    else:
        bad = "not-a-cookie"
    client.set_cookie("session", bad)
    for _ in range(2):  # refused, and refused again: a refused cookie is never kept
        assert client.get("/_t/read").text == "None"


def test_a_kept_cookie_is_checked_again_after_its_hour(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    app = _app(tmp_path)
    value = _cookie(app)
    client = app.test_client()
    client.set_cookie("session", value)
    assert client.get("/_t/read").text == "{'game': 1}"
    app.permanent_session_lifetime = timedelta(seconds=-1)  # any cookie is now too old for Flask
    assert client.get("/_t/read").text == "{'game': 1}"  # within the hour: trusted as checked
    now = security.time.monotonic()
    monkeypatch.setattr(security.time, "monotonic", lambda: now + security.CHECKED_FOR + 1)
    assert client.get("/_t/read").text == "None"  # checked again: too old, refused as Flask refuses it


def test_the_session_is_found_in_any_cookie_header_that_holds_it(tmp_path: Any) -> None:
    """Kept by the whole ``Cookie`` header: the session cookie beside others, in any order, reads the same; a header
    without it, or with another cookie in its place, reads an empty session, each time."""
    app = _app(tmp_path)
    value = _cookie(app)
    interface = app.session_interface
    assert isinstance(interface, security.SessionOverHttps)
    for header in (f"session={value}", f"theme=dark; session={value}", f"session={value}; theme=dark; x=1"):
        for _ in range(2):
            with app.test_request_context("/_t/read", headers={"Cookie": header}):
                opened = interface.open_session(app, request)
                assert opened is not None and dict(opened) == {"seats": {"game": 1}}
    for header in ("theme=dark", f"sessionx={value}", "session=", f"other={value}; session=nope"):
        for _ in range(2):
            with app.test_request_context("/_t/read", headers={"Cookie": header}):
                opened = interface.open_session(app, request)
                assert opened is not None and dict(opened) == {}


def test_a_long_cookie_header_is_kept_by_its_session_cookie_alone(tmp_path: Any) -> None:
    """A header past ``KEPT_HEADER_CHARS`` (someone else's cookies beside ours, varied on every request) reads the
    same session, and each variation keeps nothing more: what is kept stays as small as the app's own cookies."""
    app = _app(tmp_path)
    value = _cookie(app)
    interface = app.session_interface
    assert isinstance(interface, security.SessionOverHttps)
    before = len(interface._opened)
    for n in range(20):
        junk = "x" * security.KEPT_HEADER_CHARS
        header = f"junk{n}={junk}; session={value}"
        with app.test_request_context("/_t/read", headers={"Cookie": header}):
            opened = interface.open_session(app, request)
            assert opened is not None and dict(opened) == {"seats": {"game": 1}}
    assert len(interface._opened) - before <= 1


@pytest.mark.parametrize("permanent", [False, True])
@pytest.mark.parametrize("change", ["none", "read", "write", "empty", "clear"])
def test_a_session_is_saved_with_the_headers_flask_gives(tmp_path: Any, permanent: bool, change: str) -> None:
    """``save_session``'s shortcut for a session no request changed answers with Flask's own headers: the
    ``Vary`` a read gives, a cookie written or deleted exactly when Flask writes or deletes it."""
    app = _app(tmp_path)
    app.config["SESSION_REFRESH_EACH_REQUEST"] = permanent  # the app's is off; Flask's default refreshes
    kept = app.session_interface
    assert isinstance(kept, security.SessionOverHttps)
    cookie = _cookie(app)
    answers = []
    for interface in (kept, SecureCookieSessionInterface()):
        with app.test_request_context("/", headers={"Cookie": f"session={cookie}" if change != "empty" else ""}):
            session_ = interface.open_session(app, request)
            assert session_ is not None
            session_.permanent = permanent
            session_.modified = False  # opened as a request finds it
            session_.accessed = False
            if change == "read":
                session_.accessed = True  # as reading it through ``flask.session`` marks it
            elif change == "write":
                session_["seats"] = {"game": 2}
            elif change == "clear":
                session_.clear()
            response = app.response_class("x")
            interface.save_session(app, session_, response)
            answers.append(
                (response.headers.get("Vary"), [v.split("=", 1)[0] for v in response.headers.getlist("Set-Cookie")])
            )
    assert answers[0] == answers[1]
    if change in ("write", "clear") or (permanent and change != "empty"):
        assert answers[0][1] == ["session"]  # written (or deleted): the shortcut was not taken


_JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5) | st.binary(max_size=3),
    lambda inner: (
        st.lists(inner, max_size=3) | st.tuples(inner, inner) | st.dictionaries(st.text(max_size=3), inner, max_size=3)
    ),
    max_leaves=12,
)


@settings(max_examples=300, deadline=None)
@given(value=_JSONISH)
def test_a_kept_session_is_copied_as_deepcopy_copies_it(value: Any) -> None:
    """What a cookie holds is copied for each request: equal to ``copy.deepcopy``'s copy, and no dict or list of it
    shared with the kept one (so nothing a request changes in place reaches the next)."""
    copied = security._copied(value)
    assert copied == copy.deepcopy(value)

    def containers(v: Any) -> list[Any]:
        if isinstance(v, dict):
            return [v, *(c for item in v.values() for c in containers(item))]
        if isinstance(v, (list, tuple)):
            return [v] * isinstance(v, list) + [c for item in v for c in containers(item)]
        return []

    kept = {id(c) for c in containers(value)}
    assert not any(id(c) in kept for c in containers(copied))


@pytest.mark.parametrize(
    "varies",
    [
        [],
        ["Accept-Encoding"],
        ["Cookie"],
        ["Accept-Encoding, Cookie"],
        ["accept-encoding,origin"],
        ["Accept-Encoding, cookie"],
        [""],
        ["*"],
        ["Accept-Encoding", "Origin"],
        ["Origin", "Accept-Encoding"],
    ],
)
def test_vary_cookie_says_what_werkzeug_says(varies: list[str]) -> None:
    """``vary_cookie`` adds ``Cookie`` to ``Vary`` as ``response.vary.add("Cookie")`` does, whatever was there."""
    answers = []
    for add in (security.vary_cookie, lambda r: r.vary.add("Cookie")):
        response = Response("x", headers=[("X-Before", "1"), *(("Vary", v) for v in varies), ("X-After", "2")])
        add(response)
        answers.append(list(response.headers.items()))
    assert answers[0] == answers[1]
