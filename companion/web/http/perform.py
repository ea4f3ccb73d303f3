"""Turning a submitted form into a recorded command, and the game into a page or fragment.

Every state-changing form goes through ``perform``: parse the shape (400 with a message
per field), call the service (409 with the fresh state on a stale seq, 422 with the rule
and the alternatives on an illegal command), then show the fresh game. A plain browser
gets a full page (303 redirect after success); htmx gets the parts of the game that changed
(``game_parts``). A loan the player did not ask for is confirmed first (``loans``).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from flask import current_app, redirect, render_template, request, url_for
from flask_babel import gettext
from jinja2_fragments.flask import render_block
from markupsafe import Markup
from marshmallow import Schema, ValidationError
from werkzeug.wrappers import Response

from companion.game.errors import RuleViolation
from companion.game.legal import turn_options
from companion.game.rules.hell import why_stuck
from companion.game.state import GameState, Phase
from companion.service import Conflict, GameView, Outcome
from companion.web.forms.fields import flatten_errors, new_key, parse
from companion.web.http.db import service
from companion.web.http.seats import SeatRefused, check_seat
from companion.web.screens.florence_board import accuse_prep, florence_board
from companion.web.screens.hell_map import ferry_steps, guardian_steps
from companion.web.screens.history import latest_entries
from companion.web.screens.parts import (
    Part,
    client_parts,
    compact,
    fill,
    focus_target,
    out_of_band,
    remembered_map,
    render_parts,
)
from companion.web.words.glossary import describe_choice, describe_refusal, describe_rule, player_name
from companion.web.words.loans import LoanToConfirm, check_loans, confirmation

__all__ = ["is_htmx", "new_key", "perform", "record", "render_game"]


def is_htmx() -> bool:
    """Whether this request came from htmx (flask-htmx reads the HX-Request header)."""
    return bool(current_app.htmx)  # type: ignore[attr-defined]


def _player_hexes(view: GameView) -> dict[str, str]:
    return {c["id"]: c["hex"] for c in view.edition.section("players")["colours"]}


def game_context(
    view: GameView,
    select: str | None = None,
    to: str | None = None,
    kind: str | None = None,
    accuse: str | None = None,
    guardian: str | None = None,
    ferry: dict[str, str] | None = None,
    guardian_params: dict[str, str] | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """Everything the game templates need.

    ``select``/``to``: what the player tapped on the map; ``kind``: the member to send;
    ``accuse``: the location of an accusation being prepared; ``guardian``: a guardian being used.
    """
    state = view.state
    options = turn_options(state)
    ferry_view = ferry_steps(state, ferry) if ferry is not None and options.can_ferry else None
    prep = accuse_prep(state, state.active, accuse) if accuse and options.florence else None
    at_bonfire = options.phase is Phase.ACTION and "underworld" in options.location_options
    dante_guardian = prep is not None and prep.dante_kind == "pagan"
    steps = None
    if guardian in state.guardians and (at_bonfire or dante_guardian):
        base = f"accuse={accuse}&" if dante_guardian else ""
        steps = guardian_steps(state, str(guardian), guardian_params or {}, base)
    readonly = bool(extra.get("readonly"))  # a step of the history, or the big screen: nothing to tap
    interactive = state.ended is None and not readonly
    hexes = _player_hexes(view)
    shown = None if readonly else select
    hell_map = remembered_map(view.game_id, state, options, shown, hexes, interactive, ferry=ferry_view, using=steps)
    stuck: list[str] = []
    if hell_map.selected and not hell_map.selected_moves:
        stuck = [describe_refusal(e, state) for e in why_stuck(state, state.active, hell_map.selected)]
    elif select in state.hell and state.hell[select].laid:
        stuck = [describe_refusal(e, state) for e in why_stuck(state, state.active, select)]
    confirm = tuple(m for m in hell_map.selected_moves if to and m.landing == to)
    last, redo = (None, None) if readonly else latest_entries(view)
    pl = state.p[state.active]
    send_kind = kind if kind in ("noble", "urchin") else ("noble" if pl.home_nobles else "urchin")
    extra.setdefault("readonly", False)
    extra.setdefault(
        "live",
        {
            "events": url_for("live.game_events", game_id=view.game_id),
            "poll": url_for("live.game_seq", game_id=view.game_id),
            "refresh": url_for("play.game", game_id=view.game_id),
        },
    )
    return {
        "view": view,
        "state": state,
        "options": options,
        "florence_board": florence_board(state),
        "ferry": ferry_view,
        "send_kind": send_kind,
        "accuse": prep,
        "guardian_pick": guardian if guardian in state.guardians else None,
        "guardian_steps": steps,
        "hell_map": hell_map,
        "stuck": stuck,
        "confirm": confirm,
        "select": select,
        "new_key": new_key,
        "last_entry": last,
        "redo_entry": redo,
        "posted": request.form if request.method == "POST" else {},
        "chosen": _chooser(extra),
        "pick_url": url_for("play.game", game_id=view.game_id) + f"?at={view.seq}&",
        "open_for": _open_for(extra),
        **extra,
    }


def _open_for(extra: dict[str, Any]) -> str:
    """The control whose answer must show: its collapsed section is drawn open."""
    for key in ("loan_confirm", "refusal", "errors"):
        if extra.get(key):
            return str(extra[key].get("control", ""))
    return ""


def _chooser(extra: dict[str, Any]) -> Callable[..., bool]:
    """``chosen(name, value, default)``: whether a field kept the player's choice after a refusal."""
    form = request.form if request.method == "POST" and _open_for(extra) else None

    def chosen(name: str, value: Any, default: bool = False) -> bool:
        if form is None or name not in form:
            return default
        return str(value) in form.getlist(name)

    return chosen


def render_game(view: GameView, status: int = 200, block: str = "game", **extra: Any) -> Any:
    """The game page, or for htmx only its ``block`` — or only the parts the phone's copy lacks.

    A phone that sends ``HX-Game-Parts`` (the digest of each part it shows) gets just the parts
    that changed, as out-of-band swaps; every answer names the element that shows the result
    or the next step, for the phone to bring into view and focus.
    """
    context = game_context(view, **extra)
    if extra.get("readonly"):
        if is_htmx():
            return render_block("pages/game.html", block, **context), status
        return render_template("pages/game.html", **context), status
    parts = render_parts(context)
    refusal = context.get("refusal")
    if refusal and not any(f'id="refusal-{refusal["control"]}"' in part.html for part in parts.values()):
        context["refusal_fallback"] = True  # its control is not on this screen: show it atop the actions
        parts = render_parts(context)
    context["part_digests"] = " ".join(f"{name}:{part.digest}" for name, part in parts.items())
    focus = focus_target(context)
    if not is_htmx():
        return compact(render_template("pages/game.html", **context, drawn=_drawn(parts))), status
    shown = client_parts()
    live_refresh = request.headers.get("HX-Trigger") == "live-trigger"
    focus = focus if shown and not live_refresh else ""
    signal = {"game:update": {"seq": view.seq, "parts": context["part_digests"], "focus": focus}}
    headers = {"HX-Trigger-After-Settle": json.dumps(signal)}
    if request.method == "POST" and status == 200 and not extra.get("loan_confirm"):
        headers["HX-Replace-Url"] = url_for("play.game", game_id=view.game_id)
    if shown is None or block != "game":
        return compact(render_block("pages/game.html", block, **context, drawn=_drawn(parts))), status, headers
    changed = [name for name, part in parts.items() if shown.get(name) != part.digest]
    body = fill("".join(out_of_band(name, parts[name].html) for name in changed))
    headers["HX-Reswap"] = "none"
    return body, status, headers


def _drawn(parts: dict[str, Part]) -> dict[str, Markup]:
    """The parts as drawn, filled for this answer: the whole game is put together from them."""
    return {name: Markup(fill(part.html)) for name, part in parts.items()}


Renderer = Callable[..., Any]


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


def record(game_id: str, data: dict[str, Any], command: Any) -> Outcome:
    """Record ``command`` for a form; a loan the player did not confirm is asked about first."""
    svc = service()
    current = svc.view(game_id)
    # A key already recorded goes straight to the service (a double tap, or a key reused for
    # another entry); only a fresh entry drawn from the current screen is judged for loans.
    if current.seq == data["seq"] and svc.store.action_for_key(game_id, data["key"]) is None:
        command = check_loans(current.state, command, bool(data.get("confirm_loan")))
    return svc.execute(game_id, data["seq"], command, data["key"])


def _kept_choices(render: Renderer) -> dict[str, Any]:
    """What the player had chosen on the page (soul, accusation, guardian), kept after a refusal."""
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


def perform(
    game_id: str,
    schema: type[Schema],
    run: Callable[[dict[str, Any]], Outcome],
    control: str,
    render: Renderer | None = None,
    after: str = "play.game",
    acts_for_player: bool = True,
) -> Response | tuple[str, int]:
    """Parse a form, record its command through ``run``, and answer with the fresh page.

    ``render(view, status, **extra)`` draws the page (the game by default); ``after`` is the
    endpoint a plain browser is sent to after a success. In seats mode the phone must sit for
    the form's ``player`` (``acts_for_player``), or at least at some seat.
    """
    render = render or render_game
    svc = service()
    try:
        data = parse(schema, request.form)
    except ValidationError as exc:
        view = svc.view(game_id)
        fields = flatten_errors(exc.normalized_messages())
        details = [f"{name}: {' '.join(messages)}" for name, messages in fields.items()]
        return render(
            view,
            400,
            errors={"control": control, "fields": fields},
            refusal={
                "control": control,
                "text": gettext("Some fields need fixing."),
                "details": details,
                "alternatives": [],
            },
        )
    current = svc.view(game_id)
    if isinstance(current.state, GameState):
        try:
            check_seat(current.state, game_id, data.get("player") if acts_for_player else None)
        except SeatRefused as exc:
            return render(current, 403, refusal=_seat_refusal(current.state, control, exc))
    try:
        outcome = run(data)
    except Conflict as exc:
        notice = gettext(
            "This screen was out of date: the game moved on at another phone. "
            "Here is the fresh state; nothing was recorded."
        )
        return render(exc.view, 409, notice=notice, notice_kind="conflict")
    except LoanToConfirm as exc:
        view = svc.view(game_id)
        return render(view, 200, loan_confirm=confirmation(view.state, exc, control), **_kept_choices(render))
    except RuleViolation as exc:
        view = svc.view(game_id)
        refusal = {
            "control": control,
            "code": exc.code,
            "text": describe_refusal(exc, view.state),
            "rule": describe_rule(exc),
            "alternatives": [describe_choice(c.key, c.params, view.state) for c in exc.alternatives],
            "retry": exc.alternatives[0].command if exc.alternatives and exc.alternatives[0].command else None,
        }
        extra = _kept_choices(render)
        return render(view, 422, refusal=refusal, **extra)
    if not is_htmx():
        return redirect(url_for(after, game_id=game_id), 303)
    notice = gettext("Already recorded.") if outcome.duplicate else None
    return render(outcome.view, 200, notice=notice, notice_kind="info")
