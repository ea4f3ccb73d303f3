"""Fraud cards left in hand at final scoring on the score page: who holds some, the form, the command.

RULES.md §10.7 leaves open whether unplayed fraud cards score; the edition's assumption
``fraud_in_hand_scores`` decides. On, once the game is over the table enters each card left in a
player's hand by its end-game half (one card per entry, undoable like any entry); off, the page
says in one line that such cards do not score, with the rule's source.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import request

from companion.game.commands import PlayFraud
from companion.game.errors import RuleViolation
from companion.game.state import GameState, Phase
from companion.web.forms.fields import chosen_before
from companion.web.forms.florence import fraud_of
from companion.web.words.refusals import describe_refusal, describe_rule
from companion.web.words.rules_reference import link_citations

__all__ = ["CONTROL", "hand_card_command", "hand_cards_context"]

CONTROL = "hand"  # the control a refusal of this form is shown beside


def hand_card_command(d: dict[str, Any]) -> PlayFraud:
    """The entry for one card left in hand: from the hand, no barrels, no instant reward."""
    return PlayFraud(d["player"], fraud_of({**d, "fraud_source": "hand", "fraud_barrels": [], "reward_kind": ""}))


def cards_left(state: GameState) -> dict[int, int]:
    """Each player still holding fraud cards not yet entered: how many."""
    return {i: p.fraud_hand - p.hand_scored for i, p in enumerate(state.p) if p.fraud_hand > p.hand_scored}


def _choices_shown_again(refused: bool) -> Callable[..., bool]:
    """``chosen(name, value, default)`` for the chips: a refused card keeps what the table tapped."""
    return chosen_before(request.form if refused and request.method == "POST" else None)


def hand_cards_context(state: GameState, refusal: dict[str, Any] | None) -> dict[str, Any]:
    """What the score page shows about cards left in hand once the game is over."""
    if state.phase is not Phase.OVER:
        return {}
    if not state.edition.assumption("fraud_in_hand_scores"):
        why = RuleViolation("fraud_hand_not_scored", {})
        rule = link_citations(describe_rule(why))  # the citation a link to the rules reference
        return {"hand_not_scored": describe_refusal(why, state), "hand_not_scored_rule": rule}
    left = cards_left(state)
    refused = bool(refusal and refusal.get("control") == CONTROL)
    posted = request.form.get("player", "") if refused else ""
    first = next(iter(left), None)
    return {
        "hand_cards": left,
        "hand_player": int(posted) if posted.isdigit() and int(posted) in left else first,
        "chosen": _choices_shown_again(refused),
    }
