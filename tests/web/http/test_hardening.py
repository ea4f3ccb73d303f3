"""Hardening: the language switch follows only same-site paths, every response carries the
security headers (a CSP with scripts only from static/, no framing, no referrer, no sniffing),
no template runs inline script, and the session cookie is Secure when served over HTTPS."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import quote

import pytest
from flask.testing import FlaskClient

from companion.web.http.safe_next import safe_next

ROOT = Path(__file__).resolve().parents[3]

HOSTILE_NEXT = [
    "//example.com/",
    "/\\example.com/",
    "\\\\example.com/",
    "/\t/example.com/",
    "/\n/example.com/",
    "/\r\n/example.com/",
    "/ /example.com/",
    " //example.com/",
    "https://example.com/",
    "http:example.com",
    "HTTPS://example.com",
    "javascript:alert(1)",
    "JavaScript:alert(1)",
    "data:text/html,<script>alert(1)</script>",
    "example.com",
    "/\\/example.com",
    "///example.com",
    "\x00//example.com",
    "",
]


@pytest.mark.parametrize("target", HOSTILE_NEXT)
def test_the_language_switch_never_sends_the_browser_to_another_site(client: FlaskClient, target: str) -> None:
    response = client.get(f"/lang/es?next={quote(target, safe='')}")
    if "\x00" in target:  # a NUL is refused at the door (issue 26): no redirect at all
        assert response.status_code == 400 and "Location" not in response.headers
        return
    assert response.status_code == 303
    assert response.headers["Location"] == "/", (target, response.headers["Location"])


def test_the_tab_trick_from_the_issue_goes_home(client: FlaskClient) -> None:
    response = client.get("/lang/es?next=/%09/example.com/")
    assert response.headers["Location"] == "/"


@pytest.mark.parametrize("target", ["/", "/g/abc123", "/g/abc123/history?player=1&turn=2", "/tally?x=%2F%2Fy"])
def test_the_language_switch_returns_to_a_page_of_this_site(client: FlaskClient, target: str) -> None:
    response = client.get(f"/lang/es?next={quote(target, safe='')}")
    assert response.headers["Location"] == target
    assert safe_next(target) == target


def csp_of(response) -> dict[str, list[str]]:
    policy = response.headers["Content-Security-Policy"]
    return {part.split()[0]: part.split()[1:] for part in policy.split(";") if part.strip()}


@pytest.mark.parametrize(
    "path",
    ["/", "/tally", "/j", "/import", "/no-such-page", "/static/css/app.css", "/api/openapi.json", "/api/v1/games"],
)
def test_every_response_carries_the_security_headers(client: FlaskClient, path: str) -> None:
    response = client.get(path)
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Referrer-Policy"] == "no-referrer"
    csp = csp_of(response)
    assert csp["script-src"] == ["'self'"]  # no inline script, no eval, nothing from elsewhere
    assert csp["frame-ancestors"] == ["'none'"]
    assert csp["object-src"] == ["'none'"]
    assert csp["style-src"] == ["'self'", "'unsafe-inline'"]  # style="--sc: …" and the chart's SVG style
    assert "Strict-Transport-Security" not in response.headers  # plain HTTP on the LAN: no HSTS promise


def test_over_https_a_response_also_promises_https(client: FlaskClient) -> None:
    response = client.get("/", base_url="https://localhost")
    assert response.headers["Strict-Transport-Security"] == "max-age=31556926; includeSubDomains"
    assert response.headers.getlist("Content-Security-Policy") == [response.headers["Content-Security-Policy"]]


def test_a_game_page_and_its_error_pages_carry_them_too(phone, client: FlaskClient) -> None:
    phone.create()
    for path in ("", "/history", "/score", "/join"):
        assert csp_of(client.get(phone.url + path))["script-src"] == ["'self'"]
    assert client.post("/").headers["Content-Security-Policy"]  # a 405


HTML_IN_PYTHON = re.compile(
    r"""["'][^"']*<(/?)(div|span|a|p|li|ul|ol|form|input|button|svg|g|circle|rect|text|path|strong|em|bdi|br|dl|dt|"""
    r"""dd|table|tr|td|th|section|h[1-6]|img|label|select|option|small|details|summary|output|time|abbr)[ >/"]"""
)
"""A string in Python that holds an element's tag: markup built outside the templates."""


def test_no_template_runs_inline_script() -> None:
    inline = re.compile(r"<script(?![^>]*\bsrc=)|\son[a-z]+\s*=|\bhx-on|javascript:|js:", re.IGNORECASE)
    templates = sorted((ROOT / "templates").rglob("*.html"))
    assert len(templates) > 40
    found = [
        f"{path.name}: {match.group(0)}"
        for path in templates
        for match in inline.finditer(path.read_text(encoding="utf-8"))
    ]
    assert not found


def test_what_a_page_shows_is_drawn_by_templates() -> None:
    """The web's Python builds hardly any markup (a link, a bidi isolate, the live presence list, a status line): at
    most 25 lines of it, none of them an inline script."""
    lines = [
        f"{path.relative_to(ROOT)}:{n}"
        for path in sorted((ROOT / "companion" / "web").rglob("*.py"))
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if HTML_IN_PYTHON.search(line) and not line.lstrip().startswith(("#", '"""', "``")) and "``<" not in line
    ]
    assert 0 < len(lines) <= 25, lines


def test_no_htmx_trigger_filter_needs_eval() -> None:
    """A trigger filter such as keyup[key=='Enter'] is compiled with Function(): CSP forbids it."""
    filters = [
        f"{path.name}: {m.group(0)}"
        for path in sorted((ROOT / "templates").rglob("*.html"))
        for m in re.finditer(r'hx-trigger="[^"]*\[', path.read_text(encoding="utf-8"))
    ]
    assert not filters


def test_the_session_cookie_is_secure_over_https_only(client: FlaskClient) -> None:
    plain = client.get("/lang/es?next=/")
    assert "Secure" not in plain.headers["Set-Cookie"]  # phones on the LAN use plain HTTP
    secure = client.get("/lang/en?next=/", base_url="https://localhost")
    cookie = secure.headers["Set-Cookie"]
    assert "; Secure" in cookie and "HttpOnly" in cookie and "SameSite=Lax" in cookie
    assert secure.headers["Strict-Transport-Security"].startswith("max-age=")


def test_the_text_export_names_one_charset(phone, client: FlaskClient) -> None:
    phone.create()
    content_type = client.get(phone.url + "/export.txt").headers["Content-Type"]
    assert content_type == "text/plain; charset=utf-8"
