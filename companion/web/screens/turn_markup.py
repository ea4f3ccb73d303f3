"""The turn's part written in Python, for a game going on: ``turn_part``.

The turn (who plays, the phase in words, the last turns, the plague card's title) is drawn again whenever the
phase or the player changes: most taps that record (a bring, a move, a send, an accusation, a council, the end of
a turn). As the page's Jinja block (``pages/game.html``: ``part_turn``) a drawing cost ~0.05-0.1 ms. Here it is
written for a game going on with no notice and no step of the history; for the others (the game over and the next
game, a notice, a step) ``turn_part`` gives None and the block draws them.
``tests/web/screens/test_turn_markup.py`` holds the two equal, line for line as a part is compacted, over random
games in English and Spanish.
"""

from __future__ import annotations

from typing import Any

from companion.web.screens.form_markup import marker
from companion.web.words.bidi import bdi
from companion.web.words.catalogue import language, template_words, text_words
from companion.web.words.escaping import esc
from companion.web.words.template_globals import phase_text

__all__ = ["turn_part"]


def turn_part(context: dict[str, Any]) -> str | None:
    """The turn's part (``<div id="part-turn">``) for a game going on, or None for a screen the block draws."""
    state, options = context["state"], context["options"]
    if state.ended or context.get("notice") or context.get("step"):
        return None
    _ = text_words()
    active = state.players[state.active]
    whose = _("%(name)s's turn", name=bdi(active.name))
    if options.phase.value == "action" and not options.location_options:
        phase = _("The location's action is done: the turn can end.")
    else:
        phase = esc(phase_text(state))
    out = [
        "",  # the block's own first line break
        '<div id="part-turn" data-part="turn">',
        f'<section class="card turn pc{state.active} plays" aria-labelledby="turn-title">',
        f'<h1 id="turn-title" tabindex="-1">{marker(active, state.edition)} {whose}</h1>',
        f'<p class="phase">{phase}</p>',
    ]
    if state.final_turns_left is not None:
        plural = template_words(language())["ngettext"]
        left = state.final_turns_left
        if state.active == state.end_trigger:
            said = plural(
                "Dante reached the Purgatory gate: after this turn, %(num)s more turn, then final scoring.",
                "Dante reached the Purgatory gate: after this turn, each other player takes one more turn "
                "(%(num)s), then final scoring.",
                left,
            )
        else:
            said = plural(
                "This is the last turn before final scoring.",
                "This is a last turn: %(num)s turns left before final scoring, this one included.",
                left,
            )
        out.append('<p class="last-turns" role="status"><strong>' + _("Last turns:") + f"</strong> {said}</p>")
    out.append("</section>")
    if options.plague_due:
        out.append('<h2 id="plague-title" class="plague-title">' + _("The Cemetery is empty") + "</h2>")
    out.append("</div>")
    return "\n".join(out)
