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

from flask import Flask, Response, request
from flask.sessions import SecureCookieSessionInterface
from werkzeug.middleware.proxy_fix import ProxyFix

from companion.web.http import hosting, nul

__all__ = ["CONTENT_SECURITY_POLICY", "HEADERS", "install"]

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
    if "Content-Security-Policy" not in headers:
        headers.extend(HEADERS)
        if request.is_secure:
            headers.set(*HSTS)
    return response


class SessionOverHttps(SecureCookieSessionInterface):
    """The signed session cookie, ``Secure`` whenever the request came over HTTPS."""

    def get_cookie_secure(self, app: Flask) -> bool:
        return bool(app.config["SESSION_COOKIE_SECURE"]) or request.is_secure


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
