"""Editions in words: check progress, the guided check's questions, switch refusals, the history line."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask_babel import gettext, ngettext

from companion.editions.library import CIRCLE_UNIT, value_at
from companion.web.words.glossary import quarter_name

__all__ = ["NUMERIC_SECTIONS", "CheckStep", "check_steps", "progress_text"]

NUMERIC_SECTIONS = (
    "tracks",
    "phlegethon",
    "economy",
    "loan_track",
    "dante",
    "family",
    "tower",
    "actions",
    "souls",
    "discs",
    "fraud",
    "guardians",
    "expansion",
)


def progress_text(done: int, total: int) -> str:
    """ "37 of 57 estimated values checked", or that the board is fully checked."""
    if total and done >= total:
        return gettext("Every estimated value has been checked against a real board.")
    return ngettext(
        "%(done)s of %(num)s estimated value checked against a real board.",
        "%(done)s of %(num)s estimated values checked against a real board.",
        total,
        done=done,
    )


@dataclass(frozen=True)
class CheckStep:
    """One question of the guided check: the value, what the app believes, and how to ask it."""

    path: str
    question: str
    belief: tuple[str, ...]
    section: str = "board"  # the editor's section that shows the value
    side: str = ""  # the board side to fix it on, for a circle of the board
    anchor: str = ""  # where in that section


def _circle_belief(side: dict[str, Any], number: str) -> tuple[str, ...]:
    row = side["circles"][number]
    symbols = ", ".join(f"{e['id'].upper()} {quarter_name(e['quarter'])}" for e in row)
    out = [gettext("Left to right: %(symbols)s", symbols=symbols)]
    if int(number) < 9:
        out.append(gettext("Lines down: %(lines)s", lines="; ".join(_downs(side, e["id"]) for e in row)))
    return tuple(out)


def _downs(side: dict[str, Any], shield: str) -> str:
    return f"{shield.upper()} → {'/'.join(t.upper() for t in side['lines'].get(shield, [])) or '—'}"


def _value(raw: dict[str, Any], path: str) -> str:
    try:
        node = value_at(raw, path)
    except (KeyError, IndexError, TypeError):
        return ""
    if isinstance(node, dict):
        node = {k: v for k, v in node.items() if k not in ("source", "note") and not k.endswith("_source")}
    text = str(node)
    return text if len(text) < 400 else text[:400] + "…"


def _where(path: str) -> tuple[str, str, str]:
    """(section, side, anchor) of the editor where the value at ``path`` is changed."""
    head = path.split(".")[0].split("[")[0]
    if head == "circles":
        return "board", "", f"circle-{int(path[8 : path.index(']')]) + 1}"
    if head in NUMERIC_SECTIONS:
        return "numbers", "", f"numbers-{head}"
    return "numbers", "", ""


def check_steps(raw: dict[str, Any], left: list[str]) -> list[CheckStep]:
    """The questions still to ask, one per estimated value, the board geometry first."""
    steps = []
    order = {True: 0, False: 1}
    for path in sorted(left, key=lambda p: (order[bool(CIRCLE_UNIT.match(p))], not p.startswith(("circles", "wall")))):
        circle = CIRCLE_UNIT.match(path)
        if circle:
            side = raw["sides"][int(circle.group(1))]
            number = circle.group(2)
            question = gettext(
                "Circle %(n)s on your board (the side for %(a)s–%(b)s players): %(count)s shields, "
                "these symbols left to right, these lines down?",
                n=number,
                a=side["players"][0],
                b=side["players"][-1],
                count=len(side["circles"][number]),
            )
            steps.append(
                CheckStep(path, question, _circle_belief(side, number), "board", side["id"], f"circle-{number}")
            )
        elif path == "wall.gates":
            question = gettext("The gates of the Wall of Dis: do they stand over these circle-6 shields?")
            belief = tuple(
                gettext(
                    "Side for %(a)s–%(b)s players: %(shields)s",
                    a=side["players"][0],
                    b=side["players"][-1],
                    shields=", ".join(g["above"].upper() for g in side["gates"]),
                )
                for side in raw["sides"]
            )
            steps.append(CheckStep(path, question, belief, "board", "", "circle-6"))
        else:
            question = gettext("On your copy, is %(what)s as shown?", what=path)
            steps.append(CheckStep(path, question, (_value(raw, path),), *_where(path)))
    return steps
