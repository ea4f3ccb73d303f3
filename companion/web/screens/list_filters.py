"""Filters that pick items of a list by one of their fields, for the game's templates.

What Jinja's ``selectattr``/``rejectattr``/``select`` with a test do, said shorter and without a test looked up
on every use (the Florence phase's send list picks its locations a dozen ways). A field is a dict's key, a tuple's
index or an object's attribute.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from typing import Any

from flask import Flask

__all__ = ["above", "having", "install", "lacking", "where", "where_in", "within"]


def _field(item: Any, name: str | int) -> Any:
    if isinstance(item, dict):
        return item.get(name)
    if isinstance(name, int):
        return item[name]
    return getattr(item, name, None)


def having(items: Iterable[Any], name: str | int) -> list[Any]:
    """The items whose field ``name`` is true (``selectattr(name)``)."""
    return [item for item in items if _field(item, name)]


def lacking(items: Iterable[Any], name: str | int) -> list[Any]:
    """The items whose field ``name`` is false (``rejectattr(name)``)."""
    return [item for item in items if not _field(item, name)]


def where(items: Iterable[Any], name: str | int, value: Any) -> list[Any]:
    """The items whose field ``name`` equals ``value`` (``selectattr(name, "equalto", value)``)."""
    return [item for item in items if _field(item, name) == value]


def where_in(items: Iterable[Any], name: str | int, values: Collection[Any]) -> list[Any]:
    """The items whose field ``name`` is one of ``values`` (``selectattr(name, "in", values)``)."""
    return [item for item in items if _field(item, name) in values]


def above(items: Iterable[Any], name: str | int, value: Any) -> list[Any]:
    """The items whose field ``name`` is greater than ``value`` (``selectattr(name, "gt", value)``)."""
    return [item for item in items if (field := _field(item, name)) is not None and field > value]


def within(items: Iterable[Any], values: Collection[Any]) -> list[Any]:
    """The items that are among ``values`` (``select("in", values)``)."""
    return [item for item in items if item in values]


def install(app: Flask) -> None:
    """The filters, by their names."""
    for f in (above, having, lacking, where, where_in, within):
        app.jinja_env.filters[f.__name__] = f
