"""What the tests of the game page's parts share: the screens of random games to look at, and parts drawn with marks.

``screens(monkeypatch, look, games)`` plays random legal games (``test_part_cache._play``: base and expansion, loans,
undos and redos, each screen with nothing chosen, a soul, a Cemetery colour or a guardian's steps) and calls
``look(app, game_id, language, choice)`` inside a request of that screen's phone; ``marking()`` draws parts with
marks.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from flask import Flask, g

from companion.web import create_app
from tests.web.screens import test_part_cache

Look = Callable[[Flask, str, str, dict[str, Any]], None]


@contextmanager
def marking() -> Iterator[None]:
    """Parts drawn with marks (a form's key, the seq, the CSRF token), the send list drawn afresh."""
    g.marking_parts, g.no_shared_blocks = True, True
    try:
        yield
    finally:
        g.marking_parts, g.no_shared_blocks = False, False


def screens(monkeypatch: pytest.MonkeyPatch, look: Look, games: tuple[tuple[int, bool], ...], steps: int) -> None:
    """``look`` at every screen of random games (seed, expansion), in a request of its phone (its language, htmx
    or not), the game's service ready."""

    def check(app: Flask, game_id: str, language: str, choice: dict[str, Any], htmx: bool = False) -> None:
        headers = {"Accept-Language": language, **({"HX-Request": "true"} if htmx else {})}
        with app.test_request_context(f"/g/{game_id}", headers=headers):
            app.preprocess_request()
            look(app, game_id, language, choice)

    monkeypatch.setattr(test_part_cache, "_check_screen", check)
    for seed, expansion in games:
        with tempfile.TemporaryDirectory() as tmp:
            app = create_app({"DATABASE": str(Path(tmp) / "r.sqlite3"), "WTF_CSRF_ENABLED": False, "SECRET_KEY": "t"})
            test_part_cache._play(app, seed, steps=steps, expansion=expansion)
