"""The games this phone remembers: a short list in its signed session cookie, never listed publicly."""

from __future__ import annotations

from collections.abc import Iterator

from flask import session

from companion.service import GameView
from companion.web.http.db import service

__all__ = ["remember_game", "remembered_views"]

REMEMBERED = 12  # games a phone keeps in its list


def remember_game(game_id: str) -> None:
    """Keep a game in this phone's list (a signed cookie; games are never listed publicly)."""
    games = [g for g in session.get("games", []) if g != game_id]
    session["games"] = [game_id, *games][:REMEMBERED]


def remembered_views() -> Iterator[GameView]:
    """The games and quick tallies this phone remembers, newest first (gone ones skipped)."""
    svc = service()
    for game_id in session.get("games", []):
        try:
            yield svc.view(game_id)
        except LookupError:
            continue
