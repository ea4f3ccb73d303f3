"""Security headers on every response and a session cookie that is Secure over HTTPS.

The headers are worked out once, when the app is made, and added to each response as they are (what
Flask-Talisman wrote, without its per-response parsing of the policy, ~0.1 ms a request): a
Content-Security-Policy that runs scripts only from this site's ``static/`` files (no inline script,
no eval) and lets no other site frame a page,
``X-Content-Type-Options: nosniff``, and ``Referrer-Policy: no-referrer`` (a game's address is
its key). Inline ``style="--sc: …"`` attributes colour the circles and the score chart is an
inline SVG with its own ``<style>``, so inline styles are allowed (a style cannot run code).
The app also serves phones over plain HTTP on the LAN: it never forces HTTPS, and marks the
session cookie ``Secure`` only when the request came over HTTPS. Behind a TLS proxy, the
``PROXY_HOPS`` setting (env ``COMPANION_PROXY_HOPS``: how many proxies stand in front) makes the
app trust that many ``X-Forwarded-For/Proto/Host`` values (Werkzeug's ``ProxyFix``), so the join
links and QR codes say ``https://`` and the cookie is ``Secure``; without it no such header is
trusted (a phone on the LAN could send any).
"""

from __future__ import annotations

import time
from typing import Any

from flask import Flask, Request, Response, request
from flask.sessions import SecureCookieSession, SecureCookieSessionInterface, SessionMixin
from itsdangerous import BadSignature, URLSafeTimedSerializer
from werkzeug.middleware.proxy_fix import ProxyFix

from companion.service.caches import Lru
from companion.web.http import hosting, nul

__all__ = ["CONTENT_SECURITY_POLICY", "HEADERS", "install", "vary_cookie"]

CONTENT_SECURITY_POLICY = {
    "default-src": "'self'",
    "script-src": "'self'",
    "style-src": ["'self'", "'unsafe-inline'"],
    "img-src": ["'self'", "data:"],
    "connect-src": "'self'",
    "object-src": "'none'",
    "base-uri": "'none'",
    "form-action": "'self'",
    "frame-ancestors": "'none'",
}

HEADERS: tuple[tuple[str, str], ...] = (
    ("Permissions-Policy", "browsing-topics=()"),
    ("X-Frame-Options", "DENY"),
    ("X-Content-Type-Options", "nosniff"),
    (
        "Content-Security-Policy",
        "; ".join(
            f"{name} {' '.join(value) if isinstance(value, list) else value}"
            for name, value in CONTENT_SECURITY_POLICY.items()
        ),
    ),
    ("Referrer-Policy", "no-referrer"),
)
"""Every response's security headers, in the order Flask-Talisman wrote them."""

HSTS = ("Strict-Transport-Security", "max-age=31556926; includeSubDomains")
"""Over HTTPS only: a promise a phone on the LAN's plain HTTP could never keep."""


def add_headers(response: Response) -> Response:
    """After every request: the security headers (HSTS too over HTTPS), unless a view set its own."""
    headers = response.headers
    # werkzeug's own list of (name, value): looked through once, and the constants (valid header values) added as
    # they are, not each validated again and each missing name looked up through a raised ``KeyError`` (~10 µs less
    # a request); ``tests/web/http/test_hardening.py`` reads every response's headers
    listed: list[tuple[str, str]] = headers._list
    if not any(name.lower() == "content-security-policy" for name, _ in listed):
        listed.extend(HEADERS)
        if request.is_secure:
            headers.set(*HSTS)
    return response


OPENED_COOKIES = 4096
KEPT_HEADER_CHARS = 2048
"""A ``Cookie`` header this long at most is kept whole beside the session it holds (the app's own cookie is well
under it); a longer one is kept by its session cookie alone."""
"""Session cookies whose signature was checked, kept with what they hold (a phone sends the same cookie on every
request until its seat, games or language change)."""
CHECKED_FOR = 3600.0
"""Seconds a checked cookie is trusted without checking its signature and age again."""


class SessionOverHttps(SecureCookieSessionInterface):
    """The signed session cookie, ``Secure`` whenever the request came over HTTPS.

    A cookie is checked (its signature, its age) once, then kept with what it holds for ``CHECKED_FOR`` seconds:
    Flask made a new serializer and checked the same cookie on every request of a phone (~0.15 ms, every tap,
    choice and live refresh). What it holds is copied for each request, so no request changes another's."""

    def __init__(self) -> None:
        self._serializers: dict[tuple[Any, ...], URLSafeTimedSerializer] = {}
        self._opened: Lru[tuple[int, str], tuple[float, dict[str, Any]]] = Lru(OPENED_COOKIES)

    def get_cookie_secure(self, app: Flask) -> bool:
        return bool(app.config["SESSION_COOKIE_SECURE"]) or request.is_secure

    def get_signing_serializer(self, app: Flask) -> URLSafeTimedSerializer | None:
        """Flask's serializer, made once for each secret key (and fallbacks)."""
        if not app.secret_key:
            return None
        keys = (app.secret_key, tuple(app.config["SECRET_KEY_FALLBACKS"] or ()))
        found = self._serializers.get(keys)
        if found is None:
            found = super().get_signing_serializer(app)
            if found is None:
                return None
            self._serializers[keys] = found
        return found

    def open_session(self, app: Flask, request: Request) -> SecureCookieSession | None:
        s = self.get_signing_serializer(app)
        if s is None:
            return None
        raw = request.environ.get("HTTP_COOKIE")
        if not raw:
            return self.session_class()
        # kept by the whole Cookie header as sent: the same header holds the same session cookie, read without
        # parsing the header again (a phone sends the same one on every request); a header past
        # ``KEPT_HEADER_CHARS`` (other cookies beside ours) is kept by the session cookie alone, so what is kept
        # stays as small as the cookies this app writes
        short = len(raw) <= KEPT_HEADER_CHARS
        now = time.monotonic()
        if short:
            kept = self._opened.get((id(s), raw))
            if kept is not None and now - kept[0] < CHECKED_FOR:
                return self.session_class(_copied(kept[1]))
        val = request.cookies.get(self.get_cookie_name(app))
        if not val:
            return self.session_class()
        slot = (id(s), raw if short else val)
        if not short:
            kept = self._opened.get(slot)
            if kept is not None and now - kept[0] < CHECKED_FOR:
                return self.session_class(_copied(kept[1]))
        try:
            data = s.loads(val, max_age=int(app.permanent_session_lifetime.total_seconds()))
        except BadSignature:
            return self.session_class()
        self._opened.put(slot, (now, _copied(data)))
        return self.session_class(data)

    def save_session(self, app: Flask, session: SessionMixin, response: Response) -> None:
        """Flask's, but a session no request changed (nearly every tap's: ``SESSION_REFRESH_EACH_REQUEST`` is off)
        only says ``Vary: Cookie`` when it was read, without first working out the seven attributes of a cookie it
        does not write."""
        if not session.modified and not self.should_set_cookie(app, session):
            if session.accessed:
                vary_cookie(response)
            return
        super().save_session(app, session, response)


def vary_cookie(response: Response) -> None:
    """``response.vary.add("Cookie")``, without parsing the header into a set and writing it back (~5 µs a request)
    for the two answers nearly every request gives: no ``Vary`` yet, or Flask-Compress's ``Accept-Encoding`` alone
    (``tests/web/http/test_kept_session.py`` holds the two equal); any other ``Vary`` goes through werkzeug's own."""
    listed: list[tuple[str, str]] = response.headers._list
    found = [i for i, (name, _) in enumerate(listed) if name.lower() == "vary"]
    if not found:
        listed.append(("Vary", "Cookie"))
    elif len(found) == 1 and listed[found[0]][1] == "Accept-Encoding":
        listed[found[0]] = ("Vary", "Accept-Encoding, Cookie")
    else:
        response.vary.add("Cookie")


def _copied(value: Any) -> Any:
    """A copy of what a session cookie holds, each dict and list made anew: ``copy.deepcopy`` for what Flask's tagged
    JSON gives (dicts, lists, tuples, text, numbers, bytes, dates, UUIDs, markup), without its memo (~3x faster). A
    tuple is copied only when it holds a dict or a list."""
    if isinstance(value, dict):
        return {key: _copied(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_copied(item) for item in value]
    if isinstance(value, tuple) and any(isinstance(item, (dict, list, tuple)) for item in value):
        return tuple(_copied(item) for item in value)
    return value


def install(app: Flask) -> None:
    """Add the security headers to every response of ``app`` and secure its session cookie; refuse a
    NUL character anywhere in a request (``nul``)."""
    nul.install(app)
    hosting.install(app)  # the public address (inside ProxyFix, so it sees the proxy's host) and outages
    app.after_request(add_headers)
    app.session_interface = SessionOverHttps()
    hops = int(app.config.get("PROXY_HOPS") or 0)
    if hops > 0:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops, x_host=hops)  # type: ignore[method-assign]
