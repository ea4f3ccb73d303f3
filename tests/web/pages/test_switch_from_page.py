"""The switch preview through the pages: the entry that a corrected board records otherwise, told in
words (who, what, what changes), the differences split into this game / set-up / new games, and
"Switch from there" recording the switch and the entries that still hold, undone in one step."""

from __future__ import annotations

import json
import re

import pytest
from flask.testing import FlaskClient

from companion.editions.library import validated
from companion.game.commands import BringSoul, Command, CreateGame, EndTurn, MoveSoul, SendMember
from companion.web.http.db import service
from tests.builders import game_view, seats


def _game_and_board(client: FlaskClient) -> tuple[str, str]:
    """Ana's soul fell from 1A to 2B (the Cross on the shipped board), then she sent a noble to the
    Courtyard; our board shows the Eagle on 2B and the Cross on 2D, and starts every cube on space 1."""
    with client.application.app_context():
        svc = service()
        game_id = svc.create_game(CreateGame(seats(2), plague_card=(5, 2, 3)), "create")
        commands: list[Command] = [
            BringSoul(0, 5, "1a"),
            SendMember(0, "noble", "banquet"),
            EndTurn(0),
            BringSoul(1, 2, "1b"),
            SendMember(1, "noble", "bank"),
            EndTurn(1),
            MoveSoul(0, "1a", "2b"),
            SendMember(0, "noble", "courtyard"),
        ]
        for i, command in enumerate(commands):
            svc.execute(game_id, svc.view(game_id).seq, command, f"k{i}")
        raw = json.loads(json.dumps(svc.view(game_id).state.edition.raw))
        row = raw["sides"][0]["circles"]["2"]
        row[1]["quarter"], row[3]["quarter"] = row[3]["quarter"], row[1]["quarter"]
        raw["phlegethon"]["start"] = {c: 0 for c in raw["phlegethon"]["start"]}
        raw["players"]["max"] = 4  # the same: only the colours below differ
        raw["players"]["colours"][0]["hex"] = "#aa0000"
        text, _ = validated(raw)
        return game_id, svc.library.save_edition("Our copy", text).content_hash


def test_the_preview_tells_the_entry_and_the_differences_in_words(client: FlaskClient) -> None:
    game_id, ours = _game_and_board(client)
    page = client.get(f"/g/{game_id}/edition?to={ours}").get_data(as_text=True)
    # the entry, who and what, and what changes
    assert "Entry #13 would be recorded otherwise" in page
    assert "Ana" in page and "No longer:" in page and "Instead:" in page and "Eagle" in page
    # what is re-recorded and what the table enters again
    assert "Switch from there" in page and "1 entry is recorded again." in page
    dropped = re.search(r'<ul class="dropped">(.*?)</ul>', page, re.S)
    assert dropped is not None and "#15" in dropped.group(1) and "Courtyard" in dropped.group(1)
    # the differences, in three groups, in words
    game = re.search(r'id="for-this-game">(.*?)</ul>', page, re.S)
    setup = re.search(r'id="for-the-set-up">(.*?)</ul>', page, re.S)
    new_games = re.search(r'id="for-new-games">(.*?)</ul>', page, re.S)
    assert game and setup and new_games
    assert "Shield 2B shows the Eagle, not the Cross" in game.group(1)
    assert "Phlegethon track: start of the cube of circle 3: space 3 → space 1" in setup.group(1)
    assert "Players" in new_games.group(1) and "hex" in new_games.group(1)
    for code in ("circles[", "sides[", "phlegethon.start", "{'", "None"):
        assert code not in page


@pytest.mark.parametrize("language", ["es"])
def test_the_preview_reads_in_spanish(client: FlaskClient, language: str) -> None:
    game_id, ours = _game_and_board(client)
    page = client.get(f"/g/{game_id}/edition?to={ours}", headers={"Accept-Language": language}).get_data(as_text=True)
    for english in (
        "would be recorded otherwise",
        "Switch from there",
        "shows the Eagle",
        "No longer:",
        "Set-up values",
    ):
        assert english not in page


def test_switch_from_there_through_the_page_then_one_undo(client: FlaskClient) -> None:
    game_id, ours = _game_and_board(client)
    page = client.get(f"/g/{game_id}/edition?to={ours}").get_data(as_text=True)
    form = re.search(
        r'action="(/g/[^"]+/edition/from)".*?name="seq" value="(\d+)".*?name="key" value="([\w-]+)"', page, re.S
    )
    assert form is not None
    data = {"seq": form.group(2), "key": form.group(3), "to": ours, "entry": "13"}
    response = client.post(form.group(1), data=data)
    assert response.status_code == 303
    # a second phone confirming the same screen records nothing more
    again = client.post(form.group(1), data={**data, "key": "other-phone"})
    assert again.status_code == 409
    with client.application.app_context():
        view = game_view(service().view(game_id))
        assert view.state.edition.content_hash == ours and view.state.quarter == "eagle"
        assert set(view.state.phlegethon.values()) == {0}
    history = client.get(f"/g/{game_id}/history").get_data(as_text=True)
    assert "were taken back and recorded again" in history and "enter it again" in history
    with client.application.app_context():
        svc = service()
        undone = svc.undo(game_id, svc.view(game_id).seq, "undo").view
        assert undone.state.edition.content_hash != ours and 15 in undone.timeline.live
    assert client.get(f"/g/{game_id}/history").status_code == 200
