"""Issue 25, item 5: game values the core still wrote as literals now come from the edition.

Each test loads the shipped edition with one value changed (``tests/game/variants.py``) and shows
the rule following it.
"""

from __future__ import annotations

from typing import Any

from companion.game.commands import CreateGame
from companion.game.rules import decide_create
from companion.game.scoring import BoardFacts, PlayerFacts, best_half_tracks, score
from events.catalog import EndgameHalf, GameCreated
from tests.builders import seats
from tests.game.variants import variant

TRACKS = (2, 3, 4, 5, 6, 7, 8, 9)


def first_level(level: int) -> Any:
    def change(raw: dict[str, Any]) -> None:
        raw["tracks"]["first_level"] = level

    return change


def _player(name: str, **kw: Any) -> PlayerFacts:
    base: dict[str, Any] = {"infamy": 0, "skulls": {}, "diplomas": frozenset(), "half_diplomas": 0, "ship": 0}
    return PlayerFacts(name=name, **(base | kw))


def _board() -> BoardFacts:
    return BoardFacts(empty={c: 0 for c in TRACKS}, cubes={c: 2 for c in TRACKS})


def test_a_skull_requirement_reads_an_unmoved_skull_at_the_editions_first_level() -> None:
    # tracks.first_level: "the level of a skull that has not advanced on a track (a player with no
    # skull there stands at it)". Given an edition whose first level is 1, and a fraud half
    # "skull at least 1 on track 5 → 4 infamy" held by a player whose skull never moved there
    edition = variant(first_level(1))
    half = EndgameHalf("skull_at_least", "infamy", track=5, amount=1, effect_amount=4)
    ana = _player("Ana", endgames=(half,))
    # When the game is scored, then the requirement holds: her skull stands at level 1
    sheet = score(edition, _board(), [ana])
    assert sheet.players[0].fraud[0].holds
    assert sheet.players[0].total == 4


def test_a_half_diploma_goes_where_an_unmoved_skull_still_scores_at_the_first_level() -> None:
    # Given first_level 1 and circle 9 worth more than the others, a player with no skull moved
    edition = variant(first_level(1))
    values = {t: 1 for t in TRACKS} | {9: 5}
    # Then the best track for a half diploma is 9 (5 × level 1), not a tie at 0 settled by number
    assert best_half_tracks(edition, values, {}, frozenset())[0] == (9, 5)


def test_with_the_expansion_replacing_them_the_expansions_guardians_are_the_games_guardians() -> None:
    # Given an edition whose base game has three guardians (setup.guardians 3) and whose
    # expansion replaces them (seed 002 places Plutus and Phlegyas)
    def three(raw: dict[str, Any]) -> None:
        raw["setup"]["guardians"] = 3
        raw["default_guardians"]["ids"] = ["medusa", "minotaur", "minos"]

    edition = variant(three)
    # When a game with the expansion starts with the default guardians
    events = decide_create(edition, CreateGame(seats(3), expansion=True, plague_card=(2, 3)))
    # Then it is set up with the expansion's two guardians, not refused for wanting three
    created = events[0]
    assert isinstance(created, GameCreated)
    assert {g.guardian for g in created.guardians} == {"plutus", "phlegyas"}


def test_joining_the_base_guardians_the_count_is_the_base_count_plus_the_expansions() -> None:
    def three_joined(raw: dict[str, Any]) -> None:
        raw["setup"]["guardians"] = 3
        raw["default_guardians"]["ids"] = ["medusa", "minotaur", "minos"]
        raw["assumptions"]["expansion_replaces_guardians"] = False

    edition = variant(three_joined)
    events = decide_create(edition, CreateGame(seats(3), expansion=True, plague_card=(2, 3)))
    created = events[0]
    assert isinstance(created, GameCreated)
    assert len(created.guardians) == 5
