"""The Hell phase (seed 000 p.11; RULES.md §3, §4.1): given a board / when a soul moves / then…

Board: the 1–2 player side of the shipped edition (its lines are listed in
companion/editions/inferno-base.json). Souls are arranged with correction events.
"""

from __future__ import annotations

import random

from companion.editions import DEFAULT_EDITION, load_all
from companion.game.commands import BringSoul, CreateGame, EndTurn, MoveSoul, RevealPlagueCard
from companion.game.projection import replay
from companion.game.rules import decide_create
from companion.game.rules.hell import any_hell_move, legal_hell_moves
from companion.game.state import Phase
from events.catalog import DiscPlaced, GameEnded, SoulLaidDown, SoulMoved, TurnEnded, TurnQuarterSet
from testkit.random_play import play
from tests.builders import Table, place, seats

RED, GREEN, ICE, PURPLE, BLUE = 7, 3, 9, 2, 5


# A red soul on 2B above a chain of taken shields: 3B and 3C (laid down), 4B and 4C (standing).
A_CHAIN_BELOW_2B = (
    place("2b", RED),
    place("3b", PURPLE, laid=True),
    place("3c", GREEN, laid=True),
    place("4b", BLUE),
    place("4c", BLUE),
)


def landings(table: Table, start: str) -> set[str]:
    return {m.landing for m in legal_hell_moves(table.state, table.state.active) if m.start == start}


def test_a_soul_falls_along_a_line_to_the_next_circle(table: Table) -> None:
    table.create().given(place("1b", ICE))
    assert landings(table, "1b") == {"2b", "2c"}  # a branch: the player chooses
    events = table.when(MoveSoul(0, "1b", "2c"))
    assert events[0] == SoulMoved(0, "1b", ("2c",), False)
    assert "1b" not in table.state.hell and table.state.hell["2c"].colour == ICE


def test_the_other_branch_is_just_as_legal(table: Table) -> None:
    table.create().given(place("1b", ICE))
    table.when(MoveSoul(0, "1b", "2b"))
    assert table.state.hell["2b"].colour == ICE


def test_an_occupied_shield_makes_the_soul_keep_falling_through_a_chain(table: Table) -> None:
    table.create().given(*A_CHAIN_BELOW_2B)
    # 2b→3b(occupied)→4b(occupied)→5a/5b ; 2b→3b→4c(occupied)→5b/5c ; 2b→3c(occupied)→4c→… ; 3c→4d (empty)
    assert landings(table, "2b") == {"5a", "5b", "5c", "4d"}
    events = table.when(MoveSoul(0, "2b", "5a"))
    assert events[0] == SoulMoved(0, "2b", ("3b", "4b", "5a"), False)


def test_the_chain_path_can_be_chosen_explicitly(table: Table) -> None:
    table.create().given(*A_CHAIN_BELOW_2B)
    events = table.when(MoveSoul(0, "2b", "5b", via=("3c", "4c", "5b")))
    assert events[0] == SoulMoved(0, "2b", ("3c", "4c", "5b"), False)


def test_a_soul_never_descends_beyond_its_colour_circle(table: Table) -> None:
    table.create().given(place("2b", GREEN))
    exc = table.refused(MoveSoul(0, "2b", "4b"), "beyond_colour_circle")
    assert exc.params["circle"] == GREEN
    assert {c.params["shield"] for c in exc.alternatives} == {"3b", "3c"}


def test_the_colour_limit_with_an_occupied_shield_in_the_souls_own_circle(table: Table) -> None:
    table.create().given(place("2e", GREEN), place("3e", PURPLE, laid=True))
    # 2e has one line, to 3e; 3e is taken and going on would pass circle 3: no legal move.
    assert landings(table, "2e") == set()
    table.refused(MoveSoul(0, "2e", "4d"), "beyond_colour_circle")
    table.refused(MoveSoul(0, "2e", "3e"), "shield_occupied")


def test_reaching_its_circle_lays_the_soul_down_and_scores_for_the_mover(table: Table) -> None:
    table.create().given(place("2b", GREEN))
    events = table.when(MoveSoul(0, "2b", "3c"))
    infamy = table.edition.circles[GREEN].infamy
    assert SoulLaidDown(0, "3c", infamy) in events
    assert table.state.hell["3c"].laid
    assert table.state.p[0].infamy == infamy


def test_a_laid_down_soul_never_moves_again_but_is_passed_through(table: Table) -> None:
    table.create().given(place("3b", PURPLE, laid=True), place("2b", RED))
    table.refused(MoveSoul(0, "3b", "4b"), "soul_laid_down")
    assert "4b" in landings(table, "2b")  # 2b→3b (laid down, occupied)→4b


def test_crossing_the_wall_needs_a_disc(table: Table) -> None:
    table.create().given(place("5b", RED))
    exc = table.refused(MoveSoul(0, "5b", "6b"), "wall_needs_disc")
    assert exc.params["gate"] == "gate-6b"
    assert landings(table, "5b") == set()


def test_another_players_disc_does_not_count(table: Table) -> None:
    table.create().given(place("5b", RED), DiscPlaced(1, "gate-6b"))
    table.refused(MoveSoul(0, "5b", "6b"), "wall_needs_disc")


def test_the_movers_own_disc_opens_only_its_own_gate(table: Table) -> None:
    table.create().given(place("5b", RED), DiscPlaced(0, "gate-6b"))
    assert landings(table, "5b") == {"6b"}
    table.refused(MoveSoul(0, "5b", "6c"), "wall_needs_disc")
    table.when(MoveSoul(0, "5b", "6b"))
    assert table.state.hell["6b"].colour == RED


def test_a_fall_through_an_occupied_gate_shield_still_needs_that_gates_disc(table: Table) -> None:
    table.create().given(place("5b", RED), place("6b", PURPLE, laid=True), DiscPlaced(0, "gate-6b"))
    assert landings(table, "5b") == {"7b", "7c"}


def test_the_landing_shield_sets_the_florence_quarter(table: Table) -> None:
    table.create().given(place("1b", ICE))
    events = table.when(MoveSoul(0, "1b", "2c"))
    quarter = table.edition.sides["1-2"].shields["2c"].quarter
    assert events[-1] == TurnQuarterSet(0, quarter)
    assert table.state.quarter == quarter


def test_exactly_one_soul_move_per_turn(table: Table) -> None:
    table.create().given(place("1b", ICE), place("1d", ICE))
    table.when(MoveSoul(0, "1b", "2c"))
    table.refused(MoveSoul(0, "1d", "2d"), "not_in_phase_hell")


def test_a_soul_stops_on_the_first_empty_shield(table: Table) -> None:
    table.create().given(place("1b", ICE))
    exc = table.refused(MoveSoul(0, "1b", "3c"), "stops_earlier")
    assert exc.params["stop"] in ("2b", "2c")


def test_a_shield_not_below_on_the_lines_is_refused(table: Table) -> None:
    table.create().given(place("1a", ICE))
    table.refused(MoveSoul(0, "1a", "2e"), "not_below_on_lines")


def test_a_guardian_standee_occupies_its_shield_and_souls_fall_through_it(table: Table) -> None:
    table.create()  # Medusa stands on 6d, the Minotaur on 7a (edition defaults, 1–2 players)
    assert table.state.guardians == {"medusa": "6d", "minotaur": "7a"}
    table.given(place("6a", 8))  # a grey soul: circle 8 is within its reach
    assert "7a" not in landings(table, "6a")
    assert landings(table, "6a") == {"7b", "8a", "8b"}


def test_bringing_a_soul_in_costs_a_drachma_and_with_none_a_loan(table: Table) -> None:
    table.create(start_drachmas=(0, 2))
    table.refused(BringSoul(0, BLUE, "1a"), "needs_loan")
    table.when(BringSoul(0, BLUE, "1a", borrow=True))
    assert table.state.p[0].ship == 1


def test_sudden_death_with_only_blocked_souls_left(table: Table) -> None:
    table.create(plague_card=(1,)).given(place("2e", GREEN), place("3e", PURPLE, laid=True))
    table.when(BringSoul(0, 1, "1a"))  # the last Cemetery soul, a pagan, laid down in Limbo
    table.when(RevealPlagueCard(0, (), deck_empty=True))
    table.florence(0)
    assert table.when(EndTurn(0)) == [TurnEnded(0, 1), GameEnded("sudden_death", 1)]
    assert table.state.phase is Phase.OVER


def test_no_sudden_death_while_a_soul_can_still_move(table: Table) -> None:
    table.create(plague_card=(1,)).given(place("2b", GREEN))
    table.when(BringSoul(0, 1, "1a"))
    table.when(RevealPlagueCard(0, (), deck_empty=True))
    table.florence(0)
    assert table.when(EndTurn(0)) == [TurnEnded(0, 1)]


def test_every_legal_move_lists_its_cost_score_and_quarter(table: Table) -> None:
    table.create(plague_card=(2,)).given(place("2b", GREEN))
    moves = legal_hell_moves(table.state, 0)
    bring = [m for m in moves if m.kind == "bring"]
    assert {m.landing for m in bring} == set(table.state.side.row(1))
    assert all(m.cost == 1 and m.infamy == 0 for m in bring)
    falls = {m.landing: m for m in moves if m.kind == "move"}
    assert set(falls) == {"3b", "3c"}
    assert falls["3c"].lays_down and falls["3c"].infamy == table.edition.circles[3].infamy
    assert falls["3c"].quarter == table.state.side.shields["3c"].quarter


def test_one_souls_moves_are_those_it_has_among_every_move_over_random_games() -> None:
    """Judging a move asks only the moving soul's paths (``only_from``): over random games, 2-4 players, with
    and without the expansion, at every Hell phase, each standing soul's moves (tolls checked or not) are
    exactly its moves among all the moves, in the same order; a shield without a standing soul has none. And
    ``any_hell_move`` (an end of turn's sudden-death check) says whether there is any."""
    edition = load_all()[DEFAULT_EDITION][1]
    checked = 0
    for seed in range(6):
        rng = random.Random(seed)
        players = 2 + seed % 3
        command = CreateGame(players=seats(players), plague_card=(2, 3, 5, 1), expansion=seed % 2 == 1)
        state = replay(edition, decide_create(edition, command))
        for _ in range(60):
            state = play(state, rng, tries=3)
            if state.ended:
                break
            if state.phase is not Phase.HELL:
                continue
            assert any_hell_move(state, state.active) == bool(legal_hell_moves(state, state.active))
            for tolls in (True, False):
                every = legal_hell_moves(state, state.active, check_tolls=tolls)
                for shield in state.side.shields:
                    own = legal_hell_moves(state, state.active, check_tolls=tolls, only_from=shield)
                    assert own == [m for m in every if m.start == shield], (seed, shield)
                    checked += bool(own)
    assert checked > 50, checked
