"""A quick tally scores exactly like a recorded game (RULES.md §7.2), fraud half diplomas included.

Property: a finished recorded game (random legal play) and its end board entered as a tally give
every player the same total. And the given/when/then behind it: in a tally, a half diploma from a
fraud card's end-game half pairs with an entered half when the table places them.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from companion.game.commands import CreateGame, EnterCircle, EnterPlayer, PlaceHalfDiplomas, StartTally
from companion.game.edition import Edition
from companion.game.projection import evolve, replay
from companion.game.rules import decide, decide_create
from companion.game.scoring import facts_from_state, score_state
from companion.game.state import GameState
from companion.game.tally import decide_start_tally, decide_tally, evolve_tally, replay_tally, tally_score
from events.catalog import EndgameHalf
from testkit.random_play import play
from tests.builders import seats

FRAUD_HALF = EndgameHalf("always", "half_diploma")


def test_a_fraud_half_diploma_pairs_with_an_entered_half_in_a_tally(edition: Edition) -> None:
    # Given Ana entered with one half diploma and a fraud card whose end-game half gives another
    state = replay_tally(edition, decide_start_tally(edition, StartTally(("Ana", "Ben"))))
    for e in decide_tally(state, EnterPlayer(0, 10, (0, 0, 0, 2, 0, 0, 0, 0), (), 1, 0, (FRAUD_HALF,))):
        state = evolve_tally(state, e)
    # When the table places her pair on the blue track (5)
    for e in decide_tally(state, PlaceHalfDiplomas(0, (5,))):
        state = evolve_tally(state, e)
    # Then the two halves make one diploma there: skull 2 × the cube's value 3 (space 2)
    ana = tally_score(state).players[0]
    assert ana.half_tracks == (5,) and not ana.half_suggested and ana.half_leftover == 0
    assert ana.total == 10 + 2 * 3


def _finished_game(edition: Edition, players: int, seed: int) -> GameState:
    rng = random.Random(seed)
    state = replay(edition, decide_create(edition, CreateGame(seats(players), plague_card=(2, 3, 5, 1))))
    return play(state, rng, tries=600)


def _as_tally(edition: Edition, state: GameState):
    board, facts = facts_from_state(state)
    sheet = score_state(state)
    tally = replay_tally(edition, decide_start_tally(edition, StartTally(tuple(f.name for f in facts))))
    commands: list[object] = [EnterCircle(c, board.empty[c], board.cubes[c]) for c in edition.track_circles]
    for i, (f, scored) in enumerate(zip(facts, sheet.players, strict=True)):
        applying = tuple(r.half for r in scored.fraud if r.holds)  # a tally enters only halves that apply
        skulls = tuple(f.skulls.get(t, 0) for t in edition.track_circles)
        commands.append(EnterPlayer(i, f.infamy, skulls, tuple(sorted(f.diplomas)), f.half_diplomas, f.ship, applying))
        if scored.half_tracks:
            commands.append(PlaceHalfDiplomas(i, scored.half_tracks))
    for command in commands:
        for e in decide_tally(tally, command):  # type: ignore[arg-type]
            tally = evolve_tally(tally, e)
    return sheet, tally_score(tally)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10_000), players=st.integers(2, 4))
def test_a_finished_game_and_its_board_as_a_tally_give_equal_totals(edition: Edition, seed: int, players: int) -> None:
    state = _finished_game(edition, players, seed)
    # a tally enters what its form accepts (ranges.infamy): random play that takes dozens of loans
    # can sink below it, and such a board cannot be entered as a tally at all
    low, high = edition.raw["ranges"]["infamy"]
    assume(all(low <= p.infamy <= high for p in state.p))
    for i, p in enumerate(score_state(state).players):
        if state.ended and p.half_tracks:
            for e in decide(state, PlaceHalfDiplomas(i, p.half_tracks)):
                state = evolve(state, e)
    game, tally = _as_tally(edition, state)
    assert [(p.name, p.total) for p in game.players] == [(p.name, p.total) for p in tally.players]
    assert [c.after for c in game.circles] == [c.after for c in tally.circles]
