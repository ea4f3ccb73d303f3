"""The actions part written in Python, for the screens most taps answer: ``actions_part``.

Every answer draws the actions (what the active player can do now: they change with nearly every tap, so the part is
not kept, ``parts._inputs``, but once the turn is done: then they are the same each time a player gets there). As
the page's Jinja block (``pages/game.html``: ``part_actions``, with its includes) it cost ~0.1-0.2 ms of each
answer, most of it Jinja's own work around the choices already written in Python (``hell_markup``,
``florence_markup``, ``location_markup``). Here the block is written for the screens a table meets on most taps: the
Hell phase with nothing chosen, the Florence phase, a location, the plague card, the turn done. For the others (a
seat to choose, a player waited for, the game over, a page drawn read-only, a soul or a colour chosen, the ferryman,
an accusation being prepared, the fraud card drawn in place, a refusal shown atop the actions) ``actions_part``
gives None and the block draws them. ``tests/web/screens/test_actions_markup.py`` holds the two equal, line for line
as a part is compacted, over random games in English and Spanish.
"""

from __future__ import annotations

from typing import Any

from markupsafe import Markup

from companion.web.screens.florence_markup import florence_choices
from companion.web.screens.form_markup import action_form, refusal_box
from companion.web.screens.hell_markup import hell_choices
from companion.web.screens.location_markup import location_choices
from companion.web.words.bidi import bdi
from companion.web.words.catalogue import text_words
from companion.web.words.glossary import quarter_name

__all__ = ["actions_part", "loan_part"]


def _drawn_here(context: dict[str, Any]) -> bool:
    """Whether the screen is one ``actions_part`` draws (else the page's block does)."""
    if not context.get("prompt_slot") or context.get("readonly") or context.get("refusal_fallback"):
        return False
    if context.get("seat_prompt") or context.get("waiting") is not None or context["state"].ended:
        return False
    phase = context["options"].phase.value
    if phase == "hell":
        m = context["hell_map"]
        return not (context.get("ferry") or m.selected or m.bring_colour)
    if phase == "florence":
        return not context.get("accuse")
    if phase == "action":  # the Wall's fraud card drawn in place (after a refusal about it, without script)
        fraud_in_place = context["state"].action == "wall" and context.get("open_for") == "location-fraud"
        return not (fraud_in_place and not context.get("loan_confirm") and not context.get("card_choices"))
    return True


def actions_part(context: dict[str, Any]) -> str | None:
    """The actions part (``<div id="part-actions">``) drawn in ``context`` (a part's, with marks and the prompt's
    empty slot), or None for a screen the page's block draws."""
    if not _drawn_here(context):
        return None
    _ = text_words()
    state, options, view, new_key = context["state"], context["options"], context["view"], context["new_key"]
    refusal = context.get("refusal")
    active, me = state.players[state.active], state.p[state.active]
    title = _("What %(name)s can do now", name=bdi(active.name))
    out = [
        "",  # the block's own first line break
        '<div id="part-actions" data-part="actions">',
        '<section class="card actions" aria-labelledby="actions-title">',
        f'<h2 id="actions-title" class="visually-hidden" tabindex="-1">{title}</h2>',
        '<div id="part-prompt" data-part="prompt">',
        "</div>",
    ]
    if options.plague_due:
        key, player = new_key(), state.active
        out.append(str(action_form(view.game_id, "play.plague", view, key, "plague", player, form_id="plague-form")))
    phase = options.phase.value
    if phase == "hell" and not options.plague_due:
        out.append("<h2>" + _("Hell phase: one soul move") + "</h2>")
        out += [str(hell_choices(state, options, me, context["pick_url"])), str(refusal_box(refusal, "bring"))]
    if phase == "florence" and options.florence:
        yours = _(
            "The soul ended on a shield of the %(q)s quarter: that quarter is yours this turn "
            "(another costs 2 drachmas).",
            q=quarter_name(state.quarter),
        )
        out += ["<h2>" + _("Florence phase") + "</h2>", f"<p>{yours}</p>"]
        choices = florence_choices(
            view, state, options.florence, me, context["send_kind"], context["pick_url"], new_key, refusal
        )
        out.append(str(choices))
    if phase == "action":
        asked = (context.get("open_for", ""), context["chosen"], context.get("card_choices", ""))
        shown = location_choices(view, state, options, me, new_key, refusal, *asked, context.get("loan_confirm"))
        out.append(str(shown))
    if options.can_end_turn and phase != "action":
        if phase == "done":
            out.append("<h2>" + _("Turn complete") + "</h2>")
        label = Markup(_("End %(name)s's turn", name=bdi(active.name)))  # escaped once, by ``_``
        out.append(str(action_form(view.game_id, "play.end_turn", view, new_key(), "end-turn", state.active, label)))
        out.append(str(refusal_box(refusal, "end-turn")))
    out += ["</section>", "</div>"]
    return "\n".join(out)


def loan_part(context: dict[str, Any]) -> str:
    """The loan's part (``<div id="part-loan">``): the next loan, its Ship and its infamy, and its form, while the
    active player may take one (drawn again when the next loan or the player changes: an end of turn, a loan, a tap
    that borrowed). The page's block (``part_loan``) is its test's reference."""
    _ = text_words()
    state, options = context["state"], context["options"]
    out = ["", '<div id="part-loan" data-part="loan">']
    shown = not context.get("seat_prompt") and context.get("waiting") is None and not state.ended
    loan = options.next_loan
    if shown and not context.get("readonly") and loan:
        view, refusal = context["view"], context.get("refusal")
        hint = _(
            "+%(d)s drachmas; the Ship moves from space %(a)s to %(b)s.",
            d=loan.drachmas,
            a=loan.ship_from,
            b=loan.ship_to,
        )
        if loan.infamy_penalty:
            hint += " " + _("This passes the loan symbol: −%(n)s infamy now.", n=loan.infamy_penalty)
        label = Markup(_("Take a loan (+%(d)s drachmas)", d=loan.drachmas))  # escaped once, by ``_``
        form = action_form(
            view.game_id, "play.take_loan", view, context["new_key"](), "loan", state.active, label, "secondary"
        )
        out += [
            f'<details class="loan card"{" open" if context.get("open_for") == "loan" else ""}>',
            "<summary>" + _("Take a loan") + "</summary>",
            f'<p class="hint">{hint}</p>',
            str(form),
            str(refusal_box(refusal, "loan")),
            "</details>",
        ]
    out.append("</div>")
    return "\n".join(out)
