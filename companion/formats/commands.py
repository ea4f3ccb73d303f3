"""Commands and events as JSON: what the log's ``command`` column, the API and exports hold.

Commands are stored beside the events they produced so that a log can be replayed
*through the rules* (``companion replay``) and an earlier entry can be re-checked after
a correction. They use the same dataclass-derived marshmallow schemas as events. A command
that comes in from outside (the API, an imported file) is first checked by the schemas here,
shared by both: its envelope, bounded text and nesting everywhere, and the names of a new
game's seats or a tally's players.
"""

from __future__ import annotations

from typing import Any

from marshmallow import INCLUDE, Schema, ValidationError, fields, validate

from companion.formats.schema_errors import message_lines
from companion.game.commands import COMMAND_TYPES, Command, LogCommand, ReplaceEntry, TallyCommand
from events.catalog import Event
from events.codec import decode, decode_stored, dumper, encode, schema_instance, with_nested
from events.store import NewEvent

__all__ = [
    "NAME_MAX",
    "TEXT_MAX",
    "BadCommand",
    "CommandDataSchema",
    "SeatSchema",
    "command_from_json",
    "command_to_json",
    "event_from_stored_row",
    "to_new_events",
]

NAME_MAX = 24  # a player's name, as the pages and the API take it
TEXT_MAX = 200  # any other text in a command (a correction's reason is the longest)
NUMBER_MAX = 1_000_000  # no count, index or amount in the game comes near
ITEMS_MAX = 64
DEPTH_MAX = 6


def _bounded(value: Any, path: str = "", depth: int = 0) -> None:
    """Refuse text, numbers, lists and nesting beyond what any command of the game needs."""
    where = path or "data"
    if depth > DEPTH_MAX:
        raise ValidationError(f"{where}: nested too deeply")
    if isinstance(value, str):
        if len(value) > TEXT_MAX:
            raise ValidationError(f"{where}: longer than {TEXT_MAX} characters")
    elif isinstance(value, bool) or value is None:
        return
    elif isinstance(value, int):
        if abs(value) > NUMBER_MAX:
            raise ValidationError(f"{where}: number out of range")
    elif isinstance(value, (list, tuple)):
        if len(value) > ITEMS_MAX:
            raise ValidationError(f"{where}: more than {ITEMS_MAX} items")
        for i, item in enumerate(value):
            _bounded(item, f"{path}.{i}" if path else str(i), depth + 1)
    elif isinstance(value, dict):
        if len(value) > ITEMS_MAX:
            raise ValidationError(f"{where}: more than {ITEMS_MAX} fields")
        for key, item in value.items():
            if not isinstance(key, str) or len(key) > 40:
                raise ValidationError(f"{where}: a field name longer than 40 characters")
            _bounded(item, f"{path}.{key}" if path else key, depth + 1)
    else:
        raise ValidationError(f"{where}: not a JSON value")


class SeatSchema(Schema):
    """One seat of a new game: the player's name and colour."""

    name = fields.String(required=True, validate=validate.Length(min=1, max=NAME_MAX))
    colour = fields.String(required=True, validate=validate.Length(min=1, max=24))


class CommandDataSchema(Schema):
    """A command: its type (a class of ``companion.game.commands``) and its fields."""

    type = fields.String(required=True, validate=validate.Length(min=1, max=40))
    data = fields.Dict(
        keys=fields.String(),
        load_default=dict,
        validate=_bounded,
        metadata={"description": "The command's fields (see companion/game/commands.py); checked against the game"},
    )


class _CreateGameLimits(Schema):
    """What ``CreateGame`` must hold beyond its dataclass: seats as the API takes them."""

    class Meta:
        unknown = INCLUDE

    players = fields.List(fields.Nested(SeatSchema), required=True, validate=validate.Length(min=1, max=4))


class _StartTallyLimits(Schema):
    """What ``StartTally`` must hold beyond its dataclass: names as the tally form takes them."""

    class Meta:
        unknown = INCLUDE

    players = fields.List(
        fields.String(validate=validate.Length(min=1, max=NAME_MAX)), required=True, validate=validate.Length(min=1)
    )


_LIMITS: dict[str, Schema] = {"CreateGame": with_nested(_CreateGameLimits()), "StartTally": _StartTallyLimits()}
_ENVELOPE = CommandDataSchema()  # made once: making a schema per command read costs more than reading it
# A switch of edition carries the edition file's whole text (validated by parse_edition when decided).
_LONG_TEXT: dict[str, tuple[str, int]] = {
    "SwitchEdition": ("content", 1_000_000),
    "SwitchEditionFrom": ("content", 1_000_000),
}


class BadCommand(ValueError):
    """A stored or imported command that does not load."""


def command_to_json(command: Command | TallyCommand | LogCommand) -> dict[str, Any]:
    """A command as ``{"data": {...}, "type": ...}``: its keys sorted all the way down, as the log stores it and gives
    it back (an append stores it as it is for its first row: ``service.games._rows_as_stored``)."""
    if isinstance(command, ReplaceEntry):
        return {
            "data": {"replacement": command_to_json(command.replacement), "target": command.target},  # type: ignore[arg-type]
            "type": "ReplaceEntry",
        }
    data: dict[str, Any] = dumper(type(command))(command)  # what its schema dumps (events.codec.dumper), keys sorted
    return {"data": data, "type": type(command).__name__}


def _without_long_text(raw: Any) -> Any:
    """``raw`` with a command's one long text field checked on its own and left out of the shared bounds."""
    if not isinstance(raw, dict) or raw.get("type") not in _LONG_TEXT or not isinstance(raw.get("data"), dict):
        return raw
    name, limit = _LONG_TEXT[str(raw["type"])]
    text = raw["data"].get(name)
    if not isinstance(text, str) or len(text) > limit:
        raise ValidationError(f"data.{name}: text of at most {limit} characters")
    return {**raw, "data": {k: v for k, v in raw["data"].items() if k != name}}


def command_from_json(raw: Any, checked: bool = True) -> Command | TallyCommand | LogCommand:
    """The command stored as ``{"type": ..., "data": {...}}``.

    ``checked`` (anything from outside: the API, an imported file) first applies the shared
    schemas above; commands read back from this app's own log skip them, so that entries
    recorded before a limit existed stay readable.
    """
    if checked:
        try:
            envelope = _ENVELOPE.load(_without_long_text(raw))
            limits = _LIMITS.get(envelope["type"])
            if limits is not None:
                limits.load(envelope["data"])
        except ValidationError as exc:
            kind = str(raw.get("type"))[:40] if isinstance(raw, dict) else "command"
            raise BadCommand(f"{kind}: {'; '.join(message_lines(exc.messages))}") from exc
    if not isinstance(raw, dict):
        raise BadCommand("a command is an object with a type and data")
    if raw.get("type") == "ReplaceEntry":
        data = raw.get("data") or {}
        if not isinstance(data.get("target"), int) or not isinstance(data.get("replacement"), dict):
            raise BadCommand("ReplaceEntry needs a target and a replacement")
        return ReplaceEntry(data["target"], command_from_json(data["replacement"], checked))
    cls = COMMAND_TYPES.get(str(raw.get("type")))
    if cls is None:
        raise BadCommand(f"unknown command type {str(raw.get('type'))[:40]!r}")
    try:
        command: Command | TallyCommand | LogCommand = schema_instance(cls).load(raw.get("data", {}))
    except ValidationError as exc:
        raise BadCommand(f"{raw.get('type')}: {'; '.join(message_lines(exc.messages))}") from exc
    return command


def to_new_events(events: list[Event]) -> list[NewEvent]:
    """Events ready for the store."""
    return [NewEvent(*encode(e)) for e in events]


def event_from_row(type_name: str, version: int, data: dict[str, Any]) -> Event:
    """An event read from the store or an export, upcast to its current version."""
    return decode(type_name, version, data)


def event_from_stored_row(type_name: str, version: int, data: dict[str, Any]) -> Event:
    """An event read back from this app's own log (the hot read path), upcast to its current version."""
    return decode_stored(type_name, version, data)
