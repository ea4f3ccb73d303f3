"""Editing an edition as data: one change at a time, each judged by the one validator.

Every change here takes the edition file's parsed JSON (``raw``), returns a changed copy,
and ``validated`` turns it back into text and runs ``parse_edition`` on it: a change the
validator refuses is refused with its message, which names the entry. The provenance tags
(``source`` and ``*_source`` keys) are read generically, whatever their vocabulary.
"""

from __future__ import annotations

import copy
import json
import re
from dataclasses import dataclass
from typing import Any

from companion.editions.components import asked_units
from companion.game.edition import Edition, parse_edition

__all__ = [
    "CHECKED",
    "CIRCLE_UNIT",
    "ESTIMATED",
    "Tag",
    "check_progress",
    "check_units",
    "diff_editions",
    "mark_checked",
    "path_steps",
    "set_number",
    "slug",
    "tags",
    "to_text",
    "toggle_gate",
    "toggle_line",
    "validated",
    "value_at",
    "with_name",
]

ESTIMATED = "estimated"
CHECKED = "checked"

Raw = dict[str, Any]


def to_text(raw: Raw) -> str:
    """The edition file text for ``raw`` (stable: the same data always gives the same text and hash)."""
    return json.dumps(raw, indent=2, ensure_ascii=False) + "\n"


def validated(raw: Raw) -> tuple[str, Edition]:
    """The text of ``raw`` and its validated edition; raises ``EditionError`` naming the bad entry."""
    text = to_text(raw)
    return text, parse_edition(text)


def slug(name: str) -> str:
    """A file-safe id for an edition name ("Our copy, ES 2024" → "our-copy-es-2024")."""
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:48] or "edition"


def with_name(raw: Raw, name: str) -> Raw:
    """A copy named ``name``, with an id made from it."""
    out = copy.deepcopy(raw)
    out["name"] = name.strip()
    out["id"] = slug(name)
    return out


def _side(raw: Raw, side_id: str) -> Raw:
    for side in raw["sides"]:
        if side["id"] == side_id:
            return dict(side)
    raise KeyError(side_id)


def _replace_side(raw: Raw, side_id: str, side: Raw) -> Raw:
    out = copy.deepcopy(raw)
    out["sides"] = [side if s["id"] == side_id else s for s in out["sides"]]
    return out


def toggle_line(raw: Raw, side_id: str, origin: str, target: str) -> Raw:
    """A line from ``origin`` down to ``target`` added, or removed if it is there."""
    side = copy.deepcopy(_side(raw, side_id))
    targets = list(side["lines"].get(origin, []))
    if target in targets:
        targets.remove(target)
    else:
        targets.append(target)
    side["lines"][origin] = targets
    return _replace_side(raw, side_id, side)


def toggle_gate(raw: Raw, side_id: str, shield: str) -> Raw:
    """A gate of the Wall of Dis added over ``shield``, or removed if one stands there."""
    side = copy.deepcopy(_side(raw, side_id))
    gates = [g for g in side["gates"] if g["above"] != shield]
    if len(gates) == len(side["gates"]):
        gates.append({"id": f"gate-{shield}", "above": shield})
    side["gates"] = gates
    return _replace_side(raw, side_id, side)


_PATH = re.compile(r"([A-Za-z_]+)|\[(\d+)\]|\['([^']+)'\]")


def path_steps(path: str) -> list[str | int]:
    steps: list[str | int] = []
    for part in path.split("."):
        for name, index, key in _PATH.findall(part):
            steps.append(name or (int(index) if index else key))
    return steps


def value_at(raw: Any, path: str) -> Any:
    """The value at ``path`` (e.g. ``circles[2].infamy``) of an edition's data."""
    node = raw
    for step in path_steps(path):
        node = node[step]
    return node


def set_number(raw: Raw, path: str, value: int | list[int]) -> Raw:
    """A copy with the number (or list of numbers) at ``path`` (e.g. ``circles[2].infamy``) set."""
    out = copy.deepcopy(raw)
    steps = path_steps(path)
    node: Any = out
    for step in steps[:-1]:
        node = node[step]
    old = node[steps[-1]]
    if isinstance(old, bool) or not isinstance(old, (int, list)):
        raise KeyError(path)
    node[steps[-1]] = value
    return out


# --------------------------------------------------------------------------- provenance


@dataclass(frozen=True)
class Tag:
    """One provenance tag: the value it speaks for (a path in the file) and its tag."""

    path: str
    tag: str


def tags(raw: Raw) -> list[Tag]:
    """Every provenance tag of the edition, read generically: ``source`` (a tag, or a map of
    field → tag) and ``<field>_source`` keys, anywhere in the file except ``notes``."""
    found: list[Tag] = []

    def walk(node: Any, path: str) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                if key in ("notes", "checks"):
                    continue
                if key == "source" and isinstance(value, str):
                    found.append(Tag(path, value))
                elif key == "source" and isinstance(value, dict):
                    found.extend(Tag(f"{path}.{f}", str(t)) for f, t in value.items())
                elif key.endswith("_source") and isinstance(value, str):
                    found.append(Tag(f"{path}.{key.removesuffix('_source')}", value))
                else:
                    walk(value, f"{path}.{key}" if path else key)
        elif isinstance(node, list):
            for i, item in enumerate(node):
                walk(item, f"{path}[{i}]")

    walk(raw, "")
    return found


_GEOMETRY = re.compile(r"^sides\[(\d+)\]\.geometry$")
CIRCLE_UNIT = re.compile(r"^sides\[(\d+)\]\.circles\['(\d+)'\]$")


def check_units(raw: Raw) -> list[tuple[str, bool]]:
    """Every value the guided check asks about, as (path, checked): each estimated or checked tag,
    except that a board side's geometry is asked circle by circle (``sides[0].circles['3']``)."""
    checks = raw.get("checks", {})
    units: list[tuple[str, bool]] = []
    for tag in tags(raw):
        if tag.tag not in (ESTIMATED, CHECKED):
            continue
        geometry = _GEOMETRY.match(tag.path)
        if geometry:
            side = raw["sides"][int(geometry.group(1))]
            for number in sorted(side["circles"], key=int):
                path = f"sides[{geometry.group(1)}].circles['{number}']"
                units.append((path, tag.tag == CHECKED or path in checks))
        else:
            units.append((tag.path, tag.tag == CHECKED))
    return units


def check_progress(raw: Raw) -> tuple[int, int, list[str]]:
    """(checked, to check in all, the paths still to check) of the guided check: the values a board
    shows, the app's own settings (``components.APP_SETTINGS``) aside."""
    units = asked_units(check_units(raw))
    left = [path for path, done in units if not done]
    return len(units) - len(left), len(units), left


def _tag_field(node: Raw, field: str, tag: str) -> bool:
    """Tag one field of ``node`` (through ``<field>_source`` or the ``source`` map); whether it had a tag."""
    if isinstance(node.get(f"{field}_source"), str):
        node[f"{field}_source"] = tag
        return True
    if isinstance(node.get("source"), dict) and field in node["source"]:
        node["source"][field] = tag
        return True
    return False


def mark_checked(raw: Raw, path: str, on: str) -> Raw:
    """A copy where the value at ``path`` is tagged ``checked``, with the date in ``checks``.

    A circle of a board side is recorded in ``checks``; when every circle of the side is, the
    side's geometry is tagged ``checked``."""
    out = copy.deepcopy(raw)
    circle = CIRCLE_UNIT.match(path)
    if circle:
        side = out["sides"][int(circle.group(1))]
        if circle.group(2) not in side["circles"]:
            raise KeyError(path)
        out.setdefault("checks", {})[path] = on
        prefix = f"sides[{circle.group(1)}].circles["
        if {n for n in side["circles"]} <= {k[len(prefix) + 1 : -2] for k in out["checks"] if k.startswith(prefix)}:
            _tag_field(side, "geometry", CHECKED)
        return out
    steps = path_steps(path)
    parent: Any = out
    for step in steps[:-1]:
        parent = parent[step]
    last = steps[-1]
    if not (isinstance(parent, dict) and isinstance(last, str) and _tag_field(parent, last, CHECKED)):
        node = parent[last]
        if not isinstance(node, dict) or not isinstance(node.get("source"), str):
            raise KeyError(path)
        node["source"] = CHECKED
    out.setdefault("checks", {})[path] = on
    return out


# --------------------------------------------------------------------------- comparing


def _board_diff(a: Raw, b: Raw) -> list[str]:
    """The board sides' differences in words: shields, symbols, lines and gates."""
    out: list[str] = []
    sides_b = {s["id"]: s for s in b.get("sides", [])}
    for side_a in a.get("sides", []):
        side_b = sides_b.get(side_a["id"])
        if side_b is None:
            out.append(f"side {side_a['id']}: only in the first edition")
            continue
        where = f"side {side_a['id']}"
        for number in sorted(set(side_a["circles"]) | set(side_b["circles"]), key=int):
            row_a, row_b = side_a["circles"].get(number, []), side_b["circles"].get(number, [])
            if len(row_a) != len(row_b):
                out.append(f"{where}: circle {number} has {len(row_b)} shields instead of {len(row_a)}")
            quarters_a = {e["id"]: e["quarter"] for e in row_a}
            for entry in row_b:
                old = quarters_a.get(entry["id"])
                if old is not None and old != entry["quarter"]:
                    out.append(f"{where}: shield {entry['id'].upper()} shows {entry['quarter']} instead of {old}")
        lines_a = {(o, t) for o, ts in side_a["lines"].items() for t in ts}
        lines_b = {(o, t) for o, ts in side_b["lines"].items() for t in ts}
        out += [f"{where}: a line {o.upper()} → {t.upper()} added" for o, t in sorted(lines_b - lines_a)]
        out += [f"{where}: the line {o.upper()} → {t.upper()} removed" for o, t in sorted(lines_a - lines_b)]
        gates_a = {g["above"] for g in side_a["gates"]}
        gates_b = {g["above"] for g in side_b["gates"]}
        out += [f"{where}: a gate over {s.upper()} added" for s in sorted(gates_b - gates_a)]
        out += [f"{where}: the gate over {s.upper()} removed" for s in sorted(gates_a - gates_b)]
    return out


def diff_editions(a: Raw, b: Raw) -> list[str]:
    """What differs between two editions, one plain sentence per difference (provenance aside)."""
    out: list[str] = _board_diff(a, b)

    def walk(x: Any, y: Any, path: str) -> None:
        if path == "sides":
            return
        if isinstance(x, dict) and isinstance(y, dict):
            for key in [*x, *(k for k in y if k not in x)]:
                if key in ("source", "notes", "checks", "note") or key.endswith("_source"):
                    continue
                sub = f"{path}.{key}" if path else key
                if key not in x:
                    out.append(f"{sub}: only in the second edition ({json.dumps(y[key])})")
                elif key not in y:
                    out.append(f"{sub}: only in the first edition ({json.dumps(x[key])})")
                else:
                    walk(x[key], y[key], sub)
        elif isinstance(x, list) and isinstance(y, list) and not _flat(x) and len(x) == len(y):
            for i, (u, v) in enumerate(zip(x, y, strict=True)):
                walk(u, v, f"{path}[{i}]")
        elif x != y:
            circle = re.match(r"^circles\[(\d+)\]\.(\w+)$", path)
            if circle:
                out.append(f"circle {int(circle.group(1)) + 1}: {circle.group(2)} {json.dumps(x)} → {json.dumps(y)}")
            else:
                out.append(f"{path}: {json.dumps(x)} → {json.dumps(y)}")

    walk(a, b, "")
    return out


def _flat(items: list[Any]) -> bool:
    return all(not isinstance(v, (dict, list)) for v in items)
