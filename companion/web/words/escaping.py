"""A value escaped for HTML as plain text, for markup joined as text: ``esc``.

Where a value goes into text that is joined with markup as a string (an f-string, ``catalogue.text_words``), it
must be escaped once and stay a ``str``: ``esc`` is MarkupSafe's ``escape`` given back as text, a value that is
already markup (``__html__``) as that markup. ``tests/web/words/test_escaping.py`` holds
``esc(value) == str(escape(value))`` for every kind of value. Where the result must stay ``Markup`` (joined or added
to markup, handed to Jinja), ``escape`` is used itself.
"""

from __future__ import annotations

from typing import Any

from markupsafe import escape

__all__ = ["esc"]


def esc(value: Any) -> str:
    """``str(escape(value))``: ``value`` as HTML text, its ``& < > ' "`` escaped; markup (``__html__``) as it is."""
    return str(escape(value))
