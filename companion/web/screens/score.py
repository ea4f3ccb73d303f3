"""What the score sheet shows: the final tally (or "if the game ended now") explained point by point,
the infamy over the turns, the time at the table, and after the game the BG Stats link and the
share text. Drawn by the score page and by the big screen."""

from __future__ import annotations

import ipaddress
import os
from datetime import datetime
from typing import Any
from urllib.parse import urlsplit

from babel.dates import format_date
from flask import current_app, url_for
from flask_babel import get_locale

from companion.formats.bgstats import bgstats_link, bgstats_play
from companion.game.game_or_tally import scoresheet
from companion.game.progress import infamy_by_turn, infamy_ledger
from companion.game.scoring import Scoresheet, best_half_tracks
from companion.game.state import GameState, Phase
from companion.readmodels.playtime import play_time
from companion.service import AnyView, GameView, TallyView
from companion.web.forms.fields import new_key
from companion.web.process import process
from companion.web.screens.charts import infamy_chart
from companion.web.screens.hand_cards import hand_cards_context
from companion.web.words.bidi import isolate
from companion.web.words.catalogue import gettext

__all__ = [
    "after_game_context",
    "half_choices",
    "only_on_this_network",
    "score_context",
    "share_text",
    "sheet_facts",
    "tally_after_context",
]

# Names a home or office network gives its machines: an address under them is not on the internet.
LOCAL_SUFFIXES = (".local", ".lan", ".home", ".internal", ".localdomain", ".home.arpa")


def half_choices(view: AnyView, sheet: Any) -> dict[int, list[tuple[int, int]]]:
    """For each player with half-diploma pairs to place: the tracks, best first, with their value."""
    values = {c.circle: c.after for c in sheet.circles}
    out: dict[int, list[tuple[int, int]]] = {}
    for i, player in enumerate(sheet.players):
        if player.half_diplomas // 2 == 0:
            continue
        skulls = {row.circle: row.skull for row in player.circles}
        diplomas = frozenset(row.circle for row in player.circles if row.diploma and not row.from_halves)
        out[i] = best_half_tracks(view.edition, values, skulls, diplomas)
    return out


def share_text(sheet: Scoresheet) -> str:
    """The result in one line, for a group chat, in the reader's language."""
    scores = ", ".join(f"{p.name} {p.total}" for p in sorted(sheet.players, key=lambda p: p.place))
    if len(sheet.winners) > 1:
        return gettext(
            "Inferno: %(names)s share first place (%(scores)s).", names=", ".join(sheet.winners), scores=scores
        )
    return gettext(
        "Inferno: %(name)s wins (%(scores)s).", name=sheet.winners[0] if sheet.winners else "", scores=scores
    )


def only_on_this_network(url: str) -> bool:
    """Whether ``url`` can be opened only from this network: no public address is configured
    (``COMPANION_PUBLIC_URL``) and its host is a private, loopback or link-local address, or a name
    a home network gives (``localhost``, ``*.local``, a name without a dot)."""
    if current_app.config.get("PUBLIC_URL") or os.environ.get("COMPANION_PUBLIC_URL"):
        return False
    host = (urlsplit(url).hostname or "").lower().rstrip(".")
    if not host:
        return True
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return "." not in host or host == "localhost" or host.endswith(LOCAL_SUFFIXES)
    return address.is_private or address.is_loopback or address.is_link_local


def sheet_facts(started: datetime | None, seconds: int | None) -> dict[str, str]:
    """The score sheet's heading facts, printed too: the day it was played and how long it took
    (``seconds`` None: a quick tally, which was not timed)."""
    facts = {"title": gettext("Inferno"), "date": "", "length": ""}
    if started is not None:
        facts["date"] = format_date(started, "long", locale=str(get_locale() or "en"))
    if seconds is None:
        facts["length"] = gettext("not timed: entered after the game")
    elif seconds:
        hours, minutes = divmod(round(seconds / 60), 60)
        if hours:
            facts["length"] = gettext("%(h)s h %(m)s min at the table", h=hours, m=minutes)
        else:
            facts["length"] = gettext("%(m)s min at the table", m=minutes)
    return facts


def _share(sheet: Scoresheet, url: str) -> dict[str, Any]:
    """The share button's text and link (the public address when one is configured); a link only this
    network can open is held for the people at the table, and the page says friends elsewhere cannot open it."""
    local = only_on_this_network(url)
    return {
        "share_text": share_text(sheet),
        "share_url": url,
        "share_local": urlsplit(url).netloc if local else "",
    }


def _bgg_id(view: AnyView) -> int | None:
    bgg = view.edition.raw.get("bgg_id")
    return bgg if isinstance(bgg, int) and not isinstance(bgg, bool) and bgg > 0 else None


def after_game_context(view: GameView, sheet: Scoresheet) -> dict[str, Any]:
    """The time at the table, and for a finished game: the BG Stats link and the share text."""
    state = view.state
    assert isinstance(state, GameState)
    time = play_time(view, len(state.players))
    context: dict[str, Any] = {
        "play_time": time,
        "facts": sheet_facts(time.started if time else None, time.seconds if time else 0),
    }
    if state.phase is Phase.OVER:
        secret, location = str(current_app.config["SECRET_KEY"]), str(current_app.config.get("PLAY_LOCATION", ""))
        play = bgstats_play(secret, view.game_id, sheet, time, location, _bgg_id(view))
        context["bgstats_url"] = bgstats_link(play)
        context["viewer_url"] = url_for("viewer.screen", token=view.read_token, _external=True)
        context.update(_share(sheet, context["viewer_url"]))
    return context


def tally_after_context(view: TallyView, sheet: Scoresheet) -> dict[str, Any]:
    """A quick tally's score: its heading facts, and once every entry is made the BG Stats link
    (dated the day of the tally, no length: the game was not timed) and the share text, whose link
    opens the tally's score read-only."""
    started = datetime.fromisoformat(view.rows[0].recorded_at) if view.rows else None
    context: dict[str, Any] = {"facts": sheet_facts(started, None)}
    if view.state.complete:
        secret, location = str(current_app.config["SECRET_KEY"]), str(current_app.config.get("PLAY_LOCATION", ""))
        play = bgstats_play(secret, view.game_id, sheet, None, location, _bgg_id(view))
        if started is not None:
            play["playDate"] = started.strftime("%Y-%m-%d %H:%M:%S")
        context["bgstats_url"] = bgstats_link(play)
        context["result_url"] = url_for("tally.result", token=view.read_token, _external=True)
        context.update(_share(sheet, context["result_url"]))
    return context


def _progress(view: GameView, state: GameState, sheet: Scoresheet) -> dict[str, Any]:
    """The infamy ledger, the points after each turn and their chart (a fold of the whole log). Once
    the game is over, the last point is the final score (diplomas, fraud cards and loans added), so
    the chart ends where the ranking does."""
    events = list(view.timeline.effective_events())
    hexes = view.edition.player_hexes()
    points: list[tuple[str, tuple[int, ...]]] = [
        (str(turn), values) for turn, values in infamy_by_turn(view.edition, events)
    ]
    final = state.phase is Phase.OVER
    if final:
        points.append((gettext("Final"), tuple(p.total for p in sheet.players)))
    title = gettext("Infamy after each turn, then the final score") if final else gettext("Infamy after each turn")
    return {
        "ledger": infamy_ledger(len(state.players), events),
        "points": points,
        "chart_note": (
            gettext("The last point, “Final”, is the final score: diplomas, fraud cards and loans added.")
            if final
            else gettext("Infamy scored during play so far; diplomas, fraud cards and loans count at the end.")
        ),
        "chart": infamy_chart(
            [isolate(p.name) for p in state.players],
            [hexes[p.colour] for p in state.players],
            points,
            title,
        ),
    }


def score_context(view: GameView, refusal: dict[str, Any] | None = None) -> dict[str, Any]:
    """Everything the score sheet shows (``refusal``: a refused entry, whose choices are held)."""
    state = view.state
    sheet = scoresheet(state)
    context: dict[str, Any] = {
        "view": view,
        "state": state,
        "sheet": sheet,
        "new_key": new_key,
        "choices": half_choices(view, sheet),
    }
    if isinstance(state, GameState):
        key = (view.game_id, view.seq, str(get_locale()))
        context.update(process().score_progress.get_or_make(key, lambda: _progress(view, state, sheet)))
        context["final"] = state.phase is Phase.OVER
        context.update(after_game_context(view, sheet))
        context.update(hand_cards_context(state, refusal))
    return context
