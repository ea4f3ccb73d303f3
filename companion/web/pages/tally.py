"""The quick tally: enter the end state of a game played without the app, and score it."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from flask import Blueprint, abort, after_this_request, redirect, render_template, request, url_for
from flask import Response as FlaskResponse
from marshmallow import Schema, ValidationError

from companion.game.commands import EnterCircle, EnterPlayer, PlaceHalfDiplomas, StartTally
from companion.game.errors import RuleViolation
from companion.game.tally import coins_asked, tally_score
from companion.service import TallyView, is_tally
from companion.web.forms.fields import new_key, parse
from companion.web.forms.score import HalvesForm
from companion.web.forms.tally import TallyCircleForm, TallyPlayerForm, TallySheetForm, TallyStartForm
from companion.web.http.db import recorded_tally, service
from companion.web.http.htmx import Answer, is_htmx
from companion.web.http.phone import remember_game
from companion.web.perform import perform, perform_command, perform_redo, perform_undo
from companion.web.screens.refusal_shown import SHOW_THE_TOP, refusal_drawn
from companion.web.screens.score import half_choices, sheet_facts, tally_after_context
from companion.web.screens.tally_sheet import endgame_halves, posted_values, record_sheet, recorded_values
from companion.web.words.form_fields import start_errors
from companion.web.words.refusals import describe_refusal

__all__ = ["bp"]

bp = Blueprint("tally", __name__)


def render_tally(view: TallyView, status: int = 200, **extra: Any) -> Answer:
    """The tally page (the ``tally`` block alone for htmx)."""
    from jinja2_fragments.flask import render_block

    sheet = tally_score(view.state)
    undoable = set(view.timeline.undoable)
    from_sheet = request.endpoint == "tally.sheet"
    refused_sheet = from_sheet and status in (400, 422)
    context = {
        "from_sheet": from_sheet,
        "view": view,
        "state": view.state,
        "values": posted_values(view.state, request.form) if refused_sheet else recorded_values(view.state),
        "sheet": sheet,
        "choices": half_choices(view, sheet),
        "coins": coins_asked(view.state.edition),
        "new_key": new_key,
        "can_undo": bool(undoable),
        "can_redo": bool(view.timeline.undone),
        **tally_after_context(view, sheet),
        **extra,
    }
    htmx = is_htmx()

    def draw(**drawn: Any) -> str:
        if htmx:
            return render_block("pages/tally.html", "tally", **drawn)
        return render_template("pages/tally.html", **drawn)

    html = refusal_drawn(draw, context)  # a refusal whose form is not drawn now is said near the top
    if htmx and from_sheet and status == 200:
        after_this_request(_show_the_score)
    elif htmx and status != 200 and (context.get("refusal_fallback") or (extra.get("notice") and not from_sheet)):
        return html, status, SHOW_THE_TOP
    return html, status


SCORE = "tally-score"
"""The id of the tally's score heading (``pages/tally.html``): where a saved sheet's answer shows the phone."""


def _show_the_score(response: FlaskResponse) -> FlaskResponse:
    """After a saved sheet, htmx scrolls to the score; a refused one stays where the thumb is."""
    response.headers["HX-Reswap"] = f"outerHTML show:#{SCORE}:top"
    return response


@bp.get("/tally")
def start_form() -> str:
    """The form that starts a quick tally."""
    return render_template("pages/tally_start.html", key=new_key(), errors={}, values={})


@bp.post("/tally")
def start() -> Answer:
    """Start a quick tally and go to it."""
    try:
        data = parse(TallyStartForm, request.form)
    except ValidationError as exc:
        return render_template(
            "pages/tally_start.html",
            key=new_key() if "key" in exc.messages else request.form.get("key") or new_key(),
            errors=start_errors(TallyStartForm, exc.messages, frozenset({"name"})),
            values=request.form,
        ), 400
    try:
        game_id = service().create_game(StartTally(tuple(data["name"])), data["key"])
    except RuleViolation as exc:
        return render_template(
            "pages/tally_start.html",
            key=data["key"],
            values=request.form,
            errors={"_rule": [describe_refusal(exc, None)]},
        ), 422
    remember_game(game_id)
    return redirect(url_for("tally.page", game_id=game_id), 303)


@bp.get("/t/<game_id>")
def page(game_id: str) -> Answer:
    """The tally: what has been entered, and the score it gives."""
    view = recorded_tally(game_id)
    remember_game(game_id)
    return render_tally(view)


def _entry(game_id: str, form: type[Schema], command_of: Callable[[dict[str, Any]], Any], control: str) -> Answer:
    """Record the entry a tally form describes; the tally page answers."""
    return perform_command(game_id, form, command_of, control, render=render_tally, after="tally.page", loans=False)


@bp.post("/t/<game_id>/sheet")
def sheet(game_id: str) -> Answer:
    """Save the whole sheet: every circle and player that changed becomes one entry."""
    return perform(
        game_id,
        TallySheetForm,
        lambda d: record_sheet(service(), game_id, d),
        "sheet",
        render=render_tally,
        after="tally.page",
        anchor=SCORE,  # a plain form's page opens at the score, as htmx's answer shows it (``_show_the_score``)
    )


@bp.post("/t/<game_id>/circle")
def circle(game_id: str) -> Answer:
    """Enter one circle's end state."""
    return _entry(game_id, TallyCircleForm, lambda d: EnterCircle(d["circle"], d["empty"], d["cube"]), "circle")


@bp.post("/t/<game_id>/player")
def player(game_id: str) -> Answer:
    """Enter one player's end state."""

    def entered(d: dict[str, Any]) -> EnterPlayer:
        halves = endgame_halves(d["fraud_effect"], d["fraud_amount"], d["fraud_track"])
        skulls, diplomas = tuple(d["skulls"]), tuple(d["diplomas"])
        return EnterPlayer(
            d["player"],
            d["infamy"],
            skulls,
            diplomas,
            d["half_diplomas"],
            d["ship"],
            halves,
            d["drachmas"],
            d["florins"],
        )

    return _entry(game_id, TallyPlayerForm, entered, "player")


@bp.post("/t/<game_id>/halves")
def halves(game_id: str) -> Answer:
    """Confirm where a player's half-diploma pairs go."""
    return _entry(game_id, HalvesForm, lambda d: PlaceHalfDiplomas(d["player"], tuple(d["tracks"])), "halves")


@bp.post("/t/<game_id>/undo")
def undo(game_id: str) -> Answer:
    """Undo the latest entry."""
    return perform_undo(game_id, render=render_tally, after="tally.page")


@bp.post("/t/<game_id>/redo")
def redo(game_id: str) -> Answer:
    """Redo the latest undone entry."""
    return perform_redo(game_id, render=render_tally, after="tally.page")


@bp.get("/tally/result/<token>")
def result(token: str) -> str:
    """A finished tally's score, read-only: what "Share the result" links to (the tally's read
    token, never its address, so a friend who opens it cannot change an entry)."""
    game_id = service().game_for_read_token(token)
    view = service().view(game_id) if game_id is not None else None
    if view is None or not is_tally(view) or not view.state.complete:
        abort(404)
    started = view.rows[0].recorded_at if view.rows else None
    facts = sheet_facts(datetime.fromisoformat(started) if started else None, None)
    return render_template("pages/tally_result.html", sheet=tally_score(view.state), state=view.state, facts=facts)
