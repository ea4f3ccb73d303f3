"""Final scoring as worked examples (seed 000 pp.16–17; RULES.md §7.2).

The shipped edition's (estimated) numbers used below: Phlegethon scale 1 2 3 4 5 (space 0 is
worth 1), skull levels 0–4, loan penalties by Ship space 0 1 2 4 6 9 12. Every expected value
here was worked out by hand from those numbers.
"""

from __future__ import annotations

from typing import Any

import pytest

from companion.game.scoring import BoardFacts, PlayerFacts, score
from events.catalog import EndgameHalf

TRACKS = (2, 3, 4, 5, 6, 7, 8, 9)


def board(cubes: dict[int, int] | None = None, empty: dict[int, int] | None = None) -> BoardFacts:
    cube = {c: 2 for c in TRACKS} | (cubes or {})
    return BoardFacts(empty={c: 0 for c in TRACKS} | (empty or {}), cubes=cube)


def player(name: str = "Ana", **kw) -> PlayerFacts:
    base: dict[str, Any] = {"infamy": 0, "skulls": {}, "diplomas": frozenset(), "half_diplomas": 0, "ship": 0}
    return PlayerFacts(name=name, **(base | kw))


@pytest.mark.parametrize(
    ("cube", "empty", "value"),
    [
        (2, 0, 3),  # no empty shield: the cube stays (value 3)
        (4, 0, 5),  # a raised cube with no empty shield keeps value 5
        (4, 1, 4),  # one empty shield: one space left
        (2, 2, 1),  # down to the leftmost space, value 1
        (2, 5, 1),  # five empty shields but never below 1
        (0, 3, 1),  # already at 1
    ],
)
def test_the_phlegethon_moves_left_per_empty_shield_never_below_one(edition, cube, empty, value) -> None:
    sheet = score(edition, board({5: cube}, {5: empty}), [player(skulls={5: 2}, diplomas=frozenset({5}))])
    adjust = next(c for c in sheet.circles if c.circle == 5)
    assert (adjust.empty, adjust.after) == (empty, value)
    assert sheet.players[0].circles[3].points == value * 2


def test_a_diploma_scores_phlegethon_value_times_skull(edition) -> None:
    sheet = score(edition, board({3: 4}), [player(skulls={3: 3}, diplomas=frozenset({3}))])
    row = next(r for r in sheet.players[0].circles if r.circle == 3)
    assert (row.value, row.skull, row.diploma, row.points) == (5, 3, True, 15)
    assert sheet.players[0].total == 15


def test_no_diploma_scores_zero_whatever_the_skull(edition) -> None:
    sheet = score(edition, board({7: 4}), [player(skulls={7: 4})])
    assert sheet.players[0].circles[5].points == 0
    assert sheet.players[0].total == 0


def test_a_diploma_with_no_skull_scores_zero(edition) -> None:
    sheet = score(edition, board(), [player(diplomas=frozenset({8}))])
    assert sheet.players[0].total == 0


def test_two_half_diplomas_become_one_diploma_on_the_best_free_track(edition) -> None:
    # skulls: purple 2 (value 3 → 6), red 4 (value 3 → 12), grey 1; a diploma already on red.
    facts = player(skulls={2: 2, 7: 4, 8: 1}, diplomas=frozenset({7}), half_diplomas=2)
    sheet = score(edition, board(), [facts])
    p = sheet.players[0]
    assert p.half_tracks == (2,)
    assert p.half_suggested is True
    assert p.total == 12 + 6


def test_four_halves_make_two_diplomas_and_an_odd_one_is_left_over(edition) -> None:
    facts = player(skulls={2: 1, 3: 2, 4: 3}, half_diplomas=5)
    p = score(edition, board(), [facts]).players[0]
    assert p.half_tracks == (4, 3)  # 3×3=9 then 3×2=6; purple (3) is left out
    assert p.half_leftover == 1
    assert p.total == 9 + 6


def test_the_players_own_half_diploma_choice_is_used(edition) -> None:
    facts = player(skulls={2: 1, 3: 2}, half_diplomas=2, half_choice=(2,))
    p = score(edition, board(), [facts]).players[0]
    assert p.half_tracks == (2,) and p.half_suggested is False
    assert p.total == 3


@pytest.mark.parametrize(("ship", "penalty"), [(0, 0), (1, 1), (2, 2), (3, 4), (4, 6), (5, 9), (6, 12)])
def test_loans_cost_the_penalty_printed_at_the_ship(edition, ship: int, penalty: int) -> None:
    p = score(edition, board(), [player(infamy=20, ship=ship)]).players[0]
    assert p.loan_penalty == penalty
    assert p.total == 20 - penalty


def test_infamy_scored_during_play_counts(edition) -> None:
    p = score(edition, board(), [player(infamy=17)]).players[0]
    assert p.during_play == 17 and p.total == 17


def test_ties_share_the_place(edition) -> None:
    sheet = score(edition, board(), [player("Ana", infamy=10), player("Ben", infamy=12), player("Cleo", infamy=12)])
    places = {p.name: p.place for p in sheet.players}
    assert places == {"Ben": 1, "Cleo": 1, "Ana": 3}
    assert sheet.winners == ("Ben", "Cleo")


def test_fraud_halves_apply_first_only_when_their_requirement_holds(edition) -> None:
    halves = (
        EndgameHalf("always", "infamy", effect_amount=4),
        EndgameHalf("no_loans", "infamy", effect_amount=10),  # fails: the Ship moved
        EndgameHalf("diplomas_at_least", "infamy_per_diploma", amount=1, effect_amount=2),
    )
    facts = player(ship=1, endgames=halves, skulls={5: 1}, diplomas=frozenset({5, 6}))
    p = score(edition, board(), [facts]).players[0]
    assert [(f.holds, f.infamy) for f in p.fraud] == [(True, 4), (False, 0), (True, 4)]
    assert p.total == 4 + 4 + 3 * 1 - 1


def test_a_fraud_skull_step_counts_before_the_diplomas(edition) -> None:
    half = EndgameHalf("skull_at_least", "skull", track=6, amount=2, effect_track=6)
    p = score(edition, board(), [player(skulls={6: 2}, diplomas=frozenset({6}), endgames=(half,))]).players[0]
    assert p.circles[4].skull == 3 and p.total == 9


def test_a_fraud_cube_move_happens_before_the_phlegethon_adjustment_for_everyone(edition) -> None:
    half = EndgameHalf("always", "cube_right", effect_track=9)
    sheet = score(
        edition,
        board(empty={9: 1}),
        [player("Ana", endgames=(half,)), player("Ben", skulls={9: 2}, diplomas=frozenset({9}))],
    )
    adjust = next(c for c in sheet.circles if c.circle == 9)
    assert adjust.after == 3  # space 2 → 3 by the card, then one empty shield → 2: value 3
    assert sheet.players[1].total == 6


def test_a_barrel_requirement_checks_the_tower(edition) -> None:
    half = EndgameHalf("barrels", "infamy", colours=(2, 4), effect_amount=5)
    held = score(edition, board(), [player(barrels=frozenset({2, 4, 5}), endgames=(half,))]).players[0]
    missing = score(edition, board(), [player(barrels=frozenset({2}), endgames=(half,))]).players[0]
    assert (held.total, missing.total) == (5, 0)
