"""The table owns its data: export a game (versioned JSON, readable text), import one, clone one."""

from __future__ import annotations

import json

from flask import Blueprint, Response, abort, redirect, render_template, request, url_for
from werkzeug.wrappers import Response as WResponse

from companion.formats.export import BadExport, export_game, import_game, parse_export
from companion.web.http.db import service
from companion.web.http.htmx import Answer
from companion.web.http.phone import remember_game
from companion.web.screens.history import history_entries
from companion.web.words.catalogue import gettext

__all__ = ["bp"]

bp = Blueprint("data", __name__)


@bp.get("/g/<game_id>/export.json")
def export_json(game_id: str) -> Response:
    """The whole log as versioned JSON, to keep or to import elsewhere."""
    data = export_game(service(), game_id)
    return Response(
        json.dumps(data, indent=1, ensure_ascii=False),
        mimetype="application/json",
        headers={"Content-Disposition": f'attachment; filename="inferno-{game_id[:8]}.json"'},
    )


@bp.get("/g/<game_id>/export.txt")
def export_text(game_id: str) -> Response:
    """The history as readable text, oldest first."""
    view = service().view(game_id)
    lines = [gettext("Inferno Companion — game %(id)s", id=game_id), ""]
    for e in history_entries(view):
        mark = "" if e.in_effect or e.log_control else " " + gettext("(undone)")
        lines.append(f"#{e.seq} [{e.recorded_at[:19].replace('T', ' ')}]{mark} {' '.join(e.sentences)}")
    return Response(
        "\n".join(lines) + "\n",
        mimetype="text/plain",  # Werkzeug adds the one charset=utf-8
        headers={"Content-Disposition": f'attachment; filename="inferno-{game_id[:8]}.txt"'},
    )


@bp.post("/g/<game_id>/clone")
def clone(game_id: str) -> WResponse:
    """A copy of the game to try "what if" (up to entry ``at``, if given)."""
    data = export_game(service(), game_id)
    at = request.form.get("at", type=int)
    if at is not None:
        last = max((e["seq"] for e in data["events"] if e["action"] <= at), default=0)
        data["events"] = [e for e in data["events"] if e["seq"] <= last]
    try:
        new_id = import_game(service(), data)
    except BadExport:
        abort(400)
    remember_game(new_id)
    return redirect(url_for("play.game", game_id=new_id), 303)


@bp.get("/import")
def import_form() -> str:
    """Upload an exported game to resume it here."""
    return render_template("pages/import.html", error=None)


@bp.post("/import")
def import_upload() -> Answer:
    """Store an uploaded export under a new id, after replaying it through the rules."""
    upload = request.files.get("file")
    if upload is None or not upload.filename:
        return render_template("pages/import.html", error=gettext("Choose an exported game file (.json).")), 400
    try:
        data = parse_export(upload.read())
    except BadExport as exc:
        return render_template(
            "pages/import.html", error=gettext("That file is not a readable export: %(why)s", why=str(exc))
        ), 400
    try:
        new_id = import_game(service(), data)
    except BadExport as exc:
        return render_template(
            "pages/import.html", error=gettext("That file cannot be imported: %(why)s", why=str(exc))
        ), 422
    remember_game(new_id)
    view = service().view(new_id)
    target = "tally.page" if view.kind == "tally" else "play.game"
    return redirect(url_for(target, game_id=new_id), 303)
