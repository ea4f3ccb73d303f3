"""Events to JSON and back: marshmallow schemas, the type registry, and upcasters.

``encode(event)`` gives ``(type, version, data)``; ``decode(type, version, data)`` upcasts
an old version step by step (``UPCASTERS[(type, version)]`` turns version N's payload into
version N+1's) and loads it through the event's schema into the frozen dataclass.
The schemas are derived from the dataclasses' annotations, so a field added to an event
is serialised without a second declaration that could drift. ``decode_stored`` reads the
log's own rows on the hot read path with loaders generated from the same annotations (the
same types checked, the same upcasters, no marshmallow), and gives the very same events.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from marshmallow import RAISE, Schema, ValidationError, fields, post_load

from events.catalog import EVENT_TYPES, Event
from events.shapes import fields_of, shape_of

__all__ = [
    "UPCASTERS",
    "UnknownEventType",
    "decode",
    "decode_stored",
    "encode",
    "schema_for",
    "schema_instance",
]

Payload = dict[str, Any]


class UnknownEventType(ValueError):
    """The log holds an event type or version this code cannot read."""


class _Tuple(fields.List[Any]):
    """A JSON list loaded as a tuple, so loaded events stay hashable and frozen."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        return tuple(super()._deserialize(value, attr, data, **kwargs))


def _field_for(annotation: Any, required: bool) -> fields.Field[Any]:
    shape = shape_of(annotation)
    if shape.kind == "optional":
        return _field_for_inner(shape.args[0], required=False, allow_none=True)
    return _field_for_inner(annotation, required=required, allow_none=False)


def _field_for_inner(annotation: Any, *, required: bool, allow_none: bool) -> fields.Field[Any]:
    kw: dict[str, Any] = {"required": required, "allow_none": allow_none}
    shape = shape_of(annotation)
    match shape.kind, shape.args:
        case "scalar", (kind,) if kind is bool:
            return fields.Boolean(truthy={True}, falsy={False}, **kw)
        case "scalar", (kind,) if kind is int:
            return fields.Integer(strict=True, **kw)
        case "scalar", _:
            return fields.String(**kw)
        case "items", (item,):
            return _Tuple(_field_for_inner(item, required=True, allow_none=False), **kw)
        case "dataclass", (cls,):
            return fields.Nested(schema_for(cls), **kw)
    raise TypeError(f"no marshmallow field for annotation {annotation!r}")


_SCHEMAS: dict[type, type[Schema]] = {}
_INSTANCES: dict[type, Schema] = {}


def schema_instance(cls: type) -> Schema:
    """A reusable instance of ``schema_for(cls)`` (marshmallow schemas keep no per-call state)."""
    instance = _INSTANCES.get(cls)
    if instance is None:
        instance = _INSTANCES[cls] = schema_for(cls)()
    return instance


def prepare(classes: Iterable[type]) -> int:
    """Make and keep now the schema and the dumper of each of ``classes``, and every schema nested in them (a nested
    schema is made on its first use, per field; a dumper reads its class's annotations): a process that starts then
    pays nothing on the first event or command of a kind (issue 27, item 6: a first accusation made about ten
    schemas). Returns how many classes."""
    count = 0
    for cls in classes:
        with_nested(schema_instance(cls))
        dumper(cls)
        count += 1
    return count


def with_nested(schema: Schema) -> Schema:
    """``schema`` with every schema nested in its fields made now (marshmallow makes one on a field's first use)."""
    for field in schema.fields.values():
        _field_nested(field)
    return schema


def _field_nested(field: fields.Field[Any]) -> None:
    if isinstance(field, fields.Nested):
        with_nested(field.schema)
    elif isinstance(field, fields.List):
        _field_nested(field.inner)


def schema_for(cls: type) -> type[Schema]:
    """The marshmallow schema class for a frozen dataclass (events and their parts)."""
    if cls in _SCHEMAS:
        return _SCHEMAS[cls]
    declared: dict[str, Any] = {}
    for f, annotation in fields_of(cls):
        has_default = f.default is not dataclasses.MISSING or f.default_factory is not dataclasses.MISSING
        declared[f.name] = _field_for(annotation, required=not has_default)

    def make(self: Schema, data: Mapping[str, Any], **kwargs: Any) -> Any:
        return cls(**data)

    declared["make"] = post_load(make)
    declared["Meta"] = type("Meta", (), {"unknown": RAISE, "ordered": True})
    schema = type(f"{cls.__name__}Schema", (Schema,), declared)
    _SCHEMAS[cls] = schema
    return schema


# ---------------------------------------------------------------------------- upcasters


def _game_created_v1_to_v2(data: Payload) -> Payload:
    """v1 (the walking skeleton) had no Florence layout, guardians or starting coins.

    Empty tuples mean "the edition's defaults" (``GameCreated`` documents this).
    """
    return {
        **data,
        "florence": [],
        "guardians": [],
        "start_florins": [],
        "start_drachmas": [],
    }


UPCASTERS: dict[tuple[str, int], Callable[[Payload], Payload]] = {
    ("GameCreated", 1): _game_created_v1_to_v2,
}


def encode(evt: Event) -> tuple[str, int, Payload]:
    """An event as ``(type, version, JSON-ready data)``."""
    return evt.TYPE, evt.VERSION, dumper(type(evt))(evt)


# ---------------------------------------------------------------------------- dumpers

Dumper = Callable[[Any], Any]
_DUMPERS: dict[type, Callable[[Any], Payload]] = {}


def dumper(cls: type) -> Callable[[Any], Payload]:
    """What ``schema_instance(cls).dump`` gives for a frozen dataclass, made from its annotations once a class:
    marshmallow calls each field's ``serialize`` through ``get_value`` and its hooks, for every event an append
    records (an accusation records about ten). The same fields, each as marshmallow writes it: an ``int`` as
    ``int(v)``, a ``str`` as text, a ``bool`` as it is, a tuple as a list, a nested dataclass as its own dict, ``None``
    as ``None``; ``tests/events/test_codec.py`` holds the two equal over every event and command of random games.

    The keys come sorted, as the log stores a payload (``NewEvent.text``) and gives it back: what an append keeps of its
    rows is the payload itself, not a copy read back through JSON (``service.games._rows_as_stored``;
    ``test_codec`` holds ``json.loads(text)`` equal to it, key order included). Written as one function a class (a dict
    of its fields read directly), not a loop over them at every call."""
    made = _DUMPERS.get(cls)
    if made is None:
        steps = sorted((f.name, _value_dumper(annotation)) for f, annotation in fields_of(cls))
        scope: dict[str, Any] = {}
        items = []
        for i, (name, step) in enumerate(steps):
            if step is _as_it_is:
                items.append(f"{name!r}: obj.{name}")
            else:
                scope[f"_step{i}"] = step
                items.append(f"{name!r}: _step{i}(obj.{name})")
        source = f"def dump(obj):\n    return {{{', '.join(items)}}}\n"
        exec(compile(source, f"<dumper of {cls.__name__}>", "exec"), scope)  # the names are its fields' own
        made = _DUMPERS[cls] = scope["dump"]
    return made


def _as_it_is(value: Any) -> Any:
    return value


def _as_int(value: Any) -> Any:
    return None if value is None else int(value)


def _as_text(value: Any) -> Any:
    if value is None or type(value) is str:
        return value
    return value.decode("utf-8") if isinstance(value, bytes) else str(value)


def _value_dumper(annotation: Any) -> Dumper:
    shape = shape_of(annotation)
    if shape.kind == "optional":
        return _value_dumper(shape.args[0])  # each dumper gives None for None, as marshmallow's fields do
    match shape.kind, shape.args:
        case "scalar", (kind,) if kind is bool:
            return _as_it_is  # marshmallow's Boolean writes the value as it is
        case "scalar", (kind,) if kind is int:
            return _as_int
        case "scalar", _:
            return _as_text
        case "items", (item,):
            inner = _value_dumper(item)
            return lambda value: None if value is None else [inner(each) for each in value]
        case "dataclass", (nested,):
            written = dumper(nested)
            return lambda value: None if value is None else written(value)
    raise TypeError(f"no dumper for annotation {annotation!r}")


def upcast(type_name: str, version: int, data: Payload) -> Payload:
    """Bring an old payload up to the current version of its event type."""
    cls = EVENT_TYPES.get(type_name)
    if cls is None:
        raise UnknownEventType(f"unknown event type {type_name!r}")
    current: int = cls.VERSION
    if version > current:
        raise UnknownEventType(f"{type_name} version {version} is newer than this code ({current})")
    while version < current:
        step = UPCASTERS.get((type_name, version))
        if step is None:
            raise UnknownEventType(f"no upcaster for {type_name} version {version}")
        data = step(data)
        version += 1
    return data


def decode(type_name: str, version: int, data: Mapping[str, Any]) -> Event:
    """The event stored as ``(type, version, data)``, upcast to the current version."""
    payload = upcast(type_name, version, dict(data))
    cls = EVENT_TYPES[type_name]
    try:
        loaded: Event = schema_instance(cls).load(payload)
    except ValidationError as exc:
        raise UnknownEventType(f"{type_name} v{version} payload does not load: {exc.messages}") from exc
    return loaded


# ---------------------------------------------------------------------------- typed loaders for the log

Loader = Callable[[Any], Any]


class _Refused(ValueError):
    """A stored value that is not of its field's type."""


def _scalar(kind: type) -> Loader:
    def load(value: Any) -> Any:
        if type(value) is not kind:
            raise _Refused(f"{value!r} is not {kind.__name__}")
        return value

    return load


def _optional(inner: Loader) -> Loader:
    def load(value: Any) -> Any:
        return None if value is None else inner(value)

    return load


def _tuple_of(inner: Loader) -> Loader:
    def load(value: Any) -> Any:
        if type(value) is not list and type(value) is not tuple:
            raise _Refused(f"{value!r} is not a list")
        return tuple(inner(item) for item in value)

    return load


def _loader_for(annotation: Any) -> Loader:
    shape = shape_of(annotation)
    match shape.kind:
        case "optional":
            return _optional(_loader_for(shape.args[0]))
        case "scalar":
            return _scalar(shape.args[0])
        case "items":
            return _tuple_of(_loader_for(shape.args[0]))
        case "dataclass":
            return loader_for(shape.args[0])
    raise TypeError(f"no loader for annotation {annotation!r}")


_LOADERS: dict[type, Loader] = {}


def loader_for(cls: type) -> Loader:
    """A function loading ``cls`` from its JSON data, checking each field's type as its schema does."""
    if cls in _LOADERS:
        return _LOADERS[cls]
    fields_: list[tuple[str, Loader, bool]] = []
    defaults: dict[str, Any] = {}
    factories: dict[str, Callable[[], Any]] = {}
    for f, annotation in fields_of(cls):
        if f.default is not dataclasses.MISSING:
            defaults[f.name] = f.default
        elif f.default_factory is not dataclasses.MISSING:
            factories[f.name] = f.default_factory
        has_default = f.name in defaults or f.name in factories
        fields_.append((f.name, _loader_for(annotation), not has_default))
    names = frozenset(name for name, _, _ in fields_)
    if any(hasattr(c, "__post_init__") or "__slots__" in vars(c) for c in cls.__mro__ if c is not object):
        raise TypeError(f"{cls.__name__}: a loader fills plain frozen dataclasses only")

    def load(data: Any) -> Any:
        if type(data) is not dict:
            raise _Refused(f"{cls.__name__}: not an object")
        if not names.issuperset(data):
            raise _Refused(f"{cls.__name__}: unknown fields {sorted(set(data) - names)}")
        values = dict(defaults)
        for name, field_loader, required in fields_:
            if name in data:
                values[name] = field_loader(data[name])
            elif required:
                raise _Refused(f"{cls.__name__}: {name} is missing")
            elif name in factories:
                values[name] = factories[name]()
        # the fields set as ``__init__`` would set them (it has nothing else to do), without its cost
        loaded: Any = object.__new__(cls)
        loaded.__dict__.update(values)
        return loaded

    _LOADERS[cls] = load
    return load


def decode_stored(type_name: str, version: int, data: Mapping[str, Any]) -> Event:
    """An event as the log stores it, upcast, loaded without marshmallow; equal to ``decode``'s."""
    cls = EVENT_TYPES.get(type_name)
    if cls is None or version != cls.VERSION:
        payload: Any = upcast(type_name, version, dict(data))
        cls = EVENT_TYPES[type_name]
    else:
        payload = data  # read only: the loader copies what it keeps
    try:
        loaded: Event = loader_for(cls)(payload)
    except _Refused as exc:
        raise UnknownEventType(f"{type_name} v{version} payload does not load: {exc}") from exc
    return loaded
