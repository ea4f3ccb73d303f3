"""The quick tally: entries checked against the ranges of the physical tracks, undoable, scored
by the same code as a recorded game."""

from __future__ import annotations

import pytest

from companion.game.commands import EnterCircle, EnterPlayer, PlaceHalfDiplomas, StartTally
from companion.game.errors import RuleViolation
from companion.game.scoring import BoardFacts, PlayerFacts, score
from companion.game.tally import decide_start_tally, decide_tally, replay_tally, tally_score
from events.catalog import TallyCircleEntered, TallyStarted


def start(edition, names=("Ana", "Ben", "Cleo")):
    events = decide_start_tally(edition, StartTally(names))
    return events, replay_tally(edition, events)


def refused(state, command, code: str) -> RuleViolation:
    with pytest.raises(RuleViolation) as info:
        decide_tally(state, command)
    assert info.value.code == code
    return info.value


def test_a_tally_picks_the_board_side_from_the_player_count(edition) -> None:
    events, state = start(edition)
    assert events == [TallyStarted(edition.id, edition.content_hash, ("Ana", "Ben", "Cleo"), "3-4")]
    assert state.side.id == "3-4"


def test_a_circle_entry_is_one_event(edition) -> None:
    _events, state = start(edition)
    assert decide_tally(state, EnterCircle(5, 2, 3)) == [TallyCircleEntered(5, 2, 3)]


def test_more_empty_shields_than_the_circle_has_is_refused_with_the_range(edition) -> None:
    _events, state = start(edition)
    exc = refused(state, EnterCircle(9, 5, 2), "out_of_range")  # circle 9 has 4 shields on the 3–4 side
    assert exc.params == {"field": "empty", "value": 5, "min": 0, "max": 4, "circle": 9}


def test_a_cube_off_the_scale_is_refused(edition) -> None:
    _events, state = start(edition)
    assert refused(state, EnterCircle(2, 0, 5), "out_of_range").params["max"] == 4


def test_a_skull_past_the_end_of_its_track_is_refused(edition) -> None:
    _events, state = start(edition)
    exc = refused(state, EnterPlayer(0, 10, (0, 0, 5, 0, 0, 0, 0, 0)), "out_of_range")
    assert exc.params == {"field": "skull", "value": 5, "min": 0, "max": 4, "track": 4}


def test_a_ship_past_the_loan_track_is_refused(edition) -> None:
    _events, state = start(edition)
    assert refused(state, EnterPlayer(0, 10, (0,) * 8, ship=7), "out_of_range").params["max"] == 6


def test_a_diploma_twice_on_one_track_is_refused(edition) -> None:
    _events, state = start(edition)
    refused(state, EnterPlayer(0, 10, (0,) * 8, diplomas=(3, 3)), "diploma_tracks")


def test_half_diplomas_go_one_per_pair_on_free_tracks(edition) -> None:
    events, state = start(edition)
    entry = decide_tally(state, EnterPlayer(0, 10, (1,) * 8, diplomas=(3,), half_diplomas=4))
    state = replay_tally(edition, events + entry)
    refused(state, PlaceHalfDiplomas(0, (3, 4)), "half_diploma_choice")  # a diploma is already on 3
    refused(state, PlaceHalfDiplomas(0, (4,)), "half_diploma_choice")  # two pairs need two tracks
    assert decide_tally(state, PlaceHalfDiplomas(0, (4, 5)))


def test_the_tally_scores_with_the_same_code_as_a_game(edition) -> None:
    events, state = start(edition, ("Ana",))
    events += decide_tally(state, EnterCircle(4, 1, 3))
    events += decide_tally(replay_tally(edition, events), EnterPlayer(0, 12, (0, 0, 3, 0, 0, 0, 0, 0), (4,), 0, 2))
    sheet = tally_score(replay_tally(edition, events))
    direct = score(
        edition,
        BoardFacts(empty={c: 0 for c in range(2, 10)} | {4: 1}, cubes={c: 2 for c in range(2, 10)} | {4: 3}),
        [PlayerFacts("Ana", 12, {4: 3}, frozenset({4}), 0, 2, requirements_checked=False)],
    )
    assert sheet.players == direct.players
    assert sheet.players[0].total == 12 + 3 * 3 - 2
