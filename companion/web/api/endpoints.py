"""The JSON API beside the pages (flask-smorest, OpenAPI at /api/openapi.json).

It takes the same path as the pages — ``GameService``, so no rule is written twice — and the
same marshmallow schemas: a command is ``{"type": ..., "data": ...}`` loaded by the schema
derived from its dataclass. Each game has a write token and a read token; a request carries
one as ``Authorization: Bearer <token>``. Without a token: 401; with a wrong one (or for a
game that does not exist): 403, so a caller learns nothing about a game it may not see.
Every error is JSON with a machine-readable ``code``.
"""

from __future__ import annotations

import hmac
import json
from typing import Any, NoReturn

from flask import Flask, current_app, jsonify, request
from flask.views import MethodView
from flask_smorest import Api, Blueprint
from marshmallow import Schema, ValidationError, fields, validate
from webargs.flaskparser import FlaskParser
from werkzeug.exceptions import HTTPException
from werkzeug.wrappers import Response

from companion.formats.commands import CommandDataSchema as WireCommandSchema
from companion.formats.commands import SeatSchema as WireSeatSchema
from companion.game.any_log import scoresheet
from companion.game.commands import COMMAND_TYPES, CreateGame, StartNextGame
from companion.game.errors import RuleViolation
from companion.game.state import Phase
from companion.readmodels.scoresheet import scoresheet_dict
from companion.readmodels.summary import state_summary
from companion.service import (
    AnyView,
    Conflict,
    KeyReused,
    Outcome,
    UnknownGame,
    is_game,
    refusal_of,
)
from companion.service.next_game import link_proof
from companion.web.api.command_check import GAME_COMMANDS, TALLY_COMMANDS, check_command, wrong_log
from companion.web.http.db import service
from companion.web.screens.history import history_entries
from companion.web.words.glossary import player_names
from companion.web.words.refusals import describe_refusal
from companion.web.words.rules_reference import rule_url
from events.codec import encode, schema_for, schema_instance

__all__ = ["ApiError", "api_error", "blp", "init_api"]


class BoundedJsonParser(FlaskParser):
    """Reads request bodies like webargs does, but a body nested too deeply for the decoder is a
    400 naming the problem, never a crash."""

    def _raw_load_json(self, req: Any) -> Any:
        try:
            return super()._raw_load_json(req)
        except RecursionError:
            raise json.JSONDecodeError("the JSON body is nested too deeply", "(deep)", 0) from None

    def _handle_invalid_json_error(self, error: Any, req: Any, *args: Any, **kwargs: Any) -> NoReturn:
        raise ApiError(400, "invalid_json", f"The body is not JSON this API can read: {error.msg}.")


blp = Blueprint("api", __name__, url_prefix="/api/v1", description="Inferno Companion games")
blp.ARGUMENTS_PARSER = BoundedJsonParser()

BEARER: dict[str, list[str]] = {"bearerAuth": []}


class ApiError(Exception):
    """An API failure with an HTTP status and a machine-readable code."""

    def __init__(self, status: int, code: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.payload = {"code": code, "message": message, **extra}


# ---------------------------------------------------------------------------- schemas


CREATION_KEY_MIN = 16
CREATION_KEY_RULE = (
    "Use at least 16 random characters (and at most 80): a creation key is a secret of its creator, "
    "for example python -c 'import secrets; print(secrets.token_urlsafe(16))'."
)
SCOPED_KEY = {
    "description": "Scoped to this game: repeated with the same command it records nothing and answers "
    "`duplicate: true`; reused for a different command it is refused (422, code `key_reused`)."
}
KEY_REUSED = "This idempotency key was already used for a different request; nothing was recorded."


def _player_colours() -> list[str]:
    """The player colours of the editions shipped with the app (the API creates games in the first)."""
    from companion.editions import load_all

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


# ---------------------------------------------------------------------------- access


def _token() -> str:
    header = request.headers.get("Authorization", "")
    if not header.startswith("Bearer ") or not header[7:].strip():
        raise ApiError(401, "unauthorized", "Send the game's token as 'Authorization: Bearer <token>'.")
    return header[7:].strip()


def _view(game_id: str, write: bool) -> AnyView:
    token = _token()
    try:
        view = service().view(game_id)
    except UnknownGame:
        raise ApiError(403, "forbidden", "This token does not open this game.") from None
    allowed = [view.write_token] + ([] if write else [view.read_token])
    if not any(hmac.compare_digest(token, t) for t in allowed):
        raise ApiError(403, "forbidden", "This token does not open this game.")
    return view


def _outcome(outcome: Outcome) -> dict[str, Any]:
    events = []
    for e in outcome.events:
        type_name, version, data = encode(e)
        events.append({"type": type_name, "version": version, "data": data})
    return {"seq": outcome.view.seq, "duplicate": outcome.duplicate, "events": events}


def _run(view: AnyView, action: Any) -> dict[str, Any]:
    try:
        return _outcome(action())
    except Conflict as exc:
        raise ApiError(
            409,
            "stale_seq",
            "The game moved on since this request's expected_seq.",
            expected_seq=exc.expected,
            seq=exc.view.seq,
        ) from None
    except KeyReused:
        raise ApiError(422, "key_reused", KEY_REUSED) from None
    except RuleViolation as exc:
        fresh = service().view(view.game_id)
        raise ApiError(
            422,
            exc.code,
            describe_refusal(exc, fresh.state if is_game(fresh) else None),
            refusal={**refusal_of(exc), "rule_url": rule_url(exc)},
        ) from None


def _invalid_command(message: str, errors: dict[str, Any], code: str = "invalid_request") -> NoReturn:
    raise ApiError(422, code, message, errors={"json": {"command": errors}})


def _check_proof(view: AnyView, command: StartNextGame) -> None:
    """A ``StartNextGame`` sent by hand names a real game and carries the app's own proof that it
    follows this one (what the pages send); anything else is refused, never stored and ignored."""
    secret = str(current_app.config["SECRET_KEY"])
    expected = link_proof(secret, view.game_id, command.read_token)
    genuine = hmac.compare_digest(command.proof.encode("utf-8"), expected.encode("utf-8"))
    if not genuine or service().game_for_read_token(command.read_token) is None:
        _invalid_command(
            "StartNextGame needs the read token of a game and the app's proof that it follows this one.",
            {"data": {"proof": ["Not this app's proof for that game."]}},
            code="invalid_proof",
        )


def _load_command(view: AnyView, raw: dict[str, Any]) -> Any:
    """The command in a request, loaded and checked against this game's table, or a 422 whose
    ``errors`` name each field at fault (with the values this game accepts)."""
    cls = COMMAND_TYPES[raw["type"]]  # the schema admits only the game's and the tally's commands
    try:
        command = schema_instance(cls).load(raw["data"])
    except ValidationError as exc:
        _invalid_command(
            f"{raw['type']} does not load: see errors.",
            {"data": exc.messages if isinstance(exc.messages, dict) else {"_schema": exc.messages}},  # as normalized
        )
    if isinstance(command, StartNextGame):
        _check_proof(view, command)
    misplaced = wrong_log(view.state, command)
    if misplaced:
        _invalid_command(misplaced, {"type": [misplaced]}, code="wrong_log")
    unknown = check_command(view.state, command)
    if unknown:
        _invalid_command(
            "The command names values this game does not have: see errors.", {"data": unknown}, "unknown_value"
        )
    return command


# ---------------------------------------------------------------------------- endpoints


@blp.route("/games")
class Games(MethodView):
    @blp.arguments(CreateGameSchema)
    @blp.response(201, CreatedSchema)
    @blp.alt_response(422, schema=ApiErrorSchema, description="The rules refuse this set-up")
    def post(self, data: dict[str, Any]) -> dict[str, Any]:
        """Create a game; the answer carries its write token and its read token.

        The idempotency key is the caller's secret: the very same request again (a retry) answers
        with the same game; the key with any other request is refused with ``key_reused``.
        """
        from events.catalog import SeatSetup

        svc = service()
        edition = svc.library.edition(next(iter(svc.library.shipped)))
        command = CreateGame(
            players=tuple(SeatSetup(p["name"], p["colour"]) for p in data["players"]),
            expansion=data["expansion"],
            plague_card=tuple(data["plague_card"]),
            florence=svc.deal_florence(edition, data["idempotency_key"]) if data["random_florence"] else (),
            table_mode=data["table_mode"],
        )
        try:
            game_id = svc.create_game(command, data["idempotency_key"], edition.id, actor="api")
        except KeyReused:
            raise ApiError(422, "key_reused", KEY_REUSED) from None
        except RuleViolation as exc:
            raise ApiError(
                422, exc.code, describe_refusal(exc, None), refusal={**refusal_of(exc), "rule_url": rule_url(exc)}
            ) from None
        view = svc.view(game_id)
        return {"game_id": game_id, "read_token": view.read_token, "write_token": view.write_token, "seq": view.seq}


@blp.route("/games/<game_id>")
class Game(MethodView):
    @blp.response(200, StateSchema)
    @blp.doc(security=[BEARER])
    def get(self, game_id: str) -> dict[str, Any]:
        """The game as it stands (read or write token)."""
        view = _view(game_id, write=False)
        state = state_summary(view.state) if is_game(view) else {"names": list(player_names(view.state))}
        return {"game_id": game_id, "kind": view.kind, "seq": view.seq, "state": state}


@blp.route("/games/<game_id>/commands")
class Commands(MethodView):
    @blp.arguments(CommandRequestSchema)
    @blp.response(200, OutcomeSchema)
    @blp.alt_response(409, schema=ApiErrorSchema, description="expected_seq is stale")
    @blp.alt_response(422, schema=ApiErrorSchema, description="The rules refuse the command")
    @blp.doc(security=[BEARER])
    def post(self, data: dict[str, Any], game_id: str) -> dict[str, Any]:
        """Submit a command (write token), with the seq it was decided on and an idempotency key."""
        view = _view(game_id, write=True)
        command = _load_command(view, data["command"])
        return _run(
            view,
            lambda: service().execute(game_id, data["expected_seq"], command, data["idempotency_key"], actor="api"),
        )


@blp.route("/games/<game_id>/undo")
class UndoView(MethodView):
    @blp.arguments(UndoRequestSchema)
    @blp.response(200, OutcomeSchema)
    @blp.doc(security=[BEARER])
    def post(self, data: dict[str, Any], game_id: str) -> dict[str, Any]:
        """Undo the latest entry, or every entry from ``to_action`` on (write token)."""
        view = _view(game_id, write=True)
        return _run(
            view,
            lambda: service().undo(
                game_id, data["expected_seq"], data["idempotency_key"], data.get("to_action"), actor="api"
            ),
        )


@blp.route("/games/<game_id>/redo")
class RedoView(MethodView):
    @blp.arguments(RedoRequestSchema)
    @blp.response(200, OutcomeSchema)
    @blp.doc(security=[BEARER])
    def post(self, data: dict[str, Any], game_id: str) -> dict[str, Any]:
        """Redo the most recently undone entry (write token)."""
        view = _view(game_id, write=True)
        return _run(view, lambda: service().redo(game_id, data["expected_seq"], data["idempotency_key"], actor="api"))


@blp.route("/games/<game_id>/history")
class History(MethodView):
    @blp.response(200, HistorySchema)
    @blp.doc(security=[BEARER])
    def get(self, game_id: str) -> dict[str, Any]:
        """Every entry in words, oldest first (read or write token)."""
        view = _view(game_id, write=False)
        entries = [
            {
                "seq": e.seq,
                "recorded_at": e.recorded_at,
                "in_effect": e.in_effect,
                "log_control": e.log_control,
                "player": e.player,
                "turn": e.turn,
                "sentences": list(e.sentences),
            }
            for e in history_entries(view)
        ]
        return {"seq": view.seq, "entries": entries}


@blp.route("/games/<game_id>/score")
class Score(MethodView):
    @blp.response(200, ScoreSchema)
    @blp.doc(security=[BEARER])
    def get(self, game_id: str) -> dict[str, Any]:
        """The score breakdown, final or "if the game ended now" (read or write token)."""
        view = _view(game_id, write=False)
        final = is_game(view) and view.state.phase is Phase.OVER
        return {"seq": view.seq, "final": final, "score": scoresheet_dict(scoresheet(view.state))}


def api_error(exc: HTTPException) -> Response:
    """A JSON error for the API's paths, with a machine-readable code."""
    codes = {
        400: "bad_request",
        401: "unauthorized",
        403: "forbidden",
        404: "not_found",
        405: "method_not_allowed",
        413: "too_large",
        415: "unsupported_media_type",
        422: "invalid_request",
    }
    status = exc.code or 500
    payload: dict[str, Any] = {"code": codes.get(status, "error"), "message": exc.description or exc.name}
    data = getattr(exc, "data", None)
    if isinstance(data, dict) and data.get("messages"):
        payload["errors"] = data["messages"]
        payload["code"] = "invalid_request"
    response = jsonify(payload)
    response.status_code = status
    for name, value in exc.get_headers():  # Allow on a 405, WWW-Authenticate, ...
        if name.lower() != "content-type":
            response.headers[name] = value
    return response


class _Api(Api):
    ERROR_SCHEMA = ApiErrorSchema  # the default error answer is documented as the one sent


def init_api(app: Flask) -> Api:
    """Mount the API and its OpenAPI document on ``app``."""
    app.config.update(
        API_TITLE="Inferno Companion API",
        API_VERSION="1",
        OPENAPI_VERSION="3.0.3",
        OPENAPI_URL_PREFIX="/api",
        OPENAPI_JSON_PATH="openapi.json",
    )
    api = _Api(
        app, spec_kwargs={"components": {"securitySchemes": {"bearerAuth": {"type": "http", "scheme": "bearer"}}}}
    )
    api.register_blueprint(blp)
    _document_commands(api)
    return api


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


def _document_commands(api: Api) -> None:
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
