"""Fraud cards (RULES.md §4.7): at the Wall for 2 drachmas (+1 when not from hand), or on Dante's
fraud step; the instant half needs its barrels in the tower (checked, not spent)."""

from __future__ import annotations

from companion.game.commands import Accuse, PlayFraud, SendMember
from events.catalog import (
    BarrelTaken,
    CoinsGained,
    DanteMoved,
    EndgameHalf,
    FraudCardPlayed,
    FraudPlay,
    Reward,
    TurnQuarterSet,
)
from tests.builders import Table
from tests.game.test_florence_rules import earlier

HALF = EndgameHalf("no_loans", "infamy", effect_amount=5)


def at_the_wall(table: Table, *given) -> Table:
    table.create().given(*given, TurnQuarterSet(0, "eagle"))
    table.when(SendMember(0, "noble", "wall"))
    return table


def test_the_instant_half_needs_its_barrels_in_the_tower(table: Table) -> None:
    at_the_wall(table)
    play = FraudPlay("hand", (3,), Reward("florins", 3), HALF)
    exc = table.refused(PlayFraud(0, play), "fraud_needs_barrels")
    assert exc.params["colours"] == [3]
    assert exc.alternatives[0].command == PlayFraud(0, FraudPlay("hand", (3,), Reward("nothing"), HALF))


def test_with_the_barrel_the_reward_comes_and_the_barrel_stays(table: Table) -> None:
    at_the_wall(table, BarrelTaken(0, 3, 0))
    events = table.when(PlayFraud(0, FraudPlay("hand", (3,), Reward("florins", 3), HALF)))
    assert events[-2:] == [
        FraudCardPlayed(0, FraudPlay("hand", (3,), Reward("florins", 3), HALF), 2, "wall"),
        CoinsGained(0, 3, 0, "fraud"),
    ]
    state = table.state
    assert state.p[0].has_in_tower("barrel", 3)
    assert state.p[0].endgames == (HALF,)
    assert state.p[0].fraud_hand == 2  # a card from hand is replaced


def test_a_card_from_the_line_up_costs_one_drachma_more(table: Table) -> None:
    at_the_wall(table)
    drachmas = table.state.p[0].drachmas
    table.when(PlayFraud(0, FraudPlay("lineup", (2,), Reward("nothing"), HALF), borrow=True))
    assert table.state.p[0].drachmas == drachmas - 3


def test_an_unknown_end_game_effect_is_refused(table: Table) -> None:
    at_the_wall(table)
    play = FraudPlay("hand", (2,), Reward("nothing"), EndgameHalf("always", "teleport"))
    table.refused(PlayFraud(0, play), "endgame_effect_not_on_menu")


def test_a_reward_outside_the_menus_range_is_refused(table: Table) -> None:
    at_the_wall(table, BarrelTaken(0, 2, 0))
    table.refused(PlayFraud(0, FraudPlay("hand", (2,), Reward("florins", 50), HALF)), "out_of_range")


def test_dantes_fraud_step_plays_a_card_free_from_hand(table: Table) -> None:
    table.create()
    path = table.edition.section("dante")["paths"]["2"]
    steps = table.edition.section("dante")["steps"]
    before = next(i for i, s in enumerate(path) if steps[s]["kind"] == "fraud") - 1
    table.given(DanteMoved(0, before, "diploma", 6), *earlier(0, "noble", "bank"), TurnQuarterSet(0, "key"))
    drachmas = table.state.p[0].drachmas
    card = FraudPlay("hand", (2,), Reward("nothing"), HALF)
    events = table.when(Accuse(0, "bank", bonus=Reward("florins", 1), dante_fraud=card))
    assert FraudCardPlayed(0, card, 0, "dante") in events
    assert table.state.p[0].drachmas == drachmas
