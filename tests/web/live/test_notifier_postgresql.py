"""On PostgreSQL the live notifier learns of writes from any process by LISTEN, and wakes the pages."""

from __future__ import annotations

import time

from companion.web.live.notifier import Notifier
from events.factory import connect_store, open_store
from events.store import NewEvent


def evt(n: int) -> NewEvent:
    return NewEvent("InfamyChanged", 1, {"player": 0, "amount": n, "reason": "test"})


def test_a_write_on_postgresql_wakes_the_listening_pages_of_its_game(pg_url: str) -> None:
    store = open_store(pg_url)
    store.create_game("pg-live", "game", "h" * 64, ("r", "w"), [evt(0)], "pg-live-create")
    notifier = Notifier(pg_url)
    page = notifier.subscribe("pg-live", "0")
    notifier.note_seq("pg-live", store.last_seq("pg-live"))
    page.wait(0.2)  # the wake of its own join
    deadline = time.monotonic() + 5
    while notifier.checks == 0 and time.monotonic() < deadline:  # the watcher is listening
        time.sleep(0.01)
    writer = connect_store(pg_url)  # another connection, as another process would
    started = time.monotonic()
    writer.append("pg-live", 1, [evt(1), evt(2)], "pg-live-k1")
    woken = page.wait(5.0)
    took = time.monotonic() - started
    seen = notifier.seq("pg-live")
    writer.close()
    watcher = notifier._watcher
    notifier.unsubscribe(page)
    if watcher is not None:  # its last presence update is done before the test's schema goes
        watcher.join(5)
    store.close()
    assert woken and seen == 3
    assert took < 1.0, f"the page heard the write after {took:.3f} s"
