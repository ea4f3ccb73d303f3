# flask-smorest 0.47: the parts the API uses (https://flask-smorest.readthedocs.io/).
# Each decorator gives back the view it was given (it records the OpenAPI description beside it).
from collections.abc import Callable
from typing import Any, TypeVar

import flask
from marshmallow import Schema
from webargs.flaskparser import FlaskParser

_F = TypeVar("_F", bound=Callable[..., Any])

class Blueprint(flask.Blueprint):
    ARGUMENTS_PARSER: FlaskParser
    def __init__(self, name: str, import_name: str, *args: Any, description: str = ..., **kwargs: Any) -> None: ...
    def route(
        self, rule: str, *, parameters: list[Any] | None = ..., tags: list[str] | None = ..., **options: Any
    ) -> Callable[[_F], _F]: ...
    def arguments(
        self, schema: type[Schema] | Schema, *, location: str = ..., required: bool = ..., **kwargs: Any
    ) -> Callable[[_F], _F]: ...
    def response(
        self,
        status_code: int,
        schema: type[Schema] | Schema | None = ...,
        *,
        description: str | None = ...,
        **kwargs: Any,
    ) -> Callable[[_F], _F]: ...
    def alt_response(
        self, status_code: int, response: Any = ..., *, schema: type[Schema] | Schema | None = ..., **kwargs: Any
    ) -> Callable[[_F], _F]: ...
    def doc(self, **kwargs: Any) -> Callable[[_F], _F]: ...

class Api:
    ERROR_SCHEMA: type[Schema]
    spec: Any
    def __init__(
        self, app: flask.Flask | None = ..., *, spec_kwargs: dict[str, Any] | None = ..., config_prefix: str = ...
    ) -> None: ...
    def init_app(self, app: flask.Flask, *, spec_kwargs: dict[str, Any] | None = ...) -> None: ...
    def register_blueprint(self, blp: Blueprint, *, parameters: list[Any] | None = ..., **options: Any) -> None: ...
