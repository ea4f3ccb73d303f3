"""Editions in words: check progress, the guided check's questions, switch refusals, the history line."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask_babel import gettext, ngettext
from flask_babel import lazy_gettext as _

from companion.game.errors import RuleViolation
from companion.game.state import GameState
from companion.web import narrate
from companion.web.words import describe_refusal, quarter_name
from events.catalog import EditionChanged

__all__ = ["NUMERIC_SECTIONS", "CheckStep", "check_steps", "describe_switch_refusal", "progress_text"]

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

SWITCH_REFUSALS: dict[str, Any] = {
    "edition_invalid": _("That edition does not validate: %(message)s"),
    "edition_same": _("The game already uses this edition."),
    "edition_no_side": _("That edition has no board side %(side)s for %(players)s players."),
    "edition_breaks_board": _("On that edition's board there is no place for the %(kind)s on %(name)s."),
    "edition_switch_tally": _("A quick tally keeps the edition it was started with."),
    "edition_breaks_setup": _("The game's set-up does not fit that edition (%(detail)s)."),
}


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


def describe_switch_refusal(exc: RuleViolation, state: GameState | None) -> str:
    """Why a switch of edition is refused, as one sentence."""
    template = SWITCH_REFUSALS.get(exc.code)
    if template is not None:
        return str(template) % exc.params
    return describe_refusal(exc, state)


@dataclass(frozen=True)
class CheckStep:
    """One question of the guided check: the value, what the app believes, and how to ask it."""

    path: str
    question: str
    belief: tuple[str, ...]


def _side_belief(raw: dict[str, Any], index: int) -> tuple[str, ...]:
    side = raw["sides"][index]
    lines = []
    for number, row in sorted(side["circles"].items(), key=lambda kv: int(kv[0])):
        symbols = ", ".join(quarter_name(e["quarter"]) for e in row)
        downs = "; ".join(_downs(side, e["id"]) for e in row)
        lines.append(
            gettext(
                "Circle %(n)s: %(count)s shields, left to right %(symbols)s. Lines down: %(lines)s",
                n=number,
                count=len(row),
                symbols=symbols,
                lines=downs or "—",
            )
        )
    gates = ", ".join(g["above"].upper() for g in side["gates"])
    lines.append(gettext("Gates of the Wall of Dis over %(shields)s", shields=gates))
    return tuple(lines)


def _downs(side: dict[str, Any], shield: str) -> str:
    return f"{shield.upper()} → {'/'.join(t.upper() for t in side['lines'].get(shield, [])) or '—'}"


def _value(raw: dict[str, Any], path: str) -> str:
    from companion.editions.library import _get

    try:
        node = _get(raw, path)
    except (KeyError, IndexError, TypeError):
        return ""
    if isinstance(node, dict):
        node = {k: v for k, v in node.items() if k not in ("source", "note") and not k.endswith("_source")}
    text = str(node)
    return text if len(text) < 400 else text[:400] + "…"


def check_steps(raw: dict[str, Any], left: list[str]) -> list[CheckStep]:
    """The questions still to ask, one per estimated value, the board geometry first."""
    steps = []
    for path in sorted(left, key=lambda p: (not p.startswith("sides"), not p.startswith("circles"), p)):
        if path.startswith("sides[") and path.endswith(".geometry"):
            index = int(path[6 : path.index("]")])
            players = "–".join(str(p) for p in (raw["sides"][index]["players"][0], raw["sides"][index]["players"][-1]))
            question = gettext("The board side for %(players)s players: does yours look like this?", players=players)
            steps.append(CheckStep(path, question, _side_belief(raw, index)))
        else:
            question = gettext("On your copy, is %(what)s as shown?", what=path)
            steps.append(CheckStep(path, question, (_value(raw, path),)))
    return steps


def _switched(event: EditionChanged, state: GameState) -> str:
    return gettext("The table switched the game to the edition “%(name)s”.", name=_edition_name(event))


def _edition_name(event: EditionChanged) -> str:
    from companion.game.edition_switch import edition_from_text

    return edition_from_text(event.content).name


narrate.TELLERS.setdefault(EditionChanged, _switched)  # type: ignore[arg-type]
