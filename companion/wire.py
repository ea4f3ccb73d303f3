"""Commands and events as JSON: what the log's ``command`` column and exports hold.

Commands are stored beside the events they produced so that a log can be replayed
*through the rules* (``companion replay``) and an earlier entry can be re-checked after
a correction. They use the same dataclass-derived marshmallow schemas as events.
"""

from __future__ import annotations

from typing import Any

from marshmallow import ValidationError

from companion.game.commands import COMMAND_TYPES, Command, LogCommand, ReplaceEntry, TallyCommand
from events.catalog import Event
from events.codec import decode, encode, schema_for
from events.store import NewEvent

__all__ = ["BadCommand", "command_from_json", "command_to_json", "to_new_events"]


class BadCommand(ValueError):
    """A stored or imported command that does not load."""


def command_to_json(command: Command | TallyCommand | LogCommand) -> dict[str, Any]:
    """A command as ``{"type": ..., "data": {...}}``."""
    if isinstance(command, ReplaceEntry):
        return {
            "type": "ReplaceEntry",
            "data": {"target": command.target, "replacement": command_to_json(command.replacement)},
        }  # type: ignore[arg-type]
    data: dict[str, Any] = schema_for(type(command))().dump(command)
    return {"type": type(command).__name__, "data": data}


def command_from_json(raw: dict[str, Any]) -> Command | TallyCommand | LogCommand:
    """The command stored as ``{"type": ..., "data": {...}}``."""
    if raw.get("type") == "ReplaceEntry":
        data = raw.get("data") or {}
        if not isinstance(data.get("target"), int) or not isinstance(data.get("replacement"), dict):
            raise BadCommand("ReplaceEntry needs a target and a replacement")
        return ReplaceEntry(data["target"], command_from_json(data["replacement"]))
    cls = COMMAND_TYPES.get(str(raw.get("type")))
    if cls is None:
        raise BadCommand(f"unknown command type {raw.get('type')!r}")
    try:
        command: Command | TallyCommand | LogCommand = schema_for(cls)().load(raw.get("data", {}))
    except ValidationError as exc:
        raise BadCommand(f"{raw.get('type')}: {exc.messages}") from exc
    return command


def to_new_events(events: list[Event]) -> list[NewEvent]:
    """Events ready for the store."""
    return [NewEvent(*encode(e)) for e in events]


def event_from_row(type_name: str, version: int, data: dict[str, Any]) -> Event:
    """An event read from the store or an export, upcast to its current version."""
    return decode(type_name, version, data)
