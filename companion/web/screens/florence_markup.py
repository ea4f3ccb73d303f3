"""The Florence phase's choices written in Python: the template global ``florence_choices``.

A soul move, a bring, a send, an accusation and a council each answer with the Florence phase's actions: the
accusations open now, the locations to send a member to, the accusations shut (each with its reason) and, when
nothing else is possible, the family council. As Jinja (``screens/florence_actions.html``) they were the largest
part most taps draw (~0.5 ms among the tap's other parts). The markup is the template's, line for line (a part is
compacted: ``parts.compact``); ``tests/web/screens/test_florence_markup.py`` holds it equal to the template it
replaced over random games, in English and Spanish. The accusation being prepared stays in the template.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import Any

from markupsafe import Markup

from companion.web.screens.form_markup import action_form, refusal_box
from companion.web.screens.parts import shared_block as kept_markup
from companion.web.words.catalogue import language, template_words, text_words
from companion.web.words.escaping import esc
from companion.web.words.glossary import colour_name, kind_name, location_action, location_name, quarter_name
from companion.web.words.refusals import said_refusal

__all__ = ["florence_choices", "install"]


def _link(pick_url: str, query: str, text: str) -> str:
    return f'<a class="button secondary" href="{pick_url}{query}" hx-get="" hx-replace-url="true">{text}</a>'


def florence_choices(
    view: Any,
    state: Any,
    f: Any,
    me: Any,
    send_kind: str,
    pick_url: str,
    new_key: Callable[[], str],
    refusal: Mapping[str, Any] | None,
) -> Markup:
    """The Florence phase's choices for the active player (``f``: their ``FlorenceOptions``; ``me``: their
    purse), the accusation being prepared aside."""
    _ = text_words()  # said as text: each goes into the markup's f-strings, no ``Markup`` made for it
    pick = esc(pick_url)
    out: list[str] = []
    open_accusations = [c for c in f.accusations if c.allowed]
    shut_accusations = [c for c in f.accusations if not c.allowed]
    if open_accusations:
        accuse = _("Accuse")
        out.append(f'<h3>{accuse}</h3>\n<ul class="move-list">')
        for c in open_accusations:
            text = _("Accuse at the %(loc)s", loc=location_name(c.location))
            if c.needs_bribe:
                text += " · " + _("pay 2 drachmas")
            out.append(f"<li>{_link(pick, f'accuse={esc(c.location)}', text)}</li>")
        out.append("</ul>")
    if f.sends:
        title, sending = _("Send a family member"), _("Sending a %(kind)s.", kind=kind_name(send_kind))
        out.append(f"<h3>{title}</h3>")
        out.append(f"<p>{sending}")
        other = "urchin" if send_kind == "noble" else "noble"
        other_count = me.home_urchins if other == "urchin" else me.home_nobles
        if other_count:
            if other == "urchin":
                text = _("Send an %(kind)s instead (%(n)s at home)", kind=kind_name(other), n=other_count)
            else:
                text = _("Send a %(kind)s instead (%(n)s at home)", kind=kind_name(other), n=other_count)
            link = f'<a class="button secondary small" href="{pick}kind={other}" hx-get="" hx-replace-url="true">'
            out.append(f"{link}{text}</a></p>")
        else:
            out.append("</p>")
        bribed = " ".join(s.location for s in f.sends if s.bribe)
        borrowed = " ".join(s.location for s in f.sends if s.bribe > me.drachmas)
        inputs = (state.edition.content_hash, f.sends, send_kind, state.quarter)

        def send_list() -> str:
            return kept_markup("send-list", *inputs, caller=lambda: _send_list(state, f, send_kind))

        extra = {"kind": send_kind, "bribe_for": bribed, "borrow_for": borrowed}
        out.append(
            action_form(
                view.game_id, "florence.send", view, new_key(), "send", state.active, extra=extra, caller=send_list
            )
        )
        out.append(refusal_box(refusal, "send"))
    if shut_accusations:
        title = _("Accuse") if not open_accusations else _("Not open to an accusation now")
        out.append(f"<h3>{title}</h3>")
        out.append('<ul class="move-list">')
        for c in shut_accusations:
            name = _("Accuse at the %(loc)s", loc=location_name(c.location))
            out.append(f'<li class="unavailable"><b>{name}</b>: {esc(said_refusal(c.refusal, state))}</li>')
        out.append("</ul>")
    if f.council_forced:
        title = _("The family council")
        out.append(f"<h3>{title}</h3>")
        council = _(
            "No member can be sent and no accusation is possible: the family council costs 2 infamy, then one thing comes back."  # noqa: E501
        )
        out.append(f"<p>{council}</p>")
        out.append('<ul class="move-list">')
        for o in f.council:
            fields = {"choice": o.choice}
            for k in ("source", "kind", "colour"):
                if getattr(o, k):
                    fields[k] = getattr(o, k)
            if o.choice == "member":
                where = Markup(_("the tower")) if o.source == "tower" else location_name(o.source)  # a value: markup
                text = _("Bring your %(kind)s home from %(where)s", kind=kind_name(o.kind), where=where)
            elif o.choice == "guest":
                text = _("Send the %(colour)s guest back to the Palace", colour=colour_name(o.colour))
            elif o.choice == "barrel":
                text = _("Send the %(colour)s barrel back to the Market", colour=colour_name(o.colour))
            else:
                text = _("Hold the council (nothing can come back)")
            button = f'<button type="submit" class="secondary">{text}</button>'
            form = action_form(
                view.game_id,
                "florence.council",
                view,
                new_key(),
                "council",
                state.active,
                extra=fields,
                caller=functools.partial(str, button),
            )
            out.append(f"<li>{form}</li>")
        out.append("</ul>")
        out.append(refusal_box(refusal, "council"))
    return Markup("\n".join(out))


def _send_list(state: Any, f: Any, send_kind: str) -> str:
    """The locations to send a member to: one button each, under the head of its group (the turn's quarter, the
    other quarters at a bribe), saying what entering costs and the location's action."""
    words = template_words(language())
    _, ngettext = words["_"], words["ngettext"]
    circles = {loc["id"]: loc.get("circle", "") for loc in state.edition.raw["locations"]}
    out = ['<ul class="move-list send-list">']
    previous: Any = None
    for i, opt in enumerate(f.sends):
        if i == 0 or (opt.bribe and not previous.bribe):
            head = (
                _("Other quarters (2 drachmas)")
                if opt.bribe
                else _("In the %(q)s quarter", q=quarter_name(state.quarter))
            )
            out.append(f'<li class="list-head">{head}</li>')
        previous = opt
        florins = next((n for kind, n in opt.kinds if kind == send_kind), None)
        if florins is None:
            continue
        out.append(
            f'<li class="sc{esc(circles.get(opt.location, ""))}">'
            f'<button name="location" value="{esc(opt.location)}"><b>{esc(location_name(opt.location))}</b>'
        )
        if opt.bribe or florins:
            pay = _("pay %(n)s drachmas", n=opt.bribe)
            said = f"{esc(quarter_name(opt.quarter))} · {pay}" if opt.bribe else ""
            if florins:
                entry = ngettext("%(num)s florin to enter", "%(num)s florins to enter", florins)
                said += f" · {entry}" if opt.bribe else entry
            out.append(f"<span>{said}</span>")
        out.append(f"<span>{esc(location_action(opt.location))}</span></button></li>")
    out.append("</ul>")
    return "\n".join(out)


def install(app: Any) -> None:
    """``florence_choices`` as the templates' global."""
    app.jinja_env.globals["florence_choices"] = florence_choices
