"""What the rules work out for a screen is freed by reference counting, none of it left in a reference cycle for
Python's cyclic collector (issue 27, item 5: a server's collections pause every request in flight, and the options
of a turn are worked out on every page and every tap). Over every state of random legal games: every soul's falls
(``soul_paths``), every accusation's check, refused ones and their reasons included."""

from __future__ import annotations

import gc
import random

import pytest

from companion.game.commands import CreateGame
from companion.game.edition import Edition
from companion.game.legal import turn_options
from companion.game.projection import replay
from companion.game.rules import decide_create
from companion.game.rules.accusation import accusation_checks
from companion.game.state import GameState
from testkit.random_play import play
from tests.builders import seats


def states_of_a_random_game(edition: Edition, seed: int, steps: int = 160) -> list[GameState]:
    rng = random.Random(seed)
    state = replay(edition, decide_create(edition, CreateGame(players=seats(2 + seed % 3), plague_card=(2, 5, 7))))
    states = [state]
    for _ in range(steps):
        state = play(state, rng, 1)
        states.append(state)
    return states


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_options_of_every_state_leave_nothing_to_the_cyclic_collector(edition: Edition, seed: int) -> None:
    states = states_of_a_random_game(edition, seed)
    refused = 0
    gc.collect()
    gc.disable()
    try:
        for state in states:
            turn_options(state)
            for player in range(len(state.p)):
                refused += sum(1 for check in accusation_checks(state, player) if not check.allowed)
        left = gc.collect()
    finally:
        gc.enable()
    assert refused > 0  # the refused checks, whose reasons are kept, were worked out too
    assert left == 0, f"{left} objects left in reference cycles"
