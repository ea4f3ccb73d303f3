"""What a process keeps of the game page's parts (``Slots``): the map's model, the undo bar's entries, the drawings
of costly parts with the inputs they were drawn from, and template blocks shared by every game.

The parts that are costly to draw (the map's board and shields, the quarters of Florence, each player) and the
map's view model are held per process with the inputs they were drawn from, and drawn again only when those inputs
differ (``screens.parts.sources``): a tap that changes one player's purse draws that player, the actions and the undo
bar, not the map.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Flask, g, render_template
from markupsafe import Markup

from companion.game.legal import TurnOptions
from companion.game.state import GameState, Phase
from companion.service import GameView
from companion.service.caches import Slots
from companion.web.process import process
from companion.web.screens.hell_map import FerrySteps, GuardianSteps, HellMap, build_map
from companion.web.screens.history import Entry, latest_entries
from companion.web.screens.parts.marking import compact, marks
from companion.web.words.catalogue import language as request_language

__all__ = [
    "install",
    "part_slots",
    "remembered",
    "remembered_entries",
    "remembered_map",
    "shared_block",
    "slot",
    "slots",
]


def install(app: Flask) -> None:
    """``shared_block`` as the templates' global of its name."""
    app.jinja_env.globals["shared_block"] = shared_block


def shared_block(name: str, *inputs: Any, caller: Callable[[], str]) -> Markup:
    """A template's call block drawn once per process for each language and ``inputs``, then shared by every game
    (``{% call shared_block("send-list", …) %}…{% endcall %}``): for markup that repeats from game to game and turn to
    turn (the Florence send list's buttons), drawn when the part holding it is. ``inputs`` must be all the block
    reads (hashable); it writes no mark that changes between answers but ``&key;``, ``&seq;`` and ``&csrf;``.
    ``tests/web/screens/test_part_cache.py`` compares every part with the part drawn without shared blocks
    (``g.no_shared_blocks``)."""
    if not g.get("marking_parts") or g.get("no_shared_blocks"):
        return Markup(caller())
    return _SHARED_BLOCKS.get_or_make((request_language(), name, *inputs), None, lambda: Markup(caller()))


_SHARED_BLOCKS: Slots[tuple[Any, ...], Markup] = Slots(size=4096)
"""``shared_block``'s blocks, for every game of the process (what they show does not name a game)."""


def part_slots(games: int) -> Slots[tuple[str, ...], Any]:
    """The process's held parts: by game and language, the map's model twice (interactive and still),
    the board, the Wall, the desks, Florence, the Cemetery, the turn, Hell's prompt, the undo bar, the map's values,
    four parts per player and a part per shield (up to ~70 shields, twice: a phone that may act and a
    waiting one), 200 slots for each game the view cache holds. A few small parts keep several drawings
    (``parts.sources.depth``)."""
    return Slots(size=200 * games)


def slots() -> Slots[tuple[str, ...], Any]:
    """The current app's held parts."""
    return process().parts


def slot(game_id: str, name: str) -> tuple[str, ...]:
    """Where the part ``name`` of a game is held, in the request's language."""
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
    where = slot(game_id, "map" if interactive else "map-still")

    def make() -> HellMap:
        return build_map(
            state, options, select, player_hex, interactive, ferry=ferry, using=using, steady_guard=steady_guard
        )

    found: HellMap = slots().get_or_make(where, inputs, make)
    return found


def remembered_entries(view: GameView) -> tuple[Entry | None, Entry | None]:
    """``latest_entries`` (the undo bar's last entry and the entry redo would put back), told again only when
    they change: the last entry is an action told against the state before it, the same while it is the last
    one in effect (an earlier entry changes only by undoing it first, or by a replacement, a new action); the
    entry to redo is told against the game as it is now, so its seq is among the inputs."""
    timeline = view.timeline
    last = timeline.last_undoable
    redo = timeline.undone[-1] if timeline.undone else None
    inputs = (view.edition.content_hash, last, redo, view.seq if redo is not None else None)
    found: tuple[Entry | None, Entry | None] = slots().get_or_make(
        slot(view.game_id, "latest"), inputs, lambda: latest_entries(view)
    )
    return found


def remembered(game_id: str, name: str, inputs: tuple[Any, ...], template: str, **context: Any) -> str:
    """``template`` drawn with marks, held per process and language with the inputs it was drawn from, like a
    part: the phones of a table that fetch it after the same answer get one drawing (filled by ``fill``)."""
    language = request_language()

    def make() -> str:
        g.marking_parts = True
        try:
            return compact(render_template(template, **{**context, **marks(context["view"])})).strip()
        finally:
            g.marking_parts = False

    found: str = slots().get_or_make((game_id, language, name), inputs, make)
    return found
