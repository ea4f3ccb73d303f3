"""A request's route found once per address: ``KeptMap``, the app's URL map.

werkzeug matches a request's path against the URL map's state machine on every request (~20 µs of a tap in a
server: the path split into parts, each state tried, each value converted). What it finds depends only on the map's
rules and the four things it is given (the host part, the path, the method, whether it is a websocket), and a
table's phones tap the same few addresses all game long, so the matches found are kept (``KEPT``, then begun again;
a rule added forgets them) and each is given back with a copy of its values (Flask hands them to the view as its
arguments, and a view's hook may change that dict). A path that matches no rule, another method's, or only after a
redirect is worked out each time, as before: nothing but a match is kept. ``tests/web/http/test_routing.py`` holds
every rule of the app matched the same as by werkzeug's own matcher.
"""

from __future__ import annotations

from collections.abc import Iterable, MutableMapping
from typing import Any

from werkzeug.routing import Map, Rule
from werkzeug.routing.matcher import StateMachineMatcher
from werkzeug.routing.rules import RuleFactory

__all__ = ["KEPT", "KeptMap", "KeptMatcher"]

KEPT = 4096
"""Matches kept per map: a game's dozen addresses for some hundreds of games, the static files and the pages."""


class KeptMatcher(StateMachineMatcher):
    """werkzeug's matcher, keeping each match it found by what it was given."""

    def __init__(self, merge_slashes: bool) -> None:
        super().__init__(merge_slashes)
        self._kept: dict[tuple[str, str, str, bool], tuple[Rule, dict[str, Any]]] = {}

    def add(self, rule: Rule) -> None:
        self._kept.clear()
        super().add(rule)

    def update(self) -> None:
        self._kept.clear()
        super().update()

    def match(self, domain: str, path: str, method: str, websocket: bool) -> tuple[Rule, MutableMapping[str, Any]]:
        key = (domain, path, method, websocket)
        found = self._kept.get(key)
        if found is None:
            rule, values = super().match(domain, path, method, websocket)  # no match raises: nothing kept
            if len(self._kept) >= KEPT:
                self._kept.clear()
            found = self._kept[key] = (rule, dict(values))
        return found[0], dict(found[1])


class KeptMap(Map):
    """werkzeug's ``Map`` with a ``KeptMatcher`` (Flask's ``url_map_class``)."""

    def __init__(self, rules: Iterable[RuleFactory] | None = None, *args: Any, **kwargs: Any) -> None:
        super().__init__(None, *args, **kwargs)
        self._matcher = KeptMatcher(self._matcher.merge_slashes)
        for rule in rules or ():
            self.add(rule)
