"""Undo, redo and the history: every entry in words, "undo to here" with its preview."""

from __future__ import annotations

from flask import Blueprint, abort, render_template, request
from werkzeug.wrappers import Response

from companion.game.errors import RuleViolation
from companion.service import UnknownGame
from companion.web.corrections import REPLACEABLE
from companion.web.forms import ActionForm, UndoForm
from companion.web.history import history_entries
from companion.web.respond import is_htmx, new_key, perform
from companion.web.store import service
from companion.web.words import describe_refusal

__all__ = ["bp"]

bp = Blueprint("timeline", __name__, url_prefix="/g/<game_id>")


@bp.post("/undo")
def undo(game_id: str) -> Response | tuple[str, int]:
    """Undo the latest entry, or (with ``to``) every entry from that one on."""
    return perform(
        game_id,
        UndoForm,
        lambda d: service().undo(game_id, d["seq"], d["key"], d.get("to")),
        "undo",
    )


@bp.post("/redo")
def redo(game_id: str) -> Response | tuple[str, int]:
    """Redo the most recently undone entry."""
    return perform(game_id, ActionForm, lambda d: service().redo(game_id, d["seq"], d["key"]), "undo")


@bp.get("/history")
def history(game_id: str) -> str:
    """Every entry, newest first, with what it did and whether it is in effect."""
    try:
        view = service().view(game_id)
    except UnknownGame:
        abort(404)
    entries = list(reversed(history_entries(view)))
    return render_template(
        "history.html", view=view, state=view.state, entries=entries, new_key=new_key, replaceable=REPLACEABLE
    )


@bp.get("/undo-preview")
def undo_preview(game_id: str) -> tuple[str, int]:
    """Exactly what "undo to here" would take back, before anything is recorded."""
    svc = service()
    to = request.args.get("to", type=int)
    try:
        view, reverted, after = svc.preview_undo(game_id, to)
    except UnknownGame:
        abort(404)
    except RuleViolation as exc:
        view = svc.view(game_id)
        return render_template(
            "undo_preview.html",
            view=view,
            state=view.state,
            error=describe_refusal(exc, view.state),
            entries=[],
            to=to,
            after=None,
            new_key=new_key,
            partial=is_htmx(),
        ), 422
    entries = [e for e in reversed(history_entries(view)) if e.seq in reverted]
    return render_template(
        "undo_preview.html",
        view=view,
        state=view.state,
        entries=entries,
        to=to,
        after=after,
        error=None,
        new_key=new_key,
        partial=is_htmx(),
    ), 200
