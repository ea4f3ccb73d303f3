"""``decide(state, command)``: every rule, one module per command family.

Returns the events that record the command, or raises ``RuleViolation``. Game creation
has no state yet and goes through ``decide_create(edition, command)``.
"""

from __future__ import annotations

from typing import assert_never

from companion.game.commands import (
    Accuse,
    BringSoul,
    ChooseTableMode,
    Command,
    Correct,
    CorrectSoul,
    CreateGame,
    DeliverBarrel,
    EndTurn,
    ExchangeFlorins,
    HoldCouncil,
    MoveInTower,
    MoveSoul,
    PlaceDisc,
    PlaceHalfDiplomas,
    PlayFraud,
    RaiseCube,
    ReturnFromTower,
    RevealPlagueCard,
    SendMember,
    StartNextGame,
    SummonFerryman,
    TakeBarrel,
    TakeGuest,
    TakeLoan,
    UseGuardian,
    UseStyx,
)
from companion.game.errors import RuleViolation
from companion.game.rules.accusation import accusation_checks, decide_accuse
from companion.game.rules.corrections import decide_correct, decide_correct_soul
from companion.game.rules.economy import loan
from companion.game.rules.ferry import decide_ferry
from companion.game.rules.florence import decide_council, decide_send
from companion.game.rules.fraud_at_end import decide_hand_fraud_at_end
from companion.game.rules.guards import require_active
from companion.game.rules.hell import decide_bring, decide_move
from companion.game.rules.locations import decide_location
from companion.game.rules.scoring_choices import decide_place_halves
from companion.game.rules.setup import decide_create, decide_table_mode
from companion.game.rules.turns import decide_end_turn, decide_plague
from companion.game.state import GameState, Phase
from events.catalog import Event, NextGameCreated

__all__ = ["decide", "decide_create"]


def decide(state: GameState, command: Command) -> list[Event]:
    """The events ``command`` records in ``state``, or a ``RuleViolation``."""
    match command:
        case TakeLoan():
            require_active(state, command.player)
            if not state.edition.assumption("loan_any_time"):
                raise RuleViolation(
                    "loan_only_to_pay",
                    {},
                )
            return [loan(state, command.player)]
        case BringSoul():
            return decide_bring(state, command)
        case MoveSoul():
            return decide_move(state, command)
        case SummonFerryman():
            return decide_ferry(state, command)
        case EndTurn():
            return decide_end_turn(state, command)
        case RevealPlagueCard():
            return decide_plague(state, command)
        case SendMember():
            return decide_send(state, command)
        case Accuse():
            return decide_accuse(state, command)
        case HoldCouncil():
            possible = any(c.allowed for c in accusation_checks(state, command.player))
            return decide_council(state, command, possible)
        case PlayFraud() if state.phase is Phase.OVER:
            return decide_hand_fraud_at_end(state, command)
        case (
            TakeBarrel()
            | TakeGuest()
            | ReturnFromTower()
            | MoveInTower()
            | ExchangeFlorins()
            | RaiseCube()
            | PlaceDisc()
            | DeliverBarrel()
            | UseGuardian()
            | UseStyx()
            | PlayFraud()
        ):
            return decide_location(state, command)
        case PlaceHalfDiplomas():
            return decide_place_halves(state, command)
        case Correct():
            return decide_correct(state, command)
        case CorrectSoul():
            return decide_correct_soul(state, command)
        case ChooseTableMode():
            return decide_table_mode(command.mode, state.table_mode)
        case StartNextGame():
            if state.ended is None:
                raise RuleViolation("game_not_over", {})
            return [NextGameCreated(command.read_token, command.proof)]
        case CreateGame():
            raise RuleViolation("game_exists", {})
        case _:
            assert_never(command)
