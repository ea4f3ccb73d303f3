"""The fields and base forms every screen's form shares (``ActionForm``, ``UndoForm``), how a form is
parsed, and its messages by field: marshmallow schemas with a message per field.

These check *shape* only (types, ranges, required fields). Whether a well-formed request
is legal now is the rules' business (``RuleViolation``), never this module's.
"""

from __future__ import annotations

import importlib
import pkgutil
import secrets
from collections.abc import Callable
from typing import Any

from flask_babel import lazy_gettext as _l
from marshmallow import EXCLUDE, Schema, fields, validate
from werkzeug.datastructures import MultiDict

from companion.formats.schema_errors import flatten_messages
from companion.web.forms.messages import in_words

__all__ = [
    "ActionForm",
    "PlayerActionForm",
    "UndoForm",
    "field_messages",
    "field_named",
    "flatten_errors",
    "form_data",
    "integer",
    "integers",
    "new_key",
    "parse",
    "schema_of",
    "text",
]


def new_key() -> str:
    """A fresh idempotency key for one form on one rendered screen: 128 random bits, a secret."""
    return secrets.token_urlsafe(16)


def field_messages() -> dict[str, Any]:
    """The sentences a field says when it is missing or not a valid value."""
    return {
        "required": _l("This field is required."),
        "invalid": _l("Not a valid value."),
        "null": _l("This field is required."),
    }


def integer(**kw: Any) -> fields.Integer:
    """A whole number as a form sends it (a string), with the sentences of ``field_messages``."""
    return fields.Integer(strict=False, error_messages=field_messages(), **kw)


def text(max_len: int = 24, default: str = "") -> fields.String:
    """An optional short text."""
    return fields.String(load_default=default, validate=validate.Length(max=max_len))


def integers(low: int = 0, high: int = 99) -> fields.List[int]:
    """An optional list of whole numbers between ``low`` and ``high``."""
    return fields.List(integer(validate=validate.Range(min=low, max=high)), load_default=list)


class ActionForm(Schema):
    """Every state-changing form: the seq its screen was drawn from and an idempotency key."""

    class Meta:
        unknown = EXCLUDE

    seq = integer(required=True, validate=validate.Range(min=0))
    key = fields.String(required=True, validate=validate.Length(min=8, max=80), error_messages=field_messages())


class PlayerActionForm(ActionForm):
    """A form that acts for one player."""

    player = integer(required=True, validate=validate.Range(min=0, max=7))
    confirm_loan = fields.Boolean(load_default=False)


class UndoForm(ActionForm):
    """Undo the latest entry, or every entry from ``to`` on."""

    to = integer(load_default=None, allow_none=True, validate=validate.Range(min=1))


_SCHEMAS: dict[type[Schema], Schema] = {}


def schema_of(schema: type[Schema]) -> Schema:
    """The one instance of ``schema`` for the process: a schema keeps no state between loads (its messages
    are lazy, said in the request's language when raised), and building one costs more than loading."""
    instance = _SCHEMAS.get(schema)
    if instance is None:
        instance = _SCHEMAS[schema] = schema()
    return instance


def prepare_forms() -> int:
    """Each form's schema made now and held (``schema_of``), so the first tap of a kind after a start makes none;
    returns how many."""
    import companion.web.forms as package

    count = 0
    for info in pkgutil.iter_modules(package.__path__):
        module = importlib.import_module(f"{package.__name__}.{info.name}")
        for value in vars(module).values():
            if isinstance(value, type) and issubclass(value, Schema) and value.__module__ == module.__name__:
                schema_of(value)
                count += 1
    return count


def parse(schema: type[Schema], form: MultiDict[str, str]) -> dict[str, Any]:
    """Load a submitted form through ``schema``; raises ``ValidationError`` per field."""
    instance = schema_of(schema)
    loaded: dict[str, Any] = instance.load(form_data(instance, form))
    return loaded


def form_data(instance: Schema, form: MultiDict[str, str]) -> dict[str, Any]:
    """What a submitted form gives ``instance`` to load: a list field's every value, a checkbox as a boolean, any
    other field's (or unknown key's) first value."""
    data: dict[str, Any] = {}
    for key in form:
        field = instance.fields.get(key)
        if isinstance(field, fields.List):
            data[key] = form.getlist(key)
        elif isinstance(field, fields.Boolean):
            data[key] = form.get(key) in ("1", "on", "true", "yes")
        else:
            data[key] = form.get(key)
    return data


def flatten_errors(messages: Any) -> dict[str, list[str]]:
    """A form's messages by field, in the reader's language, as the pages show them beside each field
    (``_schema``: the form's own)."""
    return {
        name or "_schema": [in_words(t) for t in texts] for name, texts in flatten_messages(messages, depth=1).items()
    }


def field_named(schema: type[Schema], path: str) -> str | None:
    """The innermost field a message's ``path`` names (``players.0.infamy``: ``infamy``, a field of the
    sheet's nested players), ``""`` for the form's own message, ``None`` for a name the form does not
    have. A list's index and a mapping's keys and values belong to the field that holds them."""
    if not path:
        return ""
    name: str | None = None
    known: dict[str, fields.Field[Any]] | None = schema_of(schema).fields
    for part in path.split("."):
        field = known.get(part) if known is not None else None
        if field is None:
            continue
        name = part
        while isinstance(field, fields.List):
            field = field.inner
        known = field.schema.fields if isinstance(field, fields.Nested) else None
    return name


def chosen_before(form: MultiDict[str, str] | None) -> Callable[..., bool]:
    """``chosen(name, value, default)`` for a template: whether ``form`` (what the player sent, or ``None``)
    holds ``value`` for ``name``, else ``default`` when it does not name the field: a form drawn again after a
    refusal keeps what the player had chosen."""

    def chosen(name: str, value: Any, default: bool = False) -> bool:
        if form is None or name not in form:
            return default
        return str(value) in form.getlist(name)

    return chosen
