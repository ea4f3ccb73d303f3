"""The big screen (``/v/<read token>``): a TV or laptop that follows the game and its score live, with
nothing to press. It reaches the game by its read-only token and can never write."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, render_template, url_for

from companion.service import GameView
from companion.web.http.db import recorded, service
from companion.web.http.htmx import Answer, is_htmx
from companion.web.screens.game import game_context, render_game
from companion.web.screens.score import score_context

__all__ = ["bp"]

bp = Blueprint("viewer", __name__)


def _viewed(token: str) -> GameView:
    game_id = service().game_for_read_token(token)
    if game_id is None:
        abort(404)
    return recorded(game_id)


def _viewer_score(view: GameView, token: str) -> dict[str, Any]:
    return {**score_context(view), "score_url": url_for("viewer.score", token=token)}


@bp.get("/v/<token>")
def screen(token: str) -> Answer:
    """A read-only big screen: the game as it stands and its score, live, with nothing to press."""
    view = _viewed(token)
    live = {
        "events": url_for("live.viewer_events", token=token),
        "poll": url_for("live.viewer_seq", token=token),
        "refresh": url_for("viewer.screen", token=token),
    }
    if is_htmx():
        return render_game(view, readonly=True, live=live)
    context = {**game_context(view, readonly=True, live=live), **_viewer_score(view, token)}
    return render_template("pages/viewer.html", **context), 200


@bp.get("/v/<token>/score")
def score(token: str) -> str:
    """The big screen's score: the projection during the game, the whole breakdown at the end."""
    view = _viewed(token)
    return render_template("screens/viewer_score.html", **_viewer_score(view, token))
