"""Turning a submitted form into a recorded command, and the game into a page or fragment.

Every state-changing form goes through ``perform``: parse the shape (400 with a message
per field), call the service (409 with the fresh state on a stale seq, 422 with the rule
and the alternatives on an illegal command), then show the fresh game. A plain browser
gets a full page (303 redirect after success); htmx gets the parts of the game that changed
(``screens.game.render_game``, ``screens.parts``). A loan the player did not ask for is confirmed
first (``game.loans.check_loans``, ``screens.loan_confirm``). ``perform_command``, ``perform_undo``
and ``perform_redo`` are ``perform`` for the forms every page has.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from flask import current_app, redirect, request, url_for
from marshmallow import Schema, ValidationError

from companion.game.errors import RuleViolation
from companion.game.loans import LoanToConfirm, check_loans
from companion.game.state import GameState
from companion.service import AnyView, Conflict, Outcome
from companion.web.forms.fields import ActionForm, UndoForm, flatten_errors, parse
from companion.web.http.db import service
from companion.web.http.htmx import Answer, is_htmx
from companion.web.http.phone import SeatRefused, check_seat
from companion.web.screens.game import render_game
from companion.web.screens.loan_confirm import confirmation
from companion.web.words.catalogue import gettext
from companion.web.words.form_fields import refusal_details
from companion.web.words.glossary import player_name
from companion.web.words.refusals import describe_choice, describe_refusal, describe_rule
from companion.web.words.rules_reference import rule_url

__all__ = ["perform", "perform_command", "perform_redo", "perform_undo", "record"]


Renderer = Callable[..., Answer]  # draws a page: (view, status, **what to show)


def _seat_refusal(state: GameState, control: str, exc: SeatRefused) -> dict[str, Any]:
    if exc.seat is None:
        text = gettext(
            "This phone has not taken a seat. In seats mode each player acts from the phone that "
            "took their seat: open “Join” to take yours."
        )
    else:
        text = gettext(
            "This phone sits for %(seat)s: %(player)s acts from their own phone.",
            seat=player_name(state, exc.seat),
            player=player_name(state, exc.player),
        )
    return {"control": control, "text": text, "rule": "", "alternatives": []}


def background_commit() -> bool:
    """Whether a tap's COMMIT runs in the background while its answer is drawn (app setting ``BACKGROUND_COMMIT``,
    off by default).

    Handing the COMMIT to a thread and back (``events.background``) costs more than the ``fdatasync`` it hides on a
    local disk once the WAL file has room (``make_log_room``); on a disk whose sync is slow (network storage), the
    answer comes sooner."""
    return bool(current_app.config.get("BACKGROUND_COMMIT", False))


def record(game_id: str, data: dict[str, Any], command: Any) -> Outcome:
    """Record ``command`` for a form; a loan the player did not confirm is asked about first."""
    svc = service()
    current = svc.view(game_id)
    # An entry drawn from the current screen is judged for loans, once: the service records the events
    # judged here. One drawn from an older screen goes straight to the service (a double tap whose first
    # tap was recorded, or a stale screen), and so does one refused here: the service says whether its
    # key was used before, which says more than the rule.
    if current.seq != data["seq"]:
        return svc.execute(game_id, data["seq"], command, data["key"], background_commit=background_commit())
    try:
        command, events = check_loans(current.state, command, bool(data.get("confirm_loan")))
    except RuleViolation:
        return svc.execute(game_id, data["seq"], command, data["key"], background_commit=background_commit())
    judged = (current, events) if events is not None else None
    return svc.execute(game_id, data["seq"], command, data["key"], judged=judged, background_commit=background_commit())


def _choices_shown_again(render: Renderer) -> dict[str, Any]:
    """What the player had chosen on the page (soul, accusation, guardian), held after a refusal."""
    if render is not render_game:
        return {}
    return {
        "select": request.form.get("select") or None,
        "accuse": request.form.get("prepare") or None,
        "guardian": request.form.get("guardian") or None,
        "guardian_params": {
            "gto": request.form.get("to_shield", ""),
            "gt": ",".join(request.form.getlist("targets")),
            "gd": request.form.get("desk_below", ""),
        },
    }


def _conflict(draw: Renderer, view: AnyView) -> Answer:
    """The fresh game, for a screen that sent an entry from a seq the log has left: nothing was recorded."""
    notice = gettext(
        "This screen was out of date: the game moved on at another phone. "
        "Here is the fresh state; nothing was recorded."
    )
    return draw(view, 409, notice=notice, notice_kind="conflict")


def _seat_refused(draw: Renderer, control: str, exc: SeatRefused, view: AnyView) -> Answer:
    assert isinstance(view.state, GameState)  # only a recorded game has seats
    return draw(view, 403, refusal=_seat_refusal(view.state, control, exc))


def _loan_to_confirm(draw: Renderer, control: str, exc: LoanToConfirm, view: AnyView) -> Answer:
    assert isinstance(view.state, GameState)  # only a recorded game's command takes a loan
    return draw(view, 200, loan_confirm=confirmation(view.state, exc, control), **_choices_shown_again(draw))


def _refused(draw: Renderer, control: str, exc: RuleViolation, view: AnyView) -> Answer:
    """The refusal beside its control: the rule, the values in words, what is legal instead."""
    refusal = {
        "control": control,
        "code": exc.code,
        "text": describe_refusal(exc, view.state),
        "rule": describe_rule(exc),
        "rule_url": rule_url(exc),
        "alternatives": [describe_choice(c.key, c.params, view.state) for c in exc.alternatives],
        "retry": exc.alternatives[0].command if exc.alternatives and exc.alternatives[0].command else None,
    }
    return draw(view, 422, refusal=refusal, **_choices_shown_again(draw))


def perform(
    game_id: str,
    schema: type[Schema],
    run: Callable[[dict[str, Any]], Outcome],
    control: str,
    render: Renderer | None = None,
    after: str = "play.game",
    acts_for_player: bool = True,
    anchor: str | None = None,
) -> Answer:
    """Parse a form, record its command through ``run``, and answer with the fresh page.

    ``run`` may record ``background_commit`` (``GameService.execute``): the answer is drawn while the store's COMMIT
    runs, and
    returned once the outcome is settled (durable).

    ``render(view, status, **extra)`` draws the page (the game by default); ``after`` is the
    endpoint a plain browser is sent to after a success, at its element ``anchor`` if given (the place htmx's answer
    would show). In seats mode the phone must sit for
    the form's ``player`` (``acts_for_player``), or at least at some seat.
    """
    draw: Renderer = render or render_game
    svc = service()
    try:
        data = parse(schema, request.form)
    except ValidationError as exc:
        view = svc.view(game_id)
        return draw(
            view,
            400,
            errors={"control": control, "fields": flatten_errors(exc.messages)},
            refusal={
                "control": control,
                "text": gettext("Some fields need fixing."),
                "details": refusal_details(schema, exc.messages),
                "alternatives": [],
            },
        )
    # the game as the phone's screen shows it: the process's own view, unread, when it stands at the screen's seq (the
    # append reads the log under its lock); read from the log before anything but an entry recorded is said
    current = svc.view_at(game_id, data.get("seq"))

    def unrecorded(say: Callable[[Any], Answer]) -> Answer:
        """An answer that records nothing, said of the game as the log has it (``checked``); the log moved on since the
        phone's screen: the conflict, as a tap that records would get."""
        view = svc.checked(game_id)
        return _conflict(draw, view) if view.seq != current.seq else say(view)

    if isinstance(current.state, GameState):
        try:
            check_seat(current.state, game_id, data.get("player") if acts_for_player else None)
        except SeatRefused as exc:
            return unrecorded(functools.partial(_seat_refused, draw, control, exc))
    try:
        outcome = run(data)
    except Conflict as exc:
        return _conflict(draw, exc.view)
    except LoanToConfirm as exc:
        return unrecorded(functools.partial(_loan_to_confirm, draw, control, exc))
    except RuleViolation as exc:
        return unrecorded(functools.partial(_refused, draw, control, exc))
    # an entry recorded ``background_commit`` is drawn while its COMMIT runs (the disk's sync is most of a write),
    # and said
    # only once it is durable: ``settle`` raises when it could not be stored (the error page; nothing recorded)
    try:
        if not is_htmx():
            answer: Answer = redirect(url_for(after, game_id=game_id, _anchor=anchor), 303)
        else:
            done = gettext("Already recorded.") if outcome.duplicate else None
            answer = draw(outcome.view, 200, notice=done, notice_kind="info")
    except BaseException:
        outcome.settle()
        raise
    outcome.settle()
    return answer


def perform_command(
    game_id: str,
    schema: type[Schema],
    command_of: Callable[[dict[str, Any]], Any],
    control: str,
    *,
    loans: bool = True,
    **answer: Any,
) -> Answer:
    """``perform`` for a form that describes one command: ``command_of(data)`` is recorded as the
    phone's entry, a loan it would take confirmed at the table first (``loans``: a game's entry).
    ``answer`` says how ``perform`` answers (``render``, ``after``, ``acts_for_player``)."""

    def run(d: dict[str, Any]) -> Outcome:
        if loans:
            return record(game_id, d, command_of(d))
        return service().execute(game_id, d["seq"], command_of(d), d["key"], background_commit=background_commit())

    return perform(game_id, schema, run, control, **answer)


def perform_undo(game_id: str, render: Renderer | None = None, after: str = "play.game") -> Answer:
    """Undo the latest entry, or (with ``to``) every entry from that one on."""

    def run(d: dict[str, Any]) -> Outcome:
        return service().undo(game_id, d["seq"], d["key"], d.get("to"), background_commit=background_commit())

    return perform(game_id, UndoForm, run, "undo", render, after)


def perform_redo(game_id: str, render: Renderer | None = None, after: str = "play.game") -> Answer:
    """Redo the most recently undone entry."""

    def run(d: dict[str, Any]) -> Outcome:
        return service().redo(game_id, d["seq"], d["key"], background_commit=background_commit())

    return perform(game_id, ActionForm, run, "undo", render, after)
