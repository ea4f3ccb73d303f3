"""A part of the game page as drawn for every phone: compacted, fingerprinted, with marks where a fresh idempotency
key, the session's CSRF token and the log's seq go, filled only in what is sent.

A part is drawn with marks (a form's ``seq``, the ``at=`` of a link), so its fingerprint is the same for every phone
and every request, and does not change with a tap that changes nothing it shows. A part the phone keeps is brought to
the new seq there (``static/js/table.js``: ``game:update`` rewrites its ``seq`` and ``at`` fields and links).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast

from flask import Flask, g, has_app_context
from flask_wtf.csrf import generate_csrf
from markupsafe import Markup

from companion.service import GameView
from companion.web.forms.fields import new_key

__all__ = [
    "CSRF_FIELD",
    "CSRF_MARK",
    "KEY_MARK",
    "SEQ_MARK",
    "MarkedView",
    "Part",
    "compact",
    "digest",
    "fill",
    "install",
    "marks",
    "without_htmx_csrf",
]

KEY_MARK = Markup("&key;")  # not a character reference any text could turn into: text's "&" is escaped
CSRF_MARK = Markup("&csrf;")
SEQ_MARK = Markup("&seq;")
CSRF_FIELD = '<input type="hidden" name="csrf_token" value="&csrf;">'  # as every template writes it
_HTMX_FORM_TAG = re.compile(r'<form\b[^>]*\bhx-post="[^"]*"[^>]*>\s*')
"""An htmx form's opening tag (and the blank after it): a CSRF field right after it is left out of an htmx answer."""
_JSON_AMP = "\\u0026"  # a mark's "&" as a JSON string in an attribute writes it (``hx-vals``)


@dataclass(frozen=True)
class Part:
    """One part as drawn with marks (the same for every phone), its fingerprint, and the two as ``HX-Game-Parts``
    names them (``name:digest``: written once, when the part is drawn, not for each part of every answer)."""

    html: str
    digest: str
    word: str


def install(app: Flask) -> None:
    """While parts are drawn (``g.marking_parts``), the templates' ``csrf_token()`` writes a mark (filled in what is
    sent)."""
    real = cast(Callable[[], str], app.jinja_env.globals.get("csrf_token", generate_csrf))

    def csrf_token() -> str:
        return CSRF_MARK if has_app_context() and g.get("marking_parts") else real()

    app.jinja_env.globals["csrf_token"] = csrf_token


class MarkedView:
    """The game's view as the parts see it: its seq a mark (``SEQ_MARK``), all else the view's own."""

    __slots__ = ("_view",)

    def __init__(self, view: GameView) -> None:
        self._view = view

    @property
    def seq(self) -> Markup:
        return SEQ_MARK

    def __getattr__(self, name: str) -> Any:
        return getattr(self._view, name)


def marks(view: GameView) -> dict[str, Any]:
    """What a template draws as a mark: the view's seq, a fresh key, the CSRF token (Flask-WTF's context
    processor puts its own ``csrf_token`` in every context, over the marking global: given here, it wins)."""
    return {"view": MarkedView(view), "new_key": lambda: KEY_MARK, "csrf_token": lambda: CSRF_MARK}


def compact(html: str) -> str:
    r"""The markup without indentation and blank lines (the game page has no preformatted text): each run of
    spaces and tabs ending a line, its newline and all whitespace after it become one newline.

    What ``re.sub(r"[ \t]*\n\s*", "\n", html)`` makes, line by line with ``str``'s own strips: that pattern
    starts with no character to look for, so ``re`` would try a match at every character.
    ``tests/web/screens/test_compact.py`` holds the two equal."""
    lines = html.split("\n")
    if len(lines) == 1:
        return html
    middle = [held for line in lines[1:-1] if (held := line.lstrip().rstrip(" \t"))]
    return "\n".join([lines[0].rstrip(" \t"), *middle, lines[-1].lstrip()])


def digest(html: str) -> str:
    """A short fingerprint of a part drawn with marks."""
    return hashlib.sha256(html.encode()).hexdigest()[:12]


def fill(html: str, seq: int, csrf: bool = True) -> str:
    """Marked markup made ready to send: a fresh key for each form, this session's CSRF token, the seq.

    ``csrf=False`` for an answer to htmx, whose every request carries the token in a header (``base.html``:
    ``hx-headers``; Flask-WTF reads the header when a form has no token field): its htmx forms' token fields
    are left out, ~130 bytes less a form. A plain form (posted by the browser, without htmx's header)
    keeps its field, filled with this session's token.

    Each mark (``&key;``, ``&csrf;``, ``&seq;``, or with its ``&`` written ``\\u0026`` in JSON) is found by the string's
    own search, not by a regex tried at each of an answer's characters. ``tests/web/screens/test_fill.py`` holds it
    equal to the regexes it replaced."""
    if "key;" not in html and "csrf;" not in html and "seq;" not in html:
        return html
    if not csrf and CSRF_FIELD in html:
        html = without_htmx_csrf(html)  # a plain form (a seat, "Our board is different") keeps its own
    if "csrf;" in html and ("&csrf;" in html or f"{_JSON_AMP}csrf;" in html):
        token = generate_csrf()
        html = html.replace("&csrf;", token).replace(f"{_JSON_AMP}csrf;", token)
    now = str(seq)
    html = html.replace("&seq;", now).replace(f"{_JSON_AMP}seq;", now)
    for mark in ("&key;", f"{_JSON_AMP}key;"):  # neither a token, a seq nor a key holds "&" or a backslash
        if mark in html:
            first, *rest = html.split(mark)
            html = first + "".join(new_key() + piece for piece in rest)
    return html


def without_htmx_csrf(html: str) -> str:
    """``html`` without the CSRF field of each htmx form: each field looked at where it stands (a few an answer), left
    out when the text before it ends with an htmx form's opening tag (``_HTMX_FORM_TAG``) begun after the last field
    left out. What one regex, ``(<form\\b[^>]*\\bhx-post="[^"]*"[^>]*>\\s*)`` and the field, replaced by its group
    did, tried at each character (``tests/web/screens/test_fill.py`` holds the two equal). The tag is looked for from
    the last ``<form`` before the field back: in the app's markup, the last one."""
    pieces = html.split(CSRF_FIELD)
    text, resume = pieces[0], 0  # where the regex would go on looking after a field it left out
    for piece in pieces[1:]:
        start = text.rfind("<form", resume)
        while start >= 0 and _HTMX_FORM_TAG.fullmatch(text, start) is None:
            start = text.rfind("<form", resume, start)
        if start >= 0:
            resume = len(text)
        else:
            text += CSRF_FIELD
        text += piece
    return text
