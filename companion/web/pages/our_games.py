"""Our games: the games this phone remembers, their results, each player's figures across them, a
chart over time (server-drawn SVG) and the list as CSV."""

from __future__ import annotations

import csv
import io

from flask import Blueprint, Response, render_template

from companion.readmodels.our_games import PlayedGame, figures, played_game, score_lines
from companion.web.http.phone import remembered_views
from companion.web.screens.charts import scores_chart

__all__ = ["bp"]

bp = Blueprint("our_games", __name__)


def played_games() -> list[PlayedGame]:
    """The recorded games and quick tallies this phone remembers, oldest first."""
    games = [game for game in map(played_game, remembered_views()) if game is not None]
    return sorted(games, key=lambda g: g.started)


@bp.get("/our-games")
def index() -> str:
    """The games this phone played, with the players' figures across them."""
    games = played_games()
    players = figures(games)
    dates, lines = score_lines(games, players)
    chart = scores_chart([d.strftime("%Y-%m-%d") for d in dates], lines) if dates else None
    return render_template("pages/our_games.html", games=list(reversed(games)), players=players, chart=chart)


@bp.get("/our-games.csv")
def export_csv() -> Response:
    """The list of games as CSV: one row per player per game."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["date", "game", "player", "score", "place", "winner", "finished", "kind"])
    for number, game in enumerate(played_games(), start=1):
        when = game.started.strftime("%Y-%m-%d %H:%M")
        for i, (name, total, place) in enumerate(zip(game.names, game.scores, game.places, strict=True)):
            won, over = str(game.won(i)).lower(), str(game.over).lower()
            writer.writerow([when, number, _safe_cell(name), total, place, won, over, game.kind])
    return Response(
        out.getvalue(),
        mimetype="text/csv",  # Werkzeug adds the one charset=utf-8
        headers={"Content-Disposition": 'attachment; filename="our-games.csv"'},
    )


def _safe_cell(text: str) -> str:
    """A cell a spreadsheet will not run as a formula (players' names are their own words)."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text
