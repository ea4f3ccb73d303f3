"""Which parts an answer sends: the parts a phone says it shows (``HX-Game-Parts``, ``name:digest`` words), those
that differ from them, an answer over its budget split in two, and the element the phone brings into view next.

A phone says which version of each part it shows; an answer carries only the parts that differ, as htmx out-of-band
swaps, with only their new fingerprints (``game:update``'s ``changed``, merged into what the phone holds:
``merge_parts``), and names the element showing the result of the tap or the next step, which the phone brings into
view and focuses (``static/js/table.js``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from flask import request

from companion.web.forms.fields import new_key
from companion.web.screens.hell_map import HellMap
from companion.web.screens.parts.marking import KEY_MARK, SEQ_MARK, without_htmx_csrf
from companion.web.screens.parts.sources import player_part

__all__ = [
    "ANSWER_BUDGET",
    "HELD",
    "answer_later",
    "client_parts",
    "focus_target",
    "map_keep",
    "merge_parts",
    "out_of_band",
    "parts_to_send",
]

ANSWER_BUDGET = 8 * 1024
"""An answer's bytes at most (before compression; app config ``ANSWER_BUDGET``): past them, the parts the phone
needs least come in a second answer it asks for at once (``answer_later``)."""

_OUT_OF_BAND = len(' hx-swap-oob="true"')
_KEY_GROWTH = len(new_key()) - len(KEY_MARK)  # a form's key mark, filled


def answer_later(
    pieces: dict[str, str], active: int, budget: int, seq: int, keep: frozenset[str] = frozenset()
) -> set[str]:
    """The parts of an answer (``pieces``, marked) it leaves for a second answer, which the phone asks for at once
    (the answer's ``game:update`` says ``more``; those parts keep the digests the phone holds, so it asks for them).

    None while the answer is within ``budget`` bytes as it is sent (its keys and seq filled, its htmx forms without
    their CSRF field). Past it: the other players' purses, families,
    towers and sin tracks, then the quarters' tiles, then the active player's, the largest first, until it is within;
    and only then the shields of the map but those in ``keep`` (the ones the tap chose or lit: ``map_keep``). The
    actions, the turn, the undo bar, the loan, the map's values and the shields held always come in the first
    answer: the player reads the actions first. (The largest answers are undos back into the Florence phase: the send
    list, two players' tracks, the tiles; ``bench/README.md``. The shields go second only for a phone whose map was
    drawn for a page without script, whose next tap turns ~37 empty shields back to their steady taps: a page
    reloaded in the middle of a guardian's choice.)"""
    seq_growth = len(str(seq)) - len(SEQ_MARK)

    def sent(html: str) -> int:  # its bytes as ``fill`` sends them: a fresh key, the seq
        return (
            len(html.encode()) + _KEY_GROWTH * html.count(KEY_MARK) + seq_growth * html.count(SEQ_MARK) + _OUT_OF_BAND
        )

    if sum(sent(html) for html in pieces.values()) <= budget:
        return set()
    # past it at first sight: exactly, without the CSRF fields an htmx answer's forms leave out (``fill``)
    sizes = {name: sent(without_htmx_csrf(html)) for name, html in pieces.items()}
    over = sum(sizes.values()) - budget
    if over <= 0:
        return set()

    def rank(name: str) -> tuple[int, int]:
        kind, seat = player_part(name)
        group = 0 if kind and seat != active else 2 if kind else 3 if name.startswith("s-") else 1
        return (group, -sizes[name])

    movable = (n for n in pieces if player_part(n)[0] or n.startswith("q-") or (n.startswith("s-") and n not in keep))
    later: set[str] = set()
    for name in sorted(movable, key=rank):
        if over <= 0:
            break
        later.add(name)
        over -= sizes[name]
    return later


def map_keep(m: HellMap) -> frozenset[str]:
    """The shields of ``m`` a tap chose or lit (the soul chosen and its landings; a guardian's new shield, its Desk,
    its targets and the souls near it), as parts: they come in an answer's first part whatever its size
    (``answer_later``)."""
    shown: set[str | None] = {m.selected, *(move.landing for move in m.selected_moves)}
    g = m.guardian
    if g is not None:
        shown.update((g.to_shield, g.desk, *g.targets, *g.near))
    return frozenset(f"s-{shield}" for shield in shown if shield)


def out_of_band(name: str, html: str) -> str:
    """The part marked to be swapped in place of the one with its id."""
    return html.replace(f'data-part="{name}"', f'data-part="{name}" hx-swap-oob="true"', 1)


def parts_to_send(words: Sequence[str], raw: str) -> list[str]:
    """The names of this answer's parts (``words``: each part's ``name:digest``, in order) that the phone's
    ``HX-Game-Parts`` (``raw``) does not say it holds as they are now: its words compared whole, as a set, without
    reading the header into a dict first (``client_parts``; ``test_parts_header`` holds the two equal for any header
    that names each part once, as a phone's does)."""
    held = set(raw.split())
    return [word.partition(":")[0] for word in words if word not in held]


def merge_parts(held: str, changed: str) -> str:
    """The parts a phone holds (``name:digest`` words, as in ``HX-Game-Parts``) once an answer's ``changed`` ones are
    swapped in: each named in ``changed`` takes its new digest, in its place, a new one at the end. What
    ``static/js/table.js`` does with a ``game:update``'s ``changed`` (``mergeParts``)."""
    merged = dict(HELD.findall(held))
    merged.update(HELD.findall(changed))
    return " ".join(f"{name}:{digest}" for name, digest in merged.items())


def client_parts() -> dict[str, str] | None:
    """The parts digests the phone says it shows (``HX-Game-Parts``), or None for a whole swap."""
    raw = request.headers.get("HX-Game-Parts")
    if not raw:
        return None
    return dict(HELD.findall(raw))


HELD = re.compile(r"([^\s:]*):(\S*)")
"""A part the phone holds, ``name:digest``, in ``HX-Game-Parts``: each word with a colon split at its first one (a
hundred parts with the shields: one ``findall``, not a split per word; ``test_parts_header`` holds them equal)."""


def focus_target(context: dict[str, Any]) -> str:
    """The id of the element showing the answer to what was just tapped, or the next step."""
    if context.get("loan_confirm"):
        return "loan-confirm"
    refusal = context.get("refusal")
    if refusal:
        return f"refusal-{refusal['control']}"
    if context.get("notice_kind") == "conflict" or context["state"].ended:
        return "turn-title"
    if context.get("guardian_steps"):
        return "map-prompt"
    if context.get("accuse"):
        return "accuse-title"
    ferry = context.get("ferry")
    if ferry and ferry.side:
        return "ferry-landing"  # the landings are listed above the map, not on it
    if ferry or (context.get("select") and context["hell_map"].interactive):
        return "map-prompt"
    return "actions-title"
