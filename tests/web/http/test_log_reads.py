"""A request reads where its game's log stands once (issue 27, items 2 and 5: each read is a statement,
and a round trip to PostgreSQL): ``check_address`` reads it before a page, and every later read of the
request takes that view while no write through this process has put a newer one since. A tap reads it once, under
its append's lock, in the statement that also looks its key up: the seat, the loans and the command's judgement take
the view the process keeps when it stands at the screen's seq, and a log moved on meanwhile by another process is a
conflict, whatever the tap would have been (recorded, refused, a loan to confirm). The key is looked up before the
append only when the screen is behind the log (a double tap)."""

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


def test_a_tap_reads_the_log_once_under_its_lock(
    app: Flask, phone: Phone, reads: list[str], key_lookups: list[str], statements: list[str]
) -> None:
    phone.create()
    seq = phone.seq
    reads.clear()
    key_lookups.clear()
    statements.clear()
    answer = phone.post("loan", {"player": 0}, key="one-read-tap")
    assert answer.status_code == 200 and phone.seq == seq + 1
    assert reads == [] and key_lookups == []  # the append's read, in its statement under the lock, is the only one
    begin = statements.index("BEGIN IMMEDIATE")
    before, under = statements[:begin], statements[begin:]
    log_reads = [s for s in under if "MAX(seq)" in s]
    assert len(log_reads) == 1 and "idempotency_key" in log_reads[0]  # where the log stands and the key, once
    assert not any("FROM events" in s for s in before)
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


def _entry_through_another_process(app: Flask, game_id: str, seq: int) -> None:
    """A loan recorded by another process on the same log: straight into the store, past this process's kept view."""
    from companion.formats.commands import to_new_events
    from companion.game.commands import TakeLoan
    from companion.web.http import db

    with app.test_request_context():
        view = db.service().view(game_id)
        from companion.game.game_or_tally import decide_any

        events = to_new_events(list(decide_any(view.state, TakeLoan(0))))
    other = SqliteStore.open(app.config["DATABASE"])
    try:
        other.append(game_id, seq, events, "another-process-loan", {"type": "TakeLoan", "data": {"player": 0}})
    finally:
        other.close()


@pytest.mark.parametrize(
    ("action", "fields", "said"),
    [
        ("loan", {"player": 0}, "recorded"),  # legal on the screen's game
        ("bring", {"player": 0, "colour": 9, "shield": "1a"}, "refused"),  # illegal on it (no ice-blue soul)
        ("end-turn", {"player": 1}, "refused"),  # not Ben's turn
    ],
)
def test_an_entry_made_through_another_process_makes_a_tap_from_the_screen_before_it_a_conflict(
    app: Flask, phone: Phone, action: str, fields: dict[str, Any], said: str
) -> None:
    """The phone's screen and the process's kept view both stand before an entry another process recorded: the tap is
    answered with the fresh game and the conflict (409), never recorded and never refused on the old game."""
    phone.create()
    game_id = phone.url.rsplit("/", 1)[1]
    seq = phone.seq
    _entry_through_another_process(app, game_id, seq)
    answer = phone.post(action, fields, key=f"from-the-old-screen-{action}", seq=seq)
    assert answer.status_code == 409, (said, phone.html[:300])
    assert "This screen was out of date" in phone.html
    assert f'data-seq="{seq + 1}"' in phone.html  # the other process's entry, shown
    assert 'id="refusal-' not in phone.html
    again = phone.post("loan", {"player": 0}, key="after-the-conflict", seq=seq + 1)
    assert again.status_code == 200 and phone.seq == seq + 2  # the fresh screen records


def test_a_loan_to_confirm_from_the_screen_before_another_process_entry_is_a_conflict(app: Flask, phone: Phone) -> None:
    from tests.web.conftest import broke_ana

    broke_ana(phone)
    game_id = phone.url.rsplit("/", 1)[1]
    seq = phone.seq
    _entry_through_another_process(app, game_id, seq)
    answer = phone.post("bring", {"player": 0, "colour": 2, "shield": "1c", "borrow": "1"}, seq=seq)
    assert answer.status_code == 409 and 'id="loan-confirm"' not in phone.html


def test_a_seat_refused_from_the_screen_before_another_process_entry_is_a_conflict(app: Flask, phone: Phone) -> None:
    phone.create(table_mode="seats", key="create-key-seats")  # this phone takes no seat
    game_id = phone.url.rsplit("/", 1)[1]
    seq = phone.seq
    assert phone.post("loan", {"player": 0}, key="no-seat-tap", seq=seq).status_code == 403  # the seat refused
    _entry_through_another_process(app, game_id, seq)
    answer = phone.post("loan", {"player": 0}, key="no-seat-tap-again", seq=seq)
    assert answer.status_code == 409 and "This screen was out of date" in phone.html
