"""Reading an exported game file safely: strict JSON, then every field checked by schemas.

A file from outside is hostile until checked. ``parse_export`` turns bytes into JSON without
duplicate keys, non-finite or huge numbers, invalid text or deep nesting; ``check_export`` loads
the envelope and every event row through marshmallow schemas, checks that the rows form the
numbered actions they claim (``action`` = the seq of the action's first row, which alone carries
the command) and that the ``kind`` says what the log starts with. Commands are checked by the
schemas the API uses (``companion.formats.commands``). Each failure is one line naming the field.
"""

from __future__ import annotations

import json
import math
from datetime import datetime
from typing import Any

from marshmallow import RAISE, Schema, ValidationError, fields, validate

from companion.formats.schema_errors import message_lines

__all__ = ["FORMAT", "FORMAT_VERSION", "READABLE_VERSIONS", "BadExport", "check_export", "parse_export"]

FORMAT = "inferno-companion/game-log"
FORMAT_VERSION = 2  # 2: no idempotency keys and no game id (secrets stay with the game they belong to)
READABLE_VERSIONS = (1, 2)
DEPTH_MAX = 32
DIGITS_MAX = 15
EVENTS_MAX = 100_000


class BadExport(ValueError):
    """A file that is not a readable game log."""


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise BadExport(f"the key {key[:40]!r} appears twice in one object (duplicate keys)")
        result[key] = value
    return result


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise BadExport(f"the number {text[:20]}… is not finite")
    return value


def _bounded_int(text: str) -> int:
    if len(text.lstrip("-")) > DIGITS_MAX:
        raise BadExport(f"a number of {len(text)} digits is too large")
    return int(text)


def _no_constant(text: str) -> Any:
    raise BadExport(f"{text} is not a number JSON allows")


def _check_tree(data: Any) -> None:
    """Refuse nesting deeper than ``DEPTH_MAX`` and text that cannot be stored as UTF-8."""
    stack = [(data, 0)]
    while stack:
        value, depth = stack.pop()
        if depth > DEPTH_MAX:
            raise BadExport(f"the JSON is nested too deeply (more than {DEPTH_MAX} levels)")
        if isinstance(value, str):
            try:
                value.encode("utf-8")
            except UnicodeEncodeError:
                raise BadExport("the file holds text that is not valid UTF-8") from None
        elif isinstance(value, dict):
            stack.extend((k, depth + 1) for k in value)
            stack.extend((v, depth + 1) for v in value.values())
        elif isinstance(value, list):
            stack.extend((v, depth + 1) for v in value)


def parse_export(raw: bytes | str) -> Any:
    """The JSON of an export file; ``BadExport`` (one line) when it is not safe, plain JSON."""
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise BadExport("the file is not UTF-8 text") from None
    try:
        data = json.loads(
            raw,
            object_pairs_hook=_no_duplicates,
            parse_float=_finite,
            parse_int=_bounded_int,
            parse_constant=_no_constant,
        )
    except BadExport:
        raise
    except RecursionError:
        raise BadExport("the JSON is nested too deeply") from None
    except ValueError as exc:
        raise BadExport(f"the file is not JSON: {str(exc)[:120]}") from None
    _check_tree(data)
    return data


class _Int(fields.Integer):
    """A JSON integer: not a float, a string or a boolean."""

    def _validated(self, value: Any) -> int:
        if isinstance(value, bool):
            raise self.make_error("invalid", input=value)
        return int(super()._validated(value))


def _a_time(value: str) -> bool:
    try:
        datetime.fromisoformat(value)
    except ValueError:
        raise ValidationError("Not an ISO 8601 time.") from None
    return True


class EditionSchema(Schema):
    """The exact edition file the game pinned, and its hash."""

    class Meta:
        unknown = RAISE

    id = fields.String(required=True, validate=validate.Length(min=1, max=80))
    hash = fields.String(required=True, validate=validate.Length(equal=64))
    content = fields.String(required=True, validate=validate.Length(min=1, max=2_000_000))


class EventRowSchema(Schema):
    """One row of the log as exported."""

    class Meta:
        unknown = RAISE

    seq = _Int(strict=True, required=True, validate=validate.Range(min=1, max=EVENTS_MAX))
    action = _Int(strict=True, required=True, validate=validate.Range(min=1, max=EVENTS_MAX))
    type = fields.String(required=True, validate=validate.Length(min=1, max=60))
    version = _Int(strict=True, required=True, validate=validate.Range(min=1, max=1000))
    data = fields.Dict(keys=fields.String(validate=validate.Length(max=40)), required=True)
    recorded_at = fields.String(load_default=None, allow_none=True, validate=[validate.Length(max=40), _a_time])
    idempotency_key = fields.String(  # written by format 1; read, never stored
        load_default=None, allow_none=True, validate=validate.Length(max=200)
    )
    command = fields.Dict(load_default=None, allow_none=True)
    actor = fields.String(load_default=None, allow_none=True, validate=validate.Length(max=40))


class ExportSchema(Schema):
    """The envelope: format, version, kind, edition, set-up summary and the events."""

    class Meta:
        unknown = RAISE

    format = fields.String(required=True, validate=validate.Equal(FORMAT))
    format_version = _Int(strict=True, required=True, validate=validate.OneOf(READABLE_VERSIONS))
    game_id = fields.String(validate=validate.Length(max=80))  # written by format 1; read, never used
    kind = fields.String(required=True, validate=validate.OneOf(("game", "tally")))
    exported_at = fields.String(load_default=None, allow_none=True, validate=[validate.Length(max=40), _a_time])
    edition = fields.Nested(EditionSchema, required=True)
    setup = fields.Dict(keys=fields.String(validate=validate.Length(max=40)), load_default=dict)
    events = fields.List(fields.Nested(EventRowSchema), required=True, validate=validate.Length(min=1, max=EVENTS_MAX))


def _check_actions(rows: list[dict[str, Any]]) -> None:
    """Rows must form actions: a head (``action`` = its own seq) with the command, then its followers."""
    if [r["seq"] for r in rows] != list(range(1, len(rows) + 1)):
        raise BadExport("events must be numbered 1, 2, 3… without gaps")
    current = 0
    for i, row in enumerate(rows):
        if row["action"] == row["seq"]:
            if row["command"] is None:
                raise BadExport(f"events[{i}]: starts an action but carries no command")
            current = row["seq"]
        elif row["action"] != current:
            raise BadExport(f"events[{i}]: action {row['action']} is neither this event's seq nor the action before it")
        elif any(row[k] is not None for k in ("command", "actor", "idempotency_key")):
            raise BadExport(f"events[{i}]: carries a command, actor or key but continues action {current}")


def check_export(data: Any) -> dict[str, Any]:
    """The export's envelope and rows, loaded and checked field by field; ``BadExport`` if not."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise BadExport(f"not a game log: 'format' must be {FORMAT!r}")
    if data.get("format_version") not in READABLE_VERSIONS:
        version = str(data.get("format_version"))[:20]
        readable = ", ".join(map(str, READABLE_VERSIONS))
        raise BadExport(f"unsupported format_version {version} (this app reads {readable})")
    try:
        loaded: dict[str, Any] = ExportSchema().load(data)
    except ValidationError as exc:
        raise BadExport(message_lines(exc.messages)[0][:200]) from None
    rows = loaded["events"]
    _check_actions(rows)
    if loaded["setup"] and loaded["setup"] != rows[0]["data"]:
        raise BadExport("setup: does not match the data of the first event")
    return loaded
