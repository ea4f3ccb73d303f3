"""The games a phone remembers, read for "Our games": each game's date, players, scores and places,
each player's figures across the finished ones, and their scores over time."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from companion.game.game_or_tally import scoresheet
from companion.log_view import AnyView, is_game, is_tally

__all__ = ["PlayedGame", "PlayerFigures", "figures", "played_game", "score_lines"]


@dataclass(frozen=True)
class PlayedGame:
    """One remembered game: when it started, who played, their scores and places (in turn order)."""

    game_id: str
    started: datetime
    names: tuple[str, ...]
    scores: tuple[int, ...]
    places: tuple[int, ...]
    over: bool
    kind: str = "game"  # "game" (played through the app) or "tally" (a quick tally of a game played without it)

    @property
    def winners(self) -> tuple[str, ...]:
        """Who is in first place (several on a shared place); nobody while the game is not over."""
        if not self.over:
            return ()
        return tuple(n for n, p in zip(self.names, self.places, strict=True) if p == 1)

    def won(self, player: int) -> bool:
        """Whether the player at ``player`` (turn order) won: first place of a finished game only."""
        return self.over and self.places[player] == 1


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


def played_game(view: AnyView) -> PlayedGame | None:
    """One remembered game or quick tally as "Our games" lists it (None for an empty log). A tally is
    over once every circle and every player is entered."""
    if not view.rows:
        return None
    if is_tally(view):
        tally = view.state
        scores = scoresheet(tally)
        return PlayedGame(
            game_id=view.game_id,
            started=datetime.fromisoformat(view.rows[0].recorded_at),
            names=tuple(tally.names),
            scores=tuple(p.total for p in scores.players),
            places=tuple(p.place for p in scores.players),
            over=tally.complete,
            kind="tally",
        )
    if not is_game(view):
        return None
    state = view.state
    sheet = scoresheet(state)
    return PlayedGame(
        game_id=view.game_id,
        started=datetime.fromisoformat(view.rows[0].recorded_at),
        names=tuple(p.name for p in state.players),
        scores=tuple(p.total for p in sheet.players),
        places=tuple(p.place for p in sheet.players),
        over=state.ended is not None,
    )


def figures(games: list[PlayedGame]) -> list[PlayerFigures]:
    """Per player (by name, case ignored): games, wins, average and best score, finished games only."""
    table: dict[str, PlayerFigures] = {}
    for game in games:
        if not game.over:
            continue
        for name, total, place in zip(game.names, game.scores, game.places, strict=True):
            entry = table.setdefault(name.strip().casefold(), PlayerFigures(name))
            entry.scores.append(total)
            entry.wins += place == 1  # finished games only (checked above)
    return sorted(table.values(), key=lambda f: (-f.wins, -f.average, f.name))


def score_lines(
    games: list[PlayedGame], players: list[PlayerFigures]
) -> tuple[list[datetime], list[tuple[str, list[int | None]]]]:
    """The finished games' dates, and each player's score in each of them (None where they did not play)."""
    finished = [g for g in games if g.over]
    lines = []
    for player in players:
        key = player.name.strip().casefold()
        values: list[int | None] = []
        for g in finished:
            totals = [t for n, t in zip(g.names, g.scores, strict=True) if n.strip().casefold() == key]
            values.append(totals[0] if totals else None)
        lines.append((player.name, values))
    return [g.started for g in finished], lines
