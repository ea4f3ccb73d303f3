"""A request's route is found once per address and kept (``web.http.routing``): every rule of the app, with every
method it takes, is matched the same as by werkzeug's own matcher, the first time and again; the values come back as
a fresh dict each time; what matches nothing, or another method, or only after a redirect, is answered as before and
kept for nothing; a rule added later is found."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from werkzeug.exceptions import MethodNotAllowed, NotFound
from werkzeug.routing import Map, RequestRedirect, Rule
from werkzeug.routing.converters import IntegerConverter, PathConverter, UnicodeConverter

from companion.web.http.routing import KEPT, KeptMap, KeptMatcher

SAMPLES = {UnicodeConverter: "kopp0RF1p6ib", IntegerConverter: 7, PathConverter: "js/table.js"}


def _sample(rule: Rule) -> dict[str, Any]:
    return {name: SAMPLES[type(conv)] for name, conv in rule._converters.items()}


def _plain(app: Flask) -> Map:
    """werkzeug's own map with the app's rules."""
    return Map([rule.empty() for rule in app.url_map.iter_rules()], strict_slashes=app.url_map.strict_slashes)


def test_the_app_keeps_its_matches(app: Flask) -> None:
    assert isinstance(app.url_map, KeptMap)
    assert isinstance(app.url_map._matcher, KeptMatcher)


def test_every_rule_of_the_app_is_matched_as_werkzeug_matches_it(app: Flask) -> None:
    """The whole space: each rule, each of its methods, a sample address for it; kept, then found again."""
    plain = _plain(app).bind("localhost")
    kept = app.url_map.bind("localhost")
    converters = {type(c) for rule in app.url_map.iter_rules() for c in rule._converters.values()}
    assert converters <= set(SAMPLES), "a converter with no sample value: add one"
    checked = 0
    for rule in app.url_map.iter_rules():
        path = plain.build(rule.endpoint, _sample(rule), force_external=False)
        for method in sorted(rule.methods or ()):
            expected = plain.match(path, method)
            first = kept.match(path, method)
            again = kept.match(path, method)
            assert first == again == expected, (rule.rule, method)
            checked += 1
    assert checked > 100  # every form and page of the app, GET and POST and the rest


def test_the_values_come_back_as_a_fresh_dict_each_time(app: Flask) -> None:
    adapter = app.url_map.bind("localhost")
    endpoint, values = adapter.match("/g/abc/move", "POST")
    values["game_id"] = "changed by a hook"
    values["more"] = 1
    assert adapter.match("/g/abc/move", "POST") == (endpoint, {"game_id": "abc"})


def test_what_matches_nothing_is_answered_as_before_and_kept_for_nothing(app: Flask) -> None:
    adapter = app.url_map.bind("localhost")
    matcher = app.url_map._matcher
    assert isinstance(matcher, KeptMatcher)
    for _ in range(2):
        with pytest.raises(NotFound):
            adapter.match("/no/such/page", "GET")
        with pytest.raises(MethodNotAllowed):
            adapter.match("/g/abc/move", "DELETE")
    assert matcher._kept == {}


def test_a_redirect_is_still_made() -> None:
    """A rule with a trailing slash redirects the address without it (werkzeug's strict slashes), every time."""
    url_map = KeptMap([Rule("/folder/", endpoint="folder")])
    adapter = url_map.bind("localhost")
    for _ in range(2):
        with pytest.raises(RequestRedirect) as redirect:
            adapter.match("/folder", "GET")
        assert redirect.value.new_url == "http://localhost/folder/"
    assert adapter.match("/folder/", "GET") == ("folder", {})


def test_a_rule_added_later_is_found() -> None:
    url_map = KeptMap([Rule("/g/<game_id>", endpoint="game")])
    adapter = url_map.bind("localhost")
    assert adapter.match("/g/new", "GET") == ("game", {"game_id": "new"})
    url_map.add(Rule("/g/new", endpoint="new_game"))  # a fixed part wins over a value
    assert url_map.bind("localhost").match("/g/new", "GET") == ("new_game", {})


def test_the_kept_matches_are_bounded() -> None:
    url_map = KeptMap([Rule("/g/<game_id>", endpoint="game")])
    adapter = url_map.bind("localhost")
    for i in range(KEPT + 10):
        assert adapter.match(f"/g/{i}", "GET") == ("game", {"game_id": str(i)})
    matcher = url_map._matcher
    assert isinstance(matcher, KeptMatcher)
    assert len(matcher._kept) <= KEPT
