"""The edition library: every edition this phone may choose, a draft copy of one to edit or check,
an edition file imported or exported. The editor itself is ``edition_editor``."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, abort, redirect, render_template, request, session, url_for
from flask_babel import gettext
from werkzeug.wrappers import Response as WResponse

from companion.editions import library
from companion.game.edition import Edition, EditionError, parse_edition
from companion.service import is_game
from companion.web.http.db import service
from companion.web.http.drafts import new_draft
from companion.web.http.htmx import Answer
from companion.web.http.phone import remembered_views
from companion.web.words.editions import progress_text

__all__ = ["bp"]

bp = Blueprint("editions", __name__, url_prefix="/editions")


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
    draft_id = new_draft(text)
    return redirect(url_for("edition_editor.editor", draft_id=draft_id, section=section), 303)


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
