"""Editions shared between tables: what an imported file claims, and how far published editions
agree.

A published edition's ``checks`` map says which values a table checked against its own board (by
path, with the date). Two published editions *agree* on a checked value when the value itself (a
number, a list, or a whole circle of a board side: its shields, their lines down and its gates) is
the same in both. The new-game page proposes the published edition with the most values checked.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from companion.editions.library import CIRCLE_UNIT, check_progress, value_at

__all__ = ["ValueAgreement", "agreement", "checked_value", "imported_from", "most_checked", "stamp_import"]

Raw = dict[str, Any]


def stamp_import(raw: Raw, on: str) -> Raw:
    """A copy of an imported file's data saying whose checks it carries: ``imported`` = {"from": the
    file's edition name, "on": the date of the import}."""
    out = dict(raw)
    out["imported"] = {"from": str(raw.get("name", "")), "on": on}
    return out


def imported_from(raw: Raw) -> tuple[str, str] | None:
    """(the edition name, the date) an imported file's checks were claimed by, or None."""
    stamp = raw.get("imported")
    if isinstance(stamp, dict) and isinstance(stamp.get("from"), str) and isinstance(stamp.get("on"), str):
        return stamp["from"], stamp["on"]
    return None


def checked_value(raw: Raw, path: str) -> str | None:
    """The value the check at ``path`` confirmed, as comparable text (None: no such value in ``raw``)."""
    try:
        circle = CIRCLE_UNIT.match(path)
        if circle:
            side = raw["sides"][int(circle.group(1))]
            shields = side["circles"][circle.group(2)]
            ids = [s["id"] for s in shields]
            value: Any = {
                "shields": shields,
                "lines": {i: side["lines"].get(i, []) for i in ids},
                "gates": sorted(g["above"] for g in side.get("gates", []) if g.get("above") in ids),
            }
        else:
            value = value_at(raw, path)
    except (KeyError, IndexError, TypeError, ValueError, AttributeError):
        return None
    return json.dumps(value, sort_keys=True)


@dataclass(frozen=True)
class ValueAgreement:
    """One checked value across published editions: how many checked it, and whether they agree."""

    path: str
    tables: int
    agree: bool


def agreement(raws: list[Raw]) -> list[ValueAgreement]:
    """For every value any of ``raws`` checked: how many checked it and whether their values are the same."""
    seen: dict[str, set[str]] = {}
    counts: dict[str, int] = {}
    for raw in raws:
        checks = raw.get("checks")
        if not isinstance(checks, dict):
            continue
        for path in checks:
            value = checked_value(raw, str(path))
            if value is None:
                continue
            seen.setdefault(str(path), set()).add(value)
            counts[str(path)] = counts.get(str(path), 0) + 1
    return [ValueAgreement(path, counts[path], len(values) == 1) for path, values in seen.items()]


def most_checked(raws: list[Raw]) -> int | None:
    """The index of the edition with the most values checked (the first among equals; None: none checked)."""
    best, best_done = None, 0
    for index, raw in enumerate(raws):
        done, _total, _left = check_progress(raw)
        if done > best_done:
            best, best_done = index, done
    return best
