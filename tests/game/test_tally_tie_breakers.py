"""Issue 25, item 4: a Quick tally applies the edition's coin tie-breakers, as a recorded game does.

With an edition that breaks ties by drachmas (``scoring.tie_breakers``), two tallied players at
the same score must be ranked by their drachmas; the tally asks for coins only when a
tie-breaker needs them.
"""

from __future__ import annotations

from typing import Any

import pytest

from companion.game.commands import EnterPlayer, StartTally
from companion.game.errors import RuleViolation
from companion.game.tally import coins_asked, decide_start_tally, decide_tally, replay_tally, tally_score
from tests.game.variants import variant

SKULLS = (0,) * 8


def breakers(*names: str) -> Any:
    def change(raw: dict[str, Any]) -> None:
        raw["scoring"]["tie_breakers"] = list(names)

    return change


def _tally(edition: Any, *entries: EnterPlayer) -> Any:
    events = decide_start_tally(edition, StartTally(("Ana", "Ben")))
    for entry in entries:
        events += decide_tally(replay_tally(edition, events), entry)
    return replay_tally(edition, events)


def test_two_tallied_players_at_ten_are_ranked_by_drachmas_when_the_edition_says_so() -> None:
    # Given an edition whose tie-breaker is the most drachmas
    edition = variant(breakers("most_drachmas"))
    # When Ana (10 infamy, 2 drachmas) and Ben (10 infamy, 5 drachmas) are tallied
    state = _tally(
        edition,
        EnterPlayer(0, 10, SKULLS, drachmas=2),
        EnterPlayer(1, 10, SKULLS, drachmas=5),
    )
    # Then Ben is first and Ana second, as a recorded game would rank them
    places = {p.name: p.place for p in tally_score(state).players}
    assert places == {"Ben": 1, "Ana": 2}


def test_florins_break_the_tie_when_the_edition_says_so() -> None:
    edition = variant(breakers("most_florins"))
    state = _tally(edition, EnterPlayer(0, 10, SKULLS, florins=7), EnterPlayer(1, 10, SKULLS, florins=1))
    assert {p.name: p.place for p in tally_score(state).players} == {"Ana": 1, "Ben": 2}


def test_the_shipped_edition_shares_the_place_and_asks_for_no_coins(edition) -> None:
    assert coins_asked(edition) == ()
    state = _tally(edition, EnterPlayer(0, 10, SKULLS), EnterPlayer(1, 10, SKULLS))
    assert [p.place for p in tally_score(state).players] == [1, 1]


def test_coins_are_asked_only_for_the_tie_breakers_that_read_them() -> None:
    assert coins_asked(variant(breakers("most_drachmas"))) == ("drachmas",)
    assert coins_asked(variant(breakers("fewest_loans", "most_florins", "most_drachmas"))) == ("florins", "drachmas")
    assert coins_asked(variant(breakers("fewest_loans"))) == ()


def test_coins_past_what_a_table_may_enter_are_refused() -> None:
    edition = variant(breakers("most_drachmas"))
    state = _tally(edition)
    with pytest.raises(RuleViolation) as info:
        decide_tally(state, EnterPlayer(0, 10, SKULLS, drachmas=10_000))
    assert info.value.code == "out_of_range" and info.value.params["field"] == "drachmas"
