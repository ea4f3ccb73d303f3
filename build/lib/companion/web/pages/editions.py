"""The edition editor: start from an edition, change it one checked step at a time, save it under a name.

Every change goes through ``companion.editions.library`` and the one validator
(``parse_edition``); a change it refuses is shown with its message and not kept, so a draft
is always a valid edition. Drafts and named editions live in the store.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from flask import Blueprint, Response, abort, redirect, render_template, request, session, url_for
from flask_babel import gettext
from werkzeug.wrappers import Response as WResponse

from companion.editions import library
from companion.game.edition import Edition, EditionError, parse_edition
from companion.service import is_game, new_token
from companion.web.http.db import service
from companion.web.http.htmx import Answer
from companion.web.http.phone import remember_edition, remembered_views
from companion.web.screens.edition_preview import preview_context
from companion.web.words.editions import NUMERIC_SECTIONS, check_steps, progress_text

__all__ = ["bp"]

bp = Blueprint("editions", __name__, url_prefix="/editions")

MODES = ("symbols", "lines", "gates")


@bp.app_context_processor
def _chooser() -> dict[str, Any]:
    def edition_chooser() -> dict[str, Any]:
        svc = service()
        choices = svc.edition_choices()
        kept = session.get("edition")
        selected = kept if isinstance(kept, str) and kept in {h for h, _ in choices} else choices[0][0]
        raw = svc.edition_by_hash(selected).raw
        done, total, _left = library.check_progress(raw)
        return {"choices": choices, "selected": selected, "done": done, "total": total}

    def edition_check(edition: Edition) -> dict[str, int]:
        done, total, _left = library.check_progress(edition.raw)
        return {"done": done, "total": total}

    return {"edition_chooser": edition_chooser, "edition_progress": progress_text, "edition_check": edition_check}


# --------------------------------------------------------------------------- the library


def _library() -> list[dict[str, Any]]:
    svc = service()
    shipped = {e.content_hash for _, e in svc.editions.values()}
    items = []
    for content_hash, name in svc.edition_choices():
        done, total, _ = library.check_progress(svc.edition_by_hash(content_hash).raw)
        items.append(
            {"hash": content_hash, "name": name, "shipped": content_hash in shipped, "done": done, "total": total}
        )
    return items


@bp.get("")
def index(error: str | None = None, status: int = 200) -> tuple[str, int]:
    """Every edition this app knows: edit a copy, check it, export it; import one."""
    return render_template("pages/editions.html", editions=_library(), error=error, games=_games()), status


def _games() -> list[tuple[str, str]]:
    """This phone's running games, as (id, players)."""
    games = []
    for view in remembered_views():
        if is_game(view) and view.state.ended is None:
            games.append((view.game_id, ", ".join(p.name for p in view.state.players)))
    return games[:6]


def _new_draft(text: str, section: str = "board") -> WResponse:
    draft_id = new_token()
    service().store.put_draft(draft_id, text)
    return redirect(url_for("editions.editor", draft_id=draft_id, section=section), 303)


@bp.post("/drafts")
def start_draft() -> WResponse:
    """A draft copy of a shipped or saved edition."""
    try:
        text = service().edition_text(request.form.get("base", ""))
    except LookupError:
        abort(404)
    return _new_draft(text, request.form.get("section", "board"))


@bp.post("/import")
def import_file() -> Answer:
    """An edition file from this phone, validated, opened as a draft."""
    upload = request.files.get("file")
    text = upload.read().decode("utf-8", errors="replace") if upload else request.form.get("text", "")
    try:
        parse_edition(text)
    except EditionError as exc:
        return index(gettext("This file is not a valid edition: %(message)s", message=str(exc)), 422)
    return _new_draft(text)


@bp.get("/<content_hash>.json")
def export(content_hash: str) -> Response:
    """An edition as its exact file."""
    svc = service()
    try:
        text, edition = svc.edition_text(content_hash), svc.edition_by_hash(content_hash)
    except LookupError:
        abort(404)
    return Response(
        text,
        mimetype="application/json",
        headers={"Content-Disposition": f'attachment; filename="{edition.id}.json"'},
    )


# --------------------------------------------------------------------------- the editor


def _draft(draft_id: str) -> dict[str, Any]:
    text = service().store.draft(draft_id)
    if text is None:
        abort(404)
    return dict(json.loads(text))


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


@bp.get("/drafts/<draft_id>")
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


@bp.post("/drafts/<draft_id>/change")
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
    service().store.put_draft(draft_id, text)
    args: dict[str, Any] = {k: v for k, v in _args().items() if v}
    anchor = request.form.get("anchor", "")
    return redirect(url_for("editions.editor", draft_id=draft_id, **args) + (f"#{anchor}" if anchor else ""), 303)


@bp.post("/drafts/<draft_id>/save")
def save(draft_id: str) -> Answer:
    """Keep the draft under a name; it can then be chosen for a new game or a running one."""
    raw = _draft(draft_id)
    name = request.form.get("name", "").strip()[:60]
    if not name:
        return _render_editor(draft_id, raw, gettext("Give the edition a name to save it."), 422)
    try:
        text, _ = library.validated(library.with_name(raw, name))
        edition = service().save_edition(name, text)
    except EditionError as exc:
        return _render_editor(draft_id, raw, gettext("Not saved: %(message)s", message=str(exc)), 422)
    remember_edition(edition.content_hash)
    game_id = session.get("switch_after", {}).get(draft_id)
    if game_id:
        return redirect(url_for("edition_switch.choose", game_id=game_id, to=edition.content_hash), 303)
    return redirect(url_for("editions.index", saved=name), 303)
