"""The game page's parts: each drawn with marks, held when costly, and put together as the phone shows them.

The game page is cut into parts (turn, the plague card, actions, the loan, Hell's prompt, the map's board, the
Wall of Dis, the map's values and desks, one part per shield of the map, Cemetery, two per quarter of Florence
(its title, its tiles), four per player, undo bar). Each is drawn by a template (a block of the page, or a macro
of ``screens/game_parts.html`` and ``screens/map_shield.html``) with marks for what changes between answers
(``screens.parts.marking``), fingerprinted, and held per process with the inputs it was drawn from
(``screens.parts.sources``, ``screens.parts.cache``); an answer sends only the parts whose fingerprint differs from
the phone's (``screens.parts_sent``).

The plague card is the same in every answer: it stays on the phone, hidden (``static/css/app.css``) until the
actions hold its form (``form="plague-form"``), so a Cemetery emptied sends that form and the card's title only.

The map's shields are parts of their own (nested ``<svg>`` elements, which htmx parses and swaps out
of band): a soul move sends the shields it left and reached and those its choice lit, not the map.
A shield's taps that follow the phase or a choice (choose a soul, ask why, try a landing) are drawn
the same in every phase; the map's values (part ``cells``: the fields every map tap sends, through
``hx-include``, and the shared words saying what those taps do now) change instead, and
``static/js/table.js`` shows an idle one as an image, out of the tab order. A guardian's first step (its new
shield) is such a steady tap too: the empty shields keep theirs and the map's values say where it leads now
(``data-guard``), so choosing a guardian at the Bonfire sends no shield.

The pages and the live answers import the part system's names from here.
"""

from __future__ import annotations

import functools
import re
from typing import Any

import jinja2_fragments
from flask import Flask, current_app, g
from markupsafe import Markup, escape

from companion.game.state import GameState
from companion.web.screens.hell_map import HellMap
from companion.web.screens.parts import cache as part_cache
from companion.web.screens.parts import marking as part_marks
from companion.web.screens.parts.cache import (
    part_slots,
    remembered,
    remembered_entries,
    remembered_map,
    shared_block,
    slots,
)
from companion.web.screens.parts.macros import part_macro
from companion.web.screens.parts.marking import (
    CSRF_FIELD,
    CSRF_MARK,
    KEY_MARK,
    SEQ_MARK,
    MarkedView,
    Part,
    compact,
    digest,
    fill,
    marks,
)
from companion.web.screens.parts.sent import (
    ANSWER_BUDGET,
    answer_later,
    client_parts,
    focus_target,
    map_keep,
    merge_parts,
    out_of_band,
    parts_to_send,
)
from companion.web.screens.parts.sources import (
    NESTED,
    PLAYER_PARTS,
    MapInputs,
    carries_extras,
    depth,
    inputs,
    player_part,
    quarter_tiles,
    same_cells,
    shield_context,
)
from companion.web.words.catalogue import language as request_language
from companion.web.words.catalogue import template_words

__all__ = [
    "ANSWER_BUDGET",
    "CSRF_FIELD",
    "CSRF_MARK",
    "KEY_MARK",
    "NESTED",
    "PARTS",
    "PLAYER_PARTS",
    "SEQ_MARK",
    "MarkedView",
    "Part",
    "answer_later",
    "assembled",
    "client_parts",
    "compact",
    "digest",
    "fill",
    "focus_target",
    "install",
    "map_keep",
    "marked_context",
    "merge_parts",
    "out_of_band",
    "part_names",
    "part_slots",
    "parts_to_send",
    "remembered",
    "remembered_entries",
    "remembered_map",
    "render_block",
    "render_parts",
    "shared_block",
]

PARTS = (
    "turn",
    "plague",
    "actions",
    "prompt",
    "pick",
    "loan",
    "hell",
    "board",
    "wall",
    "cells",
    "desks",
    "cemetery",
    "undo",
)
"""The fixed parts; then one per quarter of Florence (``q-lily``…), one per shield of the map (``s-1a``…)
and four per player: the purse (``player0``…), where the family is (``family0``…), the tower (``tower0``…)
and the sin tracks with what else the player holds (``tracks0``…)."""
_EMPTY = {name: re.compile(rf'<div id="part-{name}" data-part="{name}">\s*</div>') for name in NESTED}


def install(app: Flask) -> None:
    """While parts are drawn, ``csrf_token()`` writes a mark (filled in what is sent); ``shared_block`` as a
    global."""
    part_marks.install(app)
    part_cache.install(app)


def part_names(state: GameState) -> tuple[str, ...]:
    """Every part of this game's page: the fixed ones, then one per quarter and shield, four per player."""
    return _part_names(tuple(state.side.shields), len(state.players), state.edition.quarters)


@functools.lru_cache(maxsize=256)
def _part_names(shields: tuple[str, ...], players: int, quarters: tuple[str, ...]) -> tuple[str, ...]:
    """``part_names`` for a board side's shields, a number of players and the edition's quarters (~100 names: made
    once per layout, not for every answer)."""
    quartered = tuple(f"{part}{quarter}" for part in ("qn-", "q-") for quarter in quarters)
    return PARTS + quartered + tuple(f"s-{shield}" for shield in shields) + _by_kind(players)


def render_block(template: str, block: str | None, context: dict[str, Any]) -> str:
    """A block of ``template`` (the whole template for ``None``) drawn in ``context`` over what Flask's context
    processors give (``_processed``: worked out once a request, not for every part drawn)."""
    env = current_app.jinja_env
    given = {**_processed(), **context}
    if block is None:
        return env.get_template(template).render(given)
    return jinja2_fragments.render_block(env, template, block, given)


def _processed() -> dict[str, Any]:
    """The values of Flask's context processors, as ``render_template`` gives a template (a context's own values go
    over them), worked out once a request."""
    processed: dict[str, Any] | None = g.get("template_processed")
    if processed is None:
        processed = {}
        current_app.update_template_context(processed)
        g.template_processed = processed
    return processed


_PLAYER_MACROS = {"player": "player_purse", "tower": "player_tower", "tracks": "player_tracks"}
"""A player's parts but the family, each with the macro that draws it (``screens/game_parts.html``)."""


def _draw(name: str, context: dict[str, Any]) -> Part:
    if name.startswith("s-"):
        html = str(part_macro("map_shield")(context["view"].game_id, **shield_context(name, context)))
    elif name.startswith("q-"):
        quarter, tiles = quarter_tiles(name, context)
        html = compact(str(part_macro("florence_tiles")(quarter, tiles, context["state"])))
    elif name.startswith("qn-"):
        quarter, tiles = quarter_tiles(name, context)
        html = compact(
            render_block("pages/game.html", "quarter_title", {**context, "quarter": quarter, "tiles": tiles})
        )
    elif name == "desks":
        html = compact(render_block("screens/hell_map.html", "map_desks", context))
    elif name == "pick":
        html = compact(render_block("screens/guardian_pick.html", None, context))
    elif name == "cemetery":
        html = compact(str(part_macro("cemetery")(context["state"])))
    elif name == "undo":
        entries = (context.get("last_entry"), context.get("redo_entry"), context.get("seat_prompt"))
        bar = part_macro("undo_bar")(context["view"], context["new_key"], context.get("refusal"), *entries)
        html = compact(str(bar))
    elif (mine := player_part(name))[0]:
        kind, i = mine
        state = context["state"]
        info, p = state.players[i], state.p[i]
        if kind == "family":
            drawn = part_macro("player_family")(i, p)
        else:
            drawn = part_macro(_PLAYER_MACROS[kind])(i, info, p, state)
        html = compact(str(drawn))
    else:
        nested = {"prompt_slot": True} if name in NESTED.values() else {}  # an empty copy: its digest ignores them
        html = compact(render_block("pages/game.html", f"part_{name}", {**context, **nested} if nested else context))
    fingerprint = digest(html)
    return Part(html, fingerprint, f"{name}:{fingerprint}")


def assembled(parts: dict[str, Part], names: list[str] | None = None) -> dict[str, str]:
    """The markup of each of ``names`` (all parts by default) as the phone shows it: a part with nested ones holds
    them (``NESTED``); a nested part is left out when its holder is among ``names`` (it comes inside)."""
    chosen = list(parts) if names is None else names
    out: dict[str, str] = {}
    for name in chosen:
        holder = NESTED.get(name)
        if holder is not None and holder in chosen:
            continue
        html = parts[name].html
        for inner, outer in NESTED.items():
            if outer == name and inner in parts:
                html = _EMPTY[inner].sub(parts[inner].html.replace("\\", "\\\\"), html, count=1)
        out[name] = html
    return out


def marked_context(context: dict[str, Any], language: str) -> dict[str, Any]:
    """The game's context as its parts are drawn: a mark where a fresh key and the seq go (its view's
    seq, the ``at=`` of its links), the words of ``language``, the map's cells by shield. A part drawn by Jinja
    sees the environment's globals and the context processors' values too (``render_block``)."""
    return {
        **context,
        **template_words(language),
        **marks(context["view"]),
        "pick_url": _marked_pick_url(context["pick_url"].partition("?")[0]),
        "map_cells": context["hell_map"].by_shield,
    }


@functools.lru_cache(maxsize=1024)
def _marked_pick_url(path: str) -> Markup:
    """A game's page with the seq's mark as ``at=`` and room for a choice (``?at=&seq;&amp;``), made once per game."""
    return Markup(escape(path)) + Markup("?at=&seq;&amp;")


def render_parts(context: dict[str, Any]) -> dict[str, Part]:
    """Each part of the game, drawn with marks; a costly one only when what it shows changed."""
    m: HellMap = context["hell_map"]
    game_id = context["view"].game_id
    language = request_language()  # found once for all the parts
    marked = marked_context(context, language)
    held_parts = slots()
    still = "-still" if not m.steady else ""  # a waiting phone's map, held apart

    extras = carries_extras(marked)

    def part(name: str) -> Part:
        drawn_from = inputs(name, marked, extras)
        draw = functools.partial(_draw, name, marked)
        if drawn_from is None:
            return draw()
        where = (game_id, language, f"{name}{still}" if name.startswith("s-") else name)
        made: Part = held_parts.get_or_make(where, drawn_from, draw, depth(name))
        return made

    fixed, quarters, shield_names, seats = _layout(part_names(context["state"]))
    # the shields, ~70 parts, as a whole while the map is the one held (``remembered_map``: a loan, a card,
    # Florence's taps) or equal to it: only a map that changed asks its shields, and of those only the ones
    # whose cell changed since the last map drawn (``shield_context``'s inputs: the cell, and what the map
    # says of all shields: the soul chosen, the guardian's steps, the ferry)
    map_inputs: MapInputs = (context["state"].edition.content_hash, m, context.get("ferry"))
    group = (game_id, language, f"shields{still}")
    last = held_parts.latest(group)

    def shields() -> dict[str, Part]:
        same = same_cells(last, map_inputs)
        return {name: same[name] if name in same else part(name) for name in shield_names}

    # a player's four parts as a whole while the player is the same (``inputs``: each reads only the player, its
    # seat and whether the game has the expansion), and the quarters' titles and tiles while Florence is the same
    # (the board, the turn's quarter, the seats): ~20 parts an answer found in 5 looks, each held three deep like
    # its parts (an undo and a redo bring back the two before); one that changed asks its parts one by one
    state: GameState = context["state"]
    edition = state.edition.content_hash

    def together(slot: str, drawn_from: tuple[Any, ...], members: tuple[str, ...]) -> dict[str, Part]:
        made: dict[str, Part] = held_parts.get_or_make(
            (game_id, language, slot), drawn_from, lambda: {name: part(name) for name in members}, 3
        )
        return made

    g.marking_parts = True
    try:
        # in the page's order (``part_names``): the fixed parts, the quarters', the shields', the players'
        parts: dict[str, Part] = {name: part(name) for name in fixed}
        board = (edition, state.quarter, context["florence_board"], state.players)
        parts.update(together("quarters", board, quarters))
        # made for ``shield_names`` (``shields``) and held for an equal map: the same side, the same shields in order
        drawn_shields: dict[str, Part] = held_parts.get_or_make(group, map_inputs, shields)
        parts.update(drawn_shields)
        found: dict[str, Part] = {}
        for i, (info, members) in enumerate(zip(state.players, seats, strict=True)):
            found.update(together(f"player-parts{i}", (edition, info, state.expansion, state.p[i]), members))
        parts.update((name, found[name]) for name in _by_kind(len(seats)))
    finally:
        g.marking_parts = False
    return parts


@functools.lru_cache(maxsize=64)
def _layout(
    names: tuple[str, ...],
) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...], tuple[tuple[str, ...], ...]]:
    """``part_names`` sorted once per layout (not ~90 names tested on every answer): the fixed parts, the quarters'
    titles and tiles, the shields, and each seat's four parts (``PLAYER_PARTS``). ``part_names`` lists them in that
    order, the players' by kind (``_by_kind``): ``test_parts_layout`` holds the two the same."""
    quarters = tuple(name for name in names if name.startswith(("qn-", "q-")))
    shields = tuple(name for name in names if name.startswith("s-"))
    players = tuple(name for name in names if player_part(name)[0])
    grouped = {*quarters, *shields, *players}
    fixed = tuple(name for name in names if name not in grouped)
    seats = tuple(tuple(f"{kind}{i}" for kind in PLAYER_PARTS) for i in range(len(players) // len(PLAYER_PARTS)))
    if (*fixed, *quarters, *shields, *_by_kind(len(seats))) != names:
        raise ValueError("the parts of a game are not in the page's order")
    return fixed, quarters, shields, seats


@functools.lru_cache(maxsize=8)
def _by_kind(players: int) -> tuple[str, ...]:
    """The players' parts as ``part_names`` lists them: each kind for every seat (``player0``, ``player1``, …)."""
    return tuple(f"{kind}{i}" for kind in PLAYER_PARTS for i in range(players))
