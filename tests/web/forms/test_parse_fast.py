"""A form parsed field by field (``fields.parse``: only the fields sent through marshmallow, the others given their
defaults) loads exactly what the whole schema loads, over every form of the app.

Random forms for every schema in ``companion/web/forms``: any subset of its fields (required ones too, or not),
each with a value that loads or one that is refused, a list or a repeated field, keys no schema knows. Each is
parsed both ways: the same dict, or the same refusal with the same messages, field by field.
"""

from __future__ import annotations

import functools
import importlib
import pkgutil
import random
from typing import Any

import pytest
from flask import Flask
from marshmallow import EXCLUDE, Schema, ValidationError, fields, post_load, pre_load
from werkzeug.datastructures import MultiDict

import companion.web.forms as forms_package
from companion.web.forms.fields import _plain, form_data, parse, schema_of
from companion.web.forms.florence import AccuseForm, LocationForm, SendForm
from companion.web.forms.game import MoveForm, PlagueForm

SCALARS = (
    *("0", "1", "-1", "2", "7", "9", "10", "99", "100", "", " 3", "abc", "true", "on", "k" * 22, "x" * 30, "<b>&"),
    *("noble", "urchin", "guest", "barrel", "member", "none", "shared", "seats", "bank", "1a", "3b"),
    *("0:noble", "2:guest:1"),
    *("3b|", "3b|2a,1c", "3b||borrow", "4a|3b|borrow", "|", "||borrow"),  # a soul move's ``way`` (``MoveForm``)
)
LISTS = ((), ("2",), ("3", "9"), ("x",), ("noble",), ("0:noble", "1:urchin"), ("1a", "2b", "3c"), ("10",))
UNKNOWN = ("csrf_token", "zzz", "select", "way")


def _schemas() -> list[type[Schema]]:
    found: list[type[Schema]] = []
    for info in pkgutil.iter_modules(forms_package.__path__):
        module = importlib.import_module(f"{forms_package.__name__}.{info.name}")
        for value in vars(module).values():
            if isinstance(value, type) and issubclass(value, Schema) and value.__module__ == module.__name__:
                found.append(value)
    return found


def _whole(schema: type[Schema], form: MultiDict[str, str]) -> dict[str, Any]:
    """The reference: the form's data (``form_data``, as ``parse`` reads the form) through the whole schema."""
    instance = schema_of(schema)
    loaded: dict[str, Any] = instance.load(form_data(instance, form))
    return loaded


def _outcome(load: Any) -> tuple[str, Any]:
    try:
        return "loaded", load()
    except ValidationError as exc:
        return "refused", exc.messages


def _loads(field: fields.Field[Any], value: Any) -> bool:
    try:
        field.deserialize(list(value) if isinstance(field, fields.List) else value)
    except ValidationError:
        return False
    return True


def _random_form(schema: type[Schema], rng: random.Random) -> MultiDict[str, str]:
    """Each field sent or not; most values sent ones the field alone loads (so that whole forms load too), the
    others any value."""
    instance = schema_of(schema)
    pairs: list[tuple[str, str]] = []
    for name, field in instance.load_fields.items():
        if rng.random() < (0.95 if field.required else 0.3):
            pool: tuple[Any, ...] = LISTS if isinstance(field, fields.List) else SCALARS
            good = [v for v in pool if _loads(field, v)]
            value = rng.choice(good) if good and rng.random() < 0.9 else rng.choice(pool)
            if isinstance(field, fields.List):
                pairs += [(name, v) for v in value]
            else:
                pairs.append((name, value))
                if rng.random() < 0.05:
                    pairs.append((name, rng.choice(SCALARS)))  # a field sent twice
    if rng.random() < 0.5:
        pairs.append((rng.choice(UNKNOWN), rng.choice(SCALARS)))
    rng.shuffle(pairs)
    return MultiDict(pairs)


@pytest.mark.parametrize("schema", _schemas(), ids=lambda s: s.__name__)
def test_a_form_parsed_field_by_field_loads_what_the_whole_schema_loads(app: Flask, schema: type[Schema]) -> None:
    rng = random.Random(f"parse-{schema.__name__}")
    loaded = 0
    with app.test_request_context("/"):
        for _ in range(300):
            form = _random_form(schema, rng)
            ours = _outcome(functools.partial(parse, schema, form))
            theirs = _outcome(functools.partial(_whole, schema, form))
            assert ours == theirs, (schema.__name__, form)
            loaded += ours[0] == "loaded"
    if _plain(schema) is not None and any(f.required for f in schema_of(schema).load_fields.values()):
        assert loaded > 0, f"{schema.__name__}: no random form loaded, the fast way was never compared"


def test_the_forms_a_table_sends_most_are_parsed_field_by_field() -> None:
    """The fast way is the one the game's forms take (a schema with a hook goes the whole way, as it must)."""
    plain = [s for s in _schemas() if _plain(s) is not None]
    assert AccuseForm in plain and LocationForm in plain
    assert MoveForm in plain and SendForm in plain  # their hooks only reshape the data: a soul's way, a send's flags
    assert PlagueForm not in plain  # a validator of the whole form (``validates_schema``): the whole way
    assert len(plain) >= len(_schemas()) // 2


class _Hooked(Schema):
    """A form whose hooks refuse: before the fields (``pre_load``) for ``no``, after them (``post_load``) for
    ``late``."""

    class Meta:
        unknown = EXCLUDE

    seq = fields.Integer(required=True)
    name = fields.String(load_default="")

    @pre_load
    def _early(self, data: dict[str, Any], **_kw: Any) -> dict[str, Any]:
        if data.get("name") == "no":
            raise ValidationError("refused early", "name")
        return {**data, "name": str(data.get("name", "")).strip()}

    @post_load
    def _late(self, data: dict[str, Any], **_kw: Any) -> dict[str, Any]:
        if data["name"] == "late":
            raise ValidationError("refused late", "seq")
        return {**data, "seen": True}


@pytest.mark.parametrize(
    "sent",
    [
        {"seq": "3", "name": " ada "},
        {"seq": "3"},
        {"seq": "x", "name": "ada"},
        {"name": "ada"},
        {"seq": "3", "name": "no"},
        {"seq": "3", "name": " late"},
        {"seq": "3", "name": "late", "zzz": "1"},
    ],
)
def test_a_form_whose_hooks_reshape_or_refuse_loads_as_the_whole_schema(app: Flask, sent: dict[str, str]) -> None:
    """Between its hooks, field by field: what they make of the data, and what they refuse, as the whole load says."""
    assert _plain(_Hooked) is not None
    form = MultiDict(sent)
    with app.test_request_context("/"):
        assert _outcome(functools.partial(parse, _Hooked, form)) == _outcome(functools.partial(_whole, _Hooked, form))


def test_a_soul_moved_by_one_of_its_ways_loads_its_landing_path_and_loan(app: Flask) -> None:
    """The move list's one form (``way`` = "landing|path|borrow"), field by field, as the rules read it."""
    form = MultiDict({"seq": "4", "key": "k" * 22, "player": "1", "from_shield": "1a", "way": "3b|2a,2b|borrow"})
    with app.test_request_context("/"):
        loaded = parse(MoveForm, form)
        assert loaded == _whole(MoveForm, form)
    assert (loaded["to_shield"], loaded["via"], loaded["borrow"]) == ("3b", "2a,2b", True)


def test_a_list_no_field_sent_is_a_list_of_its_own_in_each_form(app: Flask) -> None:
    """A default made by a callable (``load_default=list``) is made afresh for each form, as a whole load makes it:
    one command's list changed never shows in the next."""
    form = MultiDict({"seq": "3", "key": "k" * 22, "player": "0", "location": "bank"})
    with app.test_request_context("/"):
        first, second = parse(AccuseForm, form), parse(AccuseForm, form)
    assert first["targets"] == second["targets"] == [] and first["targets"] is not second["targets"]
    first["targets"].append("1a")
    assert parse(AccuseForm, form)["targets"] == []
