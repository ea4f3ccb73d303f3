"""Creating a game (RULES.md §2): players, colours, board side, expansion, pinned edition."""

from __future__ import annotations

import pytest

from companion.game.commands import CreateGame
from companion.game.errors import RuleViolation
from companion.game.rules import decide_create
from events.catalog import GameCreated, LocationSetup, PlagueCardRevealed, SeatSetup, StartingSkullPlaced
from tests.builders import Table, seats


def refused(edition, command: CreateGame, code: str) -> RuleViolation:
    with pytest.raises(RuleViolation) as info:
        decide_create(edition, command)
    assert info.value.code == code
    return info.value


@pytest.mark.parametrize(("players", "side"), [(1, "1-2"), (2, "1-2"), (3, "3-4"), (4, "3-4")])
def test_the_board_side_follows_the_player_count(edition, players: int, side: str) -> None:
    events = decide_create(edition, CreateGame(players=seats(players), plague_card=(2, 3)))
    created = events[0]
    assert isinstance(created, GameCreated)
    assert created.side == side
    assert len(created.players) == players


def test_creation_pins_the_edition_id_and_content_hash(edition) -> None:
    created = decide_create(edition, CreateGame(players=seats(2), plague_card=(2,)))[0]
    assert isinstance(created, GameCreated)
    assert created.edition_id == "inferno-base"
    assert created.edition_hash == edition.content_hash
    assert len(created.edition_hash) == 64


def test_more_than_four_players_is_refused(edition) -> None:
    too_many = (*seats(4), SeatSetup("Eva", "violet"))
    exc = refused(edition, CreateGame(players=too_many, plague_card=(2,)), "player_count")
    assert exc.params == {"count": 5, "min": 1, "max": 4}


def test_no_players_is_refused(edition) -> None:
    refused(edition, CreateGame(players=(), plague_card=(2,)), "player_count")


def test_names_must_be_distinct_ignoring_case(edition) -> None:
    players = (SeatSetup("Ana", "crimson"), SeatSetup("ana", "navy"))
    exc = refused(edition, CreateGame(players=players, plague_card=(2,)), "player_names_repeat")
    assert exc.params["names"] == ["ana"]


def test_a_blank_name_is_refused(edition) -> None:
    refused(edition, CreateGame(players=(SeatSetup("  ", "crimson"),), plague_card=(2,)), "player_name_missing")


def test_colours_must_be_distinct_and_the_free_ones_are_offered(edition) -> None:
    players = (SeatSetup("Ana", "crimson"), SeatSetup("Ben", "crimson"))
    exc = refused(edition, CreateGame(players=players, plague_card=(2,)), "player_colours_repeat")
    offered = {c.params["colour"] for c in exc.alternatives}
    assert "crimson" not in offered
    assert {"navy", "forest", "gold"} <= offered


def test_an_unknown_colour_is_refused(edition) -> None:
    refused(edition, CreateGame(players=(SeatSetup("Ana", "pink"),), plague_card=(2,)), "unknown_colour_name")


def test_the_expansion_brings_plutus_and_phlegyas(edition) -> None:
    created = decide_create(edition, CreateGame(players=seats(3), expansion=True, plague_card=(2,)))[0]
    assert isinstance(created, GameCreated)
    assert created.expansion is True
    assert {g.guardian for g in created.guardians} == {"plutus", "phlegyas"}


def test_the_first_plague_card_fills_the_cemetery(table: Table) -> None:
    table.create(players=2, plague_card=(2, 2, 7, 1))
    assert isinstance(table.log[-1], PlagueCardRevealed)
    assert table.state.cemetery == {2: 2, 7: 1, 1: 1}


def test_a_plague_card_needs_souls(edition) -> None:
    refused(edition, CreateGame(players=seats(2)), "plague_card_size")


def test_starting_skulls_from_family_cards(table: Table) -> None:
    table.create(players=2, starting_skulls=((3, 6), (9,)))
    assert [e for e in table.log if isinstance(e, StartingSkullPlaced)] == [
        StartingSkullPlaced(0, 3),
        StartingSkullPlaced(0, 6),
        StartingSkullPlaced(1, 9),
    ]
    assert table.state.p[0].skulls == {3: 1, 6: 1}


def test_a_florence_layout_needs_one_free_and_one_special_location_per_quarter(edition) -> None:
    bad = tuple(
        LocationSetup(loc, "lily" if i < 4 else "eagle")
        for i, loc in enumerate(["haystack", "banquet", "bank", "courtyard", "bonfire", "wall", "market", "palace"])
    )
    exc = refused(edition, CreateGame(players=seats(2), plague_card=(2,), florence=bad), "florence_quarter_mix")
    assert exc.params["quarter"] == "lily"
    missing = bad[:7]
    refused(edition, CreateGame(players=seats(2), plague_card=(2,), florence=missing), "florence_layout_incomplete")


def test_turn_order_starts_with_the_first_player_entered(table: Table) -> None:
    state = table.create(players=3).state
    assert state.active == 0
    assert state.turn == 1
    assert [p.name for p in state.players] == ["Ana", "Ben", "Cleo"]
    assert [p.letter for p in state.players] == ["C", "N", "F"]
