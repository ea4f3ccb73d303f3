"""What the game page shows: everything its templates need (the map, Florence, the players, what may
be done now), drawn whole for a page or as only the parts a phone lacks (``screens.parts``)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any
from urllib.parse import urlencode

import flask_htmx
from flask import current_app, render_template, request, url_for
from jinja2_fragments.flask import render_block
from markupsafe import Markup

from companion.game.legal import turn_options
from companion.game.rules.hell import why_stuck
from companion.game.state import GameState, Phase
from companion.service import GameView
from companion.web.forms.fields import chosen_before, new_key
from companion.web.http.htmx import Answer, htmx
from companion.web.http.phone import seat_prompt, waiting_for
from companion.web.live.notifier import held_elsewhere
from companion.web.screens.florence_board import accuse_prep, florence_board
from companion.web.screens.hell_map import HellMap
from companion.web.screens.hell_steps import ferry_steps, guardian_steps
from companion.web.screens.parts import (
    ANSWER_BUDGET,
    Part,
    answer_later,
    assembled,
    client_parts,
    compact,
    fill,
    focus_target,
    map_keep,
    out_of_band,
    parts_to_send,
    remembered_entries,
    remembered_map,
    render_parts,
)
from companion.web.screens.parts.live_answers import answer_key, keep_marked, shared_answer
from companion.web.screens.refusal_shown import box_drawn
from companion.web.words.refusals import describe_refusal

__all__ = ["game_context", "render_game"]

HX_HEADERS = ("HX-Trigger-After-Settle", "HX-Replace-Url", "HX-Reswap")
"""The htmx response headers a game's answer may carry, in the order it sends them."""


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
    # A phone per player: a phone without a seat is asked who it is; one whose player is not the
    # active one waits, and taps nothing on the map either.
    asking = not readonly and seat_prompt(state, view.game_id)
    waiting = None if readonly else waiting_for(state, view.game_id)
    interactive = state.ended is None and not readonly and not asking and waiting is None
    hexes = view.edition.player_hexes()
    shown = None if readonly or not interactive else select
    # a phone with script: a guardian's first step and a bring are the map's values (``build_map``)
    steady_guard = bool(htmx)
    hell_map = remembered_map(view.game_id, state, options, shown, hexes, interactive, ferry_view, steps, steady_guard)
    confirm = tuple(m for m in hell_map.selected_moves if to and m.landing == to)
    last, redo = (None, None) if readonly else remembered_entries(view)
    pl = state.p[state.active]
    send_kind = kind if kind in ("noble", "urchin") else ("noble" if pl.home_nobles else "urchin")
    extra.setdefault("readonly", False)
    extra.setdefault("live", _live_links(view.game_id))
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
        "stuck": _stuck(state, hell_map, select),
        "confirm": confirm,
        "select": select,
        "new_key": new_key,
        "last_entry": last,
        "redo_entry": redo,
        "posted": request.form if request.method == "POST" else {},
        "chosen": _chooser(extra),
        "pick_url": url_for("play.game", game_id=view.game_id) + f"?at={view.seq}&",
        "open_for": _open_for(extra),
        "card_choices": _card_choices(extra),
        "seat_prompt": asking,
        "waiting": waiting,
        "held": held_elsewhere(view.game_id) if asking else frozenset(),
        **extra,
    }


def _stuck(state: GameState, hell_map: HellMap, select: str | None) -> list[str]:
    """Why the soul chosen cannot move (or the soul laid down that was tapped), in words; else nothing."""
    if hell_map.selected and not hell_map.selected_moves:
        return [describe_refusal(e, state) for e in why_stuck(state, state.active, hell_map.selected)]
    if select in state.hell and state.hell[select].laid:
        return [describe_refusal(e, state) for e in why_stuck(state, state.active, select)]
    return []


def _live_links(game_id: str) -> dict[str, str]:
    """Where a live page listens for new entries, asks for the seq and fetches the game again."""
    return {
        "events": url_for("live.game_events", game_id=game_id),
        "poll": url_for("live.game_seq", game_id=game_id),
        "refresh": url_for("play.game", game_id=game_id),
    }


def _seat_focus(context: dict[str, Any]) -> str:
    """Where the eye goes on a phone that must first say who it is, or that waits for another player."""
    if context.get("loan_confirm") or context.get("refusal") or context["state"].ended:
        return ""
    if context["seat_prompt"]:
        return "seat-prompt-title"
    if context["waiting"] is not None:
        return "waiting-title"
    return ""


def _turn_came_here(context: dict[str, Any], shown: dict[str, str], parts: dict[str, Part]) -> bool:
    """In a phone per player, whether a live refresh brings this phone's own player's turn (it waited)."""
    state = context["state"]
    if state.table_mode != "seats" or state.ended is not None:
        return False
    if context["seat_prompt"] or context["waiting"] is not None:
        return False
    return shown.get("actions") != parts["actions"].digest and shown.get("turn") != parts["turn"].digest


_CONTROL = re.compile(r"location-[a-z]{1,20}")


def _open_for(extra: dict[str, Any]) -> str:
    """The control whose answer must show: its collapsed section is drawn open (also after "Cancel" on a
    loan prompt, which comes back with ``open`` and the option's fields in its address)."""
    for key in ("loan_confirm", "refusal", "errors"):
        if extra.get(key):
            return str(extra[key].get("control", ""))
    if request.method == "GET" and _CONTROL.fullmatch(request.args.get("open", "")):
        return str(request.args["open"])
    return ""


_NOT_CHOICES = ("seq", "key", "csrf_token", "player", "confirm_loan")


def _card_choices(extra: dict[str, Any]) -> str:
    """After a refusal about the Wall's fraud card, for htmx: the card's choices as the query of its address (``&...``).

    The card (8-11 KB with the Wall's options around it) then comes in an answer of its own, fetched right after, with
    the player's choices held (``pages/florence.py``: ``fraud_card``); a page without script shows it in place."""
    if not htmx or request.method != "POST" or _open_for(extra) != "location-fraud" or extra.get("loan_confirm"):
        return ""
    pairs = [(k, v) for k, v in request.form.items(multi=True) if k not in _NOT_CHOICES]
    return "&" + urlencode(pairs) if pairs else "&open=location-fraud"


def _chooser(extra: dict[str, Any]) -> Callable[..., bool]:
    """``chosen(name, value, default)``: whether a field held the player's choice after a refusal (or
    after "Cancel" on the loan prompt)."""
    if not _open_for(extra):
        return chosen_before(None)
    return chosen_before(request.form if request.method == "POST" else request.args)


def render_game(view: GameView, status: int = 200, block: str = "game", **extra: Any) -> Answer:
    """``_render_game``; a live refresh drawn once for the phones holding the same parts (``parts.live_answers``)."""
    key = answer_key(view, block, extra) if status == 200 else None
    return shared_answer(key, lambda: _render_game(view, status, block, **extra))


def _render_game(view: GameView, status: int = 200, block: str = "game", **extra: Any) -> Answer:
    """The game page, or for htmx only its ``block`` — or only the parts the phone's copy lacks.

    A phone that sends ``HX-Game-Parts`` (the digest of each part it shows) gets just the parts
    that changed, as out-of-band swaps; every answer names the element that shows the result
    or the next step, for the phone to bring into view and focus.
    """
    context = game_context(view, **extra)
    if extra.get("readonly"):
        if htmx:
            return render_block("pages/game.html", block, **context), status
        return render_template("pages/game.html", **context), status
    parts = render_parts(context)
    refusal = context.get("refusal")
    if refusal and not any(box_drawn(refusal, part.html) for part in parts.values()):
        context["refusal_fallback"] = True  # its control is not on this screen: show it atop the actions
        parts = render_parts(context)
    words = [part.word for part in parts.values()]  # each ``name:digest``, as ``HX-Game-Parts`` says it
    context["part_digests"] = " ".join(words)
    if not htmx:
        return compact(render_template("pages/game.html", **context, drawn=_drawn(parts, view.seq))), status
    raw = request.headers.get("HX-Game-Parts") or None  # what the phone holds (``client_parts``): the app's own
    holds = raw is not None and ":" in raw  # it names a part
    live_refresh = htmx.trigger == "live-trigger"
    focus = (_seat_focus(context) or focus_target(context)) if holds and not live_refresh else ""
    if holds and live_refresh and _turn_came_here(context, client_parts() or {}, parts):
        focus = "turn-title"  # another phone ended its turn: this phone's player is up, the title shows
    update: dict[str, Any] = {"seq": view.seq, "focus": focus}
    recorded = request.method == "POST" and status == 200 and not extra.get("loan_confirm")
    replace_url = url_for("play.game", game_id=view.game_id) if recorded else None
    if raw is None or block != "game":  # a whole block: the phone takes every part's digest
        update["parts"] = context["part_digests"]
        drawn = _drawn(parts, view.seq, csrf=False)  # htmx sends the token in a header
        body = compact(render_block("pages/game.html", block, **context, drawn=drawn))
        return body, status, _hx_headers(trigger_after_settle={"game:update": update}, replace_url=replace_url)
    changed = parts_to_send(words, raw)
    pieces = assembled(parts, changed)
    budget = current_app.config.get("ANSWER_BUDGET", ANSWER_BUDGET)
    later = answer_later(pieces, context["state"].active, budget, view.seq, map_keep(context["hell_map"]))
    # only the digests of the parts sent (``merge_parts``): the phone holds the others as they are
    update["changed"] = " ".join(parts[name].word for name in changed if name not in later)
    if later:  # a second answer brings these, asked for at once (table.js)
        pieces = {name: html for name, html in pieces.items() if name not in later}
        update["more"] = True
    marked = "".join(out_of_band(name, html) for name, html in pieces.items())
    keep_marked(marked)
    body = fill(marked, view.seq, csrf=False)  # htmx sends the token in a header
    headers = _hx_headers(trigger_after_settle={"game:update": update}, replace_url=replace_url, reswap="none")
    return body, status, headers


def _hx_headers(**hx: Any) -> dict[str, str]:
    """The htmx response headers ``hx`` names, as flask-htmx's response helper spells them (``HX_HEADERS``' order):
    an answer of parts stays a body, a status and its headers, which a live refresh shares (``live.answers``)."""
    sent = flask_htmx.make_response("", **hx).headers
    return {name: sent[name] for name in HX_HEADERS if name in sent}


def _drawn(parts: dict[str, Part], seq: int, csrf: bool = True) -> dict[str, Markup]:
    """The parts as drawn, filled for this answer: the whole game is put together from them."""
    return {name: Markup(fill(html, seq, csrf)) for name, html in assembled(parts).items()}
