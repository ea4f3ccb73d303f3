"""The shapes of what the JSON API takes and answers, as marshmallow schemas (flask-smorest writes
them into the OpenAPI document), and the document's one schema per command type.

A command is ``{"type": ..., "data": ...}``: its ``data`` is loaded by the schema derived from its
dataclass (``events.codec``), the one the pages' forms and the log use too. A request schema refuses
a field it does not know, so the document and the API agree on what a valid request is.
"""

from __future__ import annotations

from typing import Any

from flask_smorest import Api
from marshmallow import Schema, ValidationError, fields, validate

from companion.editions import load_all
from companion.formats.commands import CommandDataSchema as WireCommandSchema
from companion.formats.commands import SeatSchema as WireSeatSchema
from companion.game.commands import COMMAND_TYPES
from companion.web.api.command_check import GAME_COMMANDS, TALLY_COMMANDS
from events.codec import schema_for

__all__ = [
    "ApiErrorSchema",
    "CommandRequestSchema",
    "CreateGameSchema",
    "CreatedSchema",
    "HistorySchema",
    "OutcomeSchema",
    "RedoRequestSchema",
    "ScoreSchema",
    "StateSchema",
    "UndoRequestSchema",
    "document_commands",
]

CREATION_KEY_MIN = 16
CREATION_KEY_RULE = (
    "Use at least 16 random characters (and at most 80): a creation key is a secret of its creator, "
    "for example python -c 'import secrets; print(secrets.token_urlsafe(16))'."
)
SCOPED_KEY = {
    "description": "Scoped to this game: repeated with the same command it records nothing and answers "
    "`duplicate: true`; reused for a different command it is refused (422, code `key_reused`)."
}


def _player_colours() -> list[str]:
    """The player colours of the editions shipped with the app (the API creates games in the first)."""
    return list(next(iter(load_all().values()))[1].colours)


class StrictBoolean(fields.Boolean):
    """A JSON boolean: ``true`` or ``false``, not "yes" or 1."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> bool:
        if not isinstance(value, bool):
            raise ValidationError("Not a boolean: send true or false.")
        return value


class SeatSchema(WireSeatSchema):
    """A seat as the API takes it: the name as imports take it, the colour one of the edition's."""

    colour = fields.String(required=True, validate=validate.OneOf(_player_colours()))


class CreateGameSchema(Schema):
    """A new game. Florence is dealt at random unless ``random_florence`` is false (then the edition's
    default layout); guardians and coins default to the edition's. A field it does not know is refused
    (so the document and the API agree on what a valid request is)."""

    players = fields.List(fields.Nested(SeatSchema), required=True, validate=validate.Length(min=1, max=4))
    plague_card = fields.List(
        fields.Integer(strict=True, validate=validate.Range(min=1, max=9)),
        required=True,
        validate=validate.Length(min=1, max=6),
    )
    expansion = StrictBoolean(load_default=False)
    table_mode = fields.String(load_default="shared", validate=validate.OneOf(["shared", "seats"]))
    random_florence = StrictBoolean(load_default=True)
    idempotency_key = fields.String(
        required=True,
        validate=validate.Length(min=CREATION_KEY_MIN, max=80, error=CREATION_KEY_RULE),
        metadata={
            "description": "A secret of the caller, at least 16 random characters (for example "
            "`secrets.token_urlsafe(16)`): a retry of the very same request with it, within minutes, "
            "answers with the same game and its tokens. Reused with a different request it is refused "
            "(422, code `key_reused`). Never share it; exports never carry it."
        },
    )


class CommandDataSchema(WireCommandSchema):
    """A command sent to ``/commands``: its type (a class of ``companion.game.commands``) and its fields."""

    type = fields.String(
        required=True,
        validate=validate.OneOf(
            sorted(c.__name__ for c in GAME_COMMANDS | TALLY_COMMANDS),
            error="Must be one of: {choices} (undo and redo have their own paths, /undo and /redo).",
        ),
    )


class CommandRequestSchema(Schema):
    expected_seq = fields.Integer(required=True, strict=True, validate=validate.Range(min=0))
    idempotency_key = fields.String(required=True, validate=validate.Length(min=8, max=80), metadata=SCOPED_KEY)
    command = fields.Nested(CommandDataSchema, required=True)


class UndoRequestSchema(Schema):
    expected_seq = fields.Integer(required=True, strict=True, validate=validate.Range(min=0))
    idempotency_key = fields.String(required=True, validate=validate.Length(min=8, max=80), metadata=SCOPED_KEY)
    to_action = fields.Integer(load_default=None, allow_none=True, strict=True, validate=validate.Range(min=1))


class RedoRequestSchema(Schema):
    expected_seq = fields.Integer(required=True, strict=True, validate=validate.Range(min=0))
    idempotency_key = fields.String(required=True, validate=validate.Length(min=8, max=80), metadata=SCOPED_KEY)


class CreatedSchema(Schema):
    game_id = fields.String()
    read_token = fields.String()
    write_token = fields.String()
    seq = fields.Integer()


class StateSchema(Schema):
    game_id = fields.String()
    kind = fields.String()
    seq = fields.Integer()
    state = fields.Dict()


class EventSchema(Schema):
    type = fields.String()
    version = fields.Integer()
    data = fields.Dict()


class OutcomeSchema(Schema):
    seq = fields.Integer()
    duplicate = fields.Boolean()
    events = fields.List(fields.Nested(EventSchema))


class HistoryEntrySchema(Schema):
    seq = fields.Integer()
    recorded_at = fields.String()
    in_effect = fields.Boolean()
    log_control = fields.Boolean()
    player = fields.Integer(allow_none=True)
    turn = fields.Integer()
    sentences = fields.List(fields.String())


class HistorySchema(Schema):
    seq = fields.Integer()
    entries = fields.List(fields.Nested(HistoryEntrySchema))


class ScoreSchema(Schema):
    seq = fields.Integer()
    final = fields.Boolean()
    score = fields.Dict()


class RefusalSchema(Schema):
    """A rule's refusal as data: its code and message key, the current values, the rule, and what is legal."""

    code = fields.String()
    key = fields.String()
    params = fields.Dict()
    rule = fields.String()
    rule_url = fields.String(metadata={"description": "Where the app's rules reference explains it: /rules#s4-3"})
    sentence = fields.String(metadata={"description": "The English sentence, with %(name)s placeholders for params"})
    alternatives = fields.List(fields.Dict())


class ApiErrorSchema(Schema):
    """Every error: a machine-readable ``code`` and a sentence; per-field ``errors`` for a request of
    the wrong shape or naming values the game does not have; ``refusal`` when the rules refuse;
    ``expected_seq`` and ``seq`` when the request was decided on an older seq."""

    code = fields.String(required=True)
    message = fields.String(required=True)
    errors = fields.Dict()
    refusal = fields.Nested(RefusalSchema)
    expected_seq = fields.Integer()
    seq = fields.Integer()


# ---------------------------------------------------------------------------- the document


NO_NUL = "^[^\\x00]*$"  # a NUL character in any string is refused (a 400) before any schema runs
REQUEST_SCHEMAS = ("CreateGame", "Seat", "CommandRequest", "UndoRequest", "RedoRequest")


def _no_nul(schema: Any) -> None:
    """Add the no-NUL pattern to every free string of a request schema (in place)."""
    if isinstance(schema, dict):
        if schema.get("type") == "string" and "enum" not in schema and "pattern" not in schema:
            schema["pattern"] = NO_NUL
        for value in schema.values():
            _no_nul(value)
    elif isinstance(schema, list):
        for value in schema:
            _no_nul(value)


def document_commands(api: Api) -> None:
    """One schema per command type in the document, chosen by ``type`` (a discriminated ``oneOf``):
    each command's ``data`` as the schema that loads it describes it, so a command of the wrong
    shape fails the document exactly as it fails the API."""
    components = api.spec.components
    names = sorted(c.__name__ for c in GAME_COMMANDS | TALLY_COMMANDS)
    mapping = {}
    for name in names:
        components.schema(f"{name}Data", schema=schema_for(COMMAND_TYPES[name]))
        components.schema(
            f"{name}Command",
            component={
                "type": "object",
                "description": (COMMAND_TYPES[name].__doc__ or name).split("\n\n")[0].strip(),
                "required": ["type", "data"],
                "additionalProperties": False,
                "properties": {
                    "type": {"type": "string", "enum": [name]},
                    "data": {"$ref": f"#/components/schemas/{name}Data"},
                },
            },
        )
        mapping[name] = f"#/components/schemas/{name}Command"
    components.schemas["CommandData"] = {
        "description": "A command: its type and its fields, one schema per type.",
        "oneOf": [{"$ref": ref} for ref in mapping.values()],
        "discriminator": {"propertyName": "type", "mapping": mapping},
    }
    for name in _reachable(components.schemas, [*REQUEST_SCHEMAS, *(f"{n}Data" for n in names)]):
        _no_nul(components.schemas[name])


def _reachable(schemas: dict[str, Any], roots: list[str]) -> set[str]:
    """The component schemas ``roots`` name or reach through ``$ref`` (the nested ones a request holds)."""
    seen: set[str] = set()
    todo = [r for r in roots if r in schemas]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        todo.extend(r for r in _refs(schemas[name]) if r in schemas and r not in seen)
    return seen


def _refs(node: Any) -> list[str]:
    """The component schemas ``node`` names through ``$ref``, at any depth."""
    if isinstance(node, list):
        return [r for value in node for r in _refs(value)]
    if not isinstance(node, dict):
        return []
    ref = node.get("$ref")
    own = [ref.rsplit("/", 1)[1]] if isinstance(ref, str) and ref.startswith("#/components/schemas/") else []
    return own + [r for value in node.values() for r in _refs(value)]
