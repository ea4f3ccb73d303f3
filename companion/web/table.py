"""Joining the table: QR code and short code, seats, the table mode, and read-only big screens."""

from __future__ import annotations

from typing import Any

import segno
from flask import Blueprint, abort, redirect, render_template, request, url_for
from flask_babel import gettext
from marshmallow import fields, validate
from werkzeug.wrappers import Response

from companion.game.commands import ChooseTableMode
from companion.service import GameView
from companion.web.forms import ActionForm
from companion.web.home import remember_game
from companion.web.respond import new_key, perform, render_game
from companion.web.seats import seat_of, set_seat
from companion.web.store import recorded, service

__all__ = ["bp"]

bp = Blueprint("table", __name__)


class ModeForm(ActionForm):
    """The table mode to switch to."""

    mode = fields.String(required=True, validate=validate.OneOf(["shared", "seats"]))


def qr_svg(url: str) -> str:
    """A QR code of ``url`` as inline SVG (dark modules on a white quiet zone)."""
    svg: str = segno.make(url, error="m").svg_inline(scale=5, dark="#000", light="#fff", border=3, omitsize=True)
    return svg


def pretty_code(code: str | None) -> str:
    """A join code as people read it: XXXXX-XXXXX."""
    return f"{code[:5]}-{code[5:]}" if code else ""


def render_join(view: GameView, status: int = 200, **extra: Any) -> tuple[str, int]:
    """The join page: how phones and screens reach this game, and which seat this phone takes."""
    game_url = url_for("play.game", game_id=view.game_id, _external=True)
    viewer_url = url_for("table.viewer", token=view.read_token, _external=True)
    code_url = url_for("table.by_code", code=pretty_code(view.join_code), _external=True)
    return render_template(
        "join.html",
        view=view,
        state=view.state,
        game_url=game_url,
        viewer_url=viewer_url,
        code_url=code_url,
        code=pretty_code(view.join_code),
        game_qr=qr_svg(game_url),
        viewer_qr=qr_svg(viewer_url),
        my_seat=seat_of(view.game_id),
        new_key=new_key,
        **extra,
    ), status


@bp.get("/g/<game_id>/join")
def join(game_id: str) -> tuple[str, int]:
    """Show the QR codes and the seats."""
    view = recorded(game_id)
    remember_game(game_id)
    return render_join(view)


@bp.post("/g/<game_id>/seat")
def take_seat(game_id: str) -> Response:
    """Sit this phone for a player (or leave the seat). Stored in this phone's cookie only."""
    view = recorded(game_id)
    raw = request.form.get("seat", "")
    seat = int(raw) if raw.isdigit() and int(raw) < len(view.state.players) else None  # type: ignore[union-attr]
    set_seat(game_id, seat)
    return redirect(url_for("play.game", game_id=game_id), 303)


@bp.post("/g/<game_id>/mode")
def mode(game_id: str) -> Response | tuple[str, int]:
    """Switch between one shared phone and a phone per seat (recorded in the log)."""
    return perform(
        game_id,
        ModeForm,
        lambda d: service().execute(game_id, d["seq"], ChooseTableMode(d["mode"]), d["key"]),
        "mode",
        render=render_join,
        after="table.join",
        acts_for_player=False,
    )


@bp.get("/j")
def code_form() -> str:
    """Type the short code shown on the table's phone."""
    return render_template("code.html", error=None)


@bp.get("/j/<code>")
def by_code(code: str) -> Response | tuple[str, int]:
    """Open the game a short code names."""
    game_id = service().game_for_code(code)
    if game_id is None:
        return render_template("code.html", error=gettext("No game has the code %(code)s.", code=code)), 404
    return redirect(url_for("table.join", game_id=game_id), 303)


@bp.get("/j/go")
def code_go() -> Response | tuple[str, int]:
    """The code form's target."""
    return by_code(request.args.get("code", ""))


@bp.get("/v/<token>")
def viewer(token: str) -> tuple[str, int]:
    """A read-only big screen: the game as it stands, live, with nothing to press."""
    game_id = service().game_for_read_token(token)
    if game_id is None:
        abort(404)
    view = recorded(game_id)
    live = {
        "events": url_for("live.viewer_events", token=token),
        "poll": url_for("live.viewer_seq", token=token),
        "refresh": url_for("table.viewer", token=token),
    }
    return render_game(view, readonly=True, live=live)
