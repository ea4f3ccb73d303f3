"""marshmallow's sentences in the reader's language: a form refused for its shape says what is wrong
with each value in words a player reads ("Must be from 1 to 9."), never marshmallow's English.

A sentence is recognised by the template marshmallow formats it from, read from marshmallow's own
classes (a changed template fails a test rather than reaching a phone in English), and said again with
its values. A choice's list (``OneOf``'s codes) and the value sent are never repeated: they are codes
or a forger's text. A sentence of the app's own (already in the reader's language) is left as it is.
``Length`` speaks of characters: the forms put it on text only.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from typing import Any

from flask_babel import LazyString
from flask_babel import lazy_gettext as _l
from marshmallow import Schema, fields, validate

__all__ = ["in_words", "templates"]

_PLACEHOLDER = re.compile(r"\{(\w+)\}")
_RANGE, _LENGTH = validate.Range, validate.Length


def _range(message: str, low: str = "", high: str = "") -> str:
    """A ``Range`` template with its comparison words in place (as ``Range.__init__`` does)."""
    return message.format(min_op=low, max_op=high)


def _said(messages: Mapping[str, Any]) -> dict[str, str]:
    """A class's default messages as text (marshmallow types them as anything a message may be)."""
    return {key: str(value) for key, value in messages.items()}


def templates() -> dict[str, LazyString]:
    """Every sentence marshmallow can say of a form's value, by its template: ``{name}`` stands for a value."""
    gte, gt, lte, lt = _RANGE.message_gte, _RANGE.message_gt, _RANGE.message_lte, _RANGE.message_lt
    field, number = _said(fields.Field.default_error_messages), _said(fields.Number.default_error_messages)
    text, schema = _said(fields.String.default_error_messages), _said(Schema().error_messages)
    needed, impossible = _l("This is needed."), _l("This value is not possible here.")
    not_offered, group = _l("This is not one of the choices offered."), _l("Must be a group of values.")
    return {
        field["required"]: needed,
        field["null"]: needed,
        field["validator_failed"]: impossible,
        _said(fields.Integer.default_error_messages)["invalid"]: _l("Must be a whole number."),
        number["invalid"]: _l("Must be a number."),
        number["too_large"]: _l("This number is too large."),
        text["invalid"]: _l("Must be text."),
        text["invalid_utf8"]: _l("Must be text."),
        _said(fields.Boolean.default_error_messages)["invalid"]: _l("Must be yes or no."),
        _said(fields.List.default_error_messages)["invalid"]: _l("Must be a list of values."),
        _said(fields.Mapping.default_error_messages)["invalid"]: group,
        _said(fields.Nested.default_error_messages)["type"]: group,
        schema["unknown"]: _l("This form has no such value."),
        schema["type"]: _l("The form was not sent as a form."),
        _LENGTH.message_all: _l("Must have %(min)s to %(max)s characters."),
        _LENGTH.message_min: _l("Must have at least %(min)s characters."),
        _LENGTH.message_max: _l("Must have at most %(max)s characters."),
        _LENGTH.message_equal: _l("Must have exactly %(equal)s characters."),
        _range(_RANGE.message_all, gte, lte): _l("Must be from %(min)s to %(max)s."),
        _range(_RANGE.message_all, gt, lt): _l("Must be more than %(min)s and less than %(max)s."),
        _range(_RANGE.message_all, gte, lt): _l("Must be at least %(min)s and less than %(max)s."),
        _range(_RANGE.message_all, gt, lte): _l("Must be more than %(min)s and at most %(max)s."),
        _range(_RANGE.message_min, gte): _l("Must be %(min)s or more."),
        _range(_RANGE.message_min, gt): _l("Must be more than %(min)s."),
        _range(_RANGE.message_max, high=lte): _l("Must be %(max)s or less."),
        _range(_RANGE.message_max, high=lt): _l("Must be less than %(max)s."),
        validate.OneOf.default_message: not_offered,
        validate.ContainsOnly.default_message: not_offered,
        validate.NoneOf.default_message: not_offered,
        validate.Regexp.default_message: _l("This is not in the form expected."),
        validate.Predicate.default_message: impossible,
        validate.Equal.default_message: impossible,
    }


@functools.cache
def _patterns() -> tuple[tuple[re.Pattern[str], LazyString], ...]:
    """Each template as a pattern, the most specific first ("Length must be between {min} and {max}."
    before "Length must be {equal}.")."""
    found = []
    for template, sentence in templates().items():
        parts = _PLACEHOLDER.split(template)
        fixed = "".join(parts[0::2])
        body = "".join(re.escape(p) if i % 2 == 0 else f"(?P<{p}>.*?)" for i, p in enumerate(parts))
        found.append((len(fixed), re.compile(f"^{body}$", re.DOTALL), sentence))
    found.sort(key=lambda item: -item[0])
    return tuple((pattern, sentence) for _, pattern, sentence in found)


def in_words(message: str) -> str:
    """``message`` in the reader's language: a sentence of marshmallow's said again with its values, any
    other (the app's own, already translated) as it is."""
    for pattern, sentence in _patterns():
        match = pattern.match(message)
        if match:
            return str(sentence) % match.groupdict()
    return message
