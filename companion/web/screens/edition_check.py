"""What a question of the check draws: a circle of a board side as printed (its shields left to right
with their symbols, the lines down to the next circle, the gates, its infamy and colour) and a
component's values, each as printed and with its control, all in words."""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field as default
from typing import Any

from companion.editions.components import CIRCLE_HEX, Component, Field
from companion.web.words.catalogue import gettext, ngettext
from companion.web.words.editions import choice_label, field_label, side_name, symbol_name
from companion.web.words.glossary import SINS, colour_name, location_name

__all__ = ["CirclePicture", "FieldRow", "circle_picture", "field_rows"]

WIDTH = 400
ROW_Y = (34, 134)
SHIELD_W = 44


@dataclass(frozen=True)
class ShieldView:
    """One shield as drawn: where, its symbol, and what a tap on it does in edit mode."""

    id: str
    label: str
    quarter: str
    symbol: str
    x: float
    gate: bool = False


@dataclass(frozen=True)
class CirclePicture:
    """A circle and the one below, with the lines between them."""

    number: int
    title: str
    hex: str
    infamy: Any
    colour: str
    row: tuple[ShieldView, ...]
    below: tuple[ShieldView, ...]
    below_number: int | None
    lines: tuple[tuple[float, float], ...]
    downs: dict[str, tuple[str, ...]]
    quarters: tuple[tuple[str, str], ...]
    words: tuple[str, ...]
    gates_here: bool
    gates_below: bool
    width: int = WIDTH

    @property
    def shields(self) -> tuple[str, ...]:
        return tuple(s.id for s in self.row)

    def shield(self, shield: str) -> ShieldView:
        return next(s for s in self.row if s.id == shield)


def _xs(count: int) -> list[float]:
    step = WIDTH / max(count, 1)
    return [step * i + step / 2 for i in range(count)]


def _row(raw: dict[str, Any], side: dict[str, Any], number: int, gated: set[str]) -> tuple[ShieldView, ...]:
    entries = side["circles"].get(str(number), [])
    return tuple(
        ShieldView(e["id"], e["id"].upper(), e["quarter"], symbol_name(e["quarter"]), x, e["id"] in gated)
        for e, x in zip(entries, _xs(len(entries)), strict=True)
    )


def circle_picture(raw: dict[str, Any], comp: Component, pick: str = "") -> CirclePicture:
    """Circle ``comp.circle`` of board side ``comp.side`` as printed, with the circle below it."""
    side = raw["sides"][comp.side]
    number = comp.circle
    circle = raw["circles"][number - 1]
    gated = {g["above"] for g in side["gates"]}
    row = _row(raw, side, number, gated)
    below_number = number + 1 if str(number + 1) in side["circles"] else None
    below = _row(raw, side, below_number, gated) if below_number else ()
    x_below = {s.id: s.x for s in below}
    lines = tuple((s.x, x_below[t]) for s in row for t in side["lines"].get(s.id, []) if t in x_below)
    downs = {s.id: tuple(side["lines"].get(s.id, [])) for s in row}
    words = [gettext("Left to right: %(shields)s", shields=", ".join(f"{s.label} {s.symbol}" for s in row))]
    if below_number:
        words.append(
            gettext(
                "Lines down to circle %(n)s: %(lines)s",
                n=below_number,
                lines="; ".join(f"{s.label} → {'/'.join(t.upper() for t in downs[s.id]) or '—'}" for s in row),
            )
        )
    lower = int(raw["wall"]["between"][1])
    if number == lower or below_number == lower:
        gates = [s.label for s in (row if number == lower else below) if s.gate]
        words.append(
            ngettext(
                "The Wall of Dis has %(num)s gate, over %(shields)s.",
                "The Wall of Dis has %(num)s gates, over %(shields)s.",
                len(gates),
                shields=", ".join(gates) or "—",
            )
        )
    words.append(gettext("A soul arriving here scores %(n)s infamy.", n=circle.get("infamy")))
    return CirclePicture(
        number=number,
        title=gettext(
            "Circle %(n)s (%(sin)s), %(side)s", n=number, sin=SINS.get(number, number), side=side_name(raw, comp.side)
        ),
        hex=CIRCLE_HEX.get(str(circle.get("colour")), str(circle.get("hex", "#888888"))),
        infamy=circle.get("infamy"),
        colour=choice_label(comp.fields[1], str(circle.get("colour"))),
        row=row,
        below=below,
        below_number=below_number,
        lines=lines,
        downs=downs,
        quarters=tuple((q["id"], symbol_name(q["id"])) for q in raw["quarters"]),
        words=tuple(words),
        gates_here=number == lower,
        gates_below=below_number == lower,
    )


# --------------------------------------------------------------------------- component values


@dataclass(frozen=True)
class Input:
    """One input of a control: its form name, label, value, and its options for a menu."""

    name: str
    label: str
    value: str
    options: tuple[tuple[str, str], ...] = ()
    low: int = 0
    high: int = 99


@dataclass(frozen=True)
class FieldRow:
    """A field as printed (``shown``) and as edited (``inputs``), with the problem of its last entry."""

    field: Field
    label: str
    shown: str
    inputs: tuple[Input, ...]
    problem: str = ""
    steps: tuple[int, ...] = default(default_factory=tuple)


def _options(f: Field, blank: bool = False) -> tuple[tuple[str, str], ...]:
    out = tuple((o, choice_label(f, o)) for o in f.menu)
    return ((("", gettext("none")),) if blank else ()) + out


def _circle_label(key: str) -> str:
    return gettext("circle %(n)s (%(sin)s)", n=key, sin=SINS.get(int(key), key))


def field_rows(
    raw: dict[str, Any], comp: Component, values: dict[str, str], problems: dict[str, str]
) -> list[FieldRow]:
    """Each field of ``comp`` with the values to show (the edition's, or what the table just typed)."""
    rows = []
    for f in comp.fields:
        name = f"v:{f.path}"
        label = field_label(raw, f)
        inputs: list[Input] = []
        shown = ""
        steps: tuple[int, ...] = ()
        if f.control in ("number", "numbers", "hex"):
            value = values.get(name, "")
            inputs.append(Input(name, label, value, low=f.low, high=f.high))
            shown = " · ".join(value.split()) if f.control == "numbers" else "" if f.control == "hex" else value
        elif f.control in ("choice", "symbol"):
            value = values.get(name, "")
            inputs.append(Input(name, label, value, _options(f)))
            shown = choice_label(f, value) if value else ""
        elif f.control == "per_circle":
            for k in f.keys:
                inputs.append(
                    Input(f"{name}:{k}", _circle_label(k), values.get(f"{name}:{k}", ""), low=f.low, high=f.high)
                )
            shown = "; ".join(f"{i.label}: {i.value}" for i in inputs)
        elif f.control == "per_count":
            for k in f.keys:
                players = ngettext("%(num)s player", "%(num)s players", int(k))
                inputs.append(Input(f"{name}:{k}", players, values.get(f"{name}:{k}", "")))
            shown = "; ".join(f"{i.label}: {' · '.join(i.value.split())}" for i in inputs)
        elif f.control == "choices":
            for i in range(f.high):
                inputs.append(
                    Input(
                        f"{name}:{i}",
                        gettext("Choice %(n)s", n=i + 1),
                        values.get(f"{name}:{i}", ""),
                        _options(f, True),
                    )
                )
            picked = [choice_label(f, i.value) for i in inputs if i.value]
            shown = ", ".join(picked) or gettext("none")
        elif f.control == "colours":
            for k in f.keys:
                inputs.append(
                    Input(f"{name}:{k}", f"{colour_name(int(k))} ({_circle_label(k)})", values.get(f"{name}:{k}", ""))
                )
            shown = ", ".join(colour_name(int(k)) for k in f.keys if values.get(f"{name}:{k}")) or gettext("none")
        elif f.control == "layout":
            for q in raw["quarters"]:
                for i in range(2):
                    key = f"{name}:{q['id']}:{i}"
                    inputs.append(Input(key, f"{symbol_name(q['id'])} {i + 1}", values.get(key, ""), _options(f)))
            shown = "; ".join(
                f"{symbol_name(q['id'])}: "
                + ", ".join(location_name(values.get(f"{name}:{q['id']}:{i}", "")) for i in range(2))
                for q in raw["quarters"]
            )
        elif f.control == "steps":
            step_count = sum(1 for k in values if k.startswith(name + ":") and k.endswith(":kind"))
            circles = Field(f.path, "choice", menu=tuple(str(n) for n in range(1, 10)))
            words = []
            for i in range(step_count):
                kind = values.get(f"{name}:{i}:kind", "")
                inputs.append(Input(f"{name}:{i}:kind", gettext("Step %(n)s", n=i), kind, _options(f)))
                circle = values.get(f"{name}:{i}:circle", "")
                inputs.append(
                    Input(
                        f"{name}:{i}:circle",
                        gettext("Circle of step %(n)s", n=i),
                        circle,
                        tuple((c, _circle_label(c)) for c in circles.menu),
                    )
                )
                words.append(f"{i}: {choice_label(f, kind)}" + (f" ({_circle_label(circle)})" if circle else ""))
            shown = "; ".join(words)
            steps = tuple(range(step_count))
        rows.append(FieldRow(f, label, shown, tuple(inputs), problems.get(f.path, ""), steps))
    return rows
