"""Refusals, legal choices and rule citations in the reader's language.

The core declares every refusal and choice once, with an English sentence and the kind of each
parameter (``companion.game.refusals``); this module only translates: it renders the sentence in
the reader's language and says each value in words by its kind (player names, soul colours,
shields, circles, tracks, locations...) through the glossary, never as a raw id.
"""

from __future__ import annotations

from typing import Any

from companion.game.errors import RuleViolation
from companion.game.game_or_tally import AnyState
from companion.game.refusals import CHOICES as CHOICE_CATALOGUE
from companion.game.refusals import REFUSALS as REFUSAL_CATALOGUE
from companion.game.refusals import Citation, Kind, placeholders
from companion.service.caches import Lru
from companion.web.words.catalogue import gettext, language, lazy_gettext
from companion.web.words.glossary import (
    FIELDS,
    PLAYER_COLOURS,
    SOURCES,
    circle_name,
    colour_name,
    effect_label,
    field_name,
    gate_name,
    guardian_name,
    kind_name,
    location_name,
    player_name,
    player_names,
    quarter_name,
    requirement_label,
    reward_label,
    shield_label,
    track_name,
)

__all__ = ["describe_choice", "describe_refusal", "describe_rule"]

_ = lazy_gettext


PIECES = {"noble": _("noble"), "urchin": _("urchin"), "guest": _("guest"), "barrel": _("barrel")}


PHASES = {
    "hell": _("the Hell phase"),
    "florence": _("the Florence phase"),
    "action": _("the location's actions"),
    "done": _("the end of the turn"),
    "over": _("the end of the game"),
}


OPTIONS = {
    "exchange": _("florins for drachmas"),
    "passage": _("a cube right or a safe-passage disc"),
    "underworld": _("a guardian or the Styx"),
    "fraud": _("a fraud card"),
    "deliver": _("deliver a barrel"),
    "take": _("a piece for your tower"),
    "home": _("members home from the tower"),
    "rearrange": _("rearrange the tower"),
}


MODES = {"shared": _("one shared phone"), "seats": _("a phone per player")}


END_REASONS = {
    "final_turns_done": _("the final turns are played"),
    "sudden_death": _("sudden death: no soul could move"),
}


STEPS = {"pagan": _("pagan"), "fraud": _("fraud"), "diploma": _("diploma"), "final": _("final")}


CORRECTIONS = {
    "resource": _("a player's resources"),
    "skull": _("a skull"),
    "diploma": _("a diploma"),
    "disc": _("a safe-passage disc"),
    "cemetery": _("the Cemetery"),
    "cube": _("a Phlegethon cube"),
    "guardian": _("a guardian"),
    "dante": _("Dante"),
}


def _conditions(conditions: Any) -> str:
    if not isinstance(conditions, dict):
        return str(conditions)
    low = int(conditions.get("guardian_circle_at_least", 1))
    high = int(conditions.get("guardian_circle_at_most", 9))
    return gettext("a shield of circles %(low)s to %(high)s", low=low, high=high)


def _council(params: dict[str, Any]) -> str:
    match params.get("choice"):
        case "member":
            source = params.get("source", "")
            where = gettext("the tower") if source == "tower" else location_name(source)
            return gettext("your %(kind)s home from %(where)s", kind=kind_name(params.get("kind", "")), where=where)
        case "guest":
            return gettext("the %(colour)s guest back to the Palace", colour=colour_name(params.get("colour", 0)))
        case "barrel":
            return gettext("the %(colour)s barrel back to the Market", colour=colour_name(params.get("colour", 0)))
    return gettext("nothing to bring back")


def _one(kind: Kind, value: Any, params: dict[str, Any], state: AnyState | None) -> str:
    """One parameter value in words, by its declared kind."""
    if isinstance(value, (list, tuple)) and kind is not Kind.HIDDEN:
        return ", ".join(_one(kind, v, params, state) for v in value)
    match kind:
        case Kind.COLOUR | Kind.COLOURS:
            return colour_name(value) if isinstance(value, int) else str(value)
        case Kind.PLAYER:
            if isinstance(value, int) and state is not None and 0 <= value < len(player_names(state)):
                return player_name(state, value)
            return gettext("player %(n)s", n=value + 1) if isinstance(value, int) else str(value)
        case Kind.PLAYER_COLOUR | Kind.PLAYER_COLOURS:
            return str(PLAYER_COLOURS.get(value, value))
        case Kind.SHIELD | Kind.SHIELDS:
            if not isinstance(value, str):
                return str(value)
            if not value:
                return gettext("no shield")
            return shield_label(state, value) if state is not None else value.upper()
        case Kind.CIRCLE:
            return circle_name(value)
        case Kind.TRACK | Kind.TRACKS:
            return track_name(value)
        case Kind.LOCATION | Kind.LOCATIONS:
            return location_name(value)
        case Kind.QUARTER:
            return quarter_name(value)
        case Kind.GUARDIAN:
            return guardian_name(value)
        case Kind.GATE:
            return gate_name(value) if isinstance(value, str) else str(value)
        case Kind.MEMBER | Kind.PIECE:
            return str(PIECES.get(value, value))
        case Kind.REWARD:
            return reward_label(value)
        case Kind.REQUIREMENT:
            return requirement_label(value)
        case Kind.EFFECT:
            return effect_label(value)
        case Kind.FIELD:
            return field_name(value) if isinstance(value, str) else str(value)
        case Kind.PHASE:
            return str(PHASES.get(value, value))
        case Kind.OPTION:
            return str(OPTIONS.get(value, value))
        case Kind.SOURCE:
            return str(SOURCES.get(value, value))
        case Kind.MODE:
            return str(MODES.get(value, value))
        case Kind.CORRECTION:
            return str(CORRECTIONS.get(value, FIELDS.get(value, value)))
        case Kind.CONDITIONS:
            return _conditions(value)
        case Kind.END:
            return str(END_REASONS.get(value, value))
        case Kind.STEP:
            return str(STEPS.get(value, value))
        case Kind.COUNCIL:
            return _council(params)
        case Kind.REFUSAL:
            inner = REFUSAL_CATALOGUE.get(value)
            return _sentence(inner.sentence, inner.params, params, state) if inner else str(value)
    return str(value)


def _sentence(msgid: str, kinds: Any, params: dict[str, Any], state: AnyState | None) -> str:
    words = {name: _one(kinds.get(name, Kind.TEXT), value, params, state) for name, value in params.items()}
    return gettext(msgid) % {name: words.get(name, "") for name in placeholders(msgid)}


def describe_refusal(exc: RuleViolation, state: AnyState | None) -> str:
    """A refusal as one sentence in the reader's language, its values in words."""
    entry = REFUSAL_CATALOGUE[exc.code]
    return _sentence(entry.sentence, entry.params, exc.params, state)


SAID_CACHED = 4096
"""How many refusal sentences a process remembers (``said_refusal``)."""

_SAID: Lru[tuple[Any, ...], str] = Lru(SAID_CACHED)


def said_refusal(exc: RuleViolation, state: AnyState | None) -> str:
    """``describe_refusal``, cached: the sentences a screen says on every drawing (the accusations not open now, beside
    the Florence phase's actions) are put into words once per language, refusal and what it reads of the game (the
    players' names, the board's side and its edition, ``_one``); the refusal's values are in the key as written
    (``repr``), so a list among them is no obstacle."""
    side = getattr(state, "side", None)
    edition = getattr(getattr(state, "edition", None), "content_hash", None)
    names = player_names(state) if state is not None else ()
    key = (language(), exc.code, repr(sorted(exc.params.items())), names, edition, getattr(side, "id", None))
    said = _SAID.get(key)
    if said is None:
        said = _SAID.put(key, describe_refusal(exc, state))
    return said


def describe_choice(key: str, params: dict[str, Any], state: AnyState | None) -> str:
    """A legal alternative as a short phrase."""
    entry = CHOICE_CATALOGUE[key]
    return _sentence(entry.phrase, entry.params, params, state)


def describe_rule(citation: Citation | RuleViolation | None) -> str:
    """Where a rule comes from, as the rulebook cites itself: 'Rulebook p. 11', 'Reference §4.3'."""
    if isinstance(citation, RuleViolation):
        citation = citation.citation
    if citation is None:
        return ""
    if citation.source == "rulebook":
        if "–" in citation.where:
            return gettext("Rulebook pp. %(pages)s", pages=citation.where)
        return gettext("Rulebook p. %(page)s", page=citation.where)
    if citation.source == "reference":
        return gettext("Reference §%(section)s", section=citation.where)
    return gettext("Plutus & Phlegyas rulebook")
