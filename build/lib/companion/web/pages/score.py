"""The score sheet: the final tally (or "if the game ended now") explained point by point."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, render_template

from companion.game.commands import PlaceHalfDiplomas
from companion.readmodels.playtime import format_minutes
from companion.service import GameView
from companion.web.forms.score import HalvesForm, HandCardForm
from companion.web.http.db import recorded, service
from companion.web.http.htmx import Answer
from companion.web.http.perform import perform
from companion.web.screens.hand_cards import CONTROL, hand_card_command
from companion.web.screens.score import score_context

__all__ = ["bp"]

bp = Blueprint("scores", __name__, url_prefix="/g/<game_id>")
bp.add_app_template_global(format_minutes, "format_minutes")


@bp.get("/score")
def sheet(game_id: str) -> str:
    """The score sheet of a recorded game."""
    return render_template("pages/score.html", **score_context(recorded(game_id)))


def _render_score(view: GameView, status: int = 200, **extra: Any) -> tuple[str, int]:
    return render_template("pages/score.html", **score_context(view, extra.get("refusal")), **extra), status


@bp.post("/halves")
def place_halves(game_id: str) -> Answer:
    """Record where a player's pairs of half diplomas become diplomas."""
    return perform(
        game_id,
        HalvesForm,
        lambda d: service().execute(game_id, d["seq"], PlaceHalfDiplomas(d["player"], tuple(d["tracks"])), d["key"]),
        "halves",
        render=_render_score,
        after="scores.sheet",
    )


@bp.post("/hand-card")
def hand_card(game_id: str) -> Answer:
    """Record one fraud card left in a player's hand at final scoring, by its end-game half."""
    return perform(
        game_id,
        HandCardForm,
        lambda d: service().execute(game_id, d["seq"], hand_card_command(d), d["key"]),
        CONTROL,
        render=_render_score,
        after="scores.sheet",
    )
