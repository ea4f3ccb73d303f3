"""The edition editor: change a draft one step at a time, check it against a real board, save it under a name.

Every change goes through ``companion.editions.library`` and the one validator
(``parse_edition``); a change it refuses is shown with its message and not kept.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from flask import Blueprint, abort, redirect, render_template, request, session, url_for
from flask_babel import gettext

from companion.editions import library
from companion.game.edition import EditionError, parse_edition
from companion.web.http.drafts import LibraryFull, load_draft, save_named, store_draft
from companion.web.http.htmx import Answer
from companion.web.http.phone import remember_edition
from companion.web.screens.edition_preview import preview_context
from companion.web.words.editions import NUMERIC_SECTIONS, check_steps

__all__ = ["bp"]

bp = Blueprint("edition_editor", __name__, url_prefix="/editions/drafts")

MODES = ("symbols", "lines", "gates")


def _draft(draft_id: str) -> dict[str, Any]:
    try:
        return dict(json.loads(load_draft(draft_id)))
    except LookupError:
        abort(404)


def _args() -> dict[str, str]:
    source = request.form if request.method == "POST" else request.args
    return {k: source.get(k, "") for k in ("side", "mode", "pick", "section")}


def _render_editor(draft_id: str, raw: dict[str, Any], error: str | None = None, status: int = 200) -> tuple[str, int]:
    edition = parse_edition(library.to_text(raw))
    args = _args()
    side = args["side"] if args["side"] in edition.sides else next(iter(edition.sides))
    mode = args["mode"] if args["mode"] in MODES else "symbols"
    section = args["section"] if args["section"] in ("board", "numbers", "check") else "board"
    pick = args["pick"] if args["pick"] in edition.sides[side].shields else ""
    done, total, left = library.check_progress(raw)
    return render_template(
        "pages/editions_editor.html",
        draft_id=draft_id,
        raw=raw,
        edition=edition,
        board=edition.sides[side],
        side=side,
        mode=mode,
        pick=pick,
        section=section,
        error=error,
        numeric=[
            (s, library.numeric_fields(raw, s), library.choice_fields(raw, s)) for s in NUMERIC_SECTIONS if s in raw
        ],
        done=done,
        total=total,
        left=left,
        steps=check_steps(raw, left),
        switch_game=session.get("switch_after", {}).get(draft_id),
        **preview_context(edition, side),
    ), status


@bp.get("/<draft_id>")
def editor(draft_id: str) -> tuple[str, int]:
    """The editor of one draft: its board with a live preview, its numbers, the guided check."""
    return _render_editor(draft_id, _draft(draft_id))


def _apply(raw: dict[str, Any], form: Any) -> dict[str, Any]:
    op, side = form.get("op", ""), form.get("side", "")
    if op == "symbol":
        return library.cycle_symbol(raw, side, form["shield"])
    if op == "line":
        return library.toggle_line(raw, side, form["origin"], form["target"])
    if op == "gate":
        return library.toggle_gate(raw, side, form["shield"])
    if op == "count":
        return library.set_shield_count(raw, side, int(form["circle"]), int(form["count"]))
    if op == "numbers":
        values = {k.removeprefix("f:"): v for k, v in form.items() if k.startswith("f:")}
        choices = {k.removeprefix("c:"): v for k, v in form.items() if k.startswith("c:")}
        return library.set_choices(library.set_numbers(raw, values), choices)
    if op == "check":
        return library.mark_checked(raw, form["path"], datetime.now(UTC).date().isoformat())
    raise KeyError(op)


@bp.post("/<draft_id>/change")
def change(draft_id: str) -> Answer:
    """One change to a draft, kept only when the edition still validates."""
    raw = _draft(draft_id)
    try:
        changed = _apply(raw, request.form)
        text, _edition = library.validated(changed)
    except EditionError as exc:
        return _render_editor(draft_id, raw, gettext("Not changed: %(message)s", message=str(exc)), 422)
    except (KeyError, ValueError, IndexError):
        return _render_editor(draft_id, raw, gettext("Not changed: that value cannot be read."), 422)
    store_draft(draft_id, text)
    args: dict[str, Any] = {k: v for k, v in _args().items() if v}
    anchor = request.form.get("anchor", "")
    return redirect(url_for("edition_editor.editor", draft_id=draft_id, **args) + (f"#{anchor}" if anchor else ""), 303)


@bp.post("/<draft_id>/save")
def save(draft_id: str) -> Answer:
    """Keep the draft under a name; it can then be chosen for a new game or a running one."""
    raw = _draft(draft_id)
    name = request.form.get("name", "").strip()[:60]
    if not name:
        return _render_editor(draft_id, raw, gettext("Give the edition a name to save it."), 422)
    try:
        text, _ = library.validated(library.with_name(raw, name))
        edition = save_named(name, text, replace=True)
    except EditionError as exc:
        return _render_editor(draft_id, raw, gettext("Not saved: %(message)s", message=str(exc)), 422)
    except LibraryFull as exc:
        return _render_editor(draft_id, raw, exc.message, 422)
    remember_edition(edition.content_hash)
    game_id = session.get("switch_after", {}).get(draft_id)
    if game_id:
        return redirect(url_for("edition_switch.choose", game_id=game_id, to=edition.content_hash), 303)
    return redirect(url_for("editions.index", saved=name), 303)
