"""Where the rulebook is silent, the companion's reading is a named, switchable assumption.

Each test shows the shipped choice, then the same table with the edition's switch turned the
other way (edition ``assumptions``; shown on the new-game form).
"""

from __future__ import annotations

from companion.game.commands import Accuse, CreateGame, MoveSoul, PlayFraud, SendMember, TakeLoan, UseGuardian
from companion.game.rules import decide_create
from companion.game.rules.hell import legal_hell_moves
from events.catalog import (
    Corrected,
    DanteMoved,
    DeskPlaced,
    EndgameHalf,
    FraudCardPlayed,
    FraudPlay,
    GuardianSetup,
    GuardianUse,
    LoanTaken,
    Reward,
    SeatSetup,
    TollPaid,
    TurnQuarterSet,
)
from tests.builders import Table, place, seats
from tests.game.test_florence_rules import earlier
from tests.game.variants import assume, variant

GREEN = 3
CARD = FraudPlay("hand", (2,), Reward("nothing"), EndgameHalf("always", "infamy", effect_amount=2))


def at_the_wall(table: Table) -> Table:
    table.create().given(TurnQuarterSet(0, "eagle"))
    table.when(SendMember(0, "noble", "wall"))
    return table


def test_a_fraud_card_without_its_barrels_plays_for_its_end_game_half_only(table: Table) -> None:
    # Given Ana at the Wall with no barrel in her tower
    at_the_wall(table)
    # When she plays a card whose instant half shows a purple barrel, taking no instant reward
    events = table.when(PlayFraud(0, CARD))
    # Then the card is played and its end-game half kept
    assert any(isinstance(e, FraudCardPlayed) for e in events)
    assert table.state.p[0].endgames == (CARD.endgame,)


def test_switched_off_a_fraud_card_needs_its_barrels(table: Table) -> None:
    table.edition = variant(assume("fraud_without_barrels", False))
    at_the_wall(table)
    exc = table.refused(PlayFraud(0, CARD), "fraud_needs_barrels")
    assert not exc.alternatives


MINOS_AND_PLUTUS = (GuardianSetup("plutus", "4a"), GuardianSetup("minos", "2a"))


def _push_across_a_desk(table: Table) -> list:
    """Minos (expansion game) moves to 1A and pushes the green soul on 2B, past Ben's Desk below 2B, to 3C."""
    table.create(expansion=True, guardians=MINOS_AND_PLUTUS).given(
        place("2b", GREEN), DeskPlaced(1, "2b", ""), TurnQuarterSet(0, "lily")
    )
    table.when(SendMember(0, "noble", "bonfire"))
    return table.when(UseGuardian(0, GuardianUse("minos", "1a", targets=("2b",), destinations=("3c",))))


def test_a_guardians_push_pays_no_toll(table: Table) -> None:
    events = _push_across_a_desk(table)
    assert not any(isinstance(e, TollPaid) for e in events)
    assert "3c" in table.state.hell


def test_switched_on_a_guardians_push_pays_the_toll(table: Table) -> None:
    table.edition = variant(assume("toll_on_guardian_push", True))
    events = _push_across_a_desk(table)
    assert [e for e in events if isinstance(e, TollPaid)] == [TollPaid(0, 1, "2b", 1)]


def test_a_loan_may_be_taken_at_any_time(table: Table) -> None:
    table.create()
    assert isinstance(table.when(TakeLoan(0))[0], LoanTaken)


def test_switched_off_a_loan_is_only_taken_to_pay(table: Table) -> None:
    table.edition = variant(assume("loan_any_time", False))
    table.create()
    table.refused(TakeLoan(0), "loan_only_to_pay")


def _accuse_onto_the_fraud_step(table: Table) -> Table:
    """Four players; Dante at position 2, so the next accusation lands on step 3, a fraud step."""
    table.log = decide_create(table.edition, CreateGame(seats(4), plague_card=(2,)))
    table.given(*earlier(0, "noble", "bank")[:1], Corrected("dante", 0, "", 2, 0, "test"), TurnQuarterSet(0, "key"))
    return table


def test_dantes_fraud_step_may_be_declined(table: Table) -> None:
    _accuse_onto_the_fraud_step(table)
    events = table.when(Accuse(0, "bank", bonus=Reward("florins", 1)))
    assert any(isinstance(e, DanteMoved) and e.kind == "fraud" for e in events)
    assert not any(isinstance(e, FraudCardPlayed) for e in events)


def test_switched_off_dantes_fraud_step_must_play_a_card(table: Table) -> None:
    table.edition = variant(assume("dante_fraud_optional", False))
    _accuse_onto_the_fraud_step(table)
    table.refused(Accuse(0, "bank", bonus=Reward("florins", 1)), "dante_fraud_required")
    events = table.when(Accuse(0, "bank", bonus=Reward("florins", 1), dante_fraud=CARD))
    assert any(isinstance(e, FraudCardPlayed) for e in events)


def test_the_expansion_replaces_the_base_guardians(table: Table) -> None:
    table.create(expansion=True)
    assert set(table.state.guardians) == {"plutus", "phlegyas"}


def test_switched_off_the_expansion_guardians_join_the_base_pair(table: Table) -> None:
    table.edition = variant(assume("expansion_replaces_guardians", False))
    table.create(expansion=True)
    assert table.state.guardians == {"medusa": "6d", "minotaur": "7a", "plutus": "4a", "phlegyas": "5d"}


def _desk_in_the_way(table: Table) -> Table:
    """Ana with no drachma; a green soul on 1B whose fall to 3C crosses Ben's Desk below 2C."""
    names = (SeatSetup("Ana", "crimson"), SeatSetup("Ben", "navy"))
    table.log = decide_create(table.edition, CreateGame(names, expansion=True, plague_card=(2,)))
    table.given(
        place("1b", GREEN),
        place("2c", 2, laid=True),
        place("2b", 2, laid=True),
        DeskPlaced(1, "2c", ""),
        Corrected("resource", 0, "drachmas", 0, 3, "test"),
    )
    return table


def test_a_toll_the_mover_cannot_pay_forces_a_loan(table: Table) -> None:
    _desk_in_the_way(table)
    events = table.when(MoveSoul(0, "1b", "3c", via=("2c", "3c"), borrow=True))
    assert isinstance(events[0], LoanTaken) and TollPaid(0, 1, "2c", 1) in events


def test_switched_off_a_toll_never_forces_a_loan(table: Table) -> None:
    table.edition = variant(assume("loan_for_toll", False))
    _desk_in_the_way(table)
    exc = table.refused(MoveSoul(0, "1b", "3c", via=("2c", "3c"), borrow=True), "toll_needs_drachmas")
    assert exc.params == {"toll": 1, "drachmas": 0}
    assert all(not m.tolls for m in legal_hell_moves(table.state, 0))
    # the toll-free fall through 2B is still there
    assert any(m.path == ("2b", "3c") for m in legal_hell_moves(table.state, 0))


HAND_CARD = FraudPlay("hand", (2,), Reward("nothing"), EndgameHalf("always", "infamy", effect_amount=3))


def _game_over(table: Table) -> Table:
    from events.catalog import GameEnded

    table.create().given(GameEnded("sudden_death", 0))
    return table


def test_fraud_cards_left_in_hand_do_not_score(table: Table) -> None:
    # RULES.md §10.7 leaves it open; the shipped edition scores only played cards.
    _game_over(table)
    table.refused(PlayFraud(0, HAND_CARD), "fraud_hand_not_scored")


def test_switched_on_each_card_left_in_hand_scores_its_end_game_half(table: Table) -> None:
    from companion.game.scoring import score_state

    # Given an edition where cards left in hand score, and a finished game (2 cards in each hand)
    table.edition = variant(assume("fraud_in_hand_scores", True))
    _game_over(table)
    before = score_state(table.state).players[0].total
    # When the table enters Ana's two cards by their end-game halves
    table.when(PlayFraud(0, HAND_CARD))
    table.when(PlayFraud(0, HAND_CARD))
    # Then both score at the end (+3 each), at no cost, and a third card is refused
    ana = score_state(table.state).players[0]
    assert ana.total == before + 6 and ana.fraud_infamy == 6
    assert table.state.p[0].drachmas == 3
    table.refused(PlayFraud(0, HAND_CARD), "no_fraud_in_hand")
    table.refused(PlayFraud(0, FraudPlay("lineup", (2,), Reward("nothing"), HAND_CARD.endgame)), "fraud_source")
