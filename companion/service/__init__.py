"""The application service: the one path every page, the CLI and the API take (load → replay →
decide → append), the views it keeps per process, snapshots, and copying games between stores."""

from companion.service.games import (
    Conflict,
    GameService,
    GameView,
    KeyReused,
    Outcome,
    UnknownGame,
    new_join_code,
    new_token,
    refusal_of,
)

__all__ = [
    "Conflict",
    "GameService",
    "GameView",
    "KeyReused",
    "Outcome",
    "UnknownGame",
    "new_join_code",
    "new_token",
    "refusal_of",
]
