"""Switching a running game to a corrected edition: choose it, see the re-check, confirm."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from typing import Any

from babel.dates import format_date
from flask import Blueprint, redirect, render_template, request, session, url_for
from flask_babel import get_locale

from companion.editions import library
from companion.editions.diff import diff, scope
from companion.game.edition import Edition
from companion.game.errors import RuleViolation
from companion.game.game_or_tally import AnyState
from companion.service import Conflict, GameView, switches
from companion.web.forms.fields import new_key
from companion.web.http.db import recorded, service
from companion.web.http.drafts import LibraryFull, new_draft
from companion.web.http.htmx import Answer
from companion.web.http.phone import phone_id
from companion.web.words.edition_switch import entry_change, tell_difference
from companion.web.words.history import narrate
from companion.web.words.refusals import describe_refusal
from events.catalog import EditionChanged, EntriesSetAside

__all__ = ["bp"]

bp = Blueprint("edition_switch", __name__, url_prefix="/g/<game_id>/edition")


def board_note(edition: Edition) -> dict[str, Any]:
    """What the game page says of its board: the edition's name, how much of it was checked, and the
    day its check was completed (the latest date in its ``checks``), in the reader's language."""
    done, total, _left = library.check_progress(edition.raw)
    checked_on = None
    checks = edition.raw.get("checks")
    if total and done >= total and isinstance(checks, dict):
        days = []
        for day in checks.values():
            try:
                days.append(date.fromisoformat(day) if isinstance(day, str) else None)
            except ValueError:
                continue
        known = [d for d in days if d is not None]
        checked_on = format_date(max(known), "long", locale=str(get_locale() or "en")) if known else None
    return {"name": edition.name, "done": done, "total": total, "checked_on": checked_on}


@bp.app_context_processor
def _board_note() -> dict[str, Any]:
    return {"board_note": board_note}


def _told(view: GameView, seq: int, state: AnyState) -> str:
    """An entry in words: the history's sentences of what it recorded (who, what)."""
    events = view.timeline.events_of(seq)
    said = [narrate(e, state) for e in events if not isinstance(e, (EntriesSetAside, EditionChanged))]
    return " ".join(s for s in said if s)


def _preview(game_id: str, target: str) -> dict[str, Any]:
    svc = service()
    view = recorded(game_id)
    current = view.state.edition
    out: dict[str, Any] = {"target": target, "error": None, "broken": None, "checked": 0}
    try:
        new = svc.library.edition_by_hash(target)
        _view, check = switches.preview_switch(svc, game_id, target)
    except LookupError:
        out["error"] = describe_refusal(RuleViolation("edition_invalid", {"message": target}), None)
        return out
    except RuleViolation as exc:
        out["error"] = describe_refusal(exc, view.state)
        return out
    out["name"] = new.name
    groups: dict[str, list[str]] = {"game": [], "setup": [], "new_games": []}
    for difference in diff(current.raw, new.raw):
        groups[scope(difference, view.state.side.id)].append(tell_difference(difference, new.raw))
    out["groups"] = groups
    out["checked"] = len(check.checked)
    if check.broken is not None and check.reason is not None:
        out["broken"] = check.broken
        before = check.before if check.before is not None else view.state
        out["entry"] = _told(view, check.broken, before)
        if check.reason.code == "different_events":
            out["changes"] = entry_change(view.timeline.events_of(check.broken), check.instead, before)
        else:
            out["changes"] = [describe_refusal(check.reason, before)]
        try:
            _view, plan = switches.preview_switch_from(svc, game_id, target, check.broken)
        except RuleViolation:
            return out
        out["again"] = len(plan.again)
        out["dropped"] = [(seq, _told(view, seq, view.state), describe_refusal(why, None)) for seq, why in plan.dropped]
    return out


def _page(game_id: str, target: str, error: str | None = None, status: int = 200) -> tuple[str, int]:
    view = recorded(game_id)
    svc = service()
    choices = [(h, n) for h, n in svc.library.edition_choices(phone_id()) if h != view.state.edition.content_hash]
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
    return _recorded(game_id, target, lambda key: switches.switch_edition(service(), game_id, seq, key, target))


@bp.post("/from")
def switch_from(game_id: str) -> Answer:
    """Switch from the first entry the new edition records otherwise: back to it, switch, and record
    the entries from there again where they still hold (one step, one undo)."""
    target = request.form.get("to", "")
    seq = request.form.get("seq", type=int)
    entry = request.form.get("entry", type=int)
    if seq is None or entry is None:
        return _page(game_id, target, None, 400)
    return _recorded(game_id, target, lambda key: switches.switch_from(service(), game_id, seq, key, target, entry))


def _recorded(game_id: str, target: str, record: Callable[[str], object]) -> Answer:
    """Record a switch with the form's key: back to the game, or the preview with why not."""
    try:
        record(request.form.get("key") or new_key())
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
        draft_id = new_draft(svc.library.edition_text(view.state.edition.content_hash), reuse=f"fix:{game_id}")
    except LibraryFull as exc:
        return _page(game_id, "", exc.message, 422)
    session["switch_after"] = {**session.get("switch_after", {}), draft_id: game_id}
    shield = request.form.get("shield", "")
    pick = shield if shield in view.state.side.shields else ""
    anchor = f"#circle-{view.state.side.shields[pick].circle}" if pick else ""
    target = url_for("edition_editor.editor", draft_id=draft_id, side=view.state.side.id, mode="lines", pick=pick)
    return redirect(target + anchor, 303)
