"""The application service: the one path every page, the CLI and the API take (load → replay →
decide → append), the views it keeps per process, snapshots, and copying games between stores."""

from companion.service.games import (
    Conflict,
    GameService,
    KeyReused,
    Outcome,
    UnknownGame,
    new_join_code,
    new_token,
    refusal_of,
)
from companion.service.view import AnyView, GameView, TallyView, is_game, is_tally

__all__ = [
    "AnyView",
    "Conflict",
    "GameService",
    "GameView",
    "KeyReused",
    "Outcome",
    "TallyView",
    "UnknownGame",
    "is_game",
    "is_tally",
    "new_join_code",
    "new_token",
    "refusal_of",
]
