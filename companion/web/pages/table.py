"""Joining the table: QR code and short code, seats, the table mode, read-only big screens (with
the score), and playing again with the same table."""

from __future__ import annotations

from typing import Any

import segno
from flask import Blueprint, current_app, redirect, render_template, request, url_for
from marshmallow import ValidationError
from werkzeug.wrappers import Response

from companion.game.commands import ChooseTableMode
from companion.game.errors import RuleViolation
from companion.game.state import GameState
from companion.service import GameView
from companion.service.next_game import next_edition_id, next_game_token, rotated_seat, start_next_game
from companion.web.forms.fields import new_key, parse
from companion.web.forms.start import PlayAgainForm
from companion.web.forms.table import ModeForm
from companion.web.http.db import recorded, service
from companion.web.http.htmx import Answer, client_redirect, is_htmx
from companion.web.http.phone import actor_label, remember_game, seat_of, set_seat
from companion.web.live.notifier import held_elsewhere
from companion.web.perform import perform
from companion.web.words.catalogue import gettext
from companion.web.words.form_fields import start_errors
from companion.web.words.refusals import describe_refusal

__all__ = ["bp"]

bp = Blueprint("table", __name__)


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
    viewer_url = url_for("viewer.screen", token=view.read_token, _external=True)
    code_url = url_for("table.by_code", code=pretty_code(view.join_code), _external=True)
    return render_template(
        "pages/join.html",
        view=view,
        state=view.state,
        game_url=game_url,
        viewer_url=viewer_url,
        code_url=code_url,
        code=pretty_code(view.join_code),
        game_qr=qr_svg(game_url),
        viewer_qr=qr_svg(viewer_url),
        my_seat=seat_of(view.game_id),
        held=held_elsewhere(view.game_id),
        new_key=new_key,
        **extra,
    ), status


def _secret() -> str:
    """The app's secret key: what proves a next game was started by this app."""
    return str(current_app.config["SECRET_KEY"])


@bp.get("/g/<game_id>/join")
def join(game_id: str) -> tuple[str, int]:
    """Show the QR codes and the seats."""
    view = recorded(game_id)
    remember_game(game_id)
    return render_join(view)


@bp.post("/g/<game_id>/seat")
def take_seat(game_id: str) -> Answer:
    """Sit this phone for a player (or leave the seat). Stored in this phone's cookie only. A seat another
    open phone holds is said so first: it is taken only once confirmed (``confirm``)."""
    view = recorded(game_id)
    raw = request.form.get("seat", "")
    seat = int(raw) if raw.isdigit() and int(raw) < len(view.state.players) else None
    if seat is not None and seat in held_elsewhere(game_id) and request.form.get("confirm") != "1":
        remember_game(game_id)
        return render_join(view, 409, held_seat=seat)
    set_seat(game_id, seat)
    return redirect(url_for("play.game", game_id=game_id), 303)


@bp.post("/g/<game_id>/mode")
def mode(game_id: str) -> Answer:
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
    return render_template("pages/code.html", error=None)


@bp.get("/j/<code>")
def by_code(code: str) -> Answer:
    """Open the game a short code names."""
    game_id = service().game_for_code(code)
    if game_id is None:
        return render_template("pages/code.html", error=gettext("No game has the code %(code)s.", code=code)), 404
    return redirect(url_for("table.join", game_id=game_id), 303)


@bp.get("/j/go")
def code_go() -> Answer:
    """The code form's target."""
    return by_code(request.args.get("code", ""))


def tap_key(sent: str) -> str:
    """A page form's idempotency key as sent, when it is one (16 to 64 characters, like the keys the
    pages draw); anything shorter or longer is replaced by a fresh key, never held."""
    return sent if 16 <= len(sent) <= 64 else new_key()


def _again_page(view: GameView, key: str, values: Any = None, errors: Any = None, status: int = 200) -> Answer:
    """The step of "Same table, new game": who starts and the first plague card the table turned over."""
    state = view.state
    assert isinstance(state, GameState)
    edition = service().library.edition(next_edition_id(service(), view))
    order = [*state.players[1:], *state.players[:1]]
    return render_template(
        "pages/play_again.html",
        view=view,
        state=state,
        order=order,
        edition=edition,
        plague_slots=int(edition.section("souls")["plague_card_max"]),
        plague_souls=int(edition.section("souls")["plague_card_souls"]),
        key=key,
        values=values or {},
        errors=errors or {},
    ), status


def _finished(view: GameView) -> bool:
    return isinstance(view.state, GameState) and view.state.ended is not None


@bp.get("/g/<game_id>/again")
def play_again_form(game_id: str) -> Answer:
    """Same table, new game: ask for the first plague card the table turned over (nothing chosen for it).
    A phone left on this step while another starts the game is moved to it (the step listens live)."""
    view = recorded(game_id)
    if not _finished(view):
        return redirect(url_for("scores.sheet", game_id=game_id), 303)
    if next_game_token(_secret(), view) is not None:  # another phone started it meanwhile: join it
        if is_htmx():  # the step's live refresh: the whole page moves
            return client_redirect(url_for("table.next_game", game_id=game_id))
        return redirect(url_for("table.next_game", game_id=game_id), 303)
    return _again_page(view, new_key())


@bp.post("/g/<game_id>/again")
def play_again(game_id: str) -> Answer:
    """Same table, new game: the same players, seats, edition and expansion; the first player rotated;
    the first plague card as the table entered it (a tap without one is asked for it first). Every
    tap shares one creation key, so phones tapping at once make one game."""
    view = recorded(game_id)
    state = view.state
    if not isinstance(state, GameState) or state.ended is None:
        return redirect(url_for("scores.sheet", game_id=game_id), 303)
    if next_game_token(_secret(), view) is not None:
        return redirect(url_for("table.next_game", game_id=game_id), 303)
    if "plague" not in request.form:
        return redirect(url_for("table.play_again_form", game_id=game_id), 303)
    key = tap_key(request.form.get("key", ""))
    try:
        data = parse(PlayAgainForm, request.form)
    except ValidationError as exc:
        return _again_page(
            view, key, request.form, start_errors(PlayAgainForm, exc.messages, frozenset({"plague"})), 400
        )
    seat = rotated_seat(seat_of(game_id), len(state.players))
    new_actor = "shared" if seat is None else f"seat:{seat}"  # the same phone, in the next game's seats
    try:
        new_id = start_next_game(
            _secret(), service(), view, key, tuple(data["plague"]), actor_label(game_id), new_actor
        )
    except RuleViolation as exc:
        return _again_page(view, key, request.form, {"_rule": [describe_refusal(exc, None)]}, 422)
    remember_game(new_id)
    if seat is not None and seat_of(new_id) is None:
        set_seat(new_id, seat)
    return redirect(url_for("play.game", game_id=new_id), 303)


@bp.get("/g/<game_id>/next")
def next_game(game_id: str) -> Response:
    """Join the game this table started after this one, in the seat this phone had."""
    view = recorded(game_id)
    token = next_game_token(_secret(), view)
    new_id = service().game_for_read_token(token) if token else None
    if new_id is None:
        return redirect(url_for("play.game", game_id=game_id), 303)
    remember_game(new_id)
    seat = rotated_seat(seat_of(game_id), len(view.state.players))
    if seat is not None and seat_of(new_id) is None:
        set_seat(new_id, seat)
    return redirect(url_for("play.game", game_id=new_id), 303)


@bp.app_template_global()
def next_game_link(view: GameView, readonly: bool = False) -> str | None:
    """Where this page's phone (or big screen) joins the table's next game, if one was started (only
    a finished game has one: a game going on reads no further)."""
    if not isinstance(view.state, GameState) or view.state.ended is None:
        return None
    token = next_game_token(_secret(), view)
    if token is None:
        return None
    if readonly:
        return url_for("viewer.screen", token=token)
    return url_for("table.next_game", game_id=view.game_id)
