"""The edition editor through the pages: each change validated, saved under a name, chosen for a
new game, and a running game switched to it after the re-check."""

from __future__ import annotations

import json
import re

from flask.testing import FlaskClient

from companion.web.http.db import service
from tests.web.conftest import Phone


def _draft(client: FlaskClient) -> str:
    page = client.get("/editions").data.decode()
    base = re.search(r'name="base" value="([0-9a-f]{64})"', page)
    assert base is not None
    response = client.post("/editions/drafts", data={"base": base.group(1)})
    assert response.status_code == 303
    return response.headers["Location"].split("?")[0]


def _change(client: FlaskClient, draft: str, key: str, **form: str) -> tuple[int, str]:
    """One answer to question ``key`` of the check (a tap on a circle, typed values, "Done")."""
    response = client.post(f"{draft}/q/{key}", data=form)
    if response.status_code == 303:
        return 303, client.get(response.headers["Location"]).data.decode()
    return response.status_code, response.data.decode()


def test_a_symbol_a_line_and_an_infamy_are_changed_and_the_preview_follows(client: FlaskClient) -> None:
    draft = _draft(client)
    status, page = _change(client, draft, "circle-0-1", op="symbol", shield="1a", quarter="key")
    assert status == 303 and "1A Key" in page
    status, page = _change(client, draft, "circle-0-1", op="line", shield="1b", other="2a", keep="1b")
    assert status == 303 and "1B → 2B/2C/2A" in page
    status, page = _change(
        client, draft, "circle-0-3", op="done", **{"v:circles[2].infamy": "7", "v:circles[2].colour": "green"}
    )
    assert status == 303
    assert 'value="7"' in client.get(f"{draft}/q/circle-0-3?mode=edit").data.decode()
    assert client.get(draft).data.decode().count('class="lines"') == 1  # the game's own map component draws the preview


def test_an_invalid_circle_is_refused_when_the_table_leaves_it_naming_the_entry(client: FlaskClient) -> None:
    draft = _draft(client)
    status, _page = _change(client, draft, "circle-0-2", op="line", shield="2e", other="3e")  # 2E's only line down
    assert status == 303  # a circle may be half-corrected between two taps
    status, page = _change(client, draft, "circle-0-2", op="done")
    assert status == 422 and "2e" in page.lower() and "line down" in page
    draft = _draft(client)
    status, page = _change(
        client,
        draft,
        "phlegethon",
        op="done",
        **{"v:phlegethon.scale": "2 3", **{f"v:phlegethon.start:{c}": "2" for c in "23456789"}},
    )
    assert status == 422 and "where the cube of circle 2 starts: space 2 is off the track" in page
    assert "1 · 2 · 3 · 4 · 5" in client.get(f"{draft}/q/phlegethon").data.decode()  # the refused values were not kept


def test_a_saved_edition_is_chosen_for_a_new_game_and_its_board_is_played(client: FlaskClient) -> None:
    draft = _draft(client)
    _change(client, draft, "circle-0-1", op="line", shield="1a", other="2c")
    response = client.post(f"{draft}/save", data={"name": "Our copy"})
    assert response.status_code == 303
    home = client.get("/").data.decode()
    chosen = re.search(r'<option value="([0-9a-f]{64})" selected>Our copy</option>', home)
    assert chosen is not None  # this phone's last edition is the default
    phone = Phone(client).create(edition=chosen.group(1))
    game_id = phone.url.rsplit("/", 1)[-1]
    with client.application.app_context():
        state = service().view(game_id).state
    assert state.edition.name == "Our copy" and "2c" in state.side.lines["1a"]


def test_an_unnamed_save_and_an_invalid_import_are_refused(client: FlaskClient) -> None:
    draft = _draft(client)
    assert client.post(f"{draft}/save", data={"name": " "}).status_code == 422
    response = client.post("/editions/import", data={"text": json.dumps({"format": "nope"})})
    assert response.status_code == 422 and "not an Inferno Companion edition file" in response.data.decode()


def test_a_running_game_is_switched_through_the_preview(client: FlaskClient) -> None:
    phone = Phone(client).create()
    game_id = phone.url.rsplit("/", 1)[-1]
    draft = _draft(client)
    _change(client, draft, "circle-0-1", op="line", shield="1b", other="2a")
    client.post(f"{draft}/save", data={"name": "Our copy"})
    choose = client.get(f"/g/{game_id}/edition").data.decode()
    target = re.search(r"edition\?to=([0-9a-f]{64})", choose)
    assert target is not None
    preview = client.get(f"/g/{game_id}/edition?to={target.group(1)}").data.decode()
    assert "Every entry still holds" in preview and "A line from 1B down to 2A added" in preview
    seq = re.search(r'name="seq" value="(\d+)"', preview)
    key = re.search(r'name="key" value="([\w-]+)"', preview)
    assert seq and key
    response = client.post(
        f"/g/{game_id}/edition", data={"seq": seq.group(1), "key": key.group(1), "to": target.group(1)}
    )
    assert response.status_code == 303
    with client.application.app_context():
        view = service().view(game_id)
    assert view.state.edition.name == "Our copy"
    history = client.get(f"/g/{game_id}/history").data.decode()
    assert "switched the game to the edition" in history


def test_the_guided_check_marks_a_question_checked_and_counts_its_values(client: FlaskClient) -> None:
    draft = _draft(client)
    first = client.get(f"{draft}?section=check")
    assert first.status_code == 303 and first.headers["Location"].endswith("/q/circle-0-1?mode=check")
    page = client.get(first.headers["Location"]).data.decode()
    before = re.search(r"(\d+) of (\d+) values checked", page)
    assert before is not None and before.group(1) == "0"
    status, page = _change(client, draft, "circle-0-1", op="match")
    after = re.search(r"(\d+) of (\d+) values checked", page)
    assert status == 303 and after is not None and "Does circle 2 of your board" in page
    assert (after.group(1), after.group(2)) == ("2", before.group(2))  # the circle of the side and its infamy


def test_a_refused_move_offers_our_board_is_different_then_the_switch(client: FlaskClient) -> None:
    phone = Phone(client).create()
    game_id = phone.url.rsplit("/", 1)[-1]
    with client.application.app_context():
        svc = service()
        from companion.game.commands import BringSoul, EndTurn, SendMember

        for key, command in (
            ("key-bring", BringSoul(0, 2, "1a")),
            ("key-send", SendMember(0, "noble", "banquet")),
            ("key-end", EndTurn(0)),
        ):
            svc.execute(game_id, svc.view(game_id).seq, command, key)
        seq = svc.view(game_id).seq
    # Ben's turn: moving Ana's soul is refused; the refusal offers the editor at that shield
    page = client.post(
        f"/g/{game_id}/move",
        data={"seq": seq, "key": "move-key-0001", "player": 1, "from_shield": "1a", "to_shield": "2d", "select": "1a"},
    ).data.decode()
    form = re.search(r'<form class="board-differs" method="post" action="(/g/[^"]+/edition/fix)">', page)
    assert form is not None and "Our board is different" in page and 'name="shield" value="1a"' in page
    assert client.get(form.group(1) + "?shield=1a").status_code == 405  # a link followed, a page prefetched: no draft
    response = client.post(form.group(1), data={"shield": "1a"})
    assert response.status_code == 303 and "pick=1a" in response.headers["Location"]
    draft = response.headers["Location"].split("?")[0]
    circle = client.get(response.headers["Location"])
    assert circle.status_code == 303 and "/q/circle-0-1?mode=edit&pick=1a" in circle.headers["Location"]
    client.post(f"{draft}/q/circle-0-1", data={"op": "line", "shield": "1a", "other": "2d"})
    saved = client.post(f"{draft}/save", data={"name": "Our fix"})
    assert saved.status_code == 303 and f"/g/{game_id}/edition?to=" in saved.headers["Location"]
    preview = client.get(saved.headers["Location"]).data.decode()
    assert "Switch the game to this edition" in preview


def test_the_new_game_page_says_whether_the_board_is_an_estimate(client: FlaskClient) -> None:
    home = client.get("/").data.decode()
    assert "This board is an estimate" in home and "0 of " in home
    shipped_game = Phone(client).create().html
    assert "This board is an estimate" in shipped_game and "Switch the edition" in shipped_game  # under the map
    from companion.editions import library

    with client.application.app_context():
        svc = service()
        raw = json.loads(svc.library.edition_text(next(iter(svc.library.shipped.values()))[1].content_hash))
        for path in library.check_progress(raw)[2]:
            raw = library.mark_checked(raw, path, "2026-11-30")
        edition = svc.library.save_edition("Fully checked", library.to_text(raw))
    # a game on it: this phone remembers the choice
    checked_game = Phone(client).create(edition=edition.content_hash, key="create-key-0002").html
    assert "This board is an estimate" not in checked_game
    home = client.get("/").data.decode()
    assert "Every value of the board has been checked against a real board." in home
    assert "This board is an estimate" not in home


def test_an_edition_file_nested_too_deeply_is_refused_and_stores_nothing(client: FlaskClient) -> None:
    before = client.get("/editions").get_data(as_text=True)
    response = client.post("/editions/import", data={"text": "[" * 100_000 + "]" * 100_000})
    assert response.status_code == 422
    assert "nested too deeply" in response.get_data(as_text=True)
    assert client.get("/editions").get_data(as_text=True).count("/drafts/") == before.count("/drafts/")
