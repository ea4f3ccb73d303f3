"""The map's row of steady cells made from the row before it is the row made afresh (``hell_map._steady_cells``).

After a soul move, a bring or a guardian's push, the map's row of steady cells is made from the last row kept for
the same side, guardians, phone and language: a shield whose soul is the very same object keeps its cell, the others
are made again. Random games (base and expansion, 2-4 players), every state in turn, in English and Spanish, for a
phone that may act and one that waits: each row equals the row made without any kept row, and a shield whose soul
did not change keeps the very same cell.
"""

from __future__ import annotations

import random

import pytest
from flask import Flask

from companion.editions import DEFAULT_EDITION, load_all
from companion.game.commands import CreateGame
from companion.game.edition import Edition
from companion.game.errors import RuleViolation
from companion.game.projection import evolve, replay
from companion.game.rules import decide, decide_create
from companion.game.state import GameState
from companion.web.screens import hell_map
from companion.web.screens.hell_map import _steady_cells
from testkit.random_play import choices
from tests.builders import seats


def _states(edition: Edition, seed: int, steps: int) -> list[GameState]:
    rng = random.Random(seed)
    players = rng.randint(2, 4)
    command = CreateGame(players=seats(players), expansion=rng.random() < 0.5, plague_card=(2, 4, 6, 8))
    state = replay(edition, decide_create(edition, command))
    out = [state]
    for _ in range(steps):
        if state.ended:
            break
        try:
            events = decide(state, rng.choice(choices(state, rng)))
        except RuleViolation:
            continue
        for event in events:
            state = evolve(state, event)
        out.append(state)
    return out


def _row(state: GameState, interactive: bool, words: str) -> tuple[hell_map.Cell, ...]:
    guardian_at: dict[str, str] = {}
    for name, at in state.guardians.items():
        guardian_at.setdefault(at, name)
    glyphs = {q["id"]: q.get("glyph", q["id"][:1].upper()) for q in state.edition.raw["quarters"]}
    return _steady_cells(state, interactive, glyphs, words, guardian_at)


def _afresh(state: GameState, interactive: bool, words: str) -> tuple[hell_map.Cell, ...]:
    """The row made with no row kept (neither for this Hell nor the last one), the caches left as they were."""
    rows, last_rows = hell_map._ROWS._items.copy(), hell_map._LAST_ROWS._items.copy()
    hell_map._ROWS.clear()
    hell_map._LAST_ROWS.clear()
    try:
        return _row(state, interactive, words)
    finally:
        hell_map._ROWS.clear()
        hell_map._LAST_ROWS.clear()
        for key, kept in rows.items():
            hell_map._ROWS.put(key, kept)
        for key, last in last_rows.items():
            hell_map._LAST_ROWS.put(key, last)


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_a_row_made_from_the_last_one_is_the_row_made_afresh(app: Flask, seed: int) -> None:
    edition = load_all()[DEFAULT_EDITION][1]
    states = _states(edition, seed, 160)
    made_from_last = 0
    for language in ("en", "es"):
        with app.test_request_context("/", headers={"Accept-Language": language}):
            words = hell_map._language()
            for interactive in (True, False):
                hell_map._ROWS.clear()
                hell_map._LAST_ROWS.clear()
                before: GameState | None = None
                last: tuple[hell_map.Cell, ...] = ()
                for state in states:
                    near = hell_map._LAST_ROWS.get(
                        (id(state.edition), id(state.side), id(state.guardians), interactive, words)
                    )
                    row = _row(state, interactive, words)
                    fresh = _afresh(state, interactive, words)
                    assert row == fresh, f"seed {seed}, {language}: the row made from the last one differs"
                    if near is not None and before is not None and state.hell is not before.hell:
                        made_from_last += 1
                        for old, cell in zip(last, row, strict=True):
                            if state.hell.get(cell.shield) is before.hell.get(cell.shield):
                                assert cell is old, f"shield {cell.shield}: its soul did not change, its cell did"
                    before, last = state, row
    assert made_from_last > 10  # the games moved souls: rows were made from the last ones
