"""What a dataclass field's annotation says, read once for every part that builds code from the
annotations: the codec's schemas and typed loaders (events), the snapshots (rebuilt states), the
event reference. Each reader matches on the ``Shape`` and never on ``typing`` itself.
"""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
from dataclasses import dataclass
from typing import Any

__all__ = ["Shape", "fields_of", "shape_of"]


@dataclass(frozen=True)
class Shape:
    """One annotation, classified.

    ``kind`` is one of: ``optional`` (``X | None``; ``args`` = (X,)), ``scalar`` (bool, int, str;
    (type,)), ``enum`` ((class,)), ``dataclass`` ((class,)), ``items`` (``tuple[X, ...]``; (X,)),
    ``tuple`` (a fixed ``tuple[X, Y]``; its members), ``dict`` ((key, value)), ``frozenset``
    ((member,)), or ``other`` ((annotation,)) for anything else (the reader decides).
    """

    kind: str
    args: tuple[Any, ...]


def shape_of(annotation: Any) -> Shape:
    """The ``Shape`` of a resolved annotation."""
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if origin in (typing.Union, types.UnionType) and type(None) in args and len(args) == 2:
        return Shape("optional", (next(a for a in args if a is not type(None)),))
    if annotation in (bool, int, str):
        return Shape("scalar", (annotation,))
    if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
        return Shape("enum", (annotation,))
    if dataclasses.is_dataclass(annotation):
        return Shape("dataclass", (annotation,))
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        return Shape("items", (args[0],))
    if origin is tuple:
        return Shape("tuple", args)
    if origin is dict:
        return Shape("dict", args)
    if origin is frozenset:
        return Shape("frozenset", args)
    return Shape("other", (annotation,))


def fields_of(cls: type) -> list[tuple[dataclasses.Field[Any], Any]]:
    """A dataclass's fields in order, each with its resolved annotation."""
    hints = typing.get_type_hints(cls)
    return [(f, hints[f.name]) for f in dataclasses.fields(cls)]
