"""The small parts most taps send, written in Python: a player's purse, family, tower and sin tracks, a quarter's
tiles of Florence, the Cemetery and the undo bar (templates' globals).

A loan, a bring, a send, a fraud card, an undo and a redo each change a purse; a send or an accusation a family,
a tower, the tracks and a quarter's tiles; every tap changes the undo bar. As Jinja blocks and includes each cost
a context, their ``set``s and a dozen lookups (~0.1 ms among a tap's other parts); these draw the same markup in a
few µs. ``tests/web/screens/test_part_markup.py`` and ``test_florence_markup.py`` hold them equal to the templates
they replaced over random games, in English and Spanish.

The words are the templates' own (``template_words``: a translation is markup, its values escaped); a form's key
and the screen's seq are the context's marks while parts are drawn (``parts._marks``), given by the caller.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import Any

from markupsafe import Markup

from companion.web.screens.form_markup import action_form, marker, refusal_box
from companion.web.words.bidi import bdi, isolate
from companion.web.words.catalogue import language, template_words, text_words
from companion.web.words.escaping import esc
from companion.web.words.glossary import colour_name, kind_name, location_name, quarter_name, sin_name

__all__ = [
    "cemetery",
    "florence_tiles",
    "install",
    "player_family",
    "player_purse",
    "player_tower",
    "player_tracks",
    "undo_bar",
]

_NEWLINE = "\n"  # an f-string's expression holds no backslash


def _button_form(game_id: str, endpoint: str, view: Any, key: str, control: str, label: str) -> Markup:
    """One of the undo bar's buttons: a secondary button in its own form."""
    return action_form(game_id, endpoint, view, key, control, label=label, cls="secondary")


def player_purse(pi: int, info: Any, p: Any, state: Any) -> Markup:
    """A player's purse: marker, name and what they hold, one definition list (``game.html``: ``player_card``)."""
    names, playing = _purse_words(language(), bool(state.expansion))
    held = (p.infamy, p.florins, p.drachmas, p.ship, p.bells)
    values = "".join(
        f'<div><dt>{n}</dt><dd data-stat="{stat}">{esc(value)}</dd></div>'
        for (stat, n), value in zip(names, held, strict=False)
    )
    who = _who(state.edition, info, playing)
    return Markup(
        f'<div class="player-card" id="part-player{pi}" data-part="player{pi}">\n'
        f"{who}\n"
        f'<dl class="stats">\n{values}\n</dl>\n</div>'
    )


_WHO: dict[tuple[str, str, Any, str], str] = {}
WHO_KEPT = 4096


def _who(edition: Any, info: Any, playing: str) -> str:
    """A purse's first line: the player's marker (its letter is said in the reader's language), name and "playing"
    badge, drawn once per language, edition and seat."""
    key = (language(), edition.content_hash, info, playing)
    found = _WHO.get(key)
    if found is None:
        found = (
            f'<div class="who">{marker(info, edition)} <strong>{bdi(info.name)}</strong> '
            f'<span class="badge playing">{playing}</span></div>'
        )
        if len(_WHO) >= WHO_KEPT:
            _WHO.clear()
        _WHO[key] = found
    return found


@functools.lru_cache(maxsize=8)
def _purse_words(language: str, expansion: bool) -> tuple[tuple[tuple[str, str], ...], str]:
    """The purse's stats, each with its name, and the "playing" badge, in ``language`` (the request's)."""
    _ = template_words(language)["_"]
    names = [("infamy", _("Infamy")), ("florins", _("Florins")), ("drachmas", _("Drachmas")), ("ship", _("Ship"))]
    if expansion:
        names.append(("bells", _("Bells")))
    return tuple(names), _("playing")


def player_family(pi: int, p: Any) -> Markup:
    """Where a player's family is: at home, in reserve, in Florence (``game.html``: ``player_family``)."""
    said = language()
    home = _family_home(said, p.home_nobles, p.home_urchins, p.reserve_urchins)
    placed = ""
    if p.placed:
        where = ", ".join(f"{esc(kind_name(k))} ({esc(location_name(loc))})" for loc, k in p.placed)
        _ = text_words()
        in_florence = _("In Florence:")
        placed = f"{in_florence} {where}."
    return Markup(f'<div id="part-family{pi}" data-part="family{pi}">\n<p>{home}\n{placed}</p></div>')


@functools.lru_cache(maxsize=1024)
def _family_home(language: str, nobles: int, urchins: int, reserve: int) -> str:
    """ "At home: 2 nobles, 3 urchins; in reserve: 1 urchin." in ``language``, said once per language and counts."""
    words = template_words(language)
    _, ngettext = words["_"], words["ngettext"]
    return _(
        "At home: %(nobles)s, %(urchins)s; in reserve: %(reserve)s.",
        nobles=ngettext("%(num)s noble", "%(num)s nobles", nobles),
        urchins=ngettext("%(num)s urchin", "%(num)s urchins", urchins),
        reserve=ngettext("%(num)s urchin", "%(num)s urchins", reserve),
    )


def player_tower(pi: int, info: Any, p: Any, state: Any) -> Markup:
    """A player's tower, top floor first; an empty space a bare ``<i>`` (``game.html``: ``player_tower``)."""
    said = language()
    spaces = state.edition.section("tower")["spaces_per_floor"]
    label = _tower_label(said, info.name)
    out = [f'<div id="part-tower{pi}" data-part="tower{pi}">', f'<ol class="tower" reversed aria-label="{label}">']
    out.extend(_tower_floor(said, fl, spaces) for fl in reversed(p.tower))
    out.append("</ol></div>")
    return Markup("\n".join(out))


@functools.lru_cache(maxsize=1024)
def _tower_label(language: str, name: str) -> str:
    """ "Tower of Ana" in ``language`` (the request's)."""
    _ = template_words(language)["_"]
    return _("Tower of %(name)s", name=isolate(name))


@functools.lru_cache(maxsize=4096)
def _tower_floor(language: str, fl: Any, spaces: int) -> str:
    """One floor of a tower, its height and what stands on it, in ``language`` (the request's): the same floor looks
    the same in every tower and game."""
    _ = template_words(language)["_"]
    height = _("height %(h)s", h=fl.height)
    pieces = []
    for piece in fl.pieces:
        colour = f" sc{esc(piece.colour)}" if piece.colour else ""
        said: str
        if piece.kind in ("noble", "urchin"):
            said = esc(kind_name(piece.kind))
        elif piece.kind == "guest":
            said = _("%(colour)s guest", colour=colour_name(piece.colour))
        else:
            said = _("%(colour)s barrel", colour=colour_name(piece.colour))
        pieces.append(f'<span class="tower-piece {esc(piece.kind)}{colour}">{said}</span>')
    empty = '<i aria-hidden="true">·</i>' * (spaces - len(fl.pieces))
    return f'<li><span class="floor-h">{height}</span>\n{"".join(pieces)}\n{empty}\n</li>'


def player_tracks(pi: int, info: Any, p: Any, state: Any) -> Markup:
    """A player's skull on each sin track and their diplomas, and what else they hold (``game.html``:
    ``player_tracks``)."""
    _ = text_words()  # said as text: each goes into this part's f-strings, no ``Markup`` made for it
    circles = state.edition.track_circles
    label = _tracks_label(language(), info.name)
    heads = _track_heads(language(), circles)
    diploma = _("diploma")
    star = f'<span class="diploma" title="{diploma}">★</span>'
    cells = "".join(f"<td>{esc(p.skull(c))}{star if c in p.diplomas else ''}</td>" for c in circles)
    hint = _(
        "Skull levels per track (★ diploma). Half diplomas: %(h)s. Discs on the Wall: %(d)s. Fraud cards in hand: %(f)s; played: %(pl)s.",  # noqa: E501
        h=p.half_diplomas,
        d=len(p.discs),
        f=p.fraud_hand,
        pl=len(p.endgames),
    )
    if p.wall_passes:
        hint += " " + _("Wall passes: %(n)s.", n=p.wall_passes)
    if state.expansion:
        hint += " " + _("Bells: %(b)s. Desks: %(d)s.", b=p.bells, d=", ".join(d.upper() for d in p.desks) or "—")
    return Markup(
        f'<div id="part-tracks{pi}" data-part="tracks{pi}">\n<table class="tracks" aria-label="{label}">\n'
        f"<tr>{heads}</tr>\n<tr>{cells}</tr>\n</table>\n"
        f'<p class="hint">{hint}</p></div>'
    )


@functools.lru_cache(maxsize=1024)
def _tracks_label(language: str, name: str) -> str:
    """ "Sin tracks of Ana" in ``language`` (the request's)."""
    _ = template_words(language)["_"]
    return _("Sin tracks of %(name)s", name=isolate(name))


@functools.lru_cache(maxsize=64)
def _track_heads(language: str, circles: tuple[int, ...]) -> str:
    """The sin tracks' heads, one cell each, in ``language`` (the request's: ``sin_name`` reads it): the same for
    every player of every game of an edition, drawn once per language."""
    return "".join(f"<th><i>{esc(sin_name(c))}</i></th>" for c in circles)


def florence_tiles(quarter: str, tiles: Any, state: Any) -> Markup:
    """A quarter of Florence's location tiles and who stands on each (``game.html``: ``florence_quarter``; its title is
    a part of its own). A piece shows its player's letter and says "name (kind)" (app.css)."""
    said = language()
    out = [f'<div id="part-q-{esc(quarter)}" data-part="q-{esc(quarter)}">']
    for t in tiles:
        out.append(_tile_head(said, t.id, t.circle, t.special))
        if t.pieces:
            pieces = "".join(_tile_piece(said, pi, state.players[pi].name, kind) for pi, kind in t.pieces)
            out.append(f"<p>{pieces}</p>")
        out.append("</div>")
    out.append("</div>")
    return Markup("\n".join(out))


@functools.lru_cache(maxsize=512)
def _tile_head(language: str, loc: str, circle: int, special: bool) -> str:
    """A location tile's opening and its name (with the "special" badge), in ``language`` (the request's)."""
    _ = template_words(language)["_"]
    said = _("special")
    badge = f' <span class="badge">{said}</span>' if special else ""
    opening = f'<div class="tile sc{esc(circle)}{" special" if special else ""}">'
    return f"{opening}\n<p>{esc(location_name(loc))}{badge}</p>"


@functools.lru_cache(maxsize=2048)
def _tile_piece(language: str, seat: int, name: str, kind: str) -> str:
    """A family member on a tile: the player's name and the member's kind, in ``language`` (the request's)."""
    who = f"{bdi(name)} ({esc(kind_name(kind))})"
    return f'<b class="piece {esc(kind)} pc{seat}"><i>{who}</i></b>'


def cemetery(state: Any) -> Markup:
    """The souls in the Cemetery, by colour, and the turn's quarter of Florence (``game.html``: ``part_cemetery``)."""
    _ = text_words()
    out = ['<div id="part-cemetery" data-part="cemetery">']
    if state.cemetery:
        label = _("Souls in the Cemetery")
        out.append(f'<ul class="souls" aria-label="{label}">')
        said = language()
        out.extend(_cemetery_souls(said, c, n) for c, n in sorted(state.cemetery.items()))
        out.append("</ul>")
    else:
        empty = _("Empty.")
        out.append(f"<p>{empty}</p>")
    if state.quarter:
        now = _("Florence quarter this turn:")
        out.append(f'<p class="quarter-now">{now} <strong>{esc(quarter_name(state.quarter))}</strong></p>')
    out.append("</div>")
    return Markup("\n".join(out))


@functools.lru_cache(maxsize=1024)
def _cemetery_souls(language: str, colour: int, count: int) -> str:
    """One colour's souls in the Cemetery, in ``language`` (the request's: ``colour_name`` reads it), said once per
    language, colour and count (the Cemetery is drawn again on most taps)."""
    return f'<li class="sc{esc(colour)}">{esc(count)} × {esc(colour_name(colour))}</li>'


def undo_bar(
    view: Any,
    new_key: Callable[[], str],
    refusal: Mapping[str, Any] | None,
    last_entry: Any,
    redo_entry: Any,
    seat_prompt: Any,
) -> Markup:
    """The undo bar: the last entry in words, and the buttons that undo it and redo the entry undone last."""
    _ = text_words()  # said as text (the buttons' labels as the markup they are: escaped once, by ``_``)
    box = refusal_box(refusal, "undo")
    if last_entry:
        told = " ".join(esc(sentence) for sentence in last_entry.sentences)
        said = _("Last entry:")
        last = f'<span class="visually-hidden">{said} </span>{told}'
    else:
        last = _("Nothing to undo yet.")
    buttons = []
    if last_entry and not seat_prompt:
        buttons.append(
            _button_form(view.game_id, "timeline.undo", view, new_key(), "undo", label=Markup(_("Undo last entry")))
        )
    if redo_entry and not seat_prompt:
        buttons.append(_button_form(view.game_id, "timeline.redo", view, new_key(), "redo", label=Markup(_("Redo"))))
    return Markup(
        f'<div id="part-undo" data-part="undo">\n{box}\n<p class="last">{last}</p>\n'
        f'<div class="undo-buttons">\n{_NEWLINE.join(buttons)}\n</div>\n</div>'
    )


def install(app: Any) -> None:
    """Each as the templates' global of its name."""
    app.jinja_env.globals["player_purse"] = player_purse
    app.jinja_env.globals["player_family"] = player_family
    app.jinja_env.globals["player_tower"] = player_tower
    app.jinja_env.globals["player_tracks"] = player_tracks
    app.jinja_env.globals["florence_tiles"] = florence_tiles
    app.jinja_env.globals["cemetery"] = cemetery
    app.jinja_env.globals["undo_bar"] = undo_bar
