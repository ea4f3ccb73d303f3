"""A request reads where its game's log stands once (issue 27, items 2 and 5: each read is a statement,
and a round trip to PostgreSQL): ``check_address`` reads it before the page, and every later read of the
request (the page, the seat, the loans, the command's judgement) takes that view while no write through
this process has put a newer one since. A tap's append reads the log and its key again under its own lock, in one
statement, and only there: the key is looked up before it only when the screen is behind the log (a double tap)."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask, request

from events.sqlite import SqliteStore
from tests.web.conftest import HX, Phone


@pytest.fixture
def key_lookups(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every lookup of an idempotency key (the real store's own method, counted)."""
    seen: list[str] = []
    real = SqliteStore.recorded_under_key

    def recorded_under_key(self: SqliteStore, game_id: str, key: str) -> Any:
        seen.append(key)
        return real(self, game_id, key)

    monkeypatch.setattr(SqliteStore, "recorded_under_key", recorded_under_key)
    return seen


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


@pytest.fixture
def statements(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every SQL statement the app's SQLite stores run (each connection traced from the store made on it)."""
    seen: list[str] = []
    real = SqliteStore.__init__

    def traced(self: SqliteStore, conn: Any) -> None:
        conn.set_trace_callback(seen.append)
        real(self, conn)

    monkeypatch.setattr(SqliteStore, "__init__", traced)
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


def test_a_tap_reads_the_log_once_before_its_append_and_once_under_its_lock(
    app: Flask, phone: Phone, reads: list[str], key_lookups: list[str], statements: list[str]
) -> None:
    phone.create()
    game_id = phone.url.rsplit("/", 1)[1]
    seq = phone.seq
    reads.clear()
    key_lookups.clear()
    statements.clear()
    answer = phone.post("loan", {"player": 0}, key="one-read-tap")
    assert answer.status_code == 200 and phone.seq == seq + 1
    assert reads == [game_id]  # the address check's read; the append's own is in its statement under the lock
    assert key_lookups == []  # the key is looked up in that statement alone
    begin = statements.index("BEGIN IMMEDIATE")
    before, under = statements[:begin], statements[begin:]
    log_reads = [s for s in under if "MAX(seq)" in s]
    assert len(log_reads) == 1 and "idempotency_key" in log_reads[0]  # where the log stands and the key, once
    assert sum("MAX(seq)" in s for s in before) == 1 and not any("idempotency_key" in s for s in before)
    assert under[-1] == "COMMIT" and sum(s.startswith("INSERT INTO events") for s in under) == 1


def test_a_double_tap_is_told_apart_from_a_stale_screen_by_its_key(
    app: Flask, phone: Phone, key_lookups: list[str]
) -> None:
    """The screen behind the log: the key, looked up first, says the tap was recorded already."""
    phone.create()
    seq = phone.seq
    assert phone.post("loan", {"player": 0}, key="twice-tapped", seq=seq).status_code == 200
    key_lookups.clear()
    again = phone.post("loan", {"player": 0}, key="twice-tapped", seq=seq)
    assert again.status_code == 200 and "Already recorded." in again.data.decode()
    assert key_lookups == ["twice-tapped"]
    stale = phone.post("loan", {"player": 0}, key="another-key", seq=seq)
    assert stale.status_code == 409 and phone.seq == seq + 1  # nothing recorded


def test_a_tap_judges_its_command_once(app: Flask, phone: Phone, monkeypatch: pytest.MonkeyPatch) -> None:
    """The loans' check judges the command on the view the service then records it on: not twice."""
    from companion.game import loans
    from companion.service import games

    judged: list[str] = []
    for module in (loans, games):
        real = module.decide_any

        def counted(state: Any, command: Any, real: Any = real) -> Any:
            judged.append(type(command).__name__)
            return real(state, command)

        monkeypatch.setattr(module, "decide_any", counted)
    phone.create()
    seq = phone.seq
    judged.clear()
    assert phone.post("bring", {"player": 0, "colour": 2, "shield": "1b"}).status_code == 200
    assert phone.seq > seq  # recorded
    assert judged == ["BringSoul"]
