"""The "log this play in BG Stats" link: a finished game as BG Stats' createPlay JSON.

BG Stats (which also posts plays to BoardGameGeek) opens
``https://app.bgstatsapp.com/createPlay.html?data=<url-encoded JSON>`` and offers to save the
play. BG Stats remembers which of its games a source's ``sourceGameId`` stands for, so the title's
id is one and the same for every play (``SOURCE_GAME_ID``), and each play has its own
``sourcePlayId``. The game's secret address never leaves the app: ``sourcePlayId`` and
``sourcePlayerId`` are HMACs keyed with the app's secret key, stable for a game and a player name,
not reversible. ``bggId`` is sent when the edition file gives one (``bgg_id``).
"""

from __future__ import annotations

import hashlib
import hmac
import json
from typing import Any
from urllib.parse import quote

from companion.game.scoring import Scoresheet
from companion.readmodels.playtime import PlayTime

__all__ = ["BGSTATS_URL", "GAME_NAME", "SOURCE_GAME_ID", "SOURCE_NAME", "bgstats_link", "bgstats_play", "opaque_id"]

BGSTATS_URL = "https://app.bgstatsapp.com/createPlay.html"
GAME_NAME = "Inferno"
SOURCE_NAME = "Inferno Companion"  # who sends the play (BG Stats groups a source's ids by it)
SOURCE_GAME_ID = "inferno-red-mojo-2024"  # the title, the same for every play


def opaque_id(secret: str, purpose: str, value: str) -> str:
    """A stable id for ``value`` that cannot be turned back into it (HMAC-SHA256 keyed with ``secret``,
    the app's secret key)."""
    return hmac.new(secret.encode("utf-8"), f"{purpose}:{value}".encode(), hashlib.sha256).hexdigest()[:32]


def bgstats_play(
    secret: str,
    game_id: str,
    sheet: Scoresheet,
    time: PlayTime | None,
    location: str = "",
    bgg_id: int | None = None,
) -> dict[str, Any]:
    """The play as BG Stats reads it: tied players share a rank; the first in turn order started.
    Its ids are keyed with ``secret`` (the app's secret key), never the game's address."""
    game: dict[str, Any] = {"name": GAME_NAME, "highestWins": True, "noPoints": False, "sourceGameId": SOURCE_GAME_ID}
    if bgg_id is not None:
        game["bggId"] = bgg_id
    play: dict[str, Any] = {
        "sourceName": SOURCE_NAME,
        "sourcePlayId": opaque_id(secret, "play", game_id),
        "game": game,
        "players": [
            {
                "name": p.name,
                "score": p.total,
                "rank": p.place,
                "winner": p.place == 1,
                "startPlayer": i == 0,
                "sourcePlayerId": opaque_id(secret, "player", p.name.strip().casefold()),
            }
            for i, p in enumerate(sheet.players)
        ],
    }
    if time is not None:
        play["playDate"] = time.started.strftime("%Y-%m-%d %H:%M:%S")
        play["durationMin"] = time.minutes
    if location:
        play["location"] = location
    return play


def bgstats_link(play: dict[str, Any]) -> str:
    """The createPlay address carrying ``play``."""
    text = json.dumps(play, ensure_ascii=False, separators=(",", ":"))
    return f"{BGSTATS_URL}?data={quote(text, safe='')}"
