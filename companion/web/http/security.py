"""Security headers on every response (Flask-Talisman) and a session cookie that is Secure over HTTPS.

The headers: a Content-Security-Policy that runs scripts only from this site's ``static/`` files (no inline script,
no eval) and lets no other site frame a page,
``X-Content-Type-Options: nosniff``, ``Referrer-Policy: no-referrer`` (a game's address is
its key), and HSTS over HTTPS only. Inline ``style="--sc: …"`` attributes colour the circles and the score chart is an
inline SVG with its own ``<style>``, so inline styles are allowed (a style cannot run code).
The app also serves phones over plain HTTP on the LAN: it never forces HTTPS, and marks the
session cookie ``Secure`` only when the request came over HTTPS. Behind a TLS proxy, the
``PROXY_HOPS`` setting (env ``COMPANION_PROXY_HOPS``: how many proxies stand in front) makes the
app trust that many ``X-Forwarded-For/Proto/Host`` values (Werkzeug's ``ProxyFix``), so the join
links and QR codes say ``https://`` and the cookie is ``Secure``; without it no such header is
trusted (a phone on the LAN could send any).
"""

from __future__ import annotations

from flask import Flask, request
from flask.sessions import SecureCookieSessionInterface
from flask_talisman import Talisman
from werkzeug.middleware.proxy_fix import ProxyFix

from companion.web.http import nul, outage, public_address
from companion.web.http.middleware import wrap_wsgi_app

__all__ = ["CONTENT_SECURITY_POLICY", "FILE_HEADERS", "POLICY", "SessionOverHttps", "install"]

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

POLICY = "; ".join(
    f"{name} {' '.join(value) if isinstance(value, list) else value}" for name, value in CONTENT_SECURITY_POLICY.items()
)
"""The policy as its header says it: given to Talisman as text, so it is not written out again for each answer."""

FILE_HEADERS: tuple[tuple[str, str], ...] = (
    ("X-Content-Type-Options", "nosniff"),
    ("Referrer-Policy", "no-referrer"),
    ("Content-Security-Policy", POLICY),
)
"""The same headers on the static files, which WhiteNoise serves in front of the app (``static_files``)."""


class SessionOverHttps(SecureCookieSessionInterface):
    """Flask's signed session cookie, ``Secure`` whenever the request came over HTTPS (the LAN's plain HTTP keeps
    a cookie it can send back)."""

    def get_cookie_secure(self, app: Flask) -> bool:
        return bool(app.config["SESSION_COOKIE_SECURE"]) or request.is_secure


def install(app: Flask) -> None:
    """Add the security headers to every response of ``app`` and secure its session cookie; refuse a
    NUL character anywhere in a request (``nul``)."""
    nul.install(app)
    public_address.install(app)  # inside ProxyFix, so it sees the proxy's host
    outage.install(app)
    Talisman(
        app,
        force_https=False,  # phones on the LAN speak plain HTTP
        session_cookie_secure=False,  # Secure over HTTPS only: ``SessionOverHttps``
        content_security_policy=POLICY,
        permissions_policy="browsing-topics=()",
        referrer_policy="no-referrer",
    )
    app.session_interface = SessionOverHttps()
    hops = int(app.config.get("PROXY_HOPS") or 0)
    if hops > 0:
        wrap_wsgi_app(app, ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops, x_host=hops))
