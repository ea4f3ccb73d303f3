"""The Hell phase's choices with nothing chosen yet, written in Python: the template global ``hell_choices``.

Every end of a turn answers with them (the next player's Hell phase): the souls that can move, a link each, the
ferryman when the player holds a Bell, and the Cemetery's colours to bring a soul in from. As the Jinja branch of
``screens/hell_actions.html`` they were most of an end of turn's drawing. The markup is the template's, line for line
(a part is compacted: ``parts.compact``); ``tests/web/screens/test_hell_markup.py`` holds it equal to the branch it
replaced over random games, in English and Spanish. A soul or a colour chosen, the ferry's steps and a move to
confirm stay in the template.
"""

from __future__ import annotations

from typing import Any

from markupsafe import Markup

from companion.web.words.catalogue import language, template_words, text_words
from companion.web.words.escaping import esc
from companion.web.words.glossary import colour_name

__all__ = ["hell_choices", "install"]


def _link(href: str, text: str, cls: str = "button secondary") -> str:
    return f'<a class="{cls}" href="{href}" hx-get="" hx-replace-url="true">{text}</a>'


def hell_choices(state: Any, options: Any, me: Any, pick_url: str) -> Markup:
    """What the active player may do in the Hell phase before choosing: tap a soul that can move (or its link
    here), summon the ferryman, or bring a soul in from the Cemetery (``options``: their ``TurnOptions``)."""
    ngettext = template_words(language())["ngettext"]
    _ = text_words()  # said as text: each goes into the markup's f-strings, no ``Markup`` made for it
    pick = esc(pick_url)
    movable, bring_moves = options.movable, options.bring_moves  # worked out from the moves at each reading
    if bring_moves:
        hint = _("Tap a soul on the map, then a highlighted shield. Or bring a soul in from the Cemetery.")
    elif movable:
        hint = _("Tap a soul on the map, then a highlighted shield.")
    else:
        hint = ""
    out = [f"<p>{hint}</p>"]
    if options.can_ferry:
        ferry = ngettext(
            "Summon the ferryman instead (you hold %(num)s Bell)",
            "Summon the ferryman instead (you hold %(num)s Bells)",
            me.bells,
        )
        out.append(f"<p>{_link(f'{pick}ferry=start', ferry)}</p>")
    if movable:
        out.append('<ul class="move-list">')
        for shield in movable:
            said = _(
                "Move the %(colour)s soul on %(shield)s",
                colour=colour_name(state.hell[shield].colour),
                shield=shield.upper(),
            )
            out.append(f"<li>{_link(f'{pick}select={esc(shield)}', said)}</li>")
        out.append("</ul>")
    elif not bring_moves:
        none = _("No soul can move.")
        out.append(f"<p>{none}</p>")
    if bring_moves:
        cost = state.edition.economy("bring_soul_cost")
        costs = ngettext(
            "Bringing a soul in costs %(num)s drachma.", "Bringing a soul in costs %(num)s drachmas.", cost
        )
        out.append(f'<p class="hint">{costs}</p>')
        label = _("Bring a soul from the Cemetery")
        out.append(f'<ul class="chips plain" aria-label="{label}">')
        for c in sorted(state.cemetery):
            bring = _("Bring in one %(colour)s soul", colour=colour_name(c))
            text = f'<span class="dot" aria-hidden="true">{esc(c)}</span> {bring}'
            hex_ = esc(state.edition.circles[c].hex)
            out.append(
                f'<li><a class="chip" style="--sc: {hex_}" href="{pick}select=cemetery-{esc(c)}" hx-get="" '
                f'hx-replace-url="true">{text}</a></li>'
            )
        out.append("</ul>")
    return Markup("\n".join(out))


def install(app: Any) -> None:
    """``hell_choices`` as the templates' global."""
    app.jinja_env.globals["hell_choices"] = hell_choices
