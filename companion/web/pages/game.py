"""The game page and the actions recorded from it."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, request
from werkzeug.datastructures import MultiDict

from companion.game.commands import BringSoul, EndTurn, MoveSoul, RevealPlagueCard, SummonFerryman, TakeLoan
from companion.web.forms.game import BringForm, EndTurnForm, FerryForm, LoanForm, MoveForm, PlagueForm
from companion.web.http.db import recorded
from companion.web.http.htmx import Answer
from companion.web.http.phone import remember_game
from companion.web.perform import perform_command
from companion.web.screens.game import render_game

__all__ = ["bp"]

bp = Blueprint("play", __name__, url_prefix="/g/<game_id>")


@bp.get("")
def game(game_id: str) -> Answer:
    """The game: whose turn, what they may do, Hell, the Cemetery and every player."""
    view = recorded(game_id)
    remember_game(game_id)
    args = request.args
    if args.get("at", str(view.seq)) != str(view.seq):
        args = MultiDict()  # a choice made on an earlier screen (another turn) is not carried over
    ferry = {k: args.get(k, "") for k in ("ferry", "fsoul", "fside")} if args.get("ferry") else None
    return render_game(
        view,
        select=args.get("select"),
        to=args.get("to"),
        kind=args.get("kind"),
        accuse=args.get("accuse"),
        guardian=args.get("guardian"),
        guardian_params={k: args.get(k, "") for k in ("gto", "gt", "gd")},
        ferry=ferry,
    )


@bp.post("/loan")
def take_loan(game_id: str) -> Answer:
    """Take a loan: +2 drachmas, the Ship one space down."""
    return perform_command(game_id, LoanForm, lambda d: TakeLoan(d["player"]), "loan")


@bp.post("/bring")
def bring_soul(game_id: str) -> Answer:
    """Bring a soul in from the Cemetery to Limbo."""
    return perform_command(
        game_id, BringForm, lambda d: BringSoul(d["player"], d["colour"], d["shield"], d["borrow"]), "bring"
    )


@bp.post("/move")
def move_soul(game_id: str) -> Answer:
    """Move a standing soul down along the lines."""

    def move(d: dict[str, Any]) -> MoveSoul:
        via = tuple(s for s in d["via"].split(",") if s)
        return MoveSoul(d["player"], d["from_shield"], d["to_shield"], via, d["borrow"])

    return perform_command(game_id, MoveForm, move, "move")


@bp.post("/ferry")
def ferry(game_id: str) -> Answer:
    """Return a Bell to summon the ferryman (instead of the usual soul move)."""

    def summon(d: dict[str, Any]) -> SummonFerryman:
        return SummonFerryman(
            d["player"], d["phlegyas_to"], d["soul_from"], d["soul_to"], d["landing"], borrow=d["borrow"]
        )

    return perform_command(game_id, FerryForm, summon, "ferry")


@bp.post("/end-turn")
def end_turn(game_id: str) -> Answer:
    """Finish the turn."""
    return perform_command(game_id, EndTurnForm, lambda d: EndTurn(d["player"]), "end-turn")


@bp.post("/plague")
def plague(game_id: str) -> Answer:
    """Enter the souls of the plague card the table revealed."""
    return perform_command(
        game_id, PlagueForm, lambda d: RevealPlagueCard(d["player"], tuple(d["souls"]), d["deck_empty"]), "plague"
    )
