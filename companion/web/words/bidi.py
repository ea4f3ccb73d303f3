"""Player names isolated for bidirectional text: a right-to-left override typed into one name
reverses that name only, never the sentence or the page around it.

``bdi(name)`` wraps a name shown as page content in ``<bdi>``; ``isolate(name)`` serves where
only text can go (attributes, ``<option>``, ``<title>``, sentences built in Python, text
exports): it puts the name between FIRST STRONG ISOLATE and POP DIRECTIONAL ISOLATE. Both act
only when the name holds a right-to-left letter or a direction control: a name in a left-to-right
script cannot turn the text around it, and stays exactly as typed. Inside, isolates
the name opens are closed and stray closers dropped, so no name can end the isolation early.
"""

from __future__ import annotations

import functools
import unicodedata

from flask import Flask
from markupsafe import Markup, escape

__all__ = ["bdi", "install", "isolate"]

FSI, PDI = "\u2068", "\u2069"
OPENERS = frozenset("\u2066\u2067\u2068")  # LRI, RLI, FSI
DIRECTIONAL = frozenset({"R", "AL", "AN", "LRE", "LRO", "RLE", "RLO", "PDF", "LRI", "RLI", "FSI", "PDI"})


def _balanced(text: str) -> str:
    """``text`` with every isolate it opens closed, and every closer without an opener dropped."""
    out, depth = [], 0
    for ch in text:
        if ch == PDI:
            if depth == 0:
                continue
            depth -= 1
        elif ch in OPENERS:
            depth += 1
        out.append(ch)
    return "".join(out) + PDI * depth


@functools.lru_cache(maxsize=4096)
def _needs_isolation(text: str) -> bool:
    """Whether ``text`` holds a character that may change the direction around it, remembered per text (the
    players' names, asked by most sentences and parts of a page)."""
    return any(unicodedata.bidirectional(ch) in DIRECTIONAL for ch in text)


def isolate(name: object) -> str:
    """A name safe to put inside any text: isolated when it could change the text's direction."""
    text = str(name)
    return f"{FSI}{_balanced(text)}{PDI}" if _needs_isolation(text) else text


def bdi(name: object) -> Markup:
    """A name as page content (escaped), in a ``<bdi>`` element when it could change the direction
    of the text around it."""
    text = str(name)
    return Markup("<bdi>{}</bdi>").format(_balanced(text)) if _needs_isolation(text) else escape(text)


def install(app: Flask) -> None:
    """Offer ``|bdi`` and ``|isolate`` to the templates."""
    app.jinja_env.filters["bdi"] = bdi
    app.jinja_env.filters["isolate"] = isolate
