"""A frozen dataclass copied with some fields changed: ``dataclasses.replace`` without its cost.

``replace`` calls the class's ``__init__`` through every field by name; the projection folds
thousands of events and copies the state at each, so it copies the fields' values directly.
Only for plain frozen dataclasses without ``__post_init__`` or ``__slots__`` (the game state).
"""

from __future__ import annotations

from typing import Any, TypeVar

__all__ = ["changed"]

T = TypeVar("T")


def changed(obj: T, **changes: Any) -> T:
    """A copy of the frozen dataclass ``obj`` with ``changes`` (each must name one of its fields)."""
    cls = type(obj)
    if not changes.keys() <= cls.__dataclass_fields__.keys():  # type: ignore[attr-defined]
        raise TypeError(f"{cls.__name__} has no field {sorted(changes.keys() - cls.__dataclass_fields__.keys())}")  # type: ignore[attr-defined]
    copy: T = object.__new__(cls)
    fields = copy.__dict__
    fields.update(obj.__dict__)
    fields.update(changes)
    return copy
