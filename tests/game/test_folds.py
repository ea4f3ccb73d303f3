"""``evolve`` finds again the folds it just made: judging a command, recording it and telling it in the undo
bar fold the same events onto the same state, and get the same state back (``projection.FOLDS_CACHED``)."""

from __future__ import annotations

import dataclasses
import random

from companion.game import projection
from companion.game.commands import CreateGame
from companion.game.edition import Edition
from companion.game.errors import RuleViolation
from companion.game.projection import FOLDS_CACHED, evolve, replay
from companion.game.rules import decide, decide_create
from companion.game.state import GameState, Phase
from events.catalog import Event
from testkit.random_play import choices
from tests.builders import seats


def _random_game(edition: Edition, seed: int, steps: int) -> list[Event]:
    """The events of a random legal game of ``steps`` commands at most."""
    rng = random.Random(seed)
    events = list(decide_create(edition, CreateGame(players=seats(3), expansion=True, plague_card=(2, 4, 6, 8))))
    state = replay(edition, events)
    for _ in range(steps):
        if state.phase is Phase.OVER:
            break
        try:
            made = decide(state, rng.choice(choices(state, rng)))
        except RuleViolation:  # a choice the rules refuse here: another one
            continue
        for event in made:
            state = evolve(state, event)
        events += made
    return events


def test_the_same_state_and_event_fold_to_the_very_state_made_before(edition: Edition) -> None:
    events = _random_game(edition, 5, 40)
    state = replay(edition, events[:-1])
    first = evolve(state, events[-1])
    assert evolve(state, events[-1]) is first


def test_an_equal_event_made_apart_folds_afresh_to_an_equal_state(edition: Edition) -> None:
    events = _random_game(edition, 6, 40)
    state = replay(edition, events[:-1])
    first = evolve(state, events[-1])
    last = events[-1]
    assert dataclasses.is_dataclass(last) and not isinstance(last, type)
    twin = dataclasses.replace(last)  # equal, another object: nothing says it is the same event
    again = evolve(state, twin)
    assert again is not first and again == first


def test_a_whole_game_folds_the_same_with_or_without_the_cached_folds(edition: Edition) -> None:
    for seed in range(4):
        events = _random_game(edition, seed, 150)
        cached: GameState = replay(edition, events[:1])
        fresh: GameState = cached
        for event in events[1:]:
            once = evolve(cached, event)
            assert evolve(cached, event) is once  # each fold made twice: the second is the first, found again
            cached = once
            projection._FOLDS.clear()
            fresh = evolve(fresh, event)
            assert cached == fresh
        assert cached == replay(edition, events)


def test_the_cached_folds_are_bounded(edition: Edition) -> None:
    events = _random_game(edition, 7, 120)
    assert len(events) > FOLDS_CACHED
    replay(edition, events)
    assert len(projection._FOLDS) <= FOLDS_CACHED


def test_two_events_folded_onto_one_state_each_lead_to_their_own_state(edition: Edition) -> None:
    rng = random.Random(8)
    events = _random_game(edition, 8, 60)
    state = replay(edition, events[:1])
    checked = 0
    for event in events[1:]:
        firsts = []  # the first event of each command the rules accept here
        for command in choices(state, rng):
            try:
                firsts.append(decide(state, command)[0])
            except RuleViolation:
                continue
        projection._FOLDS.clear()
        alone = [evolve(state, e) for e in firsts]  # each folded with none of the others cached
        projection._FOLDS.clear()
        for e in firsts:
            evolve(state, e)  # all cached, folded onto the very same state
        assert [evolve(state, e) for e in firsts] == alone
        checked += len(firsts) > 1
        state = evolve(state, event)
    assert checked > 10
