"""The Plutus & Phlegyas expansion, exactly as seed 002 states it.

Three players on the 3–4 side: Araceli (0), Paco (1), Monica (2). Lines used below:
2B→3A,3B; 3A→4A,4B; 4B→5B,5C. Plutus starts on the far-left shield of circle 4 (4A),
Phlegyas on the far-right shield of circle 5 (5F).
"""

from __future__ import annotations

from companion.game.commands import MoveSoul, SendMember, SummonFerryman, UseGuardian
from companion.game.scoring import score_state
from events.catalog import (
    BellReturned,
    BellTaken,
    DeskPlaced,
    DiscPlaced,
    GuardianMoved,
    GuardianUse,
    LoanTaken,
    SeatSetup,
    SoulMoved,
    SoulShifted,
    TollPaid,
    TurnEnded,
    TurnQuarterSet,
)
from tests.builders import Table, place

BLUE, GREY, YELLOW, RED = 5, 8, 4, 7
NAMES = (SeatSetup("Araceli", "crimson"), SeatSetup("Paco", "navy"), SeatSetup("Monica", "forest"))


def expansion(table: Table, *given) -> Table:
    from companion.game.commands import CreateGame
    from companion.game.rules import decide_create

    table.log = decide_create(table.edition, CreateGame(NAMES, expansion=True, plague_card=(2, 3)))
    return table.given(*given)


def seed_board(*desks) -> tuple:
    """The seed's example: a blue soul, a grey soul below it with Paco's Desk, Monica's Desk further on."""
    return (place("2b", BLUE), place("3a", GREY), place("4b", YELLOW, laid=True), *desks)


def test_plutus_and_phlegyas_start_where_the_seed_puts_them(table: Table) -> None:
    expansion(table)
    assert table.state.guardians == {"plutus": "4a", "phlegyas": "5f"}


def test_the_seeds_example_a_is_free_b_pays_paco_c_pays_paco_and_monica(table: Table) -> None:
    expansion(
        table,
        *seed_board(DeskPlaced(1, "3a", ""), DeskPlaced(2, "4b", "")),
        GuardianMoved(0, "plutus", "4a", "1g", "test"),
    )
    a = table.when(MoveSoul(0, "2b", "3b"))
    assert not any(isinstance(e, TollPaid) for e in a)

    table.log = table.log[: -len(a)]
    b = table.when(MoveSoul(0, "2b", "4a"))
    assert [e for e in b if isinstance(e, TollPaid)] == [TollPaid(0, 1, "3a", 1)]

    table.log = table.log[: -len(b)]
    drachmas = [p.drachmas for p in table.state.p]
    c = table.when(MoveSoul(0, "2b", "5b"))
    assert [e for e in c if isinstance(e, TollPaid)] == [TollPaid(0, 1, "3a", 1), TollPaid(0, 2, "4b", 1)]
    assert [p.drachmas for p in table.state.p] == [drachmas[0] - 2, drachmas[1] + 1, drachmas[2] + 1]


def test_crossing_your_own_desk_costs_nothing(table: Table) -> None:
    expansion(table, *seed_board(DeskPlaced(0, "3a", "")), GuardianMoved(0, "plutus", "4a", "1g", "test"))
    events = table.when(MoveSoul(0, "2b", "4a"))
    assert not any(isinstance(e, TollPaid) for e in events)


def test_a_toll_can_force_a_loan(table: Table) -> None:
    from events.catalog import Corrected

    expansion(
        table,
        *seed_board(DeskPlaced(1, "3a", ""), DeskPlaced(2, "4b", "")),
        GuardianMoved(0, "plutus", "4a", "1g", "test"),
        Corrected("resource", 0, "drachmas", 1, 3, "test"),
    )
    exc = table.refused(MoveSoul(0, "2b", "5b"), "needs_loan")
    assert exc.params["cost"] == 2
    events = table.when(MoveSoul(0, "2b", "5b", borrow=True))
    assert isinstance(events[0], LoanTaken)
    assert table.state.p[0].drachmas == 1 and table.state.p[0].ship == 1


def test_desks_never_fill_a_shield_for_the_phlegethon(table: Table) -> None:
    expansion(table)
    before = score_state(table.state).circles
    table.given(DeskPlaced(1, "3a", ""), DeskPlaced(2, "4b", ""))
    assert score_state(table.state).circles == before


def at_the_bonfire(table: Table, *given) -> Table:
    expansion(table, *given, TurnQuarterSet(0, "lily"))
    table.when(SendMember(0, "noble", "bonfire"))
    return table


def test_plutus_moves_and_puts_a_desk_right_below_a_shield_next_to_it(table: Table) -> None:
    at_the_bonfire(table)
    events = table.when(UseGuardian(0, GuardianUse("plutus", "3c", desk_below="3b")))
    assert events[-2:] == [GuardianMoved(0, "plutus", "4a", "3c", "bonfire"), DeskPlaced(0, "3b", "")]
    assert table.state.p[0].desks == ("3b",)


def test_a_desk_goes_only_next_to_plutus(table: Table) -> None:
    at_the_bonfire(table)
    table.refused(UseGuardian(0, GuardianUse("plutus", "3c", desk_below="7a")), "desk_not_adjacent")


def test_with_both_desks_out_one_is_reused(table: Table) -> None:
    at_the_bonfire(table, DeskPlaced(0, "2a", ""), DeskPlaced(0, "2b", ""))
    table.refused(UseGuardian(0, GuardianUse("plutus", "3c", desk_below="3b")), "desk_reuse")
    table.when(UseGuardian(0, GuardianUse("plutus", "3c", desk_below="3b", desk_from="2a")))
    assert sorted(table.state.p[0].desks) == ["2b", "3b"]


def test_phlegyas_does_not_move_the_user_takes_a_bell_and_bells_accumulate(table: Table) -> None:
    at_the_bonfire(table, BellTaken(0))
    events = table.when(UseGuardian(0, GuardianUse("phlegyas", "")))
    assert events[-1] == BellTaken(0)
    assert table.state.p[0].bells == 2 and table.state.guardians["phlegyas"] == "5f"


def ferry_board(*given) -> tuple:
    """Araceli holds a Bell; a red soul stands on 2A (circle 2) and 3A below it is taken."""
    return (BellTaken(0), place("2a", RED), *given)


def test_the_ferry_shifts_a_soul_then_makes_its_regular_move(table: Table) -> None:
    expansion(table, *ferry_board())
    events = table.when(SummonFerryman(0, "2g", "2a", "2c", "3c"))
    assert events[:3] == [
        BellReturned(0),
        GuardianMoved(0, "phlegyas", "5f", "2g", "ferry"),
        SoulShifted(0, "2a", "2c"),
    ]
    assert SoulMoved(0, "2c", ("3c",), False) in events
    state = table.state
    assert state.p[0].bells == 0 and "3c" in state.hell and state.guardians["phlegyas"] == "2g"
    assert state.quarter == state.side.shields["3c"].quarter


def test_the_ferry_needs_a_bell(table: Table) -> None:
    expansion(table, place("2a", RED))
    table.refused(SummonFerryman(0, "2g", "2a", "2c", "3c"), "no_bell")


def test_the_sideways_move_is_refused_without_a_regular_move_after_it(table: Table) -> None:
    # A green soul (circle 3) on 2A. From 2G its only line leads to 3F, taken: going on would pass
    # circle 3, so it would be stuck there. 2C or 2D would leave it a regular move.
    expansion(table, BellTaken(0), place("2a", 3), place("3f", 2, laid=True))
    exc = table.refused(SummonFerryman(0, "2b", "2a", "2g", "3f"), "ferry_no_follow_up")
    offered = {c.params["shield"] for c in exc.alternatives}
    assert "2g" not in offered and {"2c", "2d"} <= offered


def test_the_follow_up_is_blocked_by_the_wall_without_a_disc(table: Table) -> None:
    expansion(table, BellTaken(0), place("5a", RED))
    table.refused(SummonFerryman(0, "5e", "5a", "5b", "6b"), "ferry_no_follow_up")
    table.given(DiscPlaced(0, "gate-6b"))
    events = table.when(SummonFerryman(0, "5e", "5a", "5b", "6b"))
    assert SoulMoved(0, "5b", ("6b",), False) in events


def test_the_ferry_is_instead_of_the_usual_soul_move(table: Table) -> None:
    expansion(table, *ferry_board(), TurnEnded(0, 1), TurnEnded(1, 2), TurnEnded(2, 0))
    table.when(MoveSoul(0, "2a", "3a"))
    table.refused(SummonFerryman(0, "2g", "3a", "3b", "4b"), "not_in_phase_hell")
