"""What the score sheet shows: the final tally (or "if the game ended now") explained point by point,
the infamy over the turns, the time at the table, and after the game the BG Stats link and the
share text. Drawn by the score page and by the big screen."""

from __future__ import annotations

from typing import Any

from flask import current_app, url_for
from flask_babel import get_locale, gettext

from companion.formats.bgstats import bgstats_link, bgstats_play
from companion.game.any_log import scoresheet
from companion.game.progress import infamy_by_turn, infamy_ledger
from companion.game.scoring import Scoresheet, best_half_tracks
from companion.game.state import GameState, Phase
from companion.readmodels.playtime import play_time
from companion.service import AnyView, GameView
from companion.web.forms.fields import new_key
from companion.web.process import process
from companion.web.screens.charts import infamy_chart
from companion.web.screens.hand_cards import hand_cards_context
from companion.web.words.bidi import isolate

__all__ = ["after_game_context", "half_choices", "score_context", "share_text"]


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


def after_game_context(view: GameView, sheet: Scoresheet) -> dict[str, Any]:
    """The time at the table, and for a finished game: the BG Stats link and the share text."""
    state = view.state
    assert isinstance(state, GameState)
    time = play_time(view, len(state.players))
    context: dict[str, Any] = {"play_time": time}
    if state.phase is Phase.OVER:
        secret, location = str(current_app.config["SECRET_KEY"]), str(current_app.config.get("PLAY_LOCATION", ""))
        bgg = view.edition.raw.get("bgg_id")
        bgg_id = bgg if isinstance(bgg, int) and not isinstance(bgg, bool) and bgg > 0 else None
        play = bgstats_play(secret, view.game_id, sheet, time, location, bgg_id)
        context["bgstats_url"] = bgstats_link(play)
        context["share_text"] = share_text(sheet)
        context["viewer_url"] = url_for("viewer.screen", token=view.read_token, _external=True)
    return context


def _progress(view: GameView, state: GameState) -> dict[str, Any]:
    """The infamy ledger, the points after each turn and their chart (a fold of the whole log)."""
    events = list(view.timeline.effective_events())
    points = infamy_by_turn(view.edition, events)
    hexes = view.edition.player_hexes()
    return {
        "ledger": infamy_ledger(len(state.players), events),
        "points": points,
        "chart": infamy_chart(
            [isolate(p.name) for p in state.players],
            [hexes[p.colour] for p in state.players],
            points,
            gettext("Infamy after each turn"),
        ),
    }


def score_context(view: GameView, refusal: dict[str, Any] | None = None) -> dict[str, Any]:
    """Everything the score sheet shows (``refusal``: a refused entry, whose choices are kept)."""
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
        context.update(process().score_progress.get_or_make(key, lambda: _progress(view, state)))
        context["final"] = state.phase is Phase.OVER
        context.update(after_game_context(view, sheet))
        context.update(hand_cards_context(state, refusal))
    return context
