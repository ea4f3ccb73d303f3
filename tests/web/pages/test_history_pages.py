"""A long game's history is shown a page at a time, newest first, with a link to older entries."""

from __future__ import annotations

import re

from companion.web.pages.history import HISTORY_PAGE
from companion.web.screens.history_cache import FOLDS_KEY
from tests.web.conftest import Phone


def entry_seqs(html: str) -> list[int]:
    return [int(s) for s in re.findall(r'<li id="entry-(\d+)"', html)]


def test_the_history_of_a_long_game_pages_newest_first(client) -> None:
    phone = Phone(client).create()
    for i in range(HISTORY_PAGE + 5):
        assert phone.post("loan", {"player": 0}, key=f"loan-{i:03d}").status_code == 200
    first = client.get(phone.url + "/history").data.decode()
    shown = entry_seqs(first)
    assert len(shown) == HISTORY_PAGE and shown == sorted(shown, reverse=True)
    assert shown[0] == phone.seq  # the newest entry first
    older = re.search(r'href="([^"]*before=(\d+)[^"]*)"', first)
    assert older is not None and int(older.group(2)) == shown[-1]
    second = client.get(older.group(1).replace("&amp;", "&")).data.decode()
    rest = entry_seqs(second)
    assert rest and max(rest) < shown[-1] and 1 in rest  # down to the game's creation
    assert "Newest entries" in second and "Older entries" not in second


def test_the_history_kept_between_requests_tells_what_a_fresh_telling_tells(app, client) -> None:
    from flask_babel import force_locale

    from companion.web.http.db import service
    from companion.web.screens.history import history_entries

    phone = Phone(client).create()
    game_id = phone.url.rsplit("/", 1)[-1]
    for step, (action, data) in enumerate(
        [("loan", {"player": 0}), ("loan", {"player": 0}), ("undo", {}), ("redo", {}), ("loan", {"player": 0})]
    ):
        assert phone.post(action, data, key=f"history-key-{step:03d}").status_code == 200
        for language in ("en", "es"):
            with app.test_request_context(f"/g/{game_id}/history"), force_locale(language):
                view = service().view(game_id)
                kept = app.extensions[FOLDS_KEY].entries(view, language)
                assert kept == history_entries(view)
    with app.test_request_context(f"/g/{game_id}/history"), force_locale("es"):
        assert any(
            "préstamo" in " ".join(e.sentences)
            for e in app.extensions[FOLDS_KEY].entries(service().view(game_id), "es")
        )
