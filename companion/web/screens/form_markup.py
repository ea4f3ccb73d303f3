"""The form macros of ``macros.html`` (``action_form``, ``hidden_fields``, ``refusal_box``, ``marker``) called from
Python, for the parts still written in Python (``screens/actions_markup.py``, ``florence_markup.py``,
``location_markup.py``, ``turn_markup.py``): this module goes with them once they are templates.

The markup is the macros' own (``screens.part_templates`` makes them the templates' globals); a Python ``caller``
gives markup, as a ``{% call %}`` block does.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from markupsafe import Markup

from companion.web.screens.part_templates import part_macro

__all__ = ["action_form", "hidden_fields", "marker", "refusal_box"]


def action_form(*args: Any, caller: Callable[[], str] | None = None, **kwargs: Any) -> Markup:
    """``macros.html``'s ``action_form``; ``caller``'s text inside, as markup."""
    if caller is not None:
        given = caller
        kwargs["caller"] = lambda: Markup(given())
    return part_macro("action_form")(*args, **kwargs)


def hidden_fields(*args: Any, **kwargs: Any) -> Markup:
    """``macros.html``'s ``hidden_fields``."""
    return part_macro("hidden_fields")(*args, **kwargs)


def refusal_box(*args: Any, **kwargs: Any) -> Markup:
    """``macros.html``'s ``refusal_box``."""
    return part_macro("refusal_box")(*args, **kwargs)


def marker(*args: Any, **kwargs: Any) -> Markup:
    """``macros.html``'s ``marker``."""
    return part_macro("marker")(*args, **kwargs)
