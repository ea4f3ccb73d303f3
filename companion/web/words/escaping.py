"""A value escaped for HTML as plain text, for the markup written in Python: ``esc``.

The parts written in Python (``screens/*_markup.py``) put ~60 escaped values into f-strings an answer: a player's
stats, a form's hidden fields, a track's levels. MarkupSafe's ``escape`` gives each back as ``Markup``, made through
``Markup.__new__`` in Python (~0.3 µs a value), only for the f-string to turn it back into text. ``esc`` gives the
same text without making the ``Markup``: MarkupSafe's own escaping of a string (its C ``_escape_inner``), and a value
that is already markup (``__html__``) as that markup, as ``escape`` does. ``tests/web/words/test_escaping.py`` holds
``esc(value) == str(escape(value))`` for every kind of value. Where the result must stay ``Markup`` (joined or added
to markup, handed to Jinja), ``escape`` stays.
"""

from __future__ import annotations

from typing import Any

try:  # MarkupSafe's own escaping of a string, as its ``escape`` imports it: its C speedups, else its pure Python
    from markupsafe._speedups import _escape_inner
except ImportError:  # pragma: no cover - a MarkupSafe built without its speedups
    from markupsafe._native import _escape_inner

__all__ = ["esc"]


def esc(value: Any) -> str:
    """``str(escape(value))``: ``value`` as HTML text, its ``& < > ' "`` escaped; markup (``__html__``) as it is."""
    if value.__class__ is str:
        return _escape_inner(value)
    html = getattr(value, "__html__", None)
    if html is not None:
        return str(html())
    return _escape_inner(str(value))
