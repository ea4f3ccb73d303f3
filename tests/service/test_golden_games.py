"""Every golden game in tests/fixtures keeps replaying, through the rules, to its known end.

The expected values below were worked out by hand from the rules and each fixture's script
(``tests/fixtures/*.script.json``), not copied from the program's output.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.formats.export import replay_export
from companion.game.state import GameState

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def load(name: str) -> dict:
    return json.loads((FIXTURES / name).read_text(encoding="utf-8"))


def test_every_fixture_replays_without_a_breach() -> None:
    names = sorted(p.name for p in FIXTURES.glob("*.json") if not p.name.endswith(".script.json"))
    assert names, "no golden games found"
    for name in names:
        _edition, state, breach = replay_export(load(name))
        assert breach is None, f"{name}: {breach}"
        assert state is not None


def test_the_skeleton_game_ends_where_the_rules_say() -> None:
    """Ana starts with 1 drachma: a blue soul in (0 left), a noble to the Banquet (a floor);
    Ben borrows (5), brings a purple (4), a noble to the Courtyard; Ana borrows to bring a pagan,
    laid down in Limbo at once (+1 infamy); undo, redo."""
    _edition, state, _breach = replay_export(load("skeleton.json"))
    assert isinstance(state, GameState)
    ana, ben = state.p
    assert (ana.drachmas, ana.ship, ana.infamy) == (1, 1, 1)
    assert (ben.drachmas, ben.ship, ben.infamy) == (4, 1, 0)
    assert state.cemetery == {3: 1}
    assert sorted(state.hell) == ["1a", "1c", "1d"]
    assert state.hell["1d"].laid
    assert [f.height for f in ana.tower] == [0, 1] and ben.placed == (("courtyard", "noble"),)


@pytest.mark.parametrize("name", ["skeleton.json"])
def test_golden_games_keep_their_old_event_versions_on_disk(name: str) -> None:
    versions = {(e["type"], e["version"]) for e in load(name)["events"]}
    assert ("GameCreated", 2) in versions


def test_the_three_player_tally_scores_as_worked_out_by_hand() -> None:
    """tally-three.script.json, scored by hand (scale 1-5, loan penalties 0 1 2 4 6 9 12):

    Phlegethon values after the empty shields: 2 4 1 3 3 2 1 3 (circles 2-9).
    Ana: 25 + fraud 3 + green 4×3 + red 2×2 + two halves → purple 2×2 − Ship 1 = 47.
    Ben: 30 (his 40 was undone) + blue 3×3 + ice 3×2 − Ship on 3 (4) = 41; one half left over.
    Cleo: 28 + fraud 2 per diploma × 1 + orange 3×3 + her chosen red 2×1 = 41.
    Ben and Cleo share second place.
    """
    from companion.formats.export import score_export

    _edition, sheet = score_export(load("tally-three.json"))
    totals = {p.name: (p.total, p.place) for p in sheet.players}
    assert totals == {"Ana": (47, 1), "Ben": (41, 2), "Cleo": (41, 2)}
    assert [c.after for c in sheet.circles] == [2, 4, 1, 3, 3, 2, 1, 3]
    cleo = sheet.players[2]
    assert cleo.half_tracks == (7,) and cleo.half_leftover == 1 and not cleo.half_suggested


def test_the_two_player_base_game_ends_by_sudden_death_with_the_hand_worked_score() -> None:
    """base-two-players.script.json, worked out by hand from the rules and the shipped edition:

    T1 Ana brings the green soul to 1B (Key), the plague card shows a purple; Bank +2 florins.
    T2 Ben moves it to 2B (Cross); a noble to the Courtyard.
    T3 Ana moves it to 3C: green reaches circle 3, laid down, +2. She bribes (2 drachmas) to
       accuse at the Bank: a yellow soul to the Cemetery, skull 4 from 1 to 2, the bonus tile
       gives a half diploma, Dante's first step awards the purple diploma: Ben (skull 1) has it.
    T4 Ben brings the purple to 1C; the Palace: a red guest on floor 0 (0 florins).
    T5 Ana borrows (Ship to 1, no symbol yet) to bring the yellow to 1E; the deck is exhausted;
       the Wall: 2 florins to drachmas.   T6 Ben lays the purple on 2C (+1); the Bonfire raises
       the green cube to space 3.   T7–T9 the yellow falls 2D, 3D, then 4D: laid down, Ana +2.
    Then Ben has no soul to move and no Cemetery soul: sudden death.
    Scoring: every circle has 4 empty shields, so every cube falls to value 1 (green: space 3 → 0).
    Circles 6 and 7 hold Medusa's and the Minotaur's standees, so since "empty" has one meaning
    for play and scoring they count 3 empty shields each; their cubes (space 2) still fall to 1,
    so the expected totals did not change.
    Ana: 4 − loan space 1 (1) = 3, one half diploma left over. Ben: 1 + purple 1 × 1 = 2.
    """
    from companion.formats.export import score_export

    _edition, state, breach = replay_export(load("base-two-players.json"))
    assert breach is None and isinstance(state, GameState)
    assert state.ended == "sudden_death" and state.dante == 1
    ana, ben = state.p
    assert ana.skull(4) == 2 and ana.half_diplomas == 1 and ana.ship == 1
    assert ben.diplomas == frozenset({2}) and ben.has_in_tower("guest", 7)
    _edition, sheet = score_export(load("base-two-players.json"))
    assert [(p.name, p.total, p.place) for p in sheet.players] == [("Ana", 3, 1), ("Ben", 2, 2)]
    assert all(c.after == 1 for c in sheet.circles)
    assert {c.circle: c.empty for c in sheet.circles if c.circle in (6, 7)} == {6: 3, 7: 3}
    assert sheet.players[0].half_leftover == 1


def test_the_expansion_game_pays_a_toll_rings_a_bell_and_ends_as_worked_out_by_hand() -> None:
    """expansion-two-players.script.json, worked out by hand (seed 002; 1–2 player side):

    T1 Ana (6 florins from her Family card) brings the yellow soul to 1D; at the Bonfire she moves
       Plutus to 3D and puts her Desk right below 2D, next to it (drachmas 3 → 2 → 1).
    T2 Ben moves the yellow soul into 2D and stops there: no toll.
    T4 Ben moves it on from 2D, across Ana's Desk, to 3E: he pays Ana 1 drachma.
    T5 Ana lays the purple soul on 2B (+1).  T6 Ben lays the yellow on 4E (+2) and takes a Bell.
    T8 Ben rings the Bell: Phlegyas to 1C, the blue soul from 1A sideways to 1E, then on to 2E.
    T9 and T10: every member stands on a special location without its guest, nobody has one at
       home: the family council is forced (−2 each). Ben lays the blue soul on 5D through 4E (+3).
    Then no soul can move and the Cemetery is empty with the deck exhausted: sudden death.
    No diplomas and no loans: Ben 2 + 3 − 2 = 3, Ana 1 − 2 = −1.
    """
    from companion.formats.export import score_export

    _edition, state, breach = replay_export(load("expansion-two-players.json"))
    assert breach is None and isinstance(state, GameState) and state.ended == "sudden_death"
    ana, ben = state.p
    assert ana.desks == ("2d",) and ben.bells == 0
    assert (ana.drachmas, ben.drachmas) == (0, 1)
    assert state.guardians == {"plutus": "3d", "phlegyas": "1c"}
    _edition, sheet = score_export(load("expansion-two-players.json"))
    assert [(p.name, p.total, p.place) for p in sheet.players] == [("Ana", -1, 2), ("Ben", 3, 1)]


def test_a_guardian_standee_decides_a_cube_in_a_recorded_game() -> None:
    """standee-decides-a-cube.script.json, worked out by hand (1–2 player side, default guardians
    Medusa on 6d and the Minotaur on 7a; seed 000 p.11 and pp.16–17: one meaning of "empty shield").

    Ana starts with a skull on track 6. T1 Ana brings the green soul to 1E (Eagle), a noble to the
    Wall (1 florin) and plays a fraud card from hand (2 drachmas) without its barrel, for its end-game
    half only: "always: a half diploma". T2 Ben brings the purple to 1D (Lily; the deck is exhausted),
    the Bonfire raises the circle-6 cube to space 3. T3 Ana moves green to 2D, a second such card.
    T4 Ben lays purple on 2E (+1), bribes his way to the Bonfire: cube 6 to space 4 (value 5).
    T5 Ana lays green on 3D (+2), the Bank. Ben has no soul move: sudden death.
    Final scoring: Ana's two fraud halves make 2 half diplomas, placed as one diploma on track 6.
    Circle 6 has no soul, but Medusa stands on 6d: 3 empty shields, cube space 4 → 1, value 2
    (had the standee counted as empty, 4 → 0, value 1, and Ana would score 3).
    Ana: 2 + diploma 6 (2 × skull 1) = 4. Ben: 1.
    """
    from companion.formats.export import score_export

    _edition, state, breach = replay_export(load("standee-decides-a-cube.json"))
    assert breach is None and isinstance(state, GameState) and state.ended == "sudden_death"
    assert state.guardians["medusa"] == "6d" and not any(s.startswith("6") for s in state.hell)
    ana, ben = state.p
    assert (ana.drachmas, ana.ship, ana.half_diplomas, ben.infamy) == (3, 0, 0, 1)
    assert len(ana.endgames) == 2 and state.half_choices == {0: (6,)}
    _edition, sheet = score_export(load("standee-decides-a-cube.json"))
    six = next(c for c in sheet.circles if c.circle == 6)
    assert (six.before, six.empty, six.empty_ids, six.after) == (5, 3, ("6a", "6b", "6c"), 2)
    assert [(p.name, p.total, p.place) for p in sheet.players] == [("Ana", 4, 1), ("Ben", 1, 2)]
    assert sheet.players[0].half_tracks == (6,) and not sheet.players[0].half_suggested
