"""The fields and base forms every screen's form shares (``ActionForm``, ``UndoForm``), how a form is
parsed, and its messages by field: marshmallow schemas with a message per field.

These check *shape* only (types, ranges, required fields). Whether a well-formed request
is legal now is the rules' business (``RuleViolation``), never this module's.
"""

from __future__ import annotations

import base64
import importlib
import os
import pkgutil
import threading
from collections.abc import Callable
from typing import Any

from flask_babel import lazy_gettext as _l
from marshmallow import EXCLUDE, Schema, ValidationError, fields, missing, validate
from marshmallow.decorators import POST_LOAD, PRE_LOAD
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
    """A fresh idempotency key for one form on one rendered screen: 128 random bits, a secret, written as
    ``secrets.token_urlsafe(16)`` writes them (22 characters). The bits are the operating system's, read 4 KB at a
    time (``_random_bytes``): an answer fills ~3 keys, each of its own ``urandom`` call before (~5 µs each here)."""
    return base64.urlsafe_b64encode(_random_bytes(KEY_BYTES)).rstrip(b"=").decode("ascii")


KEY_BYTES = 16
_RANDOM_READ = 4096
_random = bytearray()
_random_lock = threading.Lock()


def _random_bytes(count: int) -> bytes:
    """``count`` bytes of ``os.urandom``, handed out from a buffer read ``_RANDOM_READ`` bytes at a time; never the
    same bytes twice (each taken out under a lock), and a forked child reads its own (``os.register_at_fork``)."""
    with _random_lock:
        if len(_random) < count:
            _random.extend(os.urandom(_RANDOM_READ))
        taken = bytes(_random[:count])
        del _random[:count]
    return taken


def _forget_random() -> None:
    """In a forked child: the parent's unused random bytes are the parent's (a gunicorn worker after its master), and
    its lock a fresh one."""
    global _random_lock
    _random.clear()
    _random_lock = threading.Lock()


os.register_at_fork(after_in_child=_forget_random)


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
    """Each form's schema made now and kept (``schema_of``), so the first tap of a kind after a start makes none;
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
    """Load a submitted form through ``schema``; raises ``ValidationError`` per field.

    A form sends a few of its schema's fields (an accusation ~7 of 35), and a whole load works out every missing
    one's default. Where the schema's load is only its fields' own (``_Plain``), each field sent is loaded by the field
    itself, its refusal kept under its name as the schema keeps it, and the others take the defaults the whole schema
    gives them: the same dict, or the same refusal, as a whole load, its keys in another order
    (``tests/web/forms/test_parse_fast.py`` holds the two equal over random forms of every schema), ~3x faster.

    A schema whose only hooks reshape what is loaded (``pre_load``, ``post_load``: a soul move's ``way``, a send's
    bribe and loan flags) goes field by field too, between its hooks, run by marshmallow's own call as a whole load
    runs them; a hook that refuses sends the form the whole way, which says so."""
    instance = schema_of(schema)
    data = form_data(instance, form)
    plain = _plain(schema)
    if plain is None:
        loaded: dict[str, Any] = instance.load(data)
        return loaded
    raw = data
    if plain.pre_load:
        try:
            data = _processed(instance, PRE_LOAD, data, raw)
        except ValidationError:
            return _whole(instance, form)
    if not plain.required <= data.keys():
        return _whole(instance, form)  # a required field missing: the whole schema says so
    out = dict(plain.constants)  # the fields not sent, as the whole schema loads them when missing
    errors: dict[str, Any] = {}
    for name, value in data.items():
        field = plain.fields.get(name)
        if field is None:
            continue  # a key no field reads (the CSRF token): left out, as the schema's ``unknown = EXCLUDE`` does
        try:
            out[name] = field.deserialize(value, name, data)
        except ValidationError as exc:
            errors[name] = exc.messages  # as the schema stores a field's refusal
    if errors:
        raise ValidationError(errors, data=data, valid_data=out)
    for name, make in plain.made:
        if name not in data:
            out[name] = make()  # a default made afresh for each load (a list)
    if plain.post_load:
        try:
            out = _processed(instance, POST_LOAD, out, raw)
        except ValidationError:
            return _whole(instance, form)
    return out


def _processed(instance: Schema, tag: str, data: dict[str, Any], original: dict[str, Any]) -> dict[str, Any]:
    """``data`` through the schema's hooks of ``tag``, as its whole load calls them for one form."""
    done: dict[str, Any] = instance._invoke_load_processors(  # marshmallow's own call, as ``Schema._do_load`` makes it
        tag, data, many=False, original_data=original, partial=instance.partial, unknown=instance.unknown
    )
    return done


def _whole(instance: Schema, form: MultiDict[str, str]) -> dict[str, Any]:
    """The form loaded by the whole schema, from its data read afresh (a hook may have changed the first copy)."""
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


class _Plain:
    """A schema whose load is only its fields' own, between hooks that reshape the data (``_RESHAPING``, said by
    ``pre_load`` and ``post_load``): no other hook, no nested schema, no field sent or kept under another
    name, unknown keys left out. Its fields, the required ones, and the others' defaults (``load_default``): kept as
    they are, or made afresh when callable."""

    def __init__(self, instance: Schema) -> None:
        hooks = type(instance)._hooks
        self.pre_load = bool(hooks.get(PRE_LOAD))
        self.post_load = bool(hooks.get(POST_LOAD))
        self.fields = dict(instance.load_fields)
        self.required = frozenset(n for n, f in self.fields.items() if f.required)
        defaults = {
            n: f.load_default for n, f in self.fields.items() if not f.required and f.load_default is not missing
        }
        self.constants = {n: d for n, d in defaults.items() if not callable(d)}
        self.made = tuple((n, d) for n, d in defaults.items() if callable(d))


_PLAIN: dict[type[Schema], _Plain | None] = {}
_RESHAPING = (PRE_LOAD, POST_LOAD)
"""The hooks a form parsed field by field may have: they reshape the data before and after the fields load it (a
validator, ``validates`` or ``validates_schema``, adds its refusals to the fields' own: the whole load)."""


def _plain(schema: type[Schema]) -> _Plain | None:
    """The schema's ``_Plain``, or None when its load does more than its fields' own and its reshaping hooks
    (``_RESHAPING``): a validator adds refusals of its own (``validates``, ``validates_schema``), a dump's hook is not
    looked at here, a nested schema loads fields of its own, a field with a ``data_key`` or an ``attribute`` is sent or
    kept under another name, an unknown key is refused or kept."""
    if schema in _PLAIN:
        return _PLAIN[schema]
    instance = schema_of(schema)
    hooks = getattr(schema, "_hooks", None)
    simple = (
        isinstance(hooks, dict)
        and not any(found for tag, found in hooks.items() if tag not in _RESHAPING)
        and instance.unknown == EXCLUDE
        and all(
            f.data_key is None and f.attribute is None and not isinstance(f, fields.Nested)
            for f in instance.load_fields.values()
        )
    )
    plain = _Plain(instance) if simple else None
    _PLAIN[schema] = plain
    return plain


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


def kept_choice(form: MultiDict[str, str] | None) -> Callable[..., bool]:
    """``chosen(name, value, default)`` for a template: whether ``form`` (what the player sent, or ``None``)
    holds ``value`` for ``name``, else ``default`` when it does not name the field: a form drawn again after a
    refusal keeps what the player had chosen."""

    def chosen(name: str, value: Any, default: bool = False) -> bool:
        if form is None or name not in form:
            return default
        return str(value) in form.getlist(name)

    return chosen
