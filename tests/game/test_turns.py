"""Turn order and the end of a turn (RULES.md §4): clockwise, one soul move, then the turn ends."""

from __future__ import annotations

from companion.game.commands import BringSoul, EndTurn, RevealPlagueCard
from companion.game.state import Phase
from events.catalog import GameEnded, PlagueCardRevealed, TurnEnded
from tests.builders import Table


def test_a_turn_cannot_end_before_its_soul_move(table: Table) -> None:
    table.create()
    table.refused(EndTurn(0), "turn_not_finished")


def test_a_turn_cannot_end_before_its_florence_action(table: Table) -> None:
    table.create()
    table.when(BringSoul(0, 2, "1a"))
    table.refused(EndTurn(0), "turn_not_finished")


def test_turns_go_clockwise_and_wrap_around(table: Table) -> None:
    table.create(players=3, plague_card=(2, 3, 4, 5))
    for player, colour, shield in ((0, 2, "1a"), (1, 3, "1b"), (2, 4, "1c")):
        table.when(BringSoul(player, colour, shield))
        assert table.finish_turn(player)[0] == TurnEnded(player, (player + 1) % 3)
    state = table.state
    assert state.active == 0
    assert state.turn == 4
    assert state.phase is Phase.HELL


def test_an_empty_cemetery_asks_for_the_next_plague_card_before_anything_else(table: Table) -> None:
    table.create(plague_card=(2,))
    table.when(BringSoul(0, 2, "1a"))
    assert table.state.needs_plague_card
    table.refused(EndTurn(0), "plague_card_due")
    assert table.when(RevealPlagueCard(1, (3, 4))) == [PlagueCardRevealed((3, 4))]
    assert table.state.cemetery == {3: 1, 4: 1}
    table.finish_turn(0)


def test_a_plague_card_is_refused_while_the_cemetery_holds_souls(table: Table) -> None:
    table.create(plague_card=(2, 3))
    table.refused(RevealPlagueCard(0, (4,)), "cemetery_not_empty")


def test_sudden_death_when_the_next_player_has_no_soul_move(table: Table) -> None:
    """Seed 000 p.11: no legal soul move (none in Hell, none from the Cemetery) ends the game."""
    table.create(plague_card=(1,))
    table.when(BringSoul(0, 1, "1a"))  # a pagan, laid down at once: nothing can move any more
    table.when(RevealPlagueCard(0, (), deck_empty=True))
    table.florence(0)
    events = table.when(EndTurn(0))
    assert events == [TurnEnded(0, 1), GameEnded("sudden_death", 1)]
    assert table.state.phase is Phase.OVER
    table.refused(BringSoul(1, 1, "1b"), "game_over")
