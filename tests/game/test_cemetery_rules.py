"""Bringing a soul from the Cemetery into Limbo for 1 drachma (RULES.md §3.3, §4.1 B)."""

from __future__ import annotations

from companion.game.commands import BringSoul
from companion.game.state import Phase, Soul
from events.catalog import SoulBroughtIn, SoulLaidDown, TurnQuarterSet
from tests.builders import Table


def test_a_soul_enters_limbo_for_one_drachma_and_sets_the_quarter(table: Table) -> None:
    table.create()
    drachmas = table.state.p[0].drachmas
    quarter = table.edition.sides["1-2"].shields["1b"].quarter
    assert table.when(BringSoul(0, 5, "1b")) == [SoulBroughtIn(0, 5, "1b", 1), TurnQuarterSet(0, quarter)]
    state = table.state
    assert state.hell["1b"] == Soul(5)
    assert state.cemetery.get(5, 0) == 0
    assert state.p[0].drachmas == drachmas - 1
    assert state.quarter == quarter
    assert state.phase is Phase.FLORENCE


def test_only_colours_in_the_cemetery_can_come_in(table: Table) -> None:
    table.create(plague_card=(2, 3))
    exc = table.refused(BringSoul(0, 9, "1a"), "cemetery_has_no_such_soul")
    assert {c.params["colour"] for c in exc.alternatives} == {2, 3}


def test_the_soul_needs_an_empty_limbo_shield(table: Table) -> None:
    table.create(players=2, plague_card=(2, 3, 4))
    table.when(BringSoul(0, 2, "1a"))
    table.finish_turn(0)
    exc = table.refused(BringSoul(1, 3, "1a"), "shield_occupied")
    assert "1a" not in {c.params["shield"] for c in exc.alternatives}
    table.refused(BringSoul(1, 3, "2a"), "not_a_limbo_shield")


def test_exactly_one_soul_move_per_turn(table: Table) -> None:
    table.create(plague_card=(2, 3))
    table.when(BringSoul(0, 2, "1a"))
    table.refused(BringSoul(0, 3, "1b"), "not_in_phase_hell")


def test_a_pagan_soul_is_laid_down_in_limbo_at_once_and_scores(table: Table) -> None:
    table.create(plague_card=(1,))
    events = table.when(BringSoul(0, 1, "1c"))
    infamy = table.edition.circles[1].infamy
    assert SoulLaidDown(0, "1c", infamy) in events
    assert table.state.hell["1c"].laid
    assert table.state.p[0].infamy == infamy


def test_it_must_be_your_turn(table: Table) -> None:
    table.create()
    table.refused(BringSoul(1, 2, "1a"), "not_your_turn")
