"""A page reads where its game's log stands once, not twice (issue 27, item 5: each read is a round trip
to PostgreSQL): ``check_address`` reads it before the page, and the page's own first read takes that view
while no write through this process has put a newer one since."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask, request

from events.sqlite import SqliteStore
from tests.web.conftest import HX, Phone


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every read of a game's last seq, by game (the real store's own method, counted)."""
    seen: list[str] = []
    real = SqliteStore.last_seq

    def last_seq(self: SqliteStore, game_id: str) -> Any:
        seen.append(game_id)
        return real(self, game_id)

    monkeypatch.setattr(SqliteStore, "last_seq", last_seq)
    return seen


def test_a_live_refresh_reads_where_the_log_stands_once(app: Flask, phone: Phone, reads: list[str]) -> None:
    phone.create()
    game_id = phone.url.rsplit("/", 1)[1]
    reads.clear()
    answer = phone.client.get(phone.url, headers={**HX, "HX-Trigger": "live-trigger", "HX-Game-Parts": "turn:x"})
    assert answer.status_code == 200
    assert reads == [game_id]


def test_a_write_between_the_check_and_the_page_is_seen(app: Flask, phone: Phone) -> None:
    """The view kept by the address check is only taken while it is still the process's newest: a loan
    recorded through this process between the check and the page (another phone's, say) is on the page."""
    from companion.game.commands import TakeLoan
    from companion.web.http import db

    phone.create()
    game_id = phone.url.rsplit("/", 1)[1]
    before = phone.seq
    funcs = app.before_request_funcs[None]

    def check_then_a_loan() -> Any:
        answer = db.check_address()
        if game_id in request.path:
            db.service().execute(game_id, before, TakeLoan(0), "between-the-check-and-the-page")
        return answer

    funcs[funcs.index(db.check_address)] = check_then_a_loan
    page = phone.client.get(phone.url).data.decode()
    assert f'data-seq="{before + 1}"' in page  # the loan's entry, not the view the check read
