"""The application service: the one path every page, the CLI and the API take (load → replay →
decide → append, ``GameService``), the edition library (``EditionService``), switching a game's
edition, the views it caches per process, snapshots, and copying games between stores.

The view types live below it (``companion.log_view``) and are named here too, for the web."""

from companion.log_view import AnyView, GameView, LogView, TallyView, is_game, is_tally
from companion.service.editions import EditionService
from companion.service.games import Conflict, GameService, KeyReused, Outcome, UnknownGame, refusal_of

__all__ = [
    "AnyView",
    "Conflict",
    "EditionService",
    "GameService",
    "GameView",
    "KeyReused",
    "LogView",
    "Outcome",
    "TallyView",
    "UnknownGame",
    "is_game",
    "is_tally",
    "refusal_of",
]
