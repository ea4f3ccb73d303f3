"""The game's action forms, refusal boxes and player markers as template globals written in Python.

Every part of the game page with a button is an ``action_form``: a form posted by htmx into ``#game``
(``game.html``: an inherited ``hx-target``; the swap is outerHTML, ``base.html``), with the CSRF token, the
screen's seq, a fresh idempotency key and the player it acts for. As a Jinja macro each one cost a macro call
with its argument handling and a ``caller`` (~25 µs), and an answer draws several (the actions, the loan, the
undo bar); ``refusal_box`` was a macro call in every part with a control, a refusal there or not; a player's
``marker`` is in the turn and each purse.

The token is what the templates' ``csrf_token()`` writes (a mark while parts are drawn: ``parts.install``); the
seq and the key are the marks the part's context gives (``MarkedView``, ``new_key``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from flask import current_app
from flask.globals import _cv_app
from markupsafe import Markup

from companion.web.http.urls import kept_url_for
from companion.web.words.escaping import esc
from companion.web.words.glossary import player_letter

__all__ = ["action_form", "hidden_fields", "install", "marker", "refusal_box"]


def _token() -> str:
    token: Callable[[], str] = _cv_app.get().app.jinja_env.globals["csrf_token"]  # type: ignore[assignment]
    return token()


def action_form(
    game_id: str,
    endpoint: str,
    view: Any,
    key: str,
    control: str,
    player: int | None = None,
    label: str = "",
    cls: str = "primary",
    extra: Mapping[str, Any] | None = None,
    form_id: str = "",
    caller: Callable[[], str] | None = None,
) -> Markup:
    """A form posting to ``endpoint`` of the game, with its hidden fields; ``caller``'s markup inside (a
    ``{% call %}`` block), then a submit button saying ``label`` when there is one. ``control`` names the
    form's refusal box (``refusal_box``), drawn by the template beside it."""
    url = esc(kept_url_for(endpoint, game_id=game_id))
    out = [
        f'<form id="{esc(form_id)}" method="post"' if form_id else '<form method="post"',
        f' action="{url}" hx-post="" hx-sync="this:drop">\n',
        hidden_fields(view, key, player),
    ]
    for k, v in (extra or {}).items():
        out.append(f'<input type="hidden" name="{esc(k)}" value="{esc(v)}">')
    out.append(f"\n  {caller() if caller else ''}\n  ")
    if label:
        out.append(f'<button type="submit" class="{esc(cls)}">{esc(label)}</button>')
    out.append("\n</form>")
    return Markup("".join(out))


def hidden_fields(view: Any, key: str, player: int | None = None) -> str:
    """What every form of the game carries unseen: the CSRF token, the screen's seq, a fresh idempotency key and the
    player it acts for (when it acts for one)."""
    fields = (
        f'<input type="hidden" name="csrf_token" value="{esc(_token())}">'
        f'<input type="hidden" name="seq" value="{esc(view.seq)}">'
        f'<input type="hidden" name="key" value="{esc(key)}">'
    )
    if player is None:
        return fields
    return f'{fields}<input type="hidden" name="player" value="{esc(player)}">'


_NO_BOX = Markup("")  # most forms' box: made once, not for each of ~10 forms an answer


def refusal_box(refusal: Mapping[str, Any] | None, control: str) -> Markup:
    """The refusal's box beside the form ``control`` names, when the refusal is that form's (``macros.html``:
    ``refusal_shown_box`` draws it); nothing otherwise, without a macro call."""
    if not refusal or refusal.get("control") != control:
        return _NO_BOX
    shown: Callable[..., str] = current_app.jinja_env.globals["refusal_shown_box"]  # type: ignore[assignment]
    return Markup(shown(refusal))


def marker(info: Any, edition: Any) -> Markup:
    """A player's marker: the letter of their pieces on their colour (a seat's ``info``), hidden from readers
    (their name follows it)."""
    colour = esc(edition.player_hex(info.colour))
    letter = esc(player_letter(info.colour, info.letter))
    return Markup(f'<span class="marker" style="--pc: {colour}" aria-hidden="true">{letter}</span>')


def install(app: Any) -> None:
    """The three as the templates' globals, and the refusal box's markup from ``macros.html``."""
    app.jinja_env.globals["action_form"] = action_form
    app.jinja_env.globals["refusal_box"] = refusal_box
    app.jinja_env.globals["marker"] = marker
    app.jinja_env.globals["refusal_shown_box"] = app.jinja_env.get_template("macros.html").module.refusal_shown_box
