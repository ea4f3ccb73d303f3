"""The big screen (``/v/<read token>``): a TV or laptop that follows the game and its score live, with
nothing to press. It reaches the game by its read-only token and can never write. When the table
starts its next game, a screen following live moves to the next game's screen by itself (a screen
opened later, say from a shared link, stays on the result and offers the link)."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, current_app, render_template, url_for

from companion.game.state import GameState
from companion.service import GameView
from companion.service.next_game import next_game_token
from companion.web.http.db import recorded, service
from companion.web.http.htmx import Answer, client_redirect, is_htmx
from companion.web.screens.game import game_context, render_game
from companion.web.screens.score import score_context

__all__ = ["bp"]

bp = Blueprint("viewer", __name__)


def _viewed(token: str) -> GameView:
    game_id = service().game_for_read_token(token)
    if game_id is None:
        abort(404)
    return recorded(game_id)


def _next_screen(view: GameView) -> str | None:
    """The big screen of the game this finished game's table started next, if any."""
    if not isinstance(view.state, GameState) or view.state.ended is None:
        return None
    token = next_game_token(str(current_app.config["SECRET_KEY"]), view)
    return url_for("viewer.screen", token=token) if token else None


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
        following = _next_screen(view)
        if following is not None:  # the table started a new game: the screen moves to it by itself
            return client_redirect(following)
        return render_game(view, readonly=True, live=live)
    context = {**game_context(view, readonly=True, live=live), **_viewer_score(view, token)}
    return render_template("pages/viewer.html", **context), 200


@bp.get("/v/<token>/score")
def score(token: str) -> str:
    """The big screen's score: the projection during the game, the whole breakdown at the end."""
    view = _viewed(token)
    return render_template("screens/viewer_score.html", **_viewer_score(view, token))
