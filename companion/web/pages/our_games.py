"""Our games: the games this phone remembers, their results, each player's figures across them, a
chart over time (server-drawn SVG) and the list as CSV."""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass, field
from datetime import datetime

import pygal
from flask import Blueprint, Response, render_template
from flask_babel import gettext

from companion.game.any_log import scoresheet
from companion.game.state import GameState
from companion.web.http.phone import remembered_views
from companion.web.screens.charts import chart_style

__all__ = ["PlayedGame", "PlayerFigures", "bp", "figures", "played_games"]

bp = Blueprint("our_games", __name__)


@dataclass(frozen=True)
class PlayedGame:
    """One remembered game: when it started, who played, their scores and places (in turn order)."""

    game_id: str
    started: datetime
    names: tuple[str, ...]
    scores: tuple[int, ...]
    places: tuple[int, ...]
    over: bool

    @property
    def winners(self) -> tuple[str, ...]:
        """Who is in first place (several on a shared place)."""
        return tuple(n for n, p in zip(self.names, self.places, strict=True) if p == 1)


@dataclass
class PlayerFigures:
    """One player's figures across the finished games."""

    name: str
    scores: list[int] = field(default_factory=list)
    wins: int = 0

    @property
    def games(self) -> int:
        """Finished games played."""
        return len(self.scores)

    @property
    def average(self) -> float:
        """The average score, to one decimal."""
        return round(sum(self.scores) / len(self.scores), 1) if self.scores else 0.0

    @property
    def best(self) -> int:
        """The best score."""
        return max(self.scores) if self.scores else 0


def played_games() -> list[PlayedGame]:
    """The recorded games this phone remembers, oldest first (quick tallies are left out)."""
    games = []
    for view in remembered_views():
        game_id = view.game_id
        state = view.state
        if not isinstance(state, GameState) or not view.rows:
            continue
        sheet = scoresheet(state)
        games.append(
            PlayedGame(
                game_id=game_id,
                started=datetime.fromisoformat(view.rows[0].recorded_at),
                names=tuple(p.name for p in state.players),
                scores=tuple(p.total for p in sheet.players),
                places=tuple(p.place for p in sheet.players),
                over=state.ended is not None,
            )
        )
    return sorted(games, key=lambda g: g.started)


def figures(games: list[PlayedGame]) -> list[PlayerFigures]:
    """Per player (by name, case ignored): games, wins, average and best score, finished games only."""
    table: dict[str, PlayerFigures] = {}
    for game in games:
        if not game.over:
            continue
        for name, total, place in zip(game.names, game.scores, game.places, strict=True):
            entry = table.setdefault(name.strip().casefold(), PlayerFigures(name))
            entry.scores.append(total)
            entry.wins += place == 1
    return sorted(table.values(), key=lambda f: (-f.wins, -f.average, f.name))


def scores_chart(games: list[PlayedGame], players: list[PlayerFigures]) -> str:
    """Each player's score in each finished game, over time (inline SVG, no script)."""
    finished = [g for g in games if g.over]
    style = chart_style()
    chart = pygal.Line(
        js=[],
        disable_xml_declaration=True,
        style=style,
        width=420,
        height=300,
        title=gettext("Scores over time"),
        legend_at_bottom=True,
        legend_at_bottom_columns=2,
        dots_size=3,
        truncate_legend=-1,
        truncate_label=-1,
        allow_interruptions=True,
    )
    chart.x_labels = [g.started.strftime("%Y-%m-%d") for g in finished]
    for player in players:
        key = player.name.strip().casefold()
        values: list[int | None] = []
        for g in finished:
            totals = [t for n, t in zip(g.names, g.scores, strict=True) if n.strip().casefold() == key]
            values.append(totals[0] if totals else None)
        chart.add(player.name, values)
    svg: str = chart.render(is_unicode=True)
    return re.sub(r"<script.*?</script>", "", svg, flags=re.S)


@bp.get("/our-games")
def index() -> str:
    """The games this phone played, with the players' figures across them."""
    games = played_games()
    players = figures(games)
    chart = scores_chart(games, players) if any(g.over for g in games) else None
    return render_template("pages/our_games.html", games=list(reversed(games)), players=players, chart=chart)


@bp.get("/our-games.csv")
def export_csv() -> Response:
    """The list of games as CSV: one row per player per game."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["date", "game", "player", "score", "place", "winner", "finished"])
    for number, game in enumerate(played_games(), start=1):
        for name, total, place in zip(game.names, game.scores, game.places, strict=True):
            when = game.started.strftime("%Y-%m-%d %H:%M")
            writer.writerow(
                [when, number, _safe_cell(name), total, place, str(place == 1).lower(), str(game.over).lower()]
            )
    return Response(
        out.getvalue(),
        mimetype="text/csv; charset=utf-8",
        headers={"Content-Disposition": 'attachment; filename="our-games.csv"'},
    )


def _safe_cell(text: str) -> str:
    """A cell a spreadsheet will not run as a formula (players' names are their own words)."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text
