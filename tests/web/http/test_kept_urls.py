"""The templates' ``url_for`` is built once per process, and is the very address ``flask.url_for`` builds:
for every endpoint of the app, under another mount point too, and with what it does not keep."""

from __future__ import annotations

from typing import Any

from flask import Flask, url_for
from werkzeug.routing import BuildError

from companion.web.http.urls import kept_url_for


def _values(app: Flask, endpoint: str) -> dict[str, Any]:
    rule = next(r for r in app.url_map.iter_rules() if r.endpoint == endpoint)
    return {arg: ("1" if arg in ("seq", "n") else "abcDEF-_09") for arg in rule.arguments}


def test_every_endpoint_is_kept_as_flask_builds_it_at_any_mount_point(app: Flask) -> None:
    endpoints = sorted({rule.endpoint for rule in app.url_map.iter_rules()})
    assert len(endpoints) > 40
    for root in ("", "/inferno"):
        with app.test_request_context("/", base_url=f"http://localhost{root}/"):
            for endpoint in endpoints:
                values = _values(app, endpoint)
                try:
                    expected = url_for(endpoint, **values)
                except BuildError:  # a rule whose converter refuses the sample value: not an address a page asks
                    continue
                assert kept_url_for(endpoint, **values) == expected
                assert kept_url_for(endpoint, **values) == expected  # and again, from what was kept
                assert expected.startswith(f"{root}/")


def test_what_it_does_not_keep_is_built_as_usual(app: Flask) -> None:
    with app.test_request_context("/"):
        assert kept_url_for("play.game", game_id="g1", _external=True) == url_for(
            "play.game", game_id="g1", _external=True
        )
        assert kept_url_for("play.game", game_id="g1", _anchor="top").endswith("/g/g1#top")
        assert kept_url_for("play.game", game_id="g1", at=[3]) == url_for("play.game", game_id="g1", at=[3])
        # a query's arguments in the order asked, as flask keeps them
        queries: tuple[dict[str, Any], ...] = ({"target": 3, "choice": "b"}, {"choice": "b", "target": 3})
        for query in queries:
            assert kept_url_for("corrections.replace_page", game_id="g1", **query) == url_for(
                "corrections.replace_page", game_id="g1", **query
            )
    app.config["SERVER_NAME"] = "table.local"
    with app.app_context():  # outside a request: as flask builds it there
        assert kept_url_for("play.game", game_id="g1") == url_for("play.game", game_id="g1")


def test_the_templates_ask_the_kept_one(app: Flask) -> None:
    assert app.jinja_env.globals["url_for"] is kept_url_for
