"""The score sheet: the final tally (or "if the game ended now") explained point by point."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Blueprint, render_template
from marshmallow import Schema

from companion.game.commands import PlaceHalfDiplomas, PlayFraud
from companion.game.errors import RuleViolation
from companion.game.state import GameState, Phase
from companion.readmodels.playtime import format_minutes
from companion.service import GameView
from companion.web.forms.score import HalvesForm, HandCardForm
from companion.web.http.db import recorded, service
from companion.web.http.htmx import Answer, is_htmx
from companion.web.perform import perform_command
from companion.web.screens.hand_cards import CONTROL, hand_card_command
from companion.web.screens.refusal_shown import SHOW_THE_TOP, refusal_drawn
from companion.web.screens.score import score_context

__all__ = ["bp"]

bp = Blueprint("scores", __name__, url_prefix="/g/<game_id>")
bp.add_app_template_global(format_minutes, "format_minutes")


@bp.get("/score")
def sheet(game_id: str) -> str:
    """The score sheet of a recorded game."""
    return render_template("pages/score.html", **score_context(recorded(game_id)))


def _render_score(view: GameView, status: int = 200, **extra: Any) -> Answer:
    """The score page answering a form: a refusal whose form is not drawn now is said near the top."""
    context = {**score_context(view, extra.get("refusal")), **extra}
    html = refusal_drawn(lambda **c: render_template("pages/score.html", **c), context)
    if is_htmx() and status != 200 and (context.get("refusal_fallback") or context.get("notice")):
        return html, status, SHOW_THE_TOP
    return html, status


def _entry(game_id: str, form: type[Schema], command_of: Callable[[dict[str, Any]], Any], control: str) -> Answer:
    """Record the entry a score-page form describes; the score page answers."""
    return perform_command(game_id, form, command_of, control, render=_render_score, after="scores.sheet", loans=False)


@bp.post("/halves")
def place_halves(game_id: str) -> Answer:
    """Record where a player's pairs of half diplomas become diplomas."""
    return _entry(game_id, HalvesForm, lambda d: PlaceHalfDiplomas(d["player"], tuple(d["tracks"])), "halves")


@bp.post("/hand-card")
def hand_card(game_id: str) -> Answer:
    """Record one fraud card left in a player's hand at final scoring, by its end-game half."""

    def command_of(d: dict[str, Any]) -> PlayFraud:
        # the engine reads a card played from hand before the end as the Wall's fraud card (a location's
        # option): this form is final scoring's, so before the end it is refused for what it is. A screen
        # behind the log is answered by the append (a conflict, or "Already recorded" for a double tap).
        view = service().view(game_id)
        if d["seq"] == view.seq and isinstance(view.state, GameState) and view.state.phase is not Phase.OVER:
            raise RuleViolation("hand_card_before_end", {})
        return hand_card_command(d)

    return _entry(game_id, HandCardForm, command_of, CONTROL)
