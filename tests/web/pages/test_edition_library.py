"""The edition library through the pages, with two or three phones on one server: each phone's drafts
and saved editions are its own, drafts are listed and expire, quotas are refused in words, an import
does not fill the disk, an edition is shared by a link and used on another phone in one tap, and
published editions are compared value by value and proposed for a new game."""

from __future__ import annotations

import html
import json
import re
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.editions import library
from companion.web.http import drafts
from companion.web.http.db import service
from companion.web.http.drafts import MAX_DRAFTS, NameTaken, save_named, saved_name_taken
from tests.web.conftest import Phone


def _shipped(app: Flask) -> dict[str, Any]:
    with app.app_context():
        svc = service()
        return dict(json.loads(svc.library.edition_text(next(iter(svc.library.shipped.values()))[1].content_hash)))


def _checked(app: Flask, name: str, count: int | None = None, infamy: int | None = None) -> str:
    """The shipped edition renamed, with ``count`` values checked (all by default), as a file."""
    raw = library.with_name(_shipped(app), name)
    if infamy is not None:
        raw = library.set_number(raw, "circles[2].infamy", infamy)
    for path in library.check_progress(raw)[2][:count]:
        raw = library.mark_checked(raw, path, "2026-11-30")
    return library.to_text(raw)


def _import(client: FlaskClient, text: str) -> str:
    """Import a file; the editor's draft path it opens."""
    response = client.post("/editions/import", data={"text": text})
    assert response.status_code == 303, response.data
    return str(response.headers["Location"].split("?")[0])


def _save(client: FlaskClient, draft: str, name: str) -> None:
    assert client.post(f"{draft}/save", data={"name": name}).status_code == 303


def _hash_of(page: str, name: str) -> str:
    found = re.search(r'<option value="([0-9a-f]{64})"[^>]*>' + re.escape(name) + "</option>", page)
    assert found is not None, name
    return found.group(1)


def _page(client: FlaskClient, url: str) -> str:
    return html.unescape(client.get(url).get_data(as_text=True))


def test_a_phone_cannot_see_open_or_overwrite_another_phones_draft_or_edition(app: Flask) -> None:
    ana, ben = app.test_client(), app.test_client()
    draft = _import(ana, _checked(app, "Ana's copy", 3))
    assert ana.get(draft).status_code == 200
    assert ben.get(draft).status_code == 404
    ben_edit = {"op": "done", "v:circles[2].infamy": "7", "v:circles[2].colour": "green"}
    assert ben.post(f"{draft}/q/circle-0-3", data=ben_edit).status_code == 404
    assert ben.post(f"{draft}/q/circle-0-3", data={"op": "symbol", "shield": "3a", "quarter": "key"}).status_code == 404
    assert ben.post(f"{draft}/save", data={"name": "Stolen"}).status_code == 404
    assert "Ana's copy" not in _page(ben, "/editions")
    _save(ana, draft, "Our copy")
    home_ana, home_ben = _page(ana, "/"), _page(ben, "/")
    ana_hash = _hash_of(home_ana, "Our copy")
    assert "Our copy" not in home_ben and "Our copy" not in _page(ben, "/editions")
    assert ben.get(f"/editions/{ana_hash}.json").status_code == 404
    assert ben.post("/editions/drafts", data={"base": ana_hash}).status_code == 404
    # ben's form naming ana's edition does not make a game with it: ben plays the shipped board
    game = Phone(ben).create(edition=ana_hash)
    with app.app_context():
        assert service().view(game.url.rsplit("/", 1)[-1]).state.edition.name != "Our copy"
    # names are per phone: ben saves his own "Our copy" and ana's stays hers
    _save(ben, _import(ben, _checked(app, "Ben's copy", 1)), "Our copy")
    assert _hash_of(_page(ben, "/"), "Our copy") != ana_hash and _hash_of(_page(ana, "/"), "Our copy") == ana_hash


def test_saving_under_a_name_this_phone_used_asks_first_and_another_phones_name_is_free(app: Flask) -> None:
    text = _checked(app, "Copy", 2)
    with app.test_request_context():
        assert not saved_name_taken("Our copy")
        first = save_named("Our copy", text, replace=False)
        assert saved_name_taken("Our copy")
        with pytest.raises(NameTaken):
            save_named("Our copy", _checked(app, "Other", 5), replace=False)
        second = save_named("Our copy", _checked(app, "Other", 5), replace=True)
        assert second.content_hash != first.content_hash
        assert drafts.my_editions()[0].content_hash == second.content_hash and len(drafts.my_editions()) == 1
    with app.test_request_context():  # another phone (a fresh cookie)
        assert not saved_name_taken("Our copy")


def test_drafts_are_listed_newest_first_with_their_progress_and_can_be_thrown_away(client: FlaskClient) -> None:
    app = client.application
    first = _import(client, _checked(app, "First copy", 4))
    second = _import(client, _checked(app, "Second copy", 9))
    page = _page(client, "/editions")
    total = library.check_progress(_shipped(app))[1]
    second_line = f"Continue checking ‘Second copy’ — 9 of {total}"
    first_line = f"Continue checking ‘First copy’ — 4 of {total}"
    assert second_line in page and first_line in page
    assert page.index(second_line) < page.index(first_line)  # the last changed first
    draft_id = first.rsplit("/", 1)[-1]
    assert client.post(f"/editions/discard/{draft_id}").status_code == 303
    page = _page(client, "/editions")
    assert first_line not in page and second_line in page
    assert client.get(first).status_code == 404
    assert client.get(second).status_code == 200


def test_drafts_expire_thirty_days_after_their_last_change(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    draft = _import(client, _checked(client.application, "Old copy", 1))
    later = drafts._now() + timedelta(days=drafts.DRAFT_DAYS + 1)
    monkeypatch.setattr(drafts, "_now", lambda: later)
    assert client.get(draft).status_code == 404
    assert "Old copy" not in _page(client, "/editions")
    monkeypatch.undo()
    assert client.get(draft).status_code == 404  # thrown away, not only hidden


def test_a_phone_keeps_at_most_its_quota_of_drafts_and_is_told_in_words(client: FlaskClient) -> None:
    app = client.application
    for n in range(MAX_DRAFTS):
        _import(client, _checked(app, f"Copy {n}", 1))
    response = client.post("/editions/import", data={"text": _checked(app, "One too many", 1)})
    assert response.status_code == 422
    assert "This phone already keeps 20 drafts: continue one or throw one away first." in _page_of(response)
    other = app.test_client()  # the quota is per phone
    assert other.post("/editions/import", data={"text": _checked(app, "Another phone's", 1)}).status_code == 303


def _page_of(response: Any) -> str:
    return html.unescape(response.get_data(as_text=True))


def test_twenty_imports_of_a_large_file_add_nothing_and_of_one_file_add_one_draft(
    client: FlaskClient, tmp_path: Path
) -> None:
    app = client.application
    database = Path(app.config["DATABASE"])
    raw = _shipped(app)
    raw["notes"] = "x" * 1_900_000  # the 1.9 MB file of the report: a valid edition with a huge note
    large = json.dumps(raw)
    client.get("/editions")

    def size() -> int:
        return sum(p.stat().st_size for p in database.parent.glob(database.name + "*"))

    before = size()
    for _ in range(20):
        response = client.post("/editions/import", data={"text": large})
        assert response.status_code == 422
        assert "The file is too large: an edition file holds at most" in _page_of(response)
    assert size() - before < 100_000  # before: 20 × 1.9 MB = 40 MB
    text = _checked(app, "Our copy", 3)
    opened = {_import(client, text) for _ in range(20)}
    assert len(opened) == 1  # the same file again opens the same draft
    assert _page(client, "/editions").count("Continue checking ‘Our copy’") == 1
    assert size() - before < 1_000_000


def test_an_imported_file_says_whose_checks_it_carries_and_a_bad_file_is_a_422_naming_the_problem(
    client: FlaskClient,
) -> None:
    draft = _import(client, _checked(client.application, "Lucia's board", 5))
    page = _page(client, "/editions")
    assert "Checked values claimed by ‘Lucia's board’, imported on " in page
    _save(client, draft, "From Lucia")
    home = _page(client, "/")
    assert "Checked values claimed by ‘Lucia's board’" in home  # the saved edition is this phone's choice
    bad = json.loads(_checked(client.application, "Bad", 0))
    bad["sides"][0]["lines"]["1a"] = ["3a"]
    response = client.post("/editions/import", data={"text": json.dumps(bad)})
    assert response.status_code == 422
    assert "This file is not a valid edition:" in _page_of(response) and "one circle down" in _page_of(response)
    bad = json.loads(_checked(client.application, "Bad", 0))
    bad["circles"][2]["infamy"] = "seven"  # a wrong type: still a 422 in words, never a 500
    response = client.post("/editions/import", data={"text": json.dumps(bad)})
    assert response.status_code == 422
    assert "This file is not a valid edition:" in _page_of(response)
    assert "invalid literal" not in _page_of(response) and "Traceback" not in _page_of(response)


def _share(client: FlaskClient, name: str) -> str:
    response = client.post("/editions/mine/share", data={"name": name})
    assert response.status_code == 303
    return str(response.headers["Location"])


def test_an_edition_shared_by_link_is_used_on_another_phone_in_one_tap_and_plays_there(app: Flask) -> None:
    ana, ben = app.test_client(), app.test_client()
    _save(ana, _import(ana, _checked(app, "Checked copy", infamy=9)), "Our checked board")
    link = _share(ana, "Our checked board")
    assert _share(ana, "Our checked board") == link  # one link per edition
    token = link.rsplit("/", 1)[-1]
    with app.app_context():
        assert token not in {e.content_hash for e in service().store.named_editions("x")}
        assert len(token) >= 16
    own = _page(ana, link)
    assert "<svg" in own and "This edition is yours" in own
    page = _page(ben, link)
    assert "Our checked board" in page and "Checked values claimed by ‘Checked copy’" in page
    assert "Every value of the board has been checked against a real board." in page
    assert "Use it on this phone" in page
    used = ben.post(f"{link}/use")
    assert used.status_code == 303
    after = _page(ben, used.headers["Location"])
    assert "is now this phone's edition for new games" in after and "Start a new game with it" in after
    home = _page(ben, "/")
    chosen = re.search(r'<option value="([0-9a-f]{64})" selected>Our checked board</option>', home)
    assert chosen is not None
    game = Phone(ben).create(edition=chosen.group(1))
    with app.app_context():
        state = service().view(game.url.rsplit("/", 1)[-1]).state
    assert state.edition.name == "Our checked board" and state.edition.raw["circles"][2]["infamy"] == 9
    assert ben.post(f"{link}/use").status_code == 303  # a second tap keeps one copy
    assert _page(ben, "/editions").count("<strong>Our checked board</strong>") == 1
    assert ben.get("/editions/s/not-a-real-token-at-all").status_code == 404


def test_published_editions_are_compared_value_by_value_and_the_most_checked_is_proposed(app: Flask) -> None:
    ana, ben, cora = app.test_client(), app.test_client(), app.test_client()
    _save(ana, _import(ana, _checked(app, "Ana's", infamy=9)), "Ana's board")
    _save(ben, _import(ben, _checked(app, "Ben's", count=14, infamy=8)), "Ben's board")
    assert "No table has published an edition yet." in _page(cora, "/editions/published")
    assert ana.post("/editions/mine/publish", data={"name": "Ana's board", "publish": "1"}).status_code == 303
    assert ben.post("/editions/mine/publish", data={"name": "Ben's board", "publish": "1"}).status_code == 303
    assert cora.post("/editions/mine/publish", data={"name": "Ana's board", "publish": "1"}).status_code == 404
    page = _page(cora, "/editions/published")
    assert "Ana's board" in page and "Ben's board" in page
    rows = re.findall(r"<tr><td>([^<]*)</td><td>(\d+)</td><td>([^<]*)</td></tr>", page)
    assert rows, page
    ben_checked = library.check_progress(json.loads(_checked(app, "Ben's", count=14)))
    assert sum(1 for _, tables, _ in rows if tables == "2") == ben_checked[0]
    assert ("Circle 3: Infamy a soul scores on arrival", "2", "They differ") in rows  # 9 on one board, 8 on the other
    assert any(agree == "They agree" and tables == "2" for _, tables, agree in rows)
    assert not any("[" in name or "_" in name or "·" in name for name, _, _ in rows)  # no JSON path reaches the page
    home = _page(cora, "/")
    assert "Most checked by the tables: ‘Ana's board’" in home
    assert re.search(r"selected>Ana&#39;s board<|selected>Ana's board<", home)
    assert "Inferno" in home  # the shipped board is still offered
    assert ana.post("/editions/mine/publish", data={"name": "Ana's board", "publish": "0"}).status_code == 303
    assert "Ana's board" not in _page(cora, "/editions/published") and "Ana's board" not in _page(cora, "/")


def test_our_board_is_different_tapped_again_reopens_the_same_draft(phone: Phone) -> None:
    game_id = phone.create().url.rsplit("/", 1)[-1]
    opened = set()
    for _ in range(5):
        response = phone.client.post(f"/g/{game_id}/edition/fix", data={"shield": "1a"})
        assert response.status_code == 303
        opened.add(response.headers["Location"].split("?")[0])
    assert len(opened) == 1
    assert _page(phone.client, "/editions").count("Continue checking") == 1


def test_a_phone_keeps_at_most_its_quota_of_saved_editions(app: Flask, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(drafts, "MAX_SAVED", 2)
    with app.test_request_context():
        save_named("One", _checked(app, "One", 1), replace=False)
        save_named("Two", _checked(app, "Two", 2), replace=False)
        with pytest.raises(drafts.LibraryFull, match="already keeps 2 saved editions"):
            save_named("Three", _checked(app, "Three", 3), replace=False)
        save_named("Two", _checked(app, "Two again", 4), replace=True)  # replacing one is no new edition
        assert [e.name for e in drafts.my_editions()] == ["Two", "One"]
