"""A refused entry said on the page that answers it, whatever that page draws at this moment.

A form's refusal box is drawn beside the form (``refusal_box(refusal, control)``, ``templates/macros.html``);
some forms are drawn only at some moments (the score sheet's half diplomas and cards in hand at the end
of a game that needs them, the tally's half diplomas once a player has pairs). A post from an old screen,
a double tap after the game changed, or a forged post is refused at a moment its form is not drawn: the
page then shows the refusal near its top (``refusal_fallback``), as the game page does atop its actions.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["SHOW_THE_TOP", "box_drawn", "refusal_drawn"]

# An htmx answer whose words are drawn near the top of the part it replaces scrolls that part's top into
# view: the phone that tapped further down reads them (``HX-Reswap``, the pages swap ``outerHTML``). Set as
# it is: flask-htmx's ``make_response`` takes a bare swap style for ``reswap``, not one with a modifier.
SHOW_THE_TOP = {"HX-Reswap": "outerHTML show:top"}


def box_drawn(refusal: dict[str, Any], html: str) -> bool:
    """Whether ``html`` holds the refusal's own box, beside its form (``refusal_box``, ``templates/macros.html``)."""
    return f'id="refusal-{refusal["control"]}"' in html


def refusal_drawn(draw: Callable[..., str], context: dict[str, Any]) -> str:
    """``draw(**context)``; when the context's refusal has no box of its own on the page drawn (its form
    is not drawn at this moment), drawn again with ``refusal_fallback`` set in ``context``."""
    html = draw(**context)
    refusal = context.get("refusal")
    if not refusal or box_drawn(refusal, html):
        return html
    context["refusal_fallback"] = True
    return draw(**context)
