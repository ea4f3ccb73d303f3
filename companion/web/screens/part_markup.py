"""Two small parts most taps send, written in Python: a player's purse and the undo bar (templates' globals).

A loan, a bring, a send, a fraud card, an undo and a redo each change a purse; every tap changes the undo bar.
As Jinja blocks each cost a context, their ``set``s and a dozen lookups (~0.1 ms among a tap's other parts); these
draw the same markup in a few µs. ``tests/web/screens/test_part_markup.py`` holds them equal to the blocks they
replaced over random games, in English and Spanish.

The words are the templates' own (``template_words``: a translation is markup, its values escaped); a form's key
and the screen's seq are the context's marks while parts are drawn (``parts._marks``), given by the caller.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from markupsafe import Markup, escape

from companion.web.screens.form_markup import action_form as form
from companion.web.screens.form_markup import marker, refusal_box
from companion.web.words.bidi import bdi
from companion.web.words.catalogue import language, template_words

__all__ = ["install", "player_purse", "undo_bar"]

NEWLINE = "\n"


def action_form(game_id: str, endpoint: str, view: Any, key: str, control: str, label: str) -> Markup:
    """The undo bar's buttons: a secondary button in its own form."""
    return form(game_id, endpoint, view, key, control, label=label, cls="secondary")


def _words() -> Callable[..., str]:
    return template_words(language())["_"]


def player_purse(pi: int, info: Any, p: Any, state: Any) -> Markup:
    """A player's purse: marker, name and what they hold, one definition list (``game.html``: ``player_card``)."""
    _ = _words()
    stats = [
        ("infamy", _("Infamy"), p.infamy),
        ("florins", _("Florins"), p.florins),
        ("drachmas", _("Drachmas"), p.drachmas),
        ("ship", _("Ship"), p.ship),
    ]
    if state.expansion:
        stats.append(("bells", _("Bells"), p.bells))
    playing = _("playing")
    values = "".join(f'<div><dt>{n}</dt><dd data-stat="{stat}">{escape(value)}</dd></div>' for stat, n, value in stats)
    return Markup(
        f'<div class="player-card" id="part-player{pi}" data-part="player{pi}">\n'
        f'<div class="who">{marker(info, state.edition)} <strong>{bdi(info.name)}</strong> '
        f'<span class="badge playing">{playing}</span></div>\n'
        f'<dl class="stats">\n{values}\n</dl>\n</div>'
    )


def undo_bar(
    view: Any,
    new_key: Callable[[], str],
    refusal: Mapping[str, Any] | None,
    last_entry: Any,
    redo_entry: Any,
    seat_prompt: Any,
) -> Markup:
    """The undo bar: the last entry in words, and the buttons that undo it and redo the entry undone last."""
    _ = _words()
    box = refusal_box(refusal, "undo")
    if last_entry:
        told = Markup(" ").join(last_entry.sentences)
        said = _("Last entry:")
        last = f'<span class="visually-hidden">{said} </span>{told}'
    else:
        last = _("Nothing to undo yet.")
    buttons = []
    if last_entry and not seat_prompt:
        buttons.append(action_form(view.game_id, "timeline.undo", view, new_key(), "undo", label=_("Undo last entry")))
    if redo_entry and not seat_prompt:
        buttons.append(action_form(view.game_id, "timeline.redo", view, new_key(), "redo", label=_("Redo")))
    return Markup(
        f'<div id="part-undo" data-part="undo">\n{box}\n<p class="last">{last}</p>\n'
        f'<div class="undo-buttons">\n{NEWLINE.join(buttons)}\n</div>\n</div>'
    )


def install(app: Any) -> None:
    """Both as the templates' globals."""
    app.jinja_env.globals["player_purse"] = player_purse
    app.jinja_env.globals["undo_bar"] = undo_bar
