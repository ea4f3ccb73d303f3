"""Switching a running game to a corrected edition: choose it, see the re-check, confirm."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, redirect, render_template, request, session, url_for

from companion.editions import library
from companion.game.errors import RuleViolation
from companion.service import Conflict
from companion.web.forms.fields import new_key
from companion.web.http.db import recorded, service
from companion.web.http.drafts import LibraryFull, new_draft
from companion.web.http.htmx import Answer
from companion.web.http.phone import phone_id
from companion.web.words.refusals import describe_refusal

__all__ = ["bp"]

bp = Blueprint("edition_switch", __name__, url_prefix="/g/<game_id>/edition")


def _preview(game_id: str, target: str) -> dict[str, Any]:
    svc = service()
    view = recorded(game_id)
    current = view.state.edition
    out: dict[str, Any] = {"target": target, "error": None, "broken": None, "checked": 0, "differences": []}
    try:
        new = svc.edition_by_hash(target)
        _view, check = svc.preview_switch(game_id, target)
    except LookupError:
        out["error"] = describe_refusal(RuleViolation("edition_invalid", {"message": target}), None)
        return out
    except RuleViolation as exc:
        out["error"] = describe_refusal(exc, view.state)
        return out
    out["name"] = new.name
    out["differences"] = library.diff_editions(current.raw, new.raw)
    out["checked"] = len(check.checked)
    if check.broken is not None and check.reason is not None:
        out["broken"] = check.broken
        out["why"] = describe_refusal(check.reason, None)
    return out


def _page(game_id: str, target: str, error: str | None = None, status: int = 200) -> tuple[str, int]:
    view = recorded(game_id)
    svc = service()
    choices = [(h, n) for h, n in svc.edition_choices(phone_id()) if h != view.state.edition.content_hash]
    preview = _preview(game_id, target) if target else None
    return render_template(
        "pages/edition_switch.html",
        view=view,
        current=view.state.edition,
        choices=choices,
        preview=preview,
        error=error,
        key=new_key(),
    ), status


@bp.get("")
def choose(game_id: str) -> tuple[str, int]:
    """The editions this game could switch to, and the re-check of the one chosen (``?to=``)."""
    return _page(game_id, request.args.get("to", ""))


@bp.post("")
def switch(game_id: str) -> Answer:
    """Record the switch, when every entry still holds under the new edition."""
    target = request.form.get("to", "")
    seq = request.form.get("seq", type=int)
    if seq is None:
        return _page(game_id, target, None, 400)
    try:
        service().switch_edition(game_id, seq, request.form.get("key") or new_key(), target)
    except Conflict:
        return _page(game_id, target, None, 409)
    except LookupError:
        return _page(game_id, "", None, 404)
    except RuleViolation as exc:
        return _page(game_id, target, describe_refusal(exc, None), 422)
    return redirect(url_for("play.game", game_id=game_id), 303)


@bp.post("/fix")
def fix(game_id: str) -> Answer:
    """ "Our board is different": a copy of the game's edition (a new draft, so a POST) opened at the
    shield in question; once it is saved, the switch of this game is previewed."""
    view = recorded(game_id)
    svc = service()
    try:  # one draft per game and phone, however often the table taps it
        draft_id = new_draft(svc.edition_text(view.state.edition.content_hash), reuse=f"fix:{game_id}")
    except LibraryFull as exc:
        return _page(game_id, "", exc.message, 422)
    session["switch_after"] = {**session.get("switch_after", {}), draft_id: game_id}
    shield = request.form.get("shield", "")
    pick = shield if shield in view.state.side.shields else ""
    anchor = f"#circle-{view.state.side.shields[pick].circle}" if pick else ""
    target = url_for("edition_editor.editor", draft_id=draft_id, side=view.state.side.id, mode="lines", pick=pick)
    return redirect(target + anchor, 303)
