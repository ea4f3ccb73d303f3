"""A loan the player did not ask for, confirmed at the table first: what it costs, the free choices
instead, and the same form to send again with ``confirm_loan`` (``companion.game.loans`` finds it)."""

from __future__ import annotations

from typing import Any

from flask import request
from flask_babel import gettext, ngettext

from companion.game.commands import Accuse, BringSoul, MoveSoul, SendMember, SummonFerryman
from companion.game.legal import turn_options
from companion.game.loans import LoanToConfirm
from companion.game.state import GameState
from companion.web.words.glossary import location_name, shield_label

__all__ = ["confirmation"]


def _free_alternatives(state: GameState, command: Any) -> list[tuple[str, str]]:
    """Free choices instead of the loan: (words, the soul to choose on the map or "")."""
    options = turn_options(state)
    free: list[tuple[str, str]] = []
    if isinstance(command, (MoveSoul, SummonFerryman, BringSoul)):
        for move in options.soul_moves:
            if move.total_drachmas == 0:
                words = gettext(
                    "Move the soul on %(start)s to %(to)s",
                    start=(move.start or "").upper(),
                    to=shield_label(state, move.landing),
                )
                free.append((words, move.start or ""))
    if isinstance(command, SendMember) and options.florence:
        free += [
            (gettext("Send to the %(loc)s (in this turn's quarter)", loc=location_name(s.location)), "")
            for s in options.florence.sends
            if not s.bribe
        ]
    if isinstance(command, Accuse) and options.florence:
        free += [
            (gettext("Accuse at the %(loc)s (in this turn's quarter)", loc=location_name(a.location)), "")
            for a in options.florence.accusations
            if a.allowed and not a.needs_bribe
        ]
    if options.can_end_turn:
        free.append((gettext("End the turn without it"), ""))
    return list(dict.fromkeys(free))[:5]


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
        "action": request.path,
        "fields": fields,
    }
