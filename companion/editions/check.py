"""The guided check's answers: "Matches" marks every value of a question checked, an edit made
outside the check unchecks what it changed, and a component's values are set from what the table
typed or chose, each refused on its own with a reason (``FieldProblem``) and nothing kept.
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass, field
from typing import Any

from companion.editions import library
from companion.editions.components import CIRCLE_HEX, Component, Field, asked_units, covered, questions

__all__ = [
    "FieldProblem",
    "Progress",
    "ValuesRefused",
    "add_step",
    "apply_values",
    "form_values",
    "match",
    "progress",
    "remove_step",
    "uncheck_changed",
]

Raw = dict[str, Any]


@dataclass(frozen=True)
class FieldProblem:
    """Why a typed value was refused: ``code`` and its ``params`` (words name them)."""

    code: str
    params: dict[str, Any] = field(default_factory=dict)


class ValuesRefused(ValueError):
    """Some typed values cannot be kept; ``problems`` maps each field's path to its problem."""

    def __init__(self, problems: dict[str, FieldProblem]) -> None:
        super().__init__(", ".join(f"{p}: {v.code}" for p, v in problems.items()))
        self.problems = problems


@dataclass(frozen=True)
class Progress:
    """How far the check is: values checked of those to check, and the questions left, in order."""

    done: int
    total: int
    questions: int
    left: tuple[str, ...]  # keys of the questions still to answer

    @property
    def next(self) -> str | None:
        return self.left[0] if self.left else None


def progress(raw: Raw) -> Progress:
    """The check's progress over the values a board shows (the app's own settings aside)."""
    units = asked_units(library.check_units(raw))
    asked = questions(raw, units)
    done = sum(1 for _p, ok in units if ok)
    return Progress(done, len(units), len(asked), tuple(c.key for c, ok in asked if not ok))


def _units(raw: Raw, comp: Component) -> list[str]:
    return [p for p, _ok in library.check_units(raw) if covered(p, comp.covers)]


def match(raw: Raw, comp: Component, on: str) -> Raw:
    """Every value of ``comp`` marked checked on ``on``. The gates of the Wall are checked once the
    circle below the Wall has been checked on every board side."""
    out = raw
    for path in _units(raw, comp):
        if path == "wall.gates":
            continue
        out = library.mark_checked(out, path, on)
    lower = str(out["wall"]["between"][1])
    checks = out.get("checks", {})
    if "wall.gates" in comp.covers and all(
        f"sides[{i}].circles['{lower}']" in checks for i in range(len(out["sides"]))
    ):
        out = library.mark_checked(out, "wall.gates", on)
    return out


def _unmark(raw: Raw, path: str) -> Raw:
    out = copy.deepcopy(raw)
    out.get("checks", {}).pop(path, None)
    circle = library.CIRCLE_UNIT.match(path)
    if circle:
        _retag(out["sides"][int(circle.group(1))], "geometry")
        return out
    steps = library.path_steps(path)
    parent: Any = out
    for step in steps[:-1]:
        parent = parent[step]
    last = steps[-1]
    if isinstance(parent, dict) and isinstance(last, str) and _retag(parent, last):
        return out
    node = parent[last]
    if isinstance(node, dict) and node.get("source") == library.CHECKED:
        node["source"] = library.ESTIMATED
    return out


def _retag(node: Raw, name: str) -> bool:
    if node.get(f"{name}_source") == library.CHECKED:
        node[f"{name}_source"] = library.ESTIMATED
        return True
    source = node.get("source")
    if isinstance(source, dict) and name in source:
        if source[name] == library.CHECKED:
            source[name] = library.ESTIMATED
        return True
    return False


def uncheck_changed(before: Raw, after: Raw, comp: Component) -> Raw:
    """``after`` with every checked value of ``comp`` that the edit changed marked unchecked again."""
    out = after
    for path, ok in library.check_units(after):
        if not ok or not covered(path, comp.covers):
            continue
        if _value(before, path) != _value(after, path):
            out = _unmark(out, path)
    return out


def _value(raw: Raw, path: str) -> Any:
    circle = library.CIRCLE_UNIT.match(path)
    if circle:  # a circle of a side: its shields, their lines down and the gates over them
        side = raw["sides"][int(circle.group(1))]
        row = side["circles"].get(circle.group(2), [])
        ids = {e["id"] for e in row}
        lines = {o: t for o, t in side["lines"].items() if o in ids}
        return row, lines, sorted(g["above"] for g in side["gates"] if g["above"] in ids)
    try:
        node = library.value_at(raw, path)
    except (KeyError, IndexError, TypeError):
        return None
    if isinstance(node, dict):
        return {k: v for k, v in node.items() if k not in ("source", "note", "notes") and not k.endswith("_source")}
    if isinstance(node, list):
        return [_value({"x": v}, "x") for v in node]
    return node


# --------------------------------------------------------------------------- typed values

_SPLIT = re.compile(r"[\s,;]+")
_HEX = re.compile(r"^#[0-9a-fA-F]{6}$")


def _number(text: str, f: Field) -> int:
    text = text.strip().replace("−", "-")
    if not re.fullmatch(r"-?\d{1,6}", text):
        raise _Bad("not_a_number", low=f.low, high=f.high)
    value = int(text)
    if not f.low <= value <= f.high:
        raise _Bad("out_of_range", low=f.low, high=f.high, value=value)
    return value


def _row(text: str, f: Field) -> list[int]:
    parts = [p for p in _SPLIT.split(text.strip().replace("−", "-")) if p]
    if not all(re.fullmatch(r"-?\d{1,6}", p) for p in parts):
        raise _Bad("not_numbers", low=f.low, high=f.high)
    values = [int(p) for p in parts]
    if not f.size[0] <= len(values) <= f.size[1]:
        raise _Bad("row_length", low=f.size[0], high=f.size[1], count=len(values))
    bad = [v for v in values if not f.low <= v <= f.high]
    if bad:
        raise _Bad("out_of_range", low=f.low, high=f.high, value=bad[0])
    return values


class _Bad(Exception):
    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code)
        self.problem = FieldProblem(code, params)


def _read(f: Field, form: dict[str, str], old: Any, raw: Raw) -> Any:
    """The value of field ``f`` from the form (keys ``v:<path>`` and ``v:<path>:<part>``)."""
    name = f"v:{f.path}"
    if f.control == "number":
        return _number(form.get(name, ""), f)
    if f.control == "numbers":
        return _row(form.get(name, ""), f)
    if f.control == "per_circle":
        return {k: _number(form.get(f"{name}:{k}", ""), f) for k in f.keys}
    if f.control == "per_count":
        return {k: _row(form.get(f"{name}:{k}", ""), f) for k in f.keys}
    if f.control == "choice":
        value = form.get(name, "")
        if value not in f.menu:
            raise _Bad("not_on_menu")
        return int(value) if isinstance(old, int) and not isinstance(old, bool) else value
    if f.control == "choices":
        picked = [form.get(f"{name}:{i}", "") for i in range(f.high)]
        picked = [p for p in picked if p]
        if any(p not in f.menu for p in picked):
            raise _Bad("not_on_menu")
        if len(set(picked)) != len(picked):
            raise _Bad("repeated")
        if f.path == "default_guardians.ids" and len(picked) != f.high:
            raise _Bad("pick_exactly", count=f.high)
        return picked
    if f.control == "colours":
        return [int(k) for k in f.keys if form.get(f"{name}:{k}")]
    if f.control == "layout":
        quarters = [q["id"] for q in raw["quarters"]]
        layout = {q: [form.get(f"{name}:{q}:{i}", "") for i in range(2)] for q in quarters}
        every = [loc for pair in layout.values() for loc in pair]
        if any(loc not in f.menu for loc in every):
            raise _Bad("not_on_menu")
        if len(set(every)) != len(every):
            raise _Bad("repeated")
        return layout
    if f.control == "steps":
        steps = []
        for i in range(len(old)):
            kind = form.get(f"{name}:{i}:kind", "")
            if kind not in f.menu:
                raise _Bad("not_on_menu")
            step: dict[str, Any] = {"kind": kind}
            if kind in ("diploma", "final"):
                step["circle"] = _number(form.get(f"{name}:{i}:circle", ""), f)
            steps.append(step)
        return steps
    if f.control == "hex":
        value = form.get(name, "").strip()
        if not _HEX.match(value):
            raise _Bad("not_a_colour")
        return value.lower()
    if f.control == "symbol":
        value = form.get(name, "")
        if value not in f.menu:
            raise _Bad("not_on_menu")
        return value
    raise KeyError(f.control)


def _set(raw: Raw, path: str, value: Any) -> None:
    steps = library.path_steps(path)
    node: Any = raw
    for step in steps[:-1]:
        node = node[step]
    node[steps[-1]] = value


def _rename_quarters(raw: Raw, names: dict[str, str]) -> Raw:
    """Quarter symbols renamed everywhere they are used (shields, the Florence layout)."""
    if not names:
        return raw
    out = copy.deepcopy(raw)
    for q in out["quarters"]:
        if q["id"] in names:
            q["id"] = names[q["id"]]
            q["glyph"] = q["id"][:1].upper()
    for side in out["sides"]:
        for row in side["circles"].values():
            for entry in row:
                entry["quarter"] = names.get(entry["quarter"], entry["quarter"])
    layout = out.get("default_layout", {}).get("quarters")
    if isinstance(layout, dict):
        out["default_layout"]["quarters"] = {names.get(k, k): v for k, v in layout.items()}
    return out


def apply_values(raw: Raw, comp: Component, form: dict[str, str]) -> Raw:
    """``raw`` with every field of ``comp`` set from the form; raises ``ValuesRefused`` naming each
    field that cannot be kept (and keeps none of them)."""
    out = copy.deepcopy(raw)
    problems: dict[str, FieldProblem] = {}
    renames: dict[str, str] = {}
    for f in comp.fields:
        try:
            old = library.value_at(out, f.path)
        except (KeyError, IndexError, TypeError):
            continue
        try:
            value = _read(f, form, old, out)
        except _Bad as bad:
            problems[f.path] = bad.problem
            continue
        if f.control == "symbol":
            if value != old:
                renames[old] = value
            continue
        if f.control == "per_circle" and isinstance(old, dict):
            value = {**old, **value}
        _set(out, f.path, value)
        if f.path.startswith("circles[") and f.path.endswith(".colour") and value in CIRCLE_HEX:
            _set(out, f.path.removesuffix(".colour") + ".hex", CIRCLE_HEX[value])
    final = [renames.get(q["id"], q["id"]) for q in out["quarters"]]
    if len(set(final)) != len(final):
        problems[comp.fields[0].path] = FieldProblem("repeated")
    if problems:
        raise ValuesRefused(problems)
    return _rename_quarters(out, renames)


def add_step(raw: Raw) -> Raw:
    """One more step at the end of Dante's track, before the final one."""
    out = copy.deepcopy(raw)
    steps = out["dante"]["steps"]
    steps.insert(max(len(steps) - 1, 0), {"kind": "pagan"})
    return out


def remove_step(raw: Raw, index: int) -> Raw:
    """Step ``index`` taken off Dante's track; the paths forget it and count the later steps one lower."""
    out = copy.deepcopy(raw)
    dante = out["dante"]
    if not 0 <= index < len(dante["steps"]) or len(dante["steps"]) <= 2:
        raise ValueError(index)
    del dante["steps"][index]
    dante["paths"] = {k: [s - (s > index) for s in path if s != index] for k, path in dante["paths"].items()}
    return out


def form_values(raw: Raw, comp: Component) -> dict[str, str]:
    """The form a component's controls show, filled with the edition's values (``v:<path>[:<part>]``)."""
    out: dict[str, str] = {}
    for f in comp.fields:
        try:
            value = library.value_at(raw, f.path)
        except (KeyError, IndexError, TypeError):
            continue
        name = f"v:{f.path}"
        if f.control in ("number", "choice", "hex", "symbol"):
            out[name] = str(value)
        elif f.control == "numbers":
            out[name] = " ".join(str(v) for v in value)
        elif f.control == "per_circle":
            out.update({f"{name}:{k}": str(value.get(k, "")) for k in f.keys})
        elif f.control == "per_count":
            out.update({f"{name}:{k}": " ".join(str(v) for v in value.get(k, [])) for k in f.keys})
        elif f.control == "choices":
            out.update({f"{name}:{i}": str(v) for i, v in enumerate(value)})
        elif f.control == "colours":
            out.update({f"{name}:{c}": "on" for c in value})
        elif f.control == "layout":
            for quarter, pair in value.items():
                out.update({f"{name}:{quarter}:{i}": str(loc) for i, loc in enumerate(pair)})
        elif f.control == "steps":
            for i, step in enumerate(value):
                out[f"{name}:{i}:kind"] = str(step.get("kind", ""))
                if "circle" in step:
                    out[f"{name}:{i}:circle"] = str(step["circle"])
    return out
