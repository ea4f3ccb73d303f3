"""One meaning of "empty shield" for play and for final scoring (seed 000 p.11, pp.16–17, pp.22–23).

The rulebook uses one term, "escudo vacío", for the shield a falling soul must reach (p.11), the
shield a guardian moves to (pp.22–23) and the shields that move the Phlegethon cube at the end
(pp.16–17). A guardian standee occupies its shield during play, so it fills it at scoring too;
a Plutus Desk sits below a shield and fills nothing (seed 002).
"""

from __future__ import annotations

from companion.game.scoring import empty_shields, facts_from_state, score_state
from companion.game.state import GameState
from tests.builders import Table, place


def _game(table: Table) -> GameState:
    """Given a two-player game with the default guardians: Medusa on 6d, the Minotaur on 7a."""
    table.create(2)
    state = table.state
    assert state.guardians == {"medusa": "6d", "minotaur": "7a"}
    return state


def test_a_shield_holding_only_a_standee_is_not_empty_at_final_scoring(table: Table) -> None:
    # Given the default guardians on 6d and 7a and no soul in circles 6 and 7
    state = _game(table)
    # When final scoring counts the empty shields
    empty = empty_shields(state)
    # Then the standee's shield is not among them, exactly as during play
    assert "6d" not in empty[6] and "7a" not in empty[7]
    assert len(empty[6]) == 3 and len(empty[7]) == 3
    assert empty[6] == state.empty_shields(6)


def test_the_same_definition_serves_play_and_scoring_in_every_circle(table: Table) -> None:
    # Given souls standing, laid down and petrified, and the two standees
    state = _game(table)
    table.given(place("2a", 2, laid=True), place("3b", 5), place("6a", 9, petrified=True))
    state = table.state
    # Then scoring's empty shields are exactly the shields play treats as empty
    for circle, shields in empty_shields(state).items():
        assert shields == state.empty_shields(circle), circle
    assert "6a" not in empty_shields(state)[6]


def test_a_standee_decides_the_cube(table: Table) -> None:
    # Given the circle-6 cube raised to space 4 (value 5) and no soul in circle 6
    _game(table)
    from events.catalog import CubeMoved

    table.given(CubeMoved(0, 6, 4, "test"))
    # When the game is scored
    board, _players = facts_from_state(table.state)
    sheet = score_state(table.state)
    six = next(c for c in sheet.circles if c.circle == 6)
    # Then only the three shields without Medusa move the cube: space 4 → 1, value 2 (not 1)
    assert board.empty[6] == 3
    assert (six.empty, six.after) == (3, 2)


def test_a_desk_fills_no_shield(table: Table) -> None:
    # Given the expansion with Ana's Desk below 2d (seed 002: a Desk fills neither A nor B)
    table.create(2, expansion=True)
    from events.catalog import DeskPlaced

    table.given(DeskPlaced(0, "2d", ""))
    # Then 2d still counts as empty at the end
    assert "2d" in empty_shields(table.state)[2]
