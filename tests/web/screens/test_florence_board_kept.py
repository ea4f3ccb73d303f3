"""Florence's board (the quarters' tiles and who stands on each) is worked out once for each layout and each placing of
the family members: what is found again is what would be worked out afresh, over random games, base and expansion."""

from __future__ import annotations

from typing import Any

from flask import Flask

from companion.web.http.db import service
from companion.web.screens.florence_board import _board, florence_board
from tests.builders import game_view
from tests.web.screens.random_screens import screens


def test_the_kept_board_is_the_board_worked_out_afresh(monkeypatch) -> None:
    placed: list[int] = []

    def look(app: Flask, game_id: str, language: str, choice: dict[str, Any]) -> None:
        state = game_view(service().view(game_id)).state
        kept = florence_board(state)
        assert kept == _board(state)
        assert florence_board(state) is kept  # found again, not worked out
        placed.append(sum(len(t.pieces) for _, tiles in kept for t in tiles))

    screens(monkeypatch, look, ((2, False), (9, True)), steps=40)
    assert max(placed) >= 2 and min(placed) == 0  # boards with members on them and without
