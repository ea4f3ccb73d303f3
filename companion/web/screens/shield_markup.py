"""A shield of the map of Hell as markup, written in Python: the template global ``map_shield``.

Each of the map's ~70 shields is a part of its own (``screens/parts.py``): the whole page draws them all, a
soul move two or three, a guardian's step a few. As a Jinja block each cost a context and a dozen ``set``s
(~50 µs warm, twice that in a tap among others); this draws the same markup, compacted as a part is
(``parts.compact``), in a few µs. ``tests/web/screens/test_shield_markup.py`` holds it equal to the block it
replaced over random games, every tap a shield may have.
"""

from __future__ import annotations

from typing import Any

from markupsafe import Markup

from companion.web.http.urls import kept_url_for
from companion.web.screens.hell_map import Cell, FerrySteps
from companion.web.words.escaping import esc
from companion.web.words.glossary import GUARDIAN_GLYPHS

__all__ = ["guardian_glyph", "install", "map_shield"]

_LINKS = frozenset({"select", "deselect", "why", "confirm", "ferry", "guard"})


def guardian_glyph(guardian: str) -> str:
    """The letters a guardian's diamond shows on the map."""
    return GUARDIAN_GLYPHS.get(guardian, guardian[:2].title())


def _href(game_id: str, c: Cell, confirm_from: str, ferry_steps: FerrySteps | None) -> str:
    """Where a shield's link goes: the game with the tap's query (a soul chosen, a landing to confirm, a ferry's
    step, a guardian's step)."""
    base = kept_url_for("play.game", game_id=game_id) + "?"
    if c.tap == "guard":
        return base + c.link
    if c.tap == "ferry":
        assert ferry_steps is not None  # a ferry tap is drawn with the ferry's steps
        if not ferry_steps.phlegyas_to:
            return f"{base}ferry={c.shield}"
        if not ferry_steps.soul:
            return f"{base}ferry={ferry_steps.phlegyas_to}&fsoul={c.shield}"
        return f"{base}ferry={ferry_steps.phlegyas_to}&fsoul={ferry_steps.soul}&fside={c.shield}"
    if c.tap == "confirm":
        return f"{base}select={confirm_from}&to={c.shield}"
    return f"{base}select={'' if c.tap == 'deselect' else c.shield}"


def map_shield(
    game_id: str, c: Cell, picked: bool, confirm_from: str | None, ferry_steps: FerrySteps | None, **_: Any
) -> Markup:
    """A shield's part: a nested ``svg`` at its place holding a link (a tap that opens an address), a button (a
    tap that posts: a landing, a soul brought in) or an image, with what stands on it (a soul, laid down or
    petrified; a guardian) and the infamy a landing that lays the soul down scores."""
    cls = "cell" + (f" tap-{c.tap}" if c.tap else "") + (" is-selected" if picked else "")
    label = f'aria-label="{esc(c.label)}"'
    link = c.tap in _LINKS
    out = [f'<svg id="part-s-{esc(c.shield)}" data-part="s-{esc(c.shield)}" x="{round(c.x, 1)}" y="{c.y}">\n']
    if link:
        href = esc(_href(game_id, c, confirm_from or "", ferry_steps))
        out.append(f'<a class="{cls}" href="{href}" hx-get="" hx-params="at" hx-replace-url="true" {label}>\n')
    elif c.tap in ("land", "try"):
        role = ' role="button" tabindex="0"' if c.tap == "land" else ' role="img"'
        url = esc(kept_url_for("play.move_soul", game_id=game_id))
        via = f',"via":"{esc(",".join(c.move.path))}"' if c.move else ""
        out.append(
            f'<g class="{cls}"{role} {label} hx-post="{url}"\nhx-vals=\'{{"to_shield":"{esc(c.shield)}"{via}}}\'>\n'
        )
    elif c.tap == "bring":
        url = esc(kept_url_for("play.bring_soul", game_id=game_id))
        out.append(
            f'<g class="{cls}" role="button" tabindex="0" {label} hx-post="{url}"\n'
            f'hx-vals=\'{{"shield":"{esc(c.shield)}"}}\'>\n'
        )
    else:
        out.append(f'<g class="{cls}" role="img" {label}>\n')
    hidden = ' aria-hidden="true"' if link else ""
    out.append(
        f'<use class="hit" href="#hit{round(c.width * 10)}"/><use class="shield" href="#sh"/>'
        f'<text y="15" class="quarter"{hidden}>{esc(c.glyph)}</text>'
    )
    soul = c.soul
    if soul and soul.petrified:
        out.append('<ellipse cy="-7" rx="16" ry="9" fill="url(#stone)" stroke="#222"/>')
    elif soul and soul.laid:
        out.append(f'<ellipse class="laid sc{esc(soul.colour)}" cy="-7" rx="16" ry="9"/>')
    elif soul:
        out.append(f'<circle class="soul sc{esc(soul.colour)}" cy="-8" r="12"/>')
    if soul:
        out.append(f'<text y="-3.5" class="soul-num">{esc(soul.colour)}</text>')
    if c.guardian:
        out.append(
            '<path d="M0,-22 l14,16 l-14,16 l-14,-16 z" class="guardian"/>'
            f'<text y="-2" class="guardian-glyph">{esc(guardian_glyph(c.guardian))}</text>'
        )
    if c.tap in ("land", "confirm") and c.move and c.move.lays_down:
        out.append(f'<text x="14" y="-16" class="score-badge">+{esc(c.move.infamy)}</text>')
    out.append("\n</a>\n</svg>" if link else "\n</g>\n</svg>")
    return Markup("".join(out))


def install(app: Any) -> None:
    """``map_shield`` and ``guardian_glyph`` as the templates' globals."""
    app.jinja_env.globals["map_shield"] = map_shield
    app.jinja_env.globals["guardian_glyph"] = guardian_glyph
