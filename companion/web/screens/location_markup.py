"""A location's options written in Python: the template global ``location_choices``.

After a send (and after each option used there, a guardian, a fraud card, a change of florins) the answer draws the
location's options: its name and what it does, the end of the turn, then each option the location still offers
(the Bonfire's change, cube, disc, guardians and the Styx; the Wall's change, fraud card and barrels; the Market's
barrels, the Palace's guests, the Courtyard's members and tower). As Jinja (``screens/location_actions.html``, an
include: the whole context copied for it) it was the largest part left in those answers (~0.15-0.3 ms). The markup is
the template's, line for line (a part is compacted: ``parts.compact``); ``tests/web/screens/test_location_markup.py``
holds it equal to the template it replaced over random games, every location, each refusal and choice kept, in
English and Spanish. The guardians to choose and the fraud card drawn in place stay templates: the page draws them
and gives them here (``pick``, ``fraud_inline``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from markupsafe import Markup

from companion.web.http.urls import kept_url_for
from companion.web.screens.form_markup import action_form, hidden_fields, refusal_box
from companion.web.words.bidi import bdi
from companion.web.words.catalogue import text_words
from companion.web.words.escaping import esc
from companion.web.words.glossary import colour_name, kind_name, location_action, location_name, sin_name

__all__ = ["PICK_SLOT", "install", "location_choices"]

PICK_SLOT = '<div id="part-pick" data-part="pick"></div>'  # the guardians to choose: a part of their own, its slot


def _form(view: Any, option: str, cls: str) -> str:
    url = esc(kept_url_for("florence.location_option", game_id=view.game_id, option=option))
    return f'<form method="post" action="{url}" hx-post="" class="{cls}">'


def _inline(
    view: Any, option: str, key: str, player: int, field: tuple[str, str], label: str, choices: str, button: str
) -> list[str]:
    """One option's small form: its label, a select of ``choices`` (``field``: the select's id and name) and its
    button, on a line (``inline-form``)."""
    select_id, name = field
    return [
        _form(view, option, "inline-form"),
        hidden_fields(view, key, player),
        f'<label for="{select_id}">{label}</label>',
        f'<select id="{select_id}" name="{name}">{choices}</select>',
        f'<button type="submit" class="secondary small">{button}</button>',
        "</form>",
    ]


def _selected(chosen: Callable[..., bool], name: str, value: Any) -> str:
    return " selected" if chosen(name, value) else ""


def location_choices(
    view: Any,
    state: Any,
    options: Any,
    me: Any,
    new_key: Callable[[], str],
    refusal: Mapping[str, Any] | None,
    open_for: str,
    chosen: Callable[..., bool],
    card_choices: str,
    loan_confirm: Any,
    pick: str = "",
    fraud_inline: str = "",
) -> Markup:
    """The options of the location the active player stands at (``state.action``), the end of the turn first.
    ``pick``: the guardians to choose at the Bonfire (``screens/guardian_pick.html``, drawn by the page; left out,
    their part's empty slot: the actions part holds them apart, ``parts.NESTED``);
    ``fraud_inline``: the Wall's fraud card drawn in place (after a refusal about it, without script)."""
    _ = text_words()
    loc, lo, player = state.action, options.location_options, state.active
    out = [f"<h2>{esc(location_name(loc))}</h2>", f'<p class="hint">{esc(location_action(loc))}</p>']
    if options.can_end_turn:
        label = Markup(_("End %(name)s's turn", name=bdi(state.players[player].name)))  # escaped once, by ``_``
        out.append(str(action_form(view.game_id, "play.end_turn", view, new_key(), "end-turn", player, label)))
        out.append(str(refusal_box(refusal, "end-turn")))
    if loc in ("bonfire", "wall") and "exchange" in lo and me.florins:
        limit = state.edition.section("actions")["bonfire_exchange_max" if loc == "bonfire" else "wall_exchange_max"]
        counts = "".join(f'<option value="{n}">{n}</option>' for n in range(1, min(limit, me.florins) + 1))
        change = _("Change florins into drachmas (up to %(n)s)", n=limit)
        out += _inline(view, "exchange", new_key(), player, ("ex-n", "florins"), change, counts, _("Change"))
        out.append(str(refusal_box(refusal, "location-exchange")))
    if loc == "bonfire" and "passage" in lo:
        scale = state.edition.section("phlegethon")["scale"]
        cubes = "".join(
            f'<option value="{esc(c)}">{esc(sin_name(c))} ({esc(scale[space])})</option>'
            for c, space in sorted(state.phlegethon.items())
        )
        gates = "".join(
            f'<option value="{esc(gate)}">' + _("above %(s)s", s=str(shield).upper()) + "</option>"
            for gate, shield in state.side.gates.items()
            if gate not in me.discs
        )
        raise_cube = _("Move a Phlegethon cube one space right")
        out += _inline(view, "cube", new_key(), player, ("cube-c", "circle"), raise_cube, cubes, _("Raise"))
        out.append(str(refusal_box(refusal, "location-cube")))
        disc = _("Or place a safe-passage disc on a gate of the Wall of Dis")
        out += _inline(view, "disc", new_key(), player, ("disc-g", "gate"), disc, gates, _("Place"))
        out.append(str(refusal_box(refusal, "location-disc")))
    if loc == "bonfire" and "underworld" in lo:
        out += [str(pick) or PICK_SLOT, *_styx(view, state, me, new_key, refusal, open_for, chosen)]
    if loc == "wall" and "fraud" in lo:
        out += _fraud(view, refusal, open_for, card_choices, loan_confirm, fraud_inline)
    if loc == "wall" and "deliver" in lo and me.pieces("barrel"):
        barrels = "".join(
            f'<option value="{esc(b.colour)}">{esc(colour_name(b.colour))}</option>' for b in me.pieces("barrel")
        )
        deliver = _("Deliver a barrel for infamy")
        out += _inline(view, "deliver", new_key(), player, ("del-c", "colour"), deliver, barrels, _("Deliver"))
        out.append(str(refusal_box(refusal, "location-deliver")))
    if loc in ("market", "palace") and "take" in lo:
        out += _take(view, state, me, new_key, refusal, loc)
    if loc == "courtyard":
        out += _courtyard(view, state, me, new_key, refusal, open_for, "home" in lo)
    return Markup("\n".join(out))


def _styx(
    view: Any,
    state: Any,
    me: Any,
    new_key: Callable[[], str],
    refusal: Mapping[str, Any] | None,
    open_for: str,
    chosen: Callable[..., bool],
) -> list[str]:
    _ = text_words()
    tracks = state.edition.section("tracks")
    colours = "".join(
        f'<option value="{esc(c)}"{_selected(chosen, "colour", c)}>{esc(colour_name(c))} ({esc(n)})</option>'
        for c, n in sorted(state.cemetery.items())
    )
    counts = "".join(
        f'<option value="{n}"{_selected(chosen, "count", n)}>{n}</option>'
        for n in range(1, min(state.cemetery_total(), 3) + 1)
    )

    def track_options(field: str, which: str) -> str:
        return "".join(
            f'<option value="{esc(c)}"{_selected(chosen, field, c)}>{esc(sin_name(c))} ({esc(me.skull(c))})</option>'
            for c in tracks[which]
        )

    none = '<option value="0">—</option>'
    first = f'<select id="styx-f" name="first_track">{none}{track_options("first_track", "first_four")}</select>'
    last = f'<select id="styx-l" name="last_track">{none}{track_options("last_track", "last_four")}</select>'
    return [
        f"<details{' open' if open_for == 'location-styx' else ''}><summary>"
        + _("Or cross the Styx (2 drachmas)")
        + "</summary>",
        _form(view, "styx", "stack"),
        hidden_fields(view, new_key(), state.active),
        '<input type="hidden" name="borrow" value="1">' if me.drachmas < 2 else "",
        '<p class="hint">'
        + _(
            "Return souls of one colour from the Cemetery: 1 soul = +1 on one of the first four tracks; "
            "2 = +1 on one of the last four; 3 = both."
        )
        + "</p>",
        '<label for="styx-c">' + _("Colour") + "</label>",
        f'<select id="styx-c" name="colour">{colours}</select>',
        '<label for="styx-n">' + _("Souls") + "</label>",
        f'<select id="styx-n" name="count">{counts}</select>',
        '<div class="grid-2">',
        '<div><label for="styx-f">' + _("First four: track") + f"</label>{first}</div>",
        '<div><label for="styx-l">' + _("Last four: track") + f"</label>{last}</div>",
        "</div>",
        '<div class="form-actions"><button type="submit" class="primary">' + _("Cross the Styx") + "</button></div>",
        "</form>",
        str(refusal_box(refusal, "location-styx")),
        "</details>",
    ]


def _fraud(
    view: Any,
    refusal: Mapping[str, Any] | None,
    open_for: str,
    card_choices: str,
    loan_confirm: Any,
    fraud_inline: str,
) -> list[str]:
    """The Wall's fraud card: its choices come in an answer of their own, right after this one (fetched again when a
    dropped connection returns); after a refusal about the card (htmx: fetched with the choices made in its
    address, ``card_choices``), or "Cancel" on its loan prompt, they come here with the choices made."""
    _ = text_words()
    out = ["<details open><summary>" + _("Play a fraud card (2 drachmas)") + "</summary>"]
    if open_for == "location-fraud" and loan_confirm:
        out.append('<p class="hint">' + _("Take the loan above, or cancel it to change the card's choices.") + "</p>")
    elif open_for == "location-fraud" and not card_choices:
        out.append(str(fraud_inline))
    else:
        card_url = esc(kept_url_for("florence.fraud_card", game_id=view.game_id) + "?at=")
        seq = esc(view.seq)
        out += [
            f'<div id="fraud-form" class="lazy-form" hx-get="{card_url}{seq}{esc(card_choices)}" '
            'hx-trigger="load, online from:window" hx-target="this" hx-swap="outerHTML" aria-busy="true">',
            '<p class="hint">' + _("The card's choices are on their way…") + "</p>",
            f'<noscript><p><a class="button secondary" href="{card_url}{seq}">'
            + _("Show the card's choices")
            + "</a></p></noscript>",
            "</div>",
        ]
    return [*out, str(refusal_box(refusal, "location-fraud")), "</details>"]


def _take(
    view: Any, state: Any, me: Any, new_key: Callable[[], str], refusal: Mapping[str, Any] | None, loc: str
) -> list[str]:
    """The Market's barrels or the Palace's guests to take into the tower."""
    _ = text_words()
    what = "barrel" if loc == "market" else "guest"
    colours = me.market_barrels if loc == "market" else me.palace_guests
    out: list[str] = []
    if colours:
        spaces = state.edition.section("tower")["spaces_per_floor"]
        choices = "".join(f'<option value="{esc(c)}">{esc(colour_name(c))}</option>' for c in sorted(colours))
        floors = "".join(
            f'<option value="{i}">'
            + _("floor %(n)s (height %(h)s, %(free)s free)", n=i, h=fl.height, free=spaces - len(fl.pieces))
            + "</option>"
            for i, fl in enumerate(me.tower)
        )
        out += [
            _form(view, what, "stack"),
            hidden_fields(view, new_key(), state.active),
            '<label for="take-c">' + (_("Barrel") if what == "barrel" else _("Guest")) + "</label>",
            f'<select id="take-c" name="colour">{choices}</select>',
            '<label for="take-f">' + _("Tower floor") + "</label>",
            f'<select id="take-f" name="floor">{floors}</select>',
            '<button type="submit" class="primary">'
            + (_("Take the barrel") if what == "barrel" else _("Invite the guest"))
            + "</button>",
            "</form>",
        ]
    else:
        out.append("<p>" + _("Nothing left here for you.") + "</p>")
    return [*out, str(refusal_box(refusal, f"location-{what}"))]


def _courtyard(
    view: Any,
    state: Any,
    me: Any,
    new_key: Callable[[], str],
    refusal: Mapping[str, Any] | None,
    open_for: str,
    home: bool,
) -> list[str]:
    """The Courtyard: members brought home from the tower (while it offers it), and the tower rearranged."""
    _ = text_words()
    out: list[str] = []
    if home:
        members = [
            f'<label class="check"><input type="checkbox" name="member" value="{fi}:{esc(p.kind)}" '
            f'data-floor="{fi}" data-kind="{esc(p.kind)}"> {esc(kind_name(p.kind))} ('
            + _("floor %(n)s", n=fi)
            + ")</label>"
            for fi, fl in enumerate(me.tower)
            for p in fl.pieces
            if p.kind in ("noble", "urchin")
        ]
        if members:
            last = '<button type="submit" class="secondary">' + _("Bring them home") + "</button>"
        else:
            last = '<p class="hint">' + _("No family member is in your tower.") + "</p>"
        out += [
            _form(view, "home", "stack"),
            hidden_fields(view, new_key(), state.active),
            '<p class="field-label">' + _("Bring up to 2 family members home from your tower") + "</p>",
            *members,
            last,
            "</form>",
            str(refusal_box(refusal, "location-home")),
        ]
    pieces = []
    for fi, fl in enumerate(me.tower):
        for p in fl.pieces:
            if p.kind in ("noble", "urchin"):
                name = esc(kind_name(p.kind))
            elif p.kind == "guest":
                name = _("%(colour)s guest", colour=colour_name(p.colour))
            else:
                name = _("%(colour)s barrel", colour=colour_name(p.colour))
            value = f"{fi}:{esc(p.kind)}:{esc(p.colour)}"
            pieces.append(f'<option value="{value}">{name} (' + _("floor %(n)s", n=fi) + ")</option>")
    floors = "".join(f'<option value="{i}">{i}</option>' for i in range(len(me.tower)))
    return [
        *out,
        f"<details{' open' if open_for == 'location-rearrange' else ''}><summary>"
        + _("Rearrange your tower")
        + "</summary>",
        _form(view, "rearrange", "stack"),
        hidden_fields(view, new_key(), state.active),
        '<label for="rr-piece">' + _("Piece") + "</label>",
        f'<select id="rr-piece" name="piece">{"".join(pieces)}</select>',
        '<label for="rr-to">' + _("To floor") + "</label>",
        f'<select id="rr-to" name="to_floor">{floors}</select>',
        '<button type="submit" class="secondary">' + _("Move it") + "</button>",
        "</form>",
        str(refusal_box(refusal, "location-rearrange")),
        "</details>",
    ]


def install(app: Any) -> None:
    """``location_choices`` as a template global."""
    app.jinja_env.globals["location_choices"] = location_choices
