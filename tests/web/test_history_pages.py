"""A long game's history is shown a page at a time, newest first, with a link to older entries."""

from __future__ import annotations

import re

from companion.web.history_pages import HISTORY_PAGE
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
