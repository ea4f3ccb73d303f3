"""The JSON API's endpoints, next to the pages (flask-smorest, OpenAPI at /api/openapi.json).

It takes the same path as the pages — ``GameService``, so no rule is written twice — and the
same marshmallow schemas (``api.schemas``: a command is ``{"type": ..., "data": ...}`` loaded by
the schema derived from its dataclass). Each game has a write token and a read token; a request carries
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
from marshmallow import ValidationError
from webargs.flaskparser import FlaskParser
from werkzeug.exceptions import HTTPException
from werkzeug.wrappers import Response

from companion.game.commands import COMMAND_TYPES, CreateGame, StartNextGame
from companion.game.errors import RuleViolation
from companion.game.game_or_tally import scoresheet
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
from companion.web.api.command_check import check_command, wrong_log
from companion.web.api.schemas import (
    ApiErrorSchema,
    CommandRequestSchema,
    CreatedSchema,
    CreateGameSchema,
    HistorySchema,
    OutcomeSchema,
    RedoRequestSchema,
    ScoreSchema,
    StateSchema,
    UndoRequestSchema,
    document_commands,
)
from companion.web.http.db import service
from companion.web.screens.history import history_entries
from companion.web.words.glossary import player_names
from companion.web.words.refusals import describe_refusal
from companion.web.words.rules_reference import rule_url
from events.catalog import SeatSetup
from events.codec import encode, schema_instance

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


KEY_REUSED = "This idempotency key was already used for a different request; nothing was recorded."


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
    document_commands(api)
    return api
