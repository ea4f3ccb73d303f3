"""Only what changed: the game page's parts, their fingerprints, and where the eye goes next.

The game page is cut into parts (turn, the plague card, actions, the loan, Hell's prompt, the map's board, the
Wall of Dis, the map's values and desks, one part per shield of the map, Cemetery, two per quarter of Florence
(its title, its tiles), four per player, undo bar). A phone says which version of each part it shows
(``HX-Game-Parts``); an answer carries only the parts that differ, as htmx out-of-band swaps, with only their new
fingerprints (``game:update``'s ``changed``, merged into what the phone holds: ``merge_parts``), and names
the element showing the result of the tap or the next step, which the phone brings into view and focuses
(``static/js/table.js``).

A part is drawn with marks where a fresh idempotency key, the session's CSRF token or the log's seq
goes (a form's ``seq``, the ``at=`` of a link), so its fingerprint is the same for every phone and
every request, and does not change with a tap that changes nothing it shows; the marks are filled
only in what is sent. A part the phone keeps is brought to the new seq there
(``static/js/table.js``: ``game:update`` rewrites its ``seq`` and ``at`` fields and links).

The plague card is the same in every answer: it stays on the phone, hidden (``static/css/app.css``) until the
actions hold its form (``form="plague-form"``), so a Cemetery emptied sends that form and the card's title only.

The parts that are costly to draw (the map's board and shields, the quarters of Florence, each player)
and the map's view model are kept per process with the inputs they were drawn from
(``Slots``), and drawn again only when those inputs differ: a tap that changes one player's
purse draws that player, the actions and the undo bar, not the map.

The map's shields are parts of their own (nested ``<svg>`` elements, which htmx parses and swaps out
of band): a soul move sends the shields it left and reached and those its choice lit, not the map.
A shield's taps that follow the phase or a choice (choose a soul, ask why, try a landing) are drawn
the same in every phase; the map's values (part ``cells``: the fields every map tap sends, through
``hx-include``, and the shared words saying what those taps do now) change instead, and
``static/js/table.js`` shows an idle one as an image, out of the tab order. A guardian's first step (its new
shield) is such a steady tap too: the empty shields keep theirs and the map's values say where it leads now
(``data-guard``), so choosing a guardian at the Bonfire sends no shield (it sent ~37 links, ~20 KB).
"""

from __future__ import annotations

import functools
import hashlib
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, cast

from flask import Flask, current_app, g, render_template, request
from flask.globals import _cv_app
from flask_wtf.csrf import generate_csrf
from markupsafe import Markup, escape

from companion.game.legal import TurnOptions
from companion.game.state import GameState, Phase
from companion.service import AnyView
from companion.service.caches import Slots
from companion.web.forms.fields import new_key
from companion.web.process import process
from companion.web.screens.hell_map import Cell, FerrySteps, GuardianSteps, HellMap, build_map
from companion.web.screens.history import Entry, latest_entries
from companion.web.screens.part_markup import (
    cemetery,
    florence_tiles,
    player_family,
    player_purse,
    player_tower,
    player_tracks,
    undo_bar,
)
from companion.web.screens.shield_markup import map_shield
from companion.web.words.catalogue import language as request_language
from companion.web.words.catalogue import template_words

__all__ = [
    "PARTS",
    "SEQ_MARK",
    "MarkedView",
    "Part",
    "assembled",
    "client_parts",
    "compact",
    "digest",
    "fill",
    "focus_target",
    "install",
    "install_macros",
    "map_keep",
    "marked_context",
    "merge_parts",
    "out_of_band",
    "part_names",
    "part_slots",
    "parts_to_send",
    "remembered",
    "remembered_map",
    "render_parts",
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
PLAYER_PARTS = ("player", "family", "tower", "tracks")
"""A player's parts, each followed by the player's seat: ``player0``, ``family0``, ``tower0``, ``tracks0``."""
KEY_MARK = Markup("&key;")  # not a character reference any text could turn into: text's "&" is escaped
CSRF_MARK = Markup("&csrf;")
SEQ_MARK = Markup("&seq;")
NESTED = {"prompt": "actions", "pick": "actions"}
"""A part drawn inside another, which holds an empty copy of it (its digest is the same whatever the nested part
shows): the loan to confirm, or a refusal whose control is not on the screen, atop the actions; the guardians to
choose at the Bonfire (the one chosen is marked). An answer sends
the nested part alone when only it changed (htmx swaps it in place inside its holder), else inside its holder."""
_EMPTY = {name: re.compile(rf'<div id="part-{name}" data-part="{name}">\s*</div>') for name in NESTED}
CSRF_FIELD = '<input type="hidden" name="csrf_token" value="&csrf;">'  # as every template writes it
_HTMX_FORM_TAG = re.compile(r'<form\b[^>]*\bhx-post="[^"]*"[^>]*>\s*')
"""An htmx form's opening tag (and the blank after it): a CSRF field right after it is left out of an htmx answer."""
_JSON_AMP = "\\u0026"  # a mark's "&" as a JSON string in an attribute writes it (``hx-vals``)


@dataclass(frozen=True)
class Part:
    """One part as drawn with marks (the same for every phone), its fingerprint, and the two as ``HX-Game-Parts``
    names them (``name:digest``: written once, when the part is drawn, not for each of ~100 parts an answer)."""

    html: str
    digest: str
    word: str


def install(app: Flask) -> None:
    """While parts are drawn, ``csrf_token()`` writes a mark (filled in what is sent)."""
    real: Callable[[], str] = app.jinja_env.globals.get("csrf_token", generate_csrf)  # type: ignore[assignment]

    def csrf_token() -> str:
        ctx = _cv_app.get(None)  # not through ``g``'s proxy: asked for each form drawn
        return CSRF_MARK if ctx is not None and ctx.g.get("marking_parts") else real()

    app.jinja_env.globals["csrf_token"] = csrf_token
    app.jinja_env.globals["kept_markup"] = kept_markup


def kept_markup(name: str, *inputs: Any, caller: Callable[[], str]) -> Markup:
    """A template's call block drawn once per process for each language and ``inputs``, then kept (``{% call
    kept_markup("send-list", …) %}…{% endcall %}``): for markup that repeats from game to game and turn to turn
    (the Florence send list's buttons), drawn when the part holding it is. ``inputs`` must be all the block
    reads (hashable); it writes no mark that changes between answers but ``&key;``, ``&seq;`` and ``&csrf;``.
    ``tests/web/screens/test_part_cache.py`` compares every part with the part drawn without kept markup."""
    if not g.get("marking_parts") or g.get("no_kept_markup"):
        return Markup(caller())
    return _KEPT_MARKUP.get_or_make((request_language(), name, *inputs), None, lambda: Markup(caller()))


_KEPT_MARKUP: Slots[tuple[Any, ...], Markup] = Slots(size=4096)
"""``kept_markup``'s blocks, for every game of the process (what they show does not name a game)."""


GAME_MACROS = ("field_errors", "colour_classes")


def install_macros(app: Flask) -> None:
    """The game's parts call ``macros.html``'s field errors and colours macros as globals: an import in
    each part's block made Jinja compare the environment's ~50 globals on every part drawn (the action forms,
    refusal boxes and markers are Python: ``screens.form_markup``)."""
    module = app.jinja_env.get_template("macros.html").module
    for name in GAME_MACROS:
        app.jinja_env.globals[name] = getattr(module, name)


def part_slots(games: int) -> Slots[tuple[str, ...], Any]:
    """The process's kept parts: by game and language, the map's model twice (interactive and still),
    the board, the Wall, the desks, Florence, the Cemetery, the turn, Hell's prompt, the undo bar, the map's values,
    four parts per player and a part per shield (up to ~70 shields, twice: a phone that may act and a
    waiting one), 200 slots for each game the view cache holds. A few small parts keep several drawings
    (``_DEPTHS``): ~60 KB of markup a game and language in the bench's mix, ~110 KB with them."""
    return Slots(size=200 * games)


def part_names(state: GameState) -> tuple[str, ...]:
    """Every part of this game's page: the fixed ones, then one per quarter and shield, four per player."""
    return _part_names(tuple(state.side.shields), len(state.players), state.edition.quarters)


@functools.lru_cache(maxsize=256)
def _part_names(shields: tuple[str, ...], players: int, quarters: tuple[str, ...]) -> tuple[str, ...]:
    """``part_names`` for a board side's shields, a number of players and the edition's quarters (~100 names: made
    once per layout, not for every answer)."""
    quartered = tuple(f"{part}{quarter}" for part in ("qn-", "q-") for quarter in quarters)
    return PARTS + quartered + tuple(f"s-{shield}" for shield in shields) + _by_kind(players)


def compact(html: str) -> str:
    r"""The markup without indentation and blank lines (the game page has no preformatted text): each run of
    spaces and tabs ending a line, its newline and all whitespace after it become one newline.

    What ``re.sub(r"[ \t]*\n\s*", "\n", html)`` makes, line by line with ``str``'s own strips: that pattern
    starts with no character to look for, so ``re`` tries a match at every character (~0.7 ms for 8 KB,
    ~0.1 ms this way). ``tests/web/screens/test_compact.py`` holds the two equal."""
    lines = html.split("\n")
    if len(lines) == 1:
        return html
    middle = [kept for line in lines[1:-1] if (kept := line.lstrip().rstrip(" \t"))]
    return "\n".join([lines[0].rstrip(" \t"), *middle, lines[-1].lstrip()])


def digest(html: str) -> str:
    """A short fingerprint of a part drawn with marks."""
    return hashlib.sha256(html.encode()).hexdigest()[:12]


def fill(html: str, seq: int, csrf: bool = True) -> str:
    """Marked markup made ready to send: a fresh key for each form, this session's CSRF token, the seq.

    ``csrf=False`` for an answer to htmx, whose every request carries the token in a header (``base.html``:
    ``hx-headers``; Flask-WTF reads the header when a form has no token field): its htmx forms' token fields
    are left out, ~130 bytes less a form. A plain form (posted by the browser, without htmx's header)
    keeps its field, filled with this session's token.

    Each mark (``&key;``, ``&csrf;``, ``&seq;``, or with its ``&`` written ``\\u0026`` in JSON) is found by the string's
    own search, not by a regex tried at each of an answer's ~5,000 characters (~20 µs an answer, twice: the token
    fields, then the marks). ``tests/web/screens/test_fill.py`` holds it equal to the regexes it replaced."""
    if "key;" not in html and "csrf;" not in html and "seq;" not in html:
        return html
    if not csrf and CSRF_FIELD in html:
        html = _without_htmx_csrf(html)  # a plain form (a seat, "Our board is different") keeps its own
    if "csrf;" in html and ("&csrf;" in html or f"{_JSON_AMP}csrf;" in html):
        token = generate_csrf()
        html = html.replace("&csrf;", token).replace(f"{_JSON_AMP}csrf;", token)
    now = str(seq)
    html = html.replace("&seq;", now).replace(f"{_JSON_AMP}seq;", now)
    for mark in ("&key;", f"{_JSON_AMP}key;"):  # neither a token, a seq nor a key holds "&" or a backslash
        if mark in html:
            first, *rest = html.split(mark)
            html = first + "".join(new_key() + piece for piece in rest)
    return html


def _without_htmx_csrf(html: str) -> str:
    """``html`` without the CSRF field of each htmx form: each field looked at where it stands (a few an answer), left
    out when the text before it ends with an htmx form's opening tag (``_HTMX_FORM_TAG``) begun after the last field
    left out. What one regex, ``(<form\\b[^>]*\\bhx-post="[^"]*"[^>]*>\\s*)`` and the field, replaced by its group
    did, tried at each character (``tests/web/screens/test_fill.py`` holds the two equal). The tag is looked for from
    the last ``<form`` before the field back: in the app's markup, the last one."""
    pieces = html.split(CSRF_FIELD)
    text, resume = pieces[0], 0  # where the regex would go on looking after a field it left out
    for piece in pieces[1:]:
        start = text.rfind("<form", resume)
        while start >= 0 and _HTMX_FORM_TAG.fullmatch(text, start) is None:
            start = text.rfind("<form", resume, start)
        if start >= 0:
            resume = len(text)
        else:
            text += CSRF_FIELD
        text += piece
    return text


class MarkedView:
    """The game's view as the parts see it: its seq a mark (``SEQ_MARK``), all else the view's own."""

    __slots__ = ("_view",)

    def __init__(self, view: Any) -> None:
        self._view = view

    @property
    def seq(self) -> Markup:
        return SEQ_MARK

    def __getattr__(self, name: str) -> Any:
        return getattr(self._view, name)


def _slots() -> Slots[tuple[str, ...], Any]:
    return process().parts


def _slot(game_id: str, name: str) -> tuple[str, ...]:
    return (game_id, request_language(), name)


def remembered_map(
    game_id: str,
    state: GameState,
    options: TurnOptions,
    select: str | None,
    player_hex: dict[str, str],
    interactive: bool,
    ferry: FerrySteps | None = None,
    using: GuardianSteps | None = None,
    steady_guard: bool = False,
) -> HellMap:
    """``build_map``, reused while everything it reads is equal (a loan or a card changes none of it)."""
    active = state.p[state.active]
    in_hell = interactive and options.phase is Phase.HELL and not options.plague_due
    # out of the Hell phase the map's taps are steady (or a guardian's): what a soul move reads is left out,
    # so a Florence phase's or a location's taps find the map drawn for the one before
    hellish = (
        (
            state.cemetery,
            state.active,
            active.drachmas if select else None,  # only a chosen soul's landings ask what the player can pay
            options.hell_moves,  # the bring moves too
            select,
            ferry,
        )
        if in_hell
        else None
    )
    inputs = (
        state.edition.content_hash,
        state.side,
        state.hell,
        state.guardians,
        state.players,
        tuple((p.discs, p.desks) for p in state.p),
        in_hell,
        hellish,
        player_hex,
        interactive,
        using,
        steady_guard,
    )
    slot = _slot(game_id, "map" if interactive else "map-still")

    def make() -> HellMap:
        return build_map(
            state, options, select, player_hex, interactive, ferry=ferry, using=using, steady_guard=steady_guard
        )

    return _slots().get_or_make(slot, inputs, make)  # type: ignore[no-any-return]


def remembered_entries(view: AnyView) -> tuple[Entry | None, Entry | None]:
    """``latest_entries`` (the undo bar's last entry and the entry redo would put back), told again only when
    they change: the last entry is an action told against the state before it, the same while it is the last
    one in effect (an earlier entry changes only by undoing it first, or by a replacement, a new action); the
    entry to redo is told against the game as it is now, so its seq is among the inputs."""
    timeline = view.timeline
    last = timeline.last_undoable
    redo = timeline.undone[-1] if timeline.undone else None
    inputs = (view.edition.content_hash, last, redo, view.seq if redo is not None else None)
    slot = _slot(view.game_id, "latest")
    return _slots().get_or_make(slot, inputs, lambda: latest_entries(view))  # type: ignore[no-any-return]


_ANSWER_EXTRAS = ("refusal", "refusal_fallback", "loan_confirm", "errors", "step", "readonly")
"""What an answer may carry besides the game (a refusal, a loan to confirm, a step of the history): a part
that may show one of them is drawn afresh when one is there."""


def _marks(view: Any) -> dict[str, Any]:
    """What a template draws as a mark: the view's seq, a fresh key, the CSRF token (Flask-WTF's context
    processor puts its own ``csrf_token`` in every context, over the marking global: given here, it wins)."""
    return {"view": MarkedView(view), "new_key": lambda: KEY_MARK, "csrf_token": lambda: CSRF_MARK}


def remembered(game_id: str, name: str, inputs: tuple[Any, ...], template: str, **context: Any) -> str:
    """``template`` drawn with marks, kept per process and language with the inputs it was drawn from, like a
    part: the phones of a table that fetch it after the same answer get one drawing (filled by ``fill``)."""
    language = request_language()

    def make() -> str:
        g.marking_parts = True
        try:
            return compact(render_template(template, **{**context, **_marks(context["view"])})).strip()
        finally:
            g.marking_parts = False

    return _slots().get_or_make((game_id, language, name), inputs, make)  # type: ignore[no-any-return]


def _carries_extras(context: dict[str, Any]) -> bool:
    """Whether the answer carries more than the game (``_ANSWER_EXTRAS``): worked out once an answer, not by each part
    that asks (~8 of them, ~2 µs each)."""
    return any(context.get(extra) for extra in _ANSWER_EXTRAS)


def _inputs(name: str, context: dict[str, Any], extras: bool) -> tuple[Any, ...] | None:
    """What a part is drawn from, or None for a part drawn on every answer (the actions, but for a turn done, and
    the small parts when the answer carries a refusal, a loan to confirm or a step of the history: ``extras``,
    ``_carries_extras``).

    The seq is not among them: it is a mark (``MarkedView``). ``tests/web/screens/test_part_cache.py``
    compares every kept part with the part drawn afresh over random games."""
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
        return (edition, context["view"].game_id, *_shield_context(name, context).values())
    if name.startswith("qn-"):  # a quarter's title: whether it is the turn's
        quarter = name.removeprefix("qn-")
        return (edition, quarter, quarter == state.quarter)
    if name.startswith("q-"):
        quarter, tiles = _quarter(name, context)
        return (edition, quarter, tiles, state.players)
    kind, i = _player_part(name)
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
    (``actions_markup.actions_part``)."""
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
def _depth(name: str) -> int:
    """How many drawings of ``name`` its slot keeps (``_DEPTHS``; a quarter's two: its title with and without the
    turn's badge, and its tiles; a player's three: an undo and a redo bring back the two before)."""
    if name in _DEPTHS:
        return _DEPTHS[name]
    if name.startswith(("qn-", "q-")):
        return 2
    return 3 if _player_part(name)[0] else 1


@functools.lru_cache(maxsize=1024)
def _player_part(name: str) -> tuple[str, int]:
    """A player's part and the player's seat (``("tower", 2)`` for ``tower2``), or ``("", 0)`` (kept by name: ~40
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
    globals_: dict[str, Any] = _cv_app.get().app.jinja_env.globals
    active = state.players[state.active]
    options = context["options"]
    next_link = globals_["next_game_link"](context["view"], False) if state.ended else None  # only a game over has one
    ended = globals_["ended_reason"](state) if state.ended else None
    # what ``phase_text`` reads (the language is the slot's), not its sentence: ~10 µs of words an answer
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


def _quarter(name: str, context: dict[str, Any]) -> tuple[str, Any]:
    """A quarter of Florence and its tiles, as the board shows them."""
    quarter = name.removeprefix("q-").removeprefix("qn-")
    return quarter, next(tiles for q, tiles in context["florence_board"] if q == quarter)


def _shield_context(name: str, context: dict[str, Any]) -> dict[str, Any]:
    """All a shield's part reads besides the game's id and edition: its cell and what it is tapped for."""
    m: HellMap = context["hell_map"]
    cells: dict[str, Cell] = context.get("map_cells") or m.by_shield
    c, picked, confirm_from, ferry_steps = _shield_reads(m, cells[name.removeprefix("s-")], context["ferry"])
    return {"c": c, "picked": picked, "confirm_from": confirm_from, "ferry_steps": ferry_steps}


def _shield_reads(m: HellMap, c: Cell, ferry: FerrySteps | None) -> tuple[Cell, bool, str | None, FerrySteps | None]:
    """A shield's cell, whether it is picked (the soul chosen, a guardian's shield, Desk or target), the soul a
    confirm tap moves from, and the ferry's steps for a ferry tap."""
    g = m.guardian
    picked = c.shield == m.selected or bool(g and (c.shield in (g.to_shield, g.desk) or c.shield in g.targets))
    return c, picked, m.selected if c.tap == "confirm" else "", ferry if c.tap == "ferry" else None


def render_block(template: str, block: str | None, context: dict[str, Any]) -> str:
    """A block of ``template`` (the whole template for ``None``) drawn in ``context`` over the environment's globals
    and what Flask's context processors give (``_template_base``: worked out once a request, and only when a part
    is drawn by Jinja: most answers draw all theirs in Python). (Jinja's own ``new_context`` looks each of the ~50
    globals up through a ``ChainMap`` for every part drawn, and ``jinja2_fragments.flask`` runs the context
    processors for every part too.)"""
    env = current_app.jinja_env
    tpl = env.get_template(template)
    ctx = env.context_class(env, {**_template_base(), **context}, tpl.name, tpl.blocks)
    try:
        return env.concat((tpl.root_render_func if block is None else tpl.blocks[block])(ctx))
    except Exception:
        env.handle_exception()


def _template_base() -> dict[str, Any]:
    """The environment's globals under the values of Flask's context processors, as ``render_template`` gives a
    template (a context's own values go over both), worked out once a request."""
    ctx = _cv_app.get()  # read once, not through ``g``'s and ``current_app``'s proxies
    here, app = ctx.g, ctx.app
    base: dict[str, Any] | None = here.get("template_base")
    if base is None:
        processed: dict[str, Any] = {}
        app.update_template_context(processed)
        base = here.template_base = {**app.jinja_env.globals, **processed}
    return base


def _draw(name: str, context: dict[str, Any]) -> Part:
    if name.startswith("s-"):
        html = str(map_shield(context["view"].game_id, **_shield_context(name, context)))  # not Markup: filled as text
    elif name.startswith("q-"):
        quarter, tiles = _quarter(name, context)
        html = compact(str(florence_tiles(quarter, tiles, context["state"])))
    elif name.startswith("qn-"):
        quarter, tiles = _quarter(name, context)
        html = compact(
            render_block("pages/game.html", "quarter_title", {**context, "quarter": quarter, "tiles": tiles})
        )
    elif name == "desks":
        html = compact(render_block("screens/hell_map.html", "map_desks", context))
    elif name == "pick":
        html = compact(render_block("screens/guardian_pick.html", None, context))
    elif name == "cemetery":
        html = compact(str(cemetery(context["state"])))
    elif name == "undo":
        html = compact(
            str(
                undo_bar(
                    context["view"],
                    context["new_key"],
                    context.get("refusal"),
                    context.get("last_entry"),
                    context.get("redo_entry"),
                    context.get("seat_prompt"),
                )
            )
        )
    elif (mine := _player_part(name))[0]:
        kind, i = mine
        state = context["state"]
        info, p = state.players[i], state.p[i]
        if kind == "player":
            drawn = player_purse(i, info, p, state)
        elif kind == "family":
            drawn = player_family(i, p)
        elif kind == "tower":
            drawn = player_tower(i, info, p, state)
        else:
            drawn = player_tracks(i, info, p, state)
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
        **_marks(context["view"]),
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
    language = request_language()  # found once: ~80 parts are looked up an answer
    marked = marked_context(context, language)
    slots = _slots()
    still = "-still" if not m.steady else ""  # a waiting phone's map, kept apart

    extras = _carries_extras(marked)

    def part(name: str) -> Part:
        inputs = _inputs(name, marked, extras)
        draw = functools.partial(_draw, name, marked)
        kept = f"{name}{still}" if name.startswith("s-") else name
        return draw() if inputs is None else slots.get_or_make((game_id, language, kept), inputs, draw, _depth(name))

    fixed, quarters, shield_names, seats = _layout(part_names(context["state"]))
    # the shields, ~70 parts, as a whole while the map is the one kept (``remembered_map``: a loan, a card,
    # Florence's taps) or equal to it: only a map that changed asks its shields, and of those only the ones
    # whose cell changed since the last map drawn (``_shield_context``'s inputs: the cell, and what the map
    # says of all shields: the soul chosen, the guardian's steps, the ferry)
    map_inputs: MapInputs = (context["state"].edition.content_hash, m, context.get("ferry"))
    group = (game_id, language, f"shields{still}")
    last = slots.latest(group)

    def shields() -> dict[str, Part]:
        same = _same_cells(last, map_inputs)
        return {name: same[name] if name in same else part(name) for name in shield_names}

    # a player's four parts as a whole while the player is the same (``_inputs``: each reads only the player, its
    # seat and whether the game has the expansion), and the quarters' titles and tiles while Florence is the same
    # (the board, the turn's quarter, the seats): ~20 parts an answer found in 5 looks, each kept three deep like
    # its parts (an undo and a redo bring back the two before); one that changed asks its parts one by one
    state: GameState = context["state"]
    edition = state.edition.content_hash

    def together(slot: str, inputs: tuple[Any, ...], members: tuple[str, ...]) -> dict[str, Part]:
        made: dict[str, Part] = slots.get_or_make(
            (game_id, language, slot), inputs, lambda: {name: part(name) for name in members}, 3
        )
        return made

    here = _cv_app.get().g  # not through ``g``'s proxy
    here.marking_parts = True
    try:
        # in the page's order (``part_names``): the fixed parts, the quarters', the shields', the players'
        parts: dict[str, Part] = {name: part(name) for name in fixed}
        board = (edition, state.quarter, context["florence_board"], state.players)
        parts.update(together("quarters", board, quarters))
        # made for ``shield_names`` (``shields``) and kept for an equal map: the same side, the same shields in order
        parts.update(slots.get_or_make(group, map_inputs, shields))
        found: dict[str, Part] = {}
        for i, (info, members) in enumerate(zip(state.players, seats, strict=True)):
            found.update(together(f"player-parts{i}", (edition, info, state.expansion, state.p[i]), members))
        parts.update((name, found[name]) for name in _by_kind(len(seats)))
    finally:
        here.marking_parts = False
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
    players = tuple(name for name in names if _player_part(name)[0])
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


MapInputs = tuple[str, HellMap, "FerrySteps | None"]
"""What the shields of a map are drawn from as a whole: the edition, the map, the ferry's steps."""


def _same_cells(last: tuple[object, dict[str, Part]] | None, map_inputs: MapInputs) -> dict[str, Part]:
    """The shields of the last map drawn whose part this map's would be: the same edition, and all the shield's
    part reads the same (``_shield_reads``: its cell, whether it is picked, what a confirm or ferry tap holds)."""
    if last is None:
        return {}
    kept_inputs, parts = last
    edition, before, ferry = cast(MapInputs, kept_inputs)
    now_edition, m, now_ferry = map_inputs
    if edition != now_edition:
        return {}
    # what a shield's part reads of the whole map besides its cell (``_shield_reads``): when it is the same in both,
    # an equal cell (most often the very same one, ``hell_map._steady_cells``) is the same part
    reads_alike = m.selected == before.selected and m.guardian == before.guardian and now_ferry == ferry
    olds, news = before.cells, m.cells
    if len(olds) != len(news) or any(a.shield != b.shield for a, b in zip(olds, news, strict=True)):
        return {}  # not the same side's shields: every shield drawn afresh
    same: dict[str, Part] = {}
    for old, c in zip(olds, news, strict=True):
        if old is not c and old != c:
            continue
        if reads_alike or _shield_reads(before, old, ferry) == _shield_reads(m, c, now_ferry):
            same[f"s-{c.shield}"] = parts[f"s-{c.shield}"]
    return same


ANSWER_BUDGET = 8 * 1024
"""An answer's bytes at most (before compression; app config ``ANSWER_BUDGET``): past them, the parts the phone
needs least come in a second answer it asks for at once (``answer_later``)."""

_OUT_OF_BAND = len(' hx-swap-oob="true"')
_KEY_GROWTH = len(new_key()) - len(KEY_MARK)  # a form's key mark, filled


def answer_later(
    pieces: dict[str, str], active: int, budget: int, seq: int, keep: frozenset[str] = frozenset()
) -> set[str]:
    """The parts of an answer (``pieces``, marked) it leaves for a second answer, which the phone asks for at once
    (the answer's ``game:update`` says ``more``; those parts keep the digests the phone holds, so it asks for them).

    None while the answer is within ``budget`` bytes as it is sent (its keys and seq filled, its htmx forms without
    their CSRF field). Past it: the other players' purses, families,
    towers and sin tracks, then the quarters' tiles, then the active player's, the largest first, until it is within;
    and only then the shields of the map but those in ``keep`` (the ones the tap chose or lit: ``map_keep``). The
    actions, the turn, the undo bar, the loan, the map's values and the shields kept always come in the first
    answer: the player reads the actions first. (The largest answers are undos back into the Florence phase: the send
    list, two players' tracks, the tiles; ``bench/README.md``. The shields go second only for a phone whose map was
    drawn for a page without script, whose next tap turns ~37 empty shields back to their steady taps: a page
    reloaded in the middle of a guardian's choice.)"""
    seq_growth = len(str(seq)) - len(SEQ_MARK)

    def sent(html: str) -> int:  # its bytes as ``fill`` sends them: a fresh key, the seq
        return (
            len(html.encode()) + _KEY_GROWTH * html.count(KEY_MARK) + seq_growth * html.count(SEQ_MARK) + _OUT_OF_BAND
        )

    if sum(sent(html) for html in pieces.values()) <= budget:
        return set()
    # past it at first sight: exactly, without the CSRF fields an htmx answer's forms leave out (``fill``)
    sizes = {name: sent(_without_htmx_csrf(html)) for name, html in pieces.items()}
    over = sum(sizes.values()) - budget
    if over <= 0:
        return set()

    def rank(name: str) -> tuple[int, int]:
        kind, seat = _player_part(name)
        group = 0 if kind and seat != active else 2 if kind else 3 if name.startswith("s-") else 1
        return (group, -sizes[name])

    movable = (n for n in pieces if _player_part(n)[0] or n.startswith("q-") or (n.startswith("s-") and n not in keep))
    later: set[str] = set()
    for name in sorted(movable, key=rank):
        if over <= 0:
            break
        later.add(name)
        over -= sizes[name]
    return later


def map_keep(m: HellMap) -> frozenset[str]:
    """The shields of ``m`` a tap chose or lit (the soul chosen and its landings; a guardian's new shield, its Desk,
    its targets and the souls near it), as parts: they come in an answer's first part whatever its size
    (``answer_later``)."""
    shown: set[str | None] = {m.selected, *(move.landing for move in m.selected_moves)}
    g = m.guardian
    if g is not None:
        shown.update((g.to_shield, g.desk, *g.targets, *g.near))
    return frozenset(f"s-{shield}" for shield in shown if shield)


def out_of_band(name: str, html: str) -> str:
    """The part marked to be swapped in place of the one with its id."""
    return html.replace(f'data-part="{name}"', f'data-part="{name}" hx-swap-oob="true"', 1)


def parts_to_send(words: Sequence[str], raw: str) -> list[str]:
    """The names of this answer's parts (``words``: each part's ``name:digest``, in order) that the phone's
    ``HX-Game-Parts`` (``raw``) does not say it holds as they are now: its words compared whole, as a set (~10 µs a
    tap less than reading the header into a dict first, ``client_parts``; ``test_parts_header`` holds the two equal for
    any header that names each part once, as a phone's does)."""
    held = set(raw.split())
    return [word.partition(":")[0] for word in words if word not in held]


def merge_parts(held: str, changed: str) -> str:
    """The parts a phone holds (``name:digest`` words, as in ``HX-Game-Parts``) once an answer's ``changed`` ones are
    swapped in: each named in ``changed`` takes its new digest, in its place, a new one at the end. What
    ``static/js/table.js`` does with a ``game:update``'s ``changed`` (``mergeParts``)."""
    merged = dict(_HELD.findall(held))
    merged.update(_HELD.findall(changed))
    return " ".join(f"{name}:{digest}" for name, digest in merged.items())


def client_parts() -> dict[str, str] | None:
    """The parts digests the phone says it shows (``HX-Game-Parts``), or None for a whole swap."""
    raw = request.headers.get("HX-Game-Parts")
    if not raw:
        return None
    return dict(_HELD.findall(raw))


_HELD = re.compile(r"([^\s:]*):(\S*)")
"""A part the phone holds, ``name:digest``, in ``HX-Game-Parts``: each word with a colon split at its first one (a
hundred parts with the shields: one ``findall``, not a split per word; ``test_parts_header`` holds them equal)."""


def focus_target(context: dict[str, Any]) -> str:
    """The id of the element showing the answer to what was just tapped, or the next step."""
    if context.get("loan_confirm"):
        return "loan-confirm"
    refusal = context.get("refusal")
    if refusal:
        return f"refusal-{refusal['control']}"
    if context.get("notice_kind") == "conflict" or context["state"].ended:
        return "turn-title"
    if context.get("guardian_steps"):
        return "map-prompt"
    if context.get("accuse"):
        return "accuse-title"
    ferry = context.get("ferry")
    if ferry and ferry.side:
        return "ferry-landing"  # the landings are listed above the map, not on it
    if ferry or (context.get("select") and context["hell_map"].interactive):
        return "map-prompt"
    return "actions-title"
