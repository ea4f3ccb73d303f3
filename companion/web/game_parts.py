"""Only what changed: the game page's parts, their fingerprints, and where the eye goes next.

The game page is cut into parts (turn, actions, Hell's prompt, board, shields and Cemetery,
Florence, players, undo bar). A phone
says which version of each part it shows (``HX-Game-Parts``); an answer carries only the
parts that differ, as htmx out-of-band swaps, and names the element showing the result of
the tap or the next step, which the phone brings into view and focuses (``static/js/table.js``).
"""

from __future__ import annotations

import hashlib
import re
from typing import Any

from flask import request
from jinja2_fragments.flask import render_block

__all__ = ["PARTS", "client_parts", "compact", "digest", "focus_target", "out_of_band", "render_parts"]

PARTS = ("turn", "actions", "hell", "board", "cells", "cemetery", "florence", "players", "undo")
_VOLATILE = re.compile(r'(name="key" value="|&#34;key&#34;: &#34;|"key": ")[0-9a-f]{32}')


_BLANKS = re.compile(r"[ \t]*\n\s*")


def compact(html: str) -> str:
    """The markup without indentation and blank lines (the game page has no preformatted text)."""
    return _BLANKS.sub("\n", html)


def render_parts(context: dict[str, Any]) -> dict[str, str]:
    """Each part of the game on its own."""
    return {name: compact(render_block("game.html", f"part_{name}", **context)) for name in PARTS}


def digest(html: str) -> str:
    """A short fingerprint of a part, blind to the fresh idempotency keys drawn on every render."""
    return hashlib.sha256(_VOLATILE.sub(r"\1", html).encode()).hexdigest()[:12]


def out_of_band(name: str, html: str) -> str:
    """The part marked to be swapped in place of the one with its id."""
    return html.replace(f'data-part="{name}"', f'data-part="{name}" hx-swap-oob="true"', 1)


def client_parts() -> dict[str, str] | None:
    """The parts digests the phone says it shows (``HX-Game-Parts``), or None for a whole swap."""
    raw = request.headers.get("HX-Game-Parts")
    if not raw:
        return None
    pairs = (item.split(":", 1) for item in raw.split() if ":" in item)
    return {name: value for name, value in pairs}


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
