"""The start page: create a game, and reopen the games this phone created or joined."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, redirect, render_template, request, session, url_for
from marshmallow import ValidationError
from werkzeug.wrappers import Response

from companion.game.commands import CreateGame
from companion.game.errors import RuleViolation
from companion.game.state import GameState
from companion.service import KeyReused
from companion.web.forms.fields import new_key, parse
from companion.web.forms.start import CreateForm
from companion.web.http.db import service
from companion.web.http.htmx import Answer
from companion.web.http.phone import chosen_edition, remember_game, remembered_views
from companion.web.http.safe_next import safe_next
from companion.web.process import process
from companion.web.words.catalogue import gettext
from companion.web.words.form_fields import start_errors
from companion.web.words.refusals import describe_refusal
from events.catalog import SeatSetup

__all__ = ["bp", "remember_game"]

bp = Blueprint("home", __name__)

SEATS = 4


def _form_defaults() -> dict[str, Any]:
    svc = service()
    edition = svc.library.edition(next(iter(process().editions)))
    colours = list(edition.colours)
    return {
        "edition": edition,
        "colours": colours,
        "seats": SEATS,
        "plague_slots": int(edition.section("souls")["plague_card_max"]),
        "plague_souls": int(edition.section("souls")["plague_card_souls"]),  # what a card usually shows
    }


def _my_games() -> list[dict[str, Any]]:
    """The games and quick tallies this phone remembers, each with its address and a short label."""
    games = []
    for view in remembered_views():
        game_id = view.game_id
        state = view.state
        if isinstance(state, GameState):
            games.append(
                {
                    "url": url_for("play.game", game_id=game_id),
                    "players": [p.name for p in state.players],
                    "turn": state.turn,
                    "over": state.ended is not None,
                    "tally": False,
                }
            )
        else:
            games.append(
                {
                    "url": url_for("tally.page", game_id=game_id),
                    "players": list(state.names),
                    "tally": True,
                }
            )
    return games


def _key_reused_text() -> str:
    return gettext(
        "This form was already used for something else, so nothing was recorded. "
        "Check what you entered and send it again from this fresh form."
    )


@bp.get("/")
def index() -> str:
    """The create-a-game form and this phone's games."""
    return render_template(
        "pages/home.html", form=_form_defaults(), key=new_key(), values={}, errors={}, my_games=_my_games()
    )


@bp.get("/lang/<code>")
def language(code: str) -> Response:
    """Switch the interface language (held in this phone's cookie) and go back."""
    if code in ("en", "es"):
        session["lang"] = code
    target = safe_next(request.args.get("next")) or url_for("home.index")
    return redirect(target, 303)


@bp.post("/games")
def create() -> Answer:
    """Create a game from the form; on success go to its page."""
    svc = service()
    values = request.form
    try:
        data = parse(CreateForm, request.form)
    except ValidationError as exc:
        return render_template(
            "pages/home.html",
            form=_form_defaults(),
            key=new_key() if "key" in exc.messages else request.form.get("key") or new_key(),
            values=values,
            errors=start_errors(CreateForm, exc.messages, frozenset({"name", "colour", "plague"})),
            my_games=_my_games(),
        ), 400
    edition = chosen_edition(svc, request.form.get("edition"))
    command = CreateGame(
        players=tuple(SeatSetup(n, c) for n, c in zip(data["name"], data["colour"], strict=True)),
        expansion=data["expansion"],
        plague_card=tuple(data["plague"]),
        florence=svc.deal_florence(edition, data["key"]) if data["layout"] == "random" else (),
        table_mode=data["table_mode"],
    )
    try:
        game_id = svc.create_game_with(edition.content_hash, command, data["key"])
    except KeyReused:
        return render_template(
            "pages/home.html",
            form=_form_defaults(),
            key=new_key(),
            values=values,
            errors={"_rule": [_key_reused_text()]},
            my_games=_my_games(),
        ), 422
    except RuleViolation as exc:
        return render_template(
            "pages/home.html",
            form=_form_defaults(),
            key=data["key"],
            values=values,
            errors={"_rule": [describe_refusal(exc, None)]},
            my_games=_my_games(),
        ), 422
    remember_game(game_id)
    return redirect(url_for("play.game", game_id=game_id), 303)
