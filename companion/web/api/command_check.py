"""Checks a command's ids against the game it is sent to before the rules see it.

A command from another program can name anything: a seat the table does not have, a shield
that is not on this board, a colour no circle has, a tally entry sent to a recorded game. Each
such value is reported per field with the values this game accepts, so the caller learns
what to send instead; the rules then judge only commands that speak of this game's table.
The fields are found by name through the command's dataclass (nested parts included), so a
new command is checked without touching this module.
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from companion.game.commands import Command, CreateGame, TallyCommand
from companion.game.game_or_tally import AnyState
from companion.game.tally import TallyState

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

__all__ = ["GAME_COMMANDS", "TALLY_COMMANDS", "check_command", "wrong_log"]

GAME_COMMANDS: frozenset[type] = frozenset(typing.get_args(Command)) - {CreateGame}
TALLY_COMMANDS: frozenset[type] = frozenset(typing.get_args(TallyCommand)) - {
    c for c in typing.get_args(TallyCommand) if c.__name__ == "StartTally"
}

SHIELD_FIELDS = frozenset(
    {
        "shield",
        "from_shield",
        "to_shield",
        "phlegyas_to",
        "soul_from",
        "soul_to",
        "landing",
        "via",
        "targets",
        "destinations",
        "desk_below",
        "desk_from",
    }
)
COLOUR_FIELDS = frozenset({"colour", "souls", "barrels", "colours"})
TRACK_FIELDS = frozenset({"tracks", "track", "effect_track", "diplomas"})
FLOOR_FIELDS = frozenset({"floor", "from_floor", "to_floor", "floors"})


def wrong_log(state: AnyState, command: object) -> str | None:
    """Why ``command`` does not belong to this log (a game or a quick tally), or None."""
    tally = isinstance(state, TallyState)
    accepted = TALLY_COMMANDS if tally else GAME_COMMANDS
    if type(command) in accepted:
        return None
    what = "a quick tally" if tally else "a recorded game"
    names = ", ".join(sorted(c.__name__ for c in accepted))
    return f"{type(command).__name__} is not a command for {what}; it takes: {names}."


def _legal_values(state: AnyState) -> dict[frozenset[str] | str, list[Any]]:
    edition = state.edition
    seats = len(state.names) if isinstance(state, TallyState) else len(state.players)
    legal: dict[frozenset[str] | str, list[Any]] = {
        "player": list(range(seats)),
        SHIELD_FIELDS: sorted(state.side.shields),
        COLOUR_FIELDS: sorted(edition.circles),
        TRACK_FIELDS: list(edition.track_circles),
        FLOOR_FIELDS: list(range(len(edition.section("tower")["heights"]))),
        "circle": list(edition.track_circles) if isinstance(state, TallyState) else sorted(edition.circles),
        "location": [loc["id"] for loc in edition.raw["locations"]],
        "gate": sorted(state.side.gates),
    }
    if not isinstance(state, TallyState):
        legal["guardian"] = sorted(state.guardians)
    return legal


def _lookup(legal: dict[frozenset[str] | str, list[Any]], name: str) -> list[Any] | None:
    for key, values in legal.items():
        if name == key or (isinstance(key, frozenset) and name in key):
            return values
    return None


def _fields(obj: DataclassInstance) -> Iterable[tuple[str, Any, Any]]:
    """(name, value, default) for each field of a dataclass instance."""
    for f in dataclasses.fields(obj):
        default = f.default if f.default is not dataclasses.MISSING else None
        yield f.name, getattr(obj, f.name), default


def _check(
    obj: DataclassInstance,
    legal: dict[frozenset[str] | str, list[Any]],
    errors: dict[str, Any],
    describe: Callable[[Any], str],
) -> None:
    for name, value, default in _fields(obj):
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            nested: dict[str, Any] = {}
            _check(value, legal, nested, describe)
            if nested:
                errors[name] = nested
            continue
        allowed = _lookup(legal, name)
        if allowed is None:
            continue
        items = list(value) if isinstance(value, tuple) else [value]
        # A field's own default ("", 0, -1) means "none" or "the rules' choice": never unknown.
        blanks = {default, ""} if isinstance(value, tuple) else {default}
        if name == "colour":
            blanks.add(0)  # a colour of 0 is "nothing" (a soul-less shield, a family member)
        unknown = [v for v in items if v not in allowed and v not in blanks]
        if unknown:
            errors[name] = [f"Unknown {name} {describe(unknown[0])}: this game's are {', '.join(map(str, allowed))}."]


def check_command(state: AnyState, command: DataclassInstance) -> dict[str, Any]:
    """Per-field messages for every value ``command`` names that this game does not have."""
    errors: dict[str, Any] = {}
    _check(command, _legal_values(state), errors, repr)
    return errors
