"""The kinds of row the table of references between an edition's entries is made of (``references``), and
the values of the file a row reads its bounds from: a row names an entry (``"*"`` for every key or index), the bounds
or the set it must keep to, and the error code and sentence it raises otherwise."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from companion.game.edition.checks import Where, fail, short

Raw = dict[str, Any]
Measure = Callable[[Raw], Any]  # a value the file gives, read from the whole file
Rule = Callable[[Raw], None]  # a row of the table: raises an ``EditionError`` when the file breaks it


def places(value: Any, field: Where, where: Where = ()) -> Iterator[tuple[Where, Any]]:
    """Each entry ``field`` names inside ``value``, with where it stands: a ``"*"`` step stands for every key of an
    object or every index of a list; a key the object does not hold names nothing (the schema has said it may be
    left out)."""
    if not field:
        yield where, value
        return
    step, rest = field[0], field[1:]
    if step == "*":
        for key in range(len(value)) if isinstance(value, list) else list(value):
            yield from places(value[key], rest, (*where, key))
    elif not isinstance(value, dict) or step in value:
        yield from places(value[step], rest, (*where, step))


def value_at(*path: str | int) -> Measure:
    """The value at ``path``."""

    def measure(raw: Raw) -> Any:
        value: Any = raw
        for step in path:
            value = value[step]
        return value

    return measure


def count_at(*path: str | int) -> Measure:
    """How many entries the list at ``path`` holds."""
    value = value_at(*path)
    return lambda raw: len(value(raw))


def one_below(measure: Measure) -> Measure:
    """One less than ``measure``: the last index of a list of that many entries."""
    return lambda raw: measure(raw) - 1


def highest_at(*path: str | int) -> Measure:
    """The highest number of the list at ``path``."""
    value = value_at(*path)
    return lambda raw: max(value(raw))


def ids_at(*path: str | int) -> Measure:
    """The ``id`` of each object of the list at ``path``."""
    value = value_at(*path)
    return lambda raw: [entry["id"] for entry in value(raw)]


def sin_tracks(raw: Raw) -> list[int]:
    """The circles that have a sin track, in order."""
    return sorted(c["number"] for c in raw["circles"] if c["track"])


def track_count(raw: Raw) -> int:
    """How many sin tracks the board has."""
    return len(sin_tracks(raw))


def constant(value: Any) -> Measure:
    """``value`` itself, whatever the file says."""
    return lambda raw: value


def _named_params(params: tuple[str, ...], roles: dict[str, Any]) -> dict[str, Any]:
    """An error's params: each entry of ``params`` is ``name=role`` (or a role, named as itself), and takes the value
    ``roles`` gives that role."""
    out = {}
    for param in params:
        name, _, role = param.partition("=")
        out[name] = roles[role or name]
    return out


@dataclass(frozen=True)
class Unique:
    """No two entries of each list ``field`` names (or, with ``key``, no two of their ``key``) are the same: else
    ``duplicate_id`` at the second, saying "``what`` … appears twice"."""

    field: Where
    what: str
    key: str | None = None

    def __call__(self, raw: Raw) -> None:
        for where, entries in places(raw, self.field):
            seen: set[Any] = set()
            for i, entry in enumerate(entries):
                item = entry if self.key is None else entry[self.key]
                if item in seen:
                    raise fail("duplicate_id", (*where, i), f"{self.what} {short(item)} appears twice", id=item)
                seen.add(item)


@dataclass(frozen=True)
class Limit:
    """Each number ``field`` names (or, with ``count``, how many entries it holds) is at least ``least`` and at most
    ``most``, bounds other entries set: else ``code`` with ``sentence``, which, like the error's ``params``, names the
    number ``value`` and the bounds ``min`` and ``max`` (see ``_named_params``)."""

    field: Where
    code: str
    sentence: str
    params: tuple[str, ...]
    most: Measure | None = None
    least: Measure | None = None
    count: bool = False

    def __call__(self, raw: Raw) -> None:
        for where, found in places(raw, self.field):
            value = len(found) if self.count else found
            low = None if self.least is None else self.least(raw)
            high = None if self.most is None else self.most(raw)
            if (low is not None and value < low) or (high is not None and value > high):
                params = _named_params(self.params, {"value": value, "min": low, "max": high})
                raise fail(self.code, where, self.sentence.format(**params), **params)


@dataclass(frozen=True)
class Equal:
    """What ``found`` reads from the file equals what ``expected`` reads: else ``code`` at ``where`` with
    ``sentence``, which, like the error's ``params``, names the two (see ``_named_params``)."""

    where: Where
    found: Measure
    expected: Measure
    code: str
    sentence: str
    params: tuple[str, ...]

    def __call__(self, raw: Raw) -> None:
        found, expected = self.found(raw), self.expected(raw)
        if found != expected:
            params = _named_params(self.params, {"found": found, "expected": expected})
            raise fail(self.code, self.where, self.sentence.format(**params), **params)


@dataclass(frozen=True)
class Among:
    """Each entry ``field`` names is one of the values ``within`` reads: else ``code`` with ``sentence``, which, like
    the error's one param ``name``, names the entry."""

    field: Where
    within: Measure
    code: str
    sentence: str
    name: str

    def __call__(self, raw: Raw) -> None:
        allowed = self.within(raw)
        for where, entry in places(raw, self.field):
            if entry not in allowed:
                params = {self.name: entry}
                raise fail(self.code, where, self.sentence.format(**params), **params)
