"""A loan the player did not ask for, confirmed at the table first: what it costs, the free choices
instead, and the same form to send again with ``confirm_loan`` (``companion.game.loans`` finds it)."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from flask import request, url_for

from companion.game.commands import Accuse, BringSoul, Command, MoveSoul, SendMember, SummonFerryman
from companion.game.legal import turn_options
from companion.game.loans import LoanToConfirm, florins_instead
from companion.game.state import GameState
from companion.web.words.catalogue import gettext, ngettext
from companion.web.words.glossary import location_name, shield_label

__all__ = ["confirmation"]


def _base_fields() -> list[tuple[str, str]]:
    """The form that asked for the loan, without the loan and without its location."""
    skip = ("confirm_loan", "borrow", "location", "bribe")
    return [(k, v) for k, v in request.form.items(multi=True) if k not in skip]


def _free_alternatives(state: GameState, command: Command) -> list[dict[str, Any]]:
    """Free choices instead of the loan, each one tap: a soul to choose on the map (``soul``), or a
    form to send as it is (``action`` and ``fields``: the same turn, another location, or its end)."""
    options = turn_options(state)
    free: list[dict[str, Any]] = []
    if isinstance(command, (MoveSoul, SummonFerryman, BringSoul)):
        for move in options.soul_moves:
            if move.total_drachmas == 0:
                words = gettext(
                    "Move the soul on %(start)s to %(to)s",
                    start=(move.start or "").upper(),
                    to=shield_label(state, move.landing),
                )
                free.append({"words": words, "soul": move.start or ""})
    if isinstance(command, SendMember) and options.florence:
        for send in options.florence.sends:
            if not send.bribe:
                words = gettext("Send to the %(loc)s (in this turn's quarter)", loc=location_name(send.location))
                free.append(
                    {"words": words, "action": request.path, "fields": [*_base_fields(), ("location", send.location)]}
                )
    if isinstance(command, Accuse) and options.florence:
        for accusation in options.florence.accusations:
            if accusation.allowed and not accusation.needs_bribe:
                words = gettext(
                    "Accuse at the %(loc)s (in this turn's quarter)", loc=location_name(accusation.location)
                )
                fields = [*_base_fields(), ("location", accusation.location)]
                free.append({"words": words, "action": request.path, "fields": fields})
    keep = [(k, v) for k, v in request.form.items() if k in ("seq", "key", "player")]
    florins = florins_instead(state, command)
    if florins and request.view_args:
        words = ngettext(
            "Change %(num)s florin into drachmas here first (no loan)",
            "Change %(num)s florins into drachmas here first (no loan)",
            florins,
        )
        action = url_for("florence.location_option", game_id=request.view_args["game_id"], option="exchange")
        free.append({"words": words, "action": action, "fields": [*keep, ("florins", str(florins))]})
    if options.can_end_turn:
        free.append(
            {
                "words": gettext("End the turn without it"),
                "action": url_for("play.end_turn", game_id=request.view_args["game_id"]) if request.view_args else "",
                "fields": keep,
            }
        )
    unique: dict[str, dict[str, Any]] = {}
    for alternative in free:
        unique.setdefault(alternative["words"], alternative)  # the first of the same words
    return list(unique.values())[:5]


_NOT_A_CHOICE = ("csrf_token", "key", "seq", "player", "confirm_loan", "borrow", "select", "prepare", "guardian")


def _cancel_query(control: str) -> str:
    """The choices made on the page before the loan was asked (a soul, an accusation, a guardian and
    its targets, a location option's own fields such as the Styx's colour, count and tracks), so that
    "Cancel" keeps them: a location option's form is drawn open with its fields as they were."""
    form = request.form
    own: list[tuple[str, str]] = []
    if control.startswith("location-") and not form.get("guardian"):
        own = [("open", control)]
        own += [(k, v) for k, v in form.items(multi=True) if k not in _NOT_A_CHOICE and len(v) <= 40][:12]
    held = {
        "select": form.get("select", ""),
        "accuse": form.get("prepare", ""),
        "guardian": form.get("guardian", ""),
        "gto": form.get("to_shield", "") if form.get("guardian") else "",
        "gt": ",".join(form.getlist("targets")) if form.get("guardian") else "",
        "gd": form.get("desk_below", "") if form.get("guardian") else "",
    }
    return urlencode([*((k, v) for k, v in held.items() if v), *own])


def confirmation(state: GameState, exc: LoanToConfirm, control: str) -> dict[str, Any]:
    """What the loan confirmation shows and resends (the same form, with ``confirm_loan``)."""
    player = state.p[exc.loans[0].player]
    drachmas = sum(t.drachmas for t in exc.loans)
    infamy = sum(t.infamy_penalty for t in exc.loans)
    lines = [
        ngettext(
            "You have %(have)s drachmas: this needs %(num)s loan, +%(d)s drachmas.",
            "You have %(have)s drachmas: this needs %(num)s loans, +%(d)s drachmas.",
            len(exc.loans),
            have=player.drachmas,
            d=drachmas,
        ),
        gettext("The Ship moves from space %(a)s to %(b)s.", a=exc.loans[0].ship_from, b=exc.loans[-1].ship_to),
    ]
    if infamy:
        lines.append(gettext("It passes the loan symbol: −%(n)s infamy now.", n=infamy))
    fields = [(k, v) for k, v in request.form.items(multi=True) if k not in ("confirm_loan", "borrow")]
    fields += [("borrow", "1"), ("confirm_loan", "1")]
    return {
        "control": control,
        "lines": lines,
        "infamy": infamy,
        "alternatives": _free_alternatives(state, exc.command),
        "cancel_query": _cancel_query(control),
        "action": request.path,
        "fields": fields,
    }
