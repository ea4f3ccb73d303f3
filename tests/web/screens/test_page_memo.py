"""The score page's infamy chart and ledger are worked out once per game, seq and language, and
a write is seen at once: the page equals the page of a fresh process on the same database."""

from __future__ import annotations

import re

from flask import Flask

from companion.web import create_app
from tests.builders import found
from tests.web.conftest import Phone


def fresh_page(app: Flask, path: str, language: str) -> str:
    other = create_app({**app.config, "TESTING": True})  # another process: its own caches
    return other.test_client().get(path, headers={"Accept-Language": language}).data.decode()


def without_tokens(html: str) -> str:
    """The page without what differs on every drawing: tokens, fresh keys, pygal's random chart id."""
    html = re.sub(r"chart-[0-9a-f-]{36}", "chart", html)
    return re.sub(r'(csrf_token" value=|X-CSRFToken": |name="key" value=)"[^"]*"', "", html)


def test_the_score_page_kept_at_a_seq_is_the_fresh_page_and_follows_writes(app: Flask, client) -> None:
    phone = Phone(client).create()
    score = phone.url + "/score"
    seen: set[str] = set()
    for step in range(10):  # loans: the ship goes down the track, and later loans cost infamy
        for language in ("en", "es"):
            kept = client.get(score, headers={"Accept-Language": language}).data.decode()
            again = client.get(score, headers={"Accept-Language": language}).data.decode()
            assert without_tokens(kept) == without_tokens(again) == without_tokens(fresh_page(app, score, language))
            if language == "en":
                seen.add(without_tokens(found(r"<svg.*</svg>", kept, re.S).group(0)))  # the chart as drawn
        assert phone.post("loan", {"player": 0}, key=f"memo-loan-{step:03d}").status_code == 200
    assert len(seen) > 1  # the chart changed along the way: a kept chart was never served stale
