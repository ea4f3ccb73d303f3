"""The map of Hell as drawing instructions: where each shield, soul, line and gate goes.

This builds a view model for ``templates/screens/hell_map.html`` (over ``screens/hell_board.html``)
from the state, the legal moves (``companion.game.legal``) and what the player has tapped
(``select``). It decides nothing:
what may be tapped to move comes from the legal moves; everything else on the map is tapped
to ask the rules, which answer with the reason.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any, NamedTuple

from companion.game.edition import Side
from companion.game.legal import TurnOptions
from companion.game.rules.hell import HellMove
from companion.game.state import GameState, Phase, Soul
from companion.service.caches import Lru
from companion.web.screens.hell_steps import FerrySteps, GuardianSteps
from companion.web.words.catalogue import gettext as _gettext
from companion.web.words.catalogue import language
from companion.web.words.glossary import colour_name, guardian_name, player_letter, quarter_name

__all__ = ["Cell", "FerrySteps", "GuardianSteps", "HellMap", "build_map"]

WIDTH = 400.0
LEFT = 40.0
TOP = 14.0
ROW = 62.0
WALL_GAP = 22.0


class Cell(NamedTuple):
    """One shield on the map and what tapping it does (a named tuple: ~70 are made for each map, and a map
    that changed is compared cell by cell with the last one drawn, ``screens.parts``)."""

    shield: str
    circle: int
    x: float
    y: float
    width: float
    glyph: str
    quarter: str
    soul: Soul | None
    guardian: str | None
    tap: str | None  # "select", "deselect", "land", "confirm", "try", "bring", "why", "ferry", "guard"
    # A steady tap ("select", "why", "try") is the same in every phase and with any soul chosen: what
    # it does now is said by a shared description (``HellMap.souls_live``/``try_live``), so a shield is
    # drawn again only when what stands on it, or its own special tap, changes.
    move: HellMove | None
    label: str
    link: str = ""  # the query a "guard" tap opens


@dataclass(frozen=True)
class HellMap:
    """Everything the SVG needs, in its own coordinates."""

    width: float
    height: float
    rows: tuple[tuple[int, float, str, str, str], ...]  # circle, y, colour hex, colour name, sin key
    cells: tuple[Cell, ...]
    lines: tuple[tuple[float, float, float, float], ...]
    wall_y: float
    gates: tuple[tuple[float, float, str, tuple[tuple[str, str], ...]], ...]  # x, y, gate, discs (letter, hex)
    desks: tuple[tuple[float, float, str, str], ...]  # x, y, owner letter, owner hex
    selected: str | None
    selected_moves: tuple[HellMove, ...]
    bring_colour: int | None
    interactive: bool
    guardian: GuardianSteps | None = None
    steady: bool = False  # the phone may act: its shields keep their taps in every phase (``live`` says which work)
    souls_live: bool = False  # a tap on a soul chooses it (or says why it cannot move) now
    try_live: bool = False  # a tap on an empty shield asks whether the chosen soul may land there now
    guard_try: bool = False  # a tap on an empty shield chooses it for the guardian being used (its first step)
    bring_to: tuple[str, ...] = ()  # the shields whose steady tap brings the soul chosen in the Cemetery now

    @functools.cached_property
    def by_shield(self) -> dict[str, Cell]:
        """The cells by shield, worked out once per map (a map is held and answers many taps). Not to be changed."""
        return {c.shield: c for c in self.cells}


def _row_y(circle: int) -> float:
    return TOP + (circle - 1) * ROW + (WALL_GAP if circle >= 6 else 0.0)


Layout = tuple[dict[str, tuple[float, float, float]], tuple[tuple[float, float, float, float], ...]]
_SIDES: dict[int, tuple[Side, Layout, dict[tuple[Any, ...], Cell]]] = {}
STEADY_CELLS = 16384  # per side: ~70 shields, each with what may stand on it, playable or not, in 2 languages


def _side_layout(side: Side) -> tuple[Layout, dict[tuple[Any, ...], Cell]]:
    """What is worked out once per board side: where each shield goes (x, y, width) and its lines down, and the
    steady cells made so far (``_steady_cell``). A side is the edition's, unchanged while it lives; it holds
    dicts, so it is found by identity."""
    held = _SIDES.get(id(side))
    if held is not None and held[0] is side:
        return held[1], held[2]
    out: dict[str, tuple[float, float, float]] = {}
    span = WIDTH - LEFT - 6
    for circle, row in side.rows.items():
        width = span / len(row)
        for i, shield in enumerate(row):
            out[shield] = (LEFT + (i + 0.5) * width, _row_y(circle) + ROW / 2, width)
    lines = []
    for origin, targets in side.lines.items():
        x1, y1, _ = out[origin]
        for target in targets:
            x2, y2, _ = out[target]
            lines.append((x1, y1 + 18, x2, y2 - 20))
    if len(_SIDES) >= 64:
        _SIDES.clear()
    layout: Layout = (out, tuple(lines))
    _SIDES[id(side)] = (side, layout, {})
    return layout, _SIDES[id(side)][2]


def _layout(side: Side) -> Layout:
    """Where each shield of ``side`` goes (x, y, width) and its lines down (``_side_layout``)."""
    return _side_layout(side)[0]


@functools.lru_cache(maxsize=4096)
def _words(language: str, message: str, values: tuple[tuple[str, Any], ...]) -> str:
    """``message`` translated (the request's language, named in the key) with its values put in.

    The map's labels say the same few hundred things in every game: held per language, a map is
    worded without Flask-Babel's lookup of the locale and the catalogue for each of its ~200 phrases."""
    return str(_gettext(message, **dict(values)))


def _language() -> str:
    return language()


def gettext(message: str, **values: Any) -> str:
    """Flask-Babel's ``gettext`` for the map's words, held per language (``_words``)."""
    return _words(_language(), message, tuple(sorted(values.items())))


@functools.lru_cache(maxsize=8192)
def _cell_words(
    language: str, shield: str, circle: int, quarter: str, soul: tuple[int, str] | None, guardian: str | None
) -> str:
    """A shield's label without what tapping it does, held per language and what stands on it."""
    text = gettext(
        "%(shield)s, circle %(circle)s, %(quarter)s",
        shield=shield.upper(),
        circle=circle,
        quarter=quarter_name(quarter),
    )
    if soul is not None:
        colour, lies = soul
        how = (
            gettext("petrified")
            if lies == "petrified"
            else gettext("laid down")
            if lies == "laid"
            else gettext("standing")
        )
        text += gettext(": %(colour)s soul, %(how)s", colour=colour_name(colour), how=how)
    if guardian:
        text += gettext(": guardian %(name)s", name=guardian_name(guardian))
    return text


def _label(state: GameState, shield: str, extra: str, guardian: str | None, words: str) -> str:
    """A shield's label in the language ``words``: what stands on it (``guardian``: the one there, or None),
    then ``extra`` (what tapping it does)."""
    info = state.side.shields[shield]
    soul = state.hell.get(shield)
    lies = None if soul is None else (soul.colour, "petrified" if soul.petrified else "laid" if soul.laid else "up")
    text = _cell_words(words, shield, info.circle, info.quarter, lies, guardian)
    return f"{text}. {extra}".strip()


def build_map(
    state: GameState,
    options: TurnOptions,
    select: str | None,
    player_hex: dict[str, str],
    interactive: bool,
    ferry: FerrySteps | None = None,
    using: GuardianSteps | None = None,
    steady_guard: bool = False,
    held_cells: bool = True,
) -> HellMap:
    """The map for this state; ``select`` is a shield id or ``cemetery-<colour>``; ``using``: a guardian's steps.

    ``steady_guard`` (a phone with script): a guardian's first step (its new shield) keeps the empty shields'
    steady taps, which the map's values turn into that choice (``guard_try``, ``static/js/table.js``), so
    choosing a guardian sends no shield; a page without script gets a link on each of those shields. Likewise
    a soul chosen in the Cemetery: the empty shields of circle 1 keep their steady tap, and the map's values
    name them (``bring_to``) for the tap to bring it there, so choosing it and bringing it send no shield but
    the one it lands on; a page without script gets a "bring" tap on each.

    ``held_cells=False`` works out every cell afresh, none from ``_steady_cell`` (a test compares the two)."""
    pos, lines = _layout(state.side)
    in_hell = interactive and options.phase is Phase.HELL and not options.plague_due
    guard_try = bool(interactive and not in_hell and steady_guard and using and not using.to_shield and using.shields)
    selected, bring_colour = _chosen(state, select) if in_hell else (None, None)
    selected_moves = options.moves_from(selected) if selected else ()
    landing_moves: dict[str, list[HellMove]] = {}
    for m in selected_moves:
        landing_moves.setdefault(m.landing, []).append(m)
    guarding = using if interactive and not in_hell else None
    choice = _Choice(
        interactive, in_hell, selected, landing_moves, bring_colour, ferry, guarding, guard_try, steady_guard
    )
    cells, bring_to = _cells(state, options, choice, held_cells)
    wall_y = _row_y(6) - WALL_GAP / 2
    rows = tuple(
        (c, _row_y(c), state.edition.circles[c].hex, colour_name(c), state.edition.circles[c].sin)
        for c in sorted(state.side.rows)
    )
    return HellMap(
        width=WIDTH,
        height=_row_y(9) + ROW + 8,
        rows=rows,
        cells=cells,
        lines=lines,
        wall_y=wall_y,
        gates=_gates(state, pos, player_hex, wall_y),
        desks=_desks(state, pos, player_hex),
        selected=selected,
        selected_moves=selected_moves,
        bring_colour=bring_colour,
        interactive=in_hell or (interactive and using is not None),
        guardian=using,
        steady=interactive,
        souls_live=in_hell and ferry is None,
        try_live=(in_hell and ferry is None and selected is not None) or guard_try,
        guard_try=guard_try,
        bring_to=bring_to,
    )


@dataclass(frozen=True)
class _Choice:
    """What the player has chosen on the map so far, as the shields' taps depend on it."""

    interactive: bool  # the phone may act
    in_hell: bool  # the Hell phase, the plague card not due
    selected: str | None  # the soul chosen
    landing_moves: dict[str, list[HellMove]]  # where the soul chosen may land, and the ways there
    bring_colour: int | None  # the Cemetery colour chosen
    ferry: FerrySteps | None
    using: GuardianSteps | None  # a guardian being used (outside the Hell phase)
    guard_try: bool  # a guardian's first step is the empty shields' steady tap
    steady_guard: bool  # a phone with script: the map's values say where a guardian or a bring may go

    def bring_here(self, state: GameState, shield: str) -> bool:
        """Whether the soul chosen in the Cemetery may be brought to ``shield`` (empty, circle 1)."""
        chosen = self.in_hell and self.bring_colour is not None
        return chosen and state.side.shields[shield].circle == 1 and not state.occupied(shield)


def _chosen(state: GameState, select: str | None) -> tuple[str | None, int | None]:
    """The soul chosen in Hell and the colour chosen in the Cemetery, from ``select`` (in the Hell phase)."""
    if select and select.startswith("cemetery-"):
        colour = select.removeprefix("cemetery-")
        return None, int(colour) if colour.isdigit() and int(colour) in state.cemetery else None
    return (select if select in state.hell else None), None


def _cells(
    state: GameState, options: TurnOptions, choice: _Choice, held_cells: bool
) -> tuple[tuple[Cell, ...], tuple[str, ...]]:
    """Every shield's cell, and the shields whose steady tap brings the soul chosen in the Cemetery."""
    pos, _ = _layout(state.side)
    words = _language()
    guardian_at: dict[str, str] = {}
    for name, at in state.guardians.items():
        guardian_at.setdefault(at, name)  # the first one there, as ``_label`` finds it
    glyphs = {q["id"]: q.get("glyph", q["id"][:1].upper()) for q in state.edition.raw["quarters"]}
    in_hell, steady_guard = choice.in_hell, choice.steady_guard
    bringing = in_hell and choice.bring_colour is not None
    # a shield no choice under way touches has its steady cell (what stands on it, its steady tap), made once
    # per side, shield, occupant and language (``_steady_cell``): a guardian's steps or the ferry touch them all
    plain = held_cells and choice.using is None and not (in_hell and choice.ferry is not None)
    touched = {choice.selected, *choice.landing_moves} if choice.selected else set()  # the soul and its landings
    # every shield's steady cell, the whole row found again while Hell is the same (``_steady_cells``)
    steady_row = _steady_cells(state, choice.interactive, glyphs, words, guardian_at) if plain else ()
    if plain and not touched and not (bringing and not steady_guard):
        # a phone with script: the map's values say where the soul chosen in the Cemetery may land
        bring_to = tuple(sh for sh in pos if choice.bring_here(state, sh)) if bringing else ()
        if steady_row or not pos:
            return steady_row, bring_to
    cells: list[Cell] = []
    landings: list[str] = []
    for index, (shield, (x, y, width)) in enumerate(pos.items()):
        info = state.side.shields[shield]
        soul = state.hell.get(shield)
        guardian = guardian_at.get(shield)
        bring_here = choice.bring_here(state, shield)
        if bring_here and steady_guard:
            landings.append(shield)  # its steady "try" tap brings the soul (the map's values, table.js)
        if plain and not (bring_here and not steady_guard) and shield not in touched:
            cells.append(steady_row[index])  # the row's cell: ``_steady_cell`` of this shield, soul and guardian
            continue
        tap, extra, link, move = _tap(state, options, choice, shield, soul is None and guardian is None, bring_here)
        if tap is None and choice.interactive:  # steady: what it does now is the map's shared description
            tap = _steady_tap(soul, guardian)
        label = _label(state, shield, extra, guardian, words)
        quarter = info.quarter
        cells.append(
            Cell(shield, info.circle, x, y, width, glyphs[quarter], quarter, soul, guardian, tap, move, label, link)
        )
    return tuple(cells), tuple(landings)


def _tap(
    state: GameState, options: TurnOptions, choice: _Choice, shield: str, empty: bool, bring_here: bool
) -> tuple[str | None, str, str, HellMove | None]:
    """What tapping ``shield`` does while a choice is under way: (tap, label extra, query, move); no tap when its
    steady tap stands (``empty``: no soul nor guardian on it)."""
    none: tuple[str | None, str, str, HellMove | None] = (None, "", "", None)
    if choice.using is not None and not (choice.guard_try and empty):
        return (*_guardian_tap(state, choice.using, shield), None)
    ferry = choice.ferry
    if choice.in_hell and ferry is not None:
        if not ferry.phlegyas_to and shield in ferry.destinations:
            return "ferry", gettext("Phlegyas may go here: tap to choose."), "", None
        if ferry.phlegyas_to and not ferry.soul and shield in ferry.souls:
            return "ferry", gettext("A soul the ferryman can carry: tap to choose."), "", None
        if ferry.soul and not ferry.side and shield in ferry.sides:
            return "ferry", gettext("A sideways shield that leaves a regular move: tap to choose."), "", None
        return none
    if not choice.in_hell:
        return none
    colour = choice.bring_colour
    if bring_here and colour is not None:
        if choice.steady_guard:
            return none
        said = gettext("Tap to bring the %(colour)s soul here.", colour=colour_name(colour))
        move = next((m for m in options.bring_moves if m.colour == colour and m.landing == shield), None)
        return "bring", said, "", move
    if choice.selected and shield == choice.selected:
        return "deselect", gettext("Selected. Tap again to cancel."), "", None
    if choice.selected and shield in choice.landing_moves:
        moves = choice.landing_moves[shield]
        move = min(moves, key=lambda m: (len(m.tolls), m.wall_pass, m.path))
        simple = len({(m.tolls, m.wall_pass) for m in moves}) == 1 and not move.tolls
        affordable = state.p[state.active].drachmas >= move.total_drachmas
        tap = "land" if simple and affordable else "confirm"
        return tap, gettext("A legal landing: tap to move here."), "", move
    return none


def _gates(
    state: GameState, pos: dict[str, tuple[float, float, float]], player_hex: dict[str, str], wall_y: float
) -> tuple[tuple[float, float, str, tuple[tuple[str, str], ...]], ...]:
    """Each gate of the Wall of Dis above its shield, with the safe-passage discs on it (letter, colour)."""
    gates = []
    for gate, shield in state.side.gates.items():
        x, _, _ = pos[shield]
        discs = tuple(
            (player_letter(seat.colour, seat.letter), player_hex.get(seat.colour, "#888"))
            for seat, p in zip(state.players, state.p, strict=True)
            if gate in p.discs
        )
        gates.append((x, wall_y, gate, discs))
    return tuple(gates)


def _desks(
    state: GameState, pos: dict[str, tuple[float, float, float]], player_hex: dict[str, str]
) -> tuple[tuple[float, float, str, str], ...]:
    """Each player's Desks, under their shields (x, y, the owner's letter and colour)."""
    desks = []
    for seat, p in zip(state.players, state.p, strict=True):
        for i, shield in enumerate(p.desks):
            x, y, _ = pos[shield]
            desks.append(
                (x - 10 + 8 * i, y + 22, player_letter(seat.colour, seat.letter), player_hex.get(seat.colour, "#888"))
            )
    return tuple(desks)


def _steady_tap(soul: Soul | None, guardian: str | None) -> str:
    """A shield's tap in every phase: choose the soul standing on it, ask why it cannot move (a soul laid
    down, a guardian there), or try a landing on it (empty)."""
    if soul is not None and not soul.laid:
        return "select"
    return "why" if soul is not None or guardian is not None else "try"


_ROWS: Lru[tuple[object, ...], tuple[object, object, object, object, tuple[Cell, ...]]] = Lru(256)
"""The steady cells of every shield of a map (``_steady_cells``), by the objects they were made from."""

_LAST_ROWS: Lru[tuple[object, ...], tuple[object, object, object, dict[str, Soul], tuple[Cell, ...]]] = Lru(256)
"""The latest row of steady cells for a side, its guardians, a phone that may act or not and a language, with the
souls it was made from: the next Hell's row keeps the cells of the shields whose soul did not change."""


def _steady_cells(
    state: GameState, interactive: bool, glyphs: dict[str, str], words: str, guardian_at: dict[str, str]
) -> tuple[Cell, ...]:
    """Every shield's steady cell (``_steady_cell``), in the map's order, found again while the side, the souls in Hell
    and the guardians are the very objects they were made from (a state is never changed once made: a tap that leaves
    Hell as it was, a loan, a send, an accusation, shares them), and the phone may act or not as then, in the same
    language. ``tests/web/screens/test_part_cache.py`` compares every map with the map worked out afresh."""
    key = (id(state.edition), id(state.side), id(state.hell), id(state.guardians), interactive, words)
    held = _ROWS.get(key)
    if (
        held is not None
        and held[0] is state.edition
        and held[1] is state.side
        and held[2] is state.hell
        and held[3] is state.guardians
    ):
        return held[4]
    (pos, _), _ = _side_layout(state.side)
    infos = state.side.shields
    hell = state.hell
    near = (id(state.edition), id(state.side), id(state.guardians), interactive, words)
    last = _LAST_ROWS.get(near)
    if last is not None and last[0] is state.edition and last[1] is state.side and last[2] is state.guardians:
        # the row before this Hell's (a soul move changed a shield or two): a shield whose soul is the very same
        # keeps its cell, which it alone decides (``_steady_cell``: the side, the soul, the guardian, the words)
        before, last_row = last[3], last[4]
        row = tuple(
            held
            if (soul := hell.get(shield)) is before.get(shield)
            else _steady_cell(
                state, shield, soul, guardian_at.get(shield), interactive, glyphs[infos[shield].quarter], words
            )
            for shield, held in zip(pos, last_row, strict=True)
        )
    else:
        row = tuple(
            _steady_cell(
                state,
                shield,
                hell.get(shield),
                guardian_at.get(shield),
                interactive,
                glyphs[infos[shield].quarter],
                words,
            )
            for shield in pos
        )
    _ROWS.put(key, (state.edition, state.side, hell, state.guardians, row))
    _LAST_ROWS.put(near, (state.edition, state.side, state.guardians, hell, row))
    return row


def _steady_cell(
    state: GameState, shield: str, soul: Soul | None, guardian: str | None, interactive: bool, glyph: str, words: str
) -> Cell:
    """A shield's cell when no choice under way touches it: what stands on it, its label, and its steady tap on
    a phone that may act (choose a soul, ask why, try a landing: the map's values say which work now). Kept per
    side (``_side_layout``) and by everything the cell holds."""
    side = state.side
    (pos, _), cells = _side_layout(side)
    key = (shield, soul, guardian, interactive, glyph, words)
    cell = cells.get(key)
    if cell is None:
        tap = _steady_tap(soul, guardian) if interactive else None
        x, y, width = pos[shield]
        info = side.shields[shield]
        label = _label(state, shield, "", guardian, words)
        cell = Cell(shield, info.circle, x, y, width, glyph, info.quarter, soul, guardian, tap, None, label, "")
        if len(cells) >= STEADY_CELLS:
            cells.clear()
        cells[key] = cell
    return cell


def _guardian_tap(state: GameState, steps: GuardianSteps, shield: str) -> tuple[str | None, str, str]:
    """What tapping ``shield`` does while a guardian is being used: (tap, label extra, query)."""
    name = guardian_name(steps.guardian)
    if not steps.to_shield:
        if shield in steps.shields:
            return "guard", gettext("%(g)s may move here: tap to choose.", g=name), steps.query(to_shield=shield)
        return None, "", ""
    if shield == steps.to_shield:
        return "guard", gettext("%(g)s's new shield. Tap again to choose another.", g=name), steps.query(to_shield="")
    if shield not in steps.near:
        return None, "", ""
    if steps.guardian == "plutus":
        if shield == steps.desk:
            return "guard", gettext("Your Desk goes below here."), steps.query(desk="")
        return "guard", gettext("Tap to put your Desk below this shield."), steps.query(desk=shield)
    query = steps.query(targets=steps.toggled(shield))
    if shield in steps.targets:
        return "guard", gettext("Chosen for the effect. Tap again to leave it."), query
    return "guard", gettext("Next to %(g)s: tap to choose for its effect.", g=name), query
