"""A frozen dataclass copied with some fields changed: ``dataclasses.replace`` without its cost.

``replace`` calls the class's ``__init__`` through every field by name; the projection folds
thousands of events and copies the state at each, so it copies the fields' values directly.
Only for plain frozen dataclasses without ``__post_init__`` or ``__slots__`` (the game state, a view of a log).
"""

from __future__ import annotations

from typing import Any, TypeVar

__all__ = ["changed"]

T = TypeVar("T")


_FIELDS: dict[type, frozenset[str]] = {}


def changed(obj: T, **changes: Any) -> T:
    """A copy of the frozen dataclass ``obj`` with ``changes`` (each must name one of its fields)."""
    cls = type(obj)
    names = _FIELDS.get(cls)
    if names is None:  # its fields' names, found once a class (a fold copies the state ~2 times an event)
        names = _FIELDS[cls] = frozenset(cls.__dataclass_fields__)  # type: ignore[attr-defined]
    if not names.issuperset(changes):
        raise TypeError(f"{cls.__name__} has no field {sorted(changes.keys() - names)}")
    copy: T = object.__new__(cls)
    fields = copy.__dict__
    fields.update(obj.__dict__)
    fields.update(changes)
    return copy
