"""What each part of the game page is drawn from: a part held per process (``screens.parts.cache``) is drawn again
only when these inputs differ, and is found among the few drawings its slot keeps when they come back.

The seq is never among them: it is a mark (``screens.parts.marking``). ``tests/web/screens/test_part_cache.py``
compares every held part with the part drawn afresh over random games.
"""

from __future__ import annotations

import functools
from typing import Any, cast

from flask import current_app

from companion.game.legal import TurnOptions
from companion.game.state import GameState, Phase
from companion.web.screens.hell_map import Cell, FerrySteps, HellMap
from companion.web.screens.parts.marking import Part

__all__ = [
    "NESTED",
    "PLAYER_PARTS",
    "MapInputs",
    "carries_extras",
    "depth",
    "inputs",
    "player_part",
    "quarter_tiles",
    "same_cells",
    "shield_context",
]

PLAYER_PARTS = ("player", "family", "tower", "tracks")
"""A player's parts, each followed by the player's seat: ``player0``, ``family0``, ``tower0``, ``tracks0``."""
NESTED = {"prompt": "actions", "pick": "actions"}
"""A part drawn inside another, which holds an empty copy of it (its digest is the same whatever the nested part
shows): the loan to confirm, or a refusal whose control is not on the screen, atop the actions; the guardians to
choose at the Bonfire (the one chosen is marked). An answer sends
the nested part alone when only it changed (htmx swaps it in place inside its holder), else inside its holder."""

_ANSWER_EXTRAS = ("refusal", "refusal_fallback", "loan_confirm", "errors", "step", "readonly")
"""What an answer may carry besides the game (a refusal, a loan to confirm, a step of the history): a part
that may show one of them is drawn afresh when one is there."""


def carries_extras(context: dict[str, Any]) -> bool:
    """Whether the answer carries more than the game (``_ANSWER_EXTRAS``): worked out once an answer, not by each part
    that asks."""
    return any(context.get(extra) for extra in _ANSWER_EXTRAS)


def inputs(name: str, context: dict[str, Any], extras: bool) -> tuple[Any, ...] | None:
    """What a part is drawn from, or None for a part drawn on every answer (the actions, but for a turn done, and
    the small parts when the answer carries a refusal, a loan to confirm or a step of the history: ``extras``,
    ``carries_extras``).

    The seq is not among them: it is a mark (``MarkedView``). ``tests/web/screens/test_part_cache.py``
    compares every held part with the part drawn afresh over random games."""
    state: GameState = context["state"]
    m: HellMap = context["hell_map"]
    edition = state.edition.content_hash
    if name in ("turn", "hell", "undo", "cells", "loan"):
        if extras:
            return None
        return _small_inputs(name, context, state, m)
    if name == "actions":
        return _done_inputs(context, state, extras)
    if name == "pick":  # the guardians at the Bonfire, the one chosen: drawn on every answer there, else empty
        options = context["options"]
        at_bonfire = options.phase is Phase.ACTION and state.action == "bonfire"
        return None if at_bonfire and "underworld" in options.location_options else (edition,)
    if name in NESTED:  # empty but for a loan to confirm or a refusal shown there
        if extras:
            return None
        return (edition,)
    if name == "plague":  # the same card in every answer: shown while the actions hold its form (app.css)
        if extras:
            return None  # a refusal may bring back the counts entered, a step of the history shows no card
        return (edition,)
    if name == "board":  # with the page's colours (macros.html: colour_classes)
        return (edition, m.width, m.height, m.rows, m.lines, tuple(info.colour for info in state.players))
    if name == "wall":
        return (edition, m.width, m.height, m.wall_y, m.gates)
    if name == "desks":
        return (edition, m.desks)
    if name == "cemetery":
        return (edition, state.cemetery, state.quarter)
    if name.startswith("s-"):
        return (edition, context["view"].game_id, *shield_context(name, context).values())
    if name.startswith("qn-"):  # a quarter's title: whether it is the turn's
        quarter = name.removeprefix("qn-")
        return (edition, quarter, quarter == state.quarter)
    if name.startswith("q-"):
        quarter, tiles = quarter_tiles(name, context)
        return (edition, quarter, tiles, state.players)
    kind, i = player_part(name)
    if kind:
        p = state.p[i]
        if kind == "player":
            shown: tuple[Any, ...] = (p.infamy, p.florins, p.drachmas, p.ship, p.bells)  # who plays: the turn's
        elif kind == "family":
            shown = (p.home_nobles, p.home_urchins, p.reserve_urchins, p.placed)
        elif kind == "tower":
            shown = (p.tower,)
        else:  # the sin tracks, and the rest the player holds
            held = (p.half_diplomas, len(p.discs), p.fraud_hand, len(p.endgames), p.wall_passes, p.bells, p.desks)
            shown = (tuple(sorted(p.skulls.items())), p.diplomas, *held)
        return (edition, state.players[i], state.expansion, *shown)
    return None


def _done_inputs(context: dict[str, Any], state: GameState, extras: bool) -> tuple[Any, ...] | None:
    """What the actions show once the turn is done (after an accusation, the council, a location's last action): the
    player's title, the plague card's form when it is due and the end of the turn, the same each time that player gets
    there. Any other screen, or an answer with a refusal or a loan to confirm, None: drawn afresh
    (the ``part_actions`` block)."""
    options: TurnOptions = context["options"]
    if options.phase is not Phase.DONE or extras:
        return None
    if context.get("seat_prompt") or context.get("waiting") is not None or state.ended:
        return None
    active = state.active
    return (state.edition.content_hash, active, state.players[active], options.plague_due, options.can_end_turn)


_DEPTHS = {"turn": 48, "actions": 4, "cells": 24, "hell": 16, "cemetery": 8, "loan": 8, "undo": 3}
"""How many drawings of a part its slot keeps, for a part whose inputs come back: the turn's title and phase for
each player and phase (a round draws them all again), the map's values and Hell's prompt for each player, the
Cemetery for each quarter, the loan for each player, the undo bar back after an undo and a redo, the actions of a turn
done for each player."""


@functools.lru_cache(maxsize=512)
def depth(name: str) -> int:
    """How many drawings of ``name`` its slot keeps (``_DEPTHS``; a quarter's two: its title with and without the
    turn's badge, and its tiles; a player's three: an undo and a redo bring back the two before)."""
    if name in _DEPTHS:
        return _DEPTHS[name]
    if name.startswith(("qn-", "q-")):
        return 2
    return 3 if player_part(name)[0] else 1


@functools.lru_cache(maxsize=1024)
def player_part(name: str) -> tuple[str, int]:
    """A player's part and the player's seat (``("tower", 2)`` for ``tower2``), or ``("", 0)`` (held by name: ~40
    asks an answer)."""
    for kind in PLAYER_PARTS:
        if name.startswith(kind) and name[len(kind) :].isdigit():
            return kind, int(name[len(kind) :])
    return "", 0


def _small_inputs(name: str, context: dict[str, Any], state: GameState, m: HellMap) -> tuple[Any, ...] | None:
    """What the turn, Hell's prompt, the undo bar and the map's values show, in a plain answer."""
    edition = state.edition.content_hash
    if name == "cells":
        return (
            edition,
            m.interactive,
            m.guardian is None,
            m.selected,
            m.bring_colour,
            m.souls_live,
            m.try_live,
            state.active,
            (m.guardian.guardian, m.guardian.base) if m.guard_try and m.guardian else None,
            m.bring_to,
        )
    if name == "hell":
        if m.guardian is not None:
            return None  # a guardian's steps: forms of their own, drawn afresh
        soul = state.hell.get(m.selected) if m.selected else None
        select = context.get("select")
        return (
            edition,
            m.interactive,
            context.get("ferry"),
            m.selected,
            soul,
            bool(m.selected_moves),
            m.bring_colour,
            tuple(context.get("stuck") or ()),
            select if select in state.side.shields else None,
        )
    if name == "loan":
        shown = not context.get("seat_prompt") and context.get("waiting") is None and not state.ended
        options: TurnOptions = context["options"]
        return (edition, options.next_loan if shown else None, state.active, context.get("open_for") == "loan")
    if name == "undo":
        last, redo = context.get("last_entry"), context.get("redo_entry")
        return (tuple(last.sentences) if last else None, bool(redo), bool(context.get("seat_prompt")))
    # the turn: who plays, the phase in words, the last turns, the game's end, the table's next game
    globals_ = cast(dict[str, Any], current_app.jinja_env.globals)
    active = state.players[state.active]
    options = context["options"]
    next_link = globals_["next_game_link"](context["view"], False) if state.ended else None  # only a game over has one
    ended = globals_["ended_reason"](state) if state.ended else None
    # what ``phase_text`` reads (the language is the slot's), not its sentence
    phase = (state.needs_plague_card, state.phase, state.quarter) if not state.ended else None
    last_turns = (state.final_turns_left, state.active == state.end_trigger)
    return (
        edition,
        next_link,
        context.get("notice"),
        context.get("notice_kind") if context.get("notice") else None,
        active,
        bool(state.ended),
        ended,
        phase,
        options.phase,
        options.plague_due,  # the plague card's title
        bool(options.location_options),
        last_turns,
    )


def quarter_tiles(name: str, context: dict[str, Any]) -> tuple[str, Any]:
    """A quarter of Florence and its tiles, as the board shows them."""
    quarter = name.removeprefix("q-").removeprefix("qn-")
    return quarter, next(tiles for q, tiles in context["florence_board"] if q == quarter)


def shield_context(name: str, context: dict[str, Any]) -> dict[str, Any]:
    """All a shield's part reads besides the game's id and edition: its cell and what it is tapped for."""
    m: HellMap = context["hell_map"]
    cells: dict[str, Cell] = context.get("map_cells") or m.by_shield
    c, picked, confirm_from, ferry_steps = shield_reads(m, cells[name.removeprefix("s-")], context["ferry"])
    return {"c": c, "picked": picked, "confirm_from": confirm_from, "ferry_steps": ferry_steps}


def shield_reads(m: HellMap, c: Cell, ferry: FerrySteps | None) -> tuple[Cell, bool, str | None, FerrySteps | None]:
    """A shield's cell, whether it is picked (the soul chosen, a guardian's shield, Desk or target), the soul a
    confirm tap moves from, and the ferry's steps for a ferry tap."""
    g = m.guardian
    picked = c.shield == m.selected or bool(g and (c.shield in (g.to_shield, g.desk) or c.shield in g.targets))
    return c, picked, m.selected if c.tap == "confirm" else "", ferry if c.tap == "ferry" else None


MapInputs = tuple[str, HellMap, "FerrySteps | None"]
"""What the shields of a map are drawn from as a whole: the edition, the map, the ferry's steps."""


def same_cells(last: tuple[object, dict[str, Part]] | None, map_inputs: MapInputs) -> dict[str, Part]:
    """The shields of the last map drawn whose part this map's would be: the same edition, and all the shield's
    part reads the same (``shield_reads``: its cell, whether it is picked, what a confirm or ferry tap holds)."""
    if last is None:
        return {}
    held_inputs, parts = last
    edition, before, ferry = cast(MapInputs, held_inputs)
    now_edition, m, now_ferry = map_inputs
    if edition != now_edition:
        return {}
    # what a shield's part reads of the whole map besides its cell (``shield_reads``): when it is the same in both,
    # an equal cell (most often the very same one, ``hell_map._steady_cells``) is the same part
    reads_alike = m.selected == before.selected and m.guardian == before.guardian and now_ferry == ferry
    olds, news = before.cells, m.cells
    if len(olds) != len(news) or any(a.shield != b.shield for a, b in zip(olds, news, strict=True)):
        return {}  # not the same side's shields: every shield drawn afresh
    same: dict[str, Part] = {}
    for old, c in zip(olds, news, strict=True):
        if old is not c and old != c:
            continue
        if reads_alike or shield_reads(before, old, ferry) == shield_reads(m, c, now_ferry):
            same[f"s-{c.shield}"] = parts[f"s-{c.shield}"]
    return same
