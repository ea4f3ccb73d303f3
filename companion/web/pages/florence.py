"""Florence from the phone: send a member, accuse, hold the council, take a location's action.

Views parse the form's shape, build the command, and hand it to the service; the rules
decide. Fraud cards, guardians and rewards arrive as flat form fields and are assembled by
``forms.florence`` (``reward_of``, ``fraud_of``, ``guardian_of``) into the dataclasses the
commands carry.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Blueprint, redirect, render_template, request, url_for
from markupsafe import escape

from companion.game.commands import (
    Accuse,
    Command,
    DeliverBarrel,
    ExchangeFlorins,
    HoldCouncil,
    MoveInTower,
    PlaceDisc,
    PlayFraud,
    RaiseCube,
    ReturnFromTower,
    SendMember,
    TakeBarrel,
    TakeGuest,
    UseGuardian,
    UseStyx,
)
from companion.game.legal import turn_options
from companion.game.state import Phase
from companion.web.forms.fields import chosen_before, new_key
from companion.web.forms.florence import (
    AccuseForm,
    CouncilForm,
    LocationForm,
    SendForm,
    fraud_of,
    guardian_of,
    reward_of,
)
from companion.web.http.db import recorded
from companion.web.http.htmx import Answer, is_htmx
from companion.web.perform import perform_command
from companion.web.screens.parts import fill, remembered
from companion.web.words.catalogue import gettext

__all__ = ["bp"]

bp = Blueprint("florence", __name__, url_prefix="/g/<game_id>")


@bp.post("/send")
def send(game_id: str) -> Answer:
    """Send a family member from home to a location."""
    return perform_command(
        game_id, SendForm, lambda d: SendMember(d["player"], d["kind"], d["location"], d["bribe"], d["borrow"]), "send"
    )


@bp.post("/accuse")
def accuse(game_id: str) -> Answer:
    """Accuse at a location, with what the steps need (bonus tile, Dante's step)."""

    def accusation(d: dict[str, Any]) -> Accuse:
        return Accuse(
            player=d["player"],
            location=d["location"],
            member=d["member"],
            floor=d["floor"],
            bribe=d["bribe"],
            borrow=d["borrow"],
            bonus=reward_of(d, "bonus"),
            dante_guardian=guardian_of(d) if d["dante_guardian"] else None,
            dante_fraud=fraud_of(d) if d["dante_fraud"] else None,
        )

    return perform_command(game_id, AccuseForm, accusation, "accuse")


@bp.post("/council")
def council(game_id: str) -> Answer:
    """Hold the family council (when it is the only choice)."""
    return perform_command(
        game_id,
        CouncilForm,
        lambda d: HoldCouncil(d["player"], d["choice"], d["source"], d["kind"], d["colour"]),
        "council",
    )


def _piece(d: dict[str, Any]) -> tuple[str, int, int]:
    """(kind, colour, floor) of the tower piece chosen as ``floor:kind:colour``, or the separate fields."""
    if d["piece"]:
        floor, kind, colour = d["piece"].split(":")
        return kind, int(colour), int(floor)
    return d["kind"], d["colour"], d["floor"]


def _location_command(option: str, d: dict[str, Any]) -> Command:
    p = d["player"]
    commands: dict[str, Callable[[], Command]] = {
        "exchange": lambda: ExchangeFlorins(p, d["florins"]),
        "cube": lambda: RaiseCube(p, d["circle"]),
        "disc": lambda: PlaceDisc(p, d["gate"]),
        "deliver": lambda: DeliverBarrel(p, d["colour"]),
        "barrel": lambda: TakeBarrel(p, d["colour"], d["floor"]),
        "guest": lambda: TakeGuest(p, d["colour"], d["floor"]),
        "home": lambda: ReturnFromTower(
            p,
            tuple(int(m.split(":")[0]) for m in d["member"]) or tuple(d["floors"]),
            tuple(m.split(":")[1] for m in d["member"]) or tuple(d["kinds"]),
        ),
        "rearrange": lambda: MoveInTower(p, *_piece(d), d["to_floor"]),
        "guardian": lambda: UseGuardian(p, guardian_of(d), d["borrow"]),
        "styx": lambda: UseStyx(p, d["colour"], d["count"], d["first_track"], d["last_track"], d["borrow"]),
        "fraud": lambda: PlayFraud(p, fraud_of(d), d["borrow"]),
    }
    return commands[option]()


OPTIONS = ("exchange", "cube", "disc", "deliver", "barrel", "guest", "home", "rearrange", "guardian", "styx", "fraud")


@bp.post("/location/<option>")
def location_option(game_id: str, option: str) -> Answer:
    """One optional effect of the location where the member was just placed."""
    if option not in OPTIONS:
        from flask import abort

        abort(404)
    return perform_command(game_id, LocationForm, lambda d: _location_command(option, d), f"location-{option}")


def _chosen_before() -> dict[str, Callable[..., Any]]:
    """``chosen`` and ``chosen_value`` (``screens/card_fields.html``) over the choices in the card's address."""
    args = request.args

    def chosen_value(name: str, default: Any = "") -> Any:
        return args.get(name, default)

    return {"chosen": chosen_before(args), "chosen_value": chosen_value}


@bp.get("/card/fraud")
def fraud_card(game_id: str) -> Answer:
    """The fraud card's choices at the Wall: fetched by the Wall's actions right after they show (8-11 KB
    that would make every answer at the Wall as large), or a page of its own for a browser without script."""
    view = recorded(game_id)
    state = view.state
    options = turn_options(state)
    playable = state.ended is None and options.phase is Phase.ACTION and state.action == "wall"
    if not playable or "fraud" not in options.location_options:
        if not is_htmx():
            return redirect(url_for("play.game", game_id=game_id), 303)
        gone = gettext("No fraud card can be played now: the game has moved on.")
        return f'<p id="fraud-form" class="hint" role="status">{escape(gone)}</p>', 200
    me = state.p[state.active]
    if is_htmx() and set(request.args) - {"at"}:  # after a refusal: the choices the player made (screens/game.py)
        held = _chosen_before()
        return render_template("screens/fraud_form.html", view=view, state=state, me=me, new_key=new_key, **held), 200
    if is_htmx():  # the table's phones fetch it after the same answer: drawn once, with marks
        owned = tuple(sorted({barrel.colour for barrel in me.pieces("barrel")}))
        inputs = (view.edition.content_hash, state.active, me.fraud_hand, owned)
        card = remembered(game_id, "card-fraud", inputs, "screens/fraud_form.html", view=view, state=state, me=me)
        return fill(card, view.seq, csrf=False), 200
    return render_template("pages/fraud_card.html", view=view, state=state, me=me, new_key=new_key), 200
