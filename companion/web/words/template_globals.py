"""Functions the templates call to show the state in words and colours (no rules here)."""

from __future__ import annotations

from flask import Flask
from flask_babel import get_locale

from companion.game.state import GameState, Phase
from companion.web.words.catalogue import gettext
from companion.web.words.editions import edition_name
from companion.web.words.glossary import (
    PLAYER_COLOURS,
    REWARDS,
    colour_name,
    describe_endgame,
    describe_reward,
    effect_label,
    field_name,
    guardian_name,
    guardian_note,
    kind_name,
    ledger_name,
    location_action,
    location_name,
    player_letter,
    player_name,
    quarter_name,
    shield_label,
    sin_name,
)
from companion.web.words.refusals import said_refusal

__all__ = ["install", "phase_text"]


def phase_text(state: GameState) -> str:
    if state.needs_plague_card:
        return gettext("The Cemetery is empty: a plague card is due.")
    match state.phase:
        case Phase.HELL:
            return gettext("Hell phase: move one soul, or bring one in from the Cemetery.")
        case Phase.FLORENCE:
            return gettext(
                "Florence phase in the %(quarter)s quarter: send a family member, accuse, or hold the family council.",
                quarter=quarter_name(state.quarter),
            )
        case Phase.ACTION:
            return gettext("Take the location's action.")
        case Phase.DONE:
            return gettext("Quarter this turn: %(quarter)s. The turn can end.", quarter=quarter_name(state.quarter))
        case _:
            return ""


def _ended_reason(state: GameState) -> str:
    if state.ended == "sudden_death":
        return gettext("Sudden death: no legal soul move was left. Final scoring follows.")
    return gettext("Every player had their last turn. Final scoring follows.")


def install(app: Flask) -> None:
    """Make the helpers available in every template."""

    app.jinja_env.globals.update(
        {
            "colour_name": colour_name,
            "player_colour_name": lambda c: str(PLAYER_COLOURS.get(c, c)),
            "quarter_name": quarter_name,
            "shield_label": shield_label,
            "player_name": player_name,
            "phase_text": phase_text,
            "ended_reason": _ended_reason,
            "get_locale": lambda: str(get_locale() or "en"),
            "ledger_name": ledger_name,
            "field_name": field_name,
            "location_name": location_name,
            "edition_name": edition_name,
            "refusal_text": said_refusal,
            "location_action": location_action,
            "guardian_name": guardian_name,
            "guardian_note": guardian_note,
            "player_letter": player_letter,
            "describe_reward": describe_reward,
            "reward_name": lambda k: str(REWARDS.get(k, k)),
            "kind_name": kind_name,
            "effect_label": effect_label,
            "describe_endgame": describe_endgame,
            "sin_name": sin_name,
        }
    )
