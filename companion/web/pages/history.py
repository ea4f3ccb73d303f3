"""Undo, redo and the history: every entry in words, "undo to here" with its preview."""

from __future__ import annotations

from dataclasses import replace

from flask import Blueprint, abort, render_template, request
from flask_babel import get_locale

from companion.game.errors import RuleViolation
from companion.web.forms.corrections import REPLACEABLE
from companion.web.forms.fields import new_key
from companion.web.http.db import recorded, service
from companion.web.http.htmx import Answer, is_htmx
from companion.web.perform import perform_redo, perform_undo
from companion.web.screens.game import render_game
from companion.web.screens.history import history_entries, state_at
from companion.web.screens.history_cache import folds
from companion.web.words.refusals import describe_refusal

__all__ = ["bp"]

bp = Blueprint("timeline", __name__, url_prefix="/g/<game_id>")
HISTORY_PAGE = 50  # entries per history page, newest first: a long game's page stays small


@bp.post("/undo")
def undo(game_id: str) -> Answer:
    """Undo the latest entry, or (with ``to``) every entry from that one on."""
    return perform_undo(game_id)


@bp.post("/redo")
def redo(game_id: str) -> Answer:
    """Redo the most recently undone entry."""
    return perform_redo(game_id)


@bp.get("/history")
def history(game_id: str) -> str:
    """Every entry, newest first, a page at a time; filterable by player and turn; undone entries
    folded under their undo."""
    view = recorded(game_id)
    entries = folds().entries(view, str(get_locale()))
    live = view.timeline.live
    folded = {seq for e in entries for seq in e.undid if seq not in live}
    by_seq = {e.seq: e for e in entries}
    player = request.args.get("player", type=int)
    turn = request.args.get("turn", type=int)
    shown = [
        e
        for e in reversed(entries)
        if e.seq not in folded and (player is None or e.player == player) and (turn is None or e.turn == turn)
    ]
    turns = sorted({e.turn for e in entries if e.turn})
    before = request.args.get("before", type=int)
    if before is not None:
        shown = [e for e in shown if e.seq < before]
    older = shown[HISTORY_PAGE].seq if len(shown) > HISTORY_PAGE else None
    return render_template(
        "pages/history.html",
        view=view,
        state=view.state,
        entries=shown[:HISTORY_PAGE],
        before=before,
        older=older,
        by_seq=by_seq,
        new_key=new_key,
        replaceable=REPLACEABLE,
        player=player,
        turn=turn,
        turns=turns,
    )


@bp.get("/at/<int:seq>")
def step(game_id: str, seq: int) -> Answer:
    """The game right after one entry: a deep link to any step, and a step-by-step replay."""
    view = recorded(game_id)
    entries = history_entries(view)
    by_seq = {e.seq: e for e in entries}
    if seq not in by_seq:
        abort(404)
    path = [e.seq for e in entries if e.in_effect and not e.log_control]
    index = path.index(seq) if seq in path else None
    at = state_at(view, seq)
    stepped = replace(view, state=at)
    navigation = {
        "entry": by_seq[seq],
        "index": index,
        "count": len(path),
        "previous": path[index - 1] if index else None,
        "next": path[index + 1] if index is not None and index + 1 < len(path) else None,
        "first": path[0] if path else None,
    }
    return render_game(stepped, readonly=True, live=None, step=navigation)


@bp.get("/undo-preview")
def undo_preview(game_id: str) -> tuple[str, int]:
    """Exactly what "undo to here" would take back, before anything is recorded."""
    svc = service()
    to = request.args.get("to", type=int)
    try:
        view, reverted, after = svc.preview_undo(game_id, to)
    except RuleViolation as exc:
        view = svc.view(game_id)
        return render_template(
            "pages/undo_preview.html",
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
        "pages/undo_preview.html",
        view=view,
        state=view.state,
        entries=entries,
        to=to,
        after=after,
        error=None,
        new_key=new_key,
        partial=is_htmx(),
    ), 200
