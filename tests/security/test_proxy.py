"""Behind a TLS proxy: the app trusts X-Forwarded-* only from as many proxies as it is told.

Without ``PROXY_HOPS`` a phone on the LAN could claim any scheme or host, so nothing is trusted
and the join links say what the request itself says. With ``PROXY_HOPS=1`` (env
``COMPANION_PROXY_HOPS``) the join page's links and QR codes say ``https://`` and the proxy's host,
and the session cookie is ``Secure``.
"""

from __future__ import annotations

from pathlib import Path

from companion.web import create_app
from tests.web.conftest import Phone

FORWARDED = {"X-Forwarded-Proto": "https", "X-Forwarded-Host": "inferno.example", "X-Forwarded-For": "10.0.0.7"}


def _join_page(tmp_path: Path, hops: int | None) -> tuple[str, str]:
    config = {"DATABASE": str(tmp_path / "proxy.sqlite3"), "SECRET_KEY": "t", "WTF_CSRF_ENABLED": False}
    if hops is not None:
        config["PROXY_HOPS"] = hops
    app = create_app(config)
    phone = Phone(app.test_client()).create()
    joining = app.test_client()  # another phone opens the join page: its cookie is written (it remembers the game)
    response = joining.get(f"{phone.url}/join", headers=FORWARDED)
    return response.data.decode(), response.headers.get("Set-Cookie", "")


def test_without_proxy_hops_no_forwarded_header_is_trusted(tmp_path: Path) -> None:
    page, _ = _join_page(tmp_path, None)
    assert 'href="http://localhost/g/' in page and "inferno.example" not in page


def test_with_one_proxy_the_join_links_say_https_and_its_host(tmp_path: Path) -> None:
    page, cookie = _join_page(tmp_path, 1)
    assert 'href="https://inferno.example/g/' in page and "http://localhost" not in page
    assert "Secure" in cookie
