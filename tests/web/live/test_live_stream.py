"""Live updates over a real socket: eight phones listening never block a write and each hears it;
every join and every closed page reaches the others at once; a quiet stream beats, then ends."""

from __future__ import annotations

import http.client
import threading
import time
from pathlib import Path

from companion.web import create_app
from companion.web.live.notifier import notifier_of
from testkit.live_client import Stream, serving, shared_phones
from tests.builders import found

PHONES = 8
# ``server`` (tests/web/conftest.py): the app on a real socket, as a phone reaches it


def request(addr: tuple[str, int], method: str, path: str, body: str = "") -> tuple[int, str, dict[str, str]]:
    conn = http.client.HTTPConnection(*addr, timeout=10)
    headers = {"Content-Type": "application/x-www-form-urlencoded"} if body else {}
    conn.request(method, path, body=body, headers=headers)
    response = conn.getresponse()
    return response.status, response.read().decode(), dict(response.getheaders())


def test_eight_listening_phones_never_block_a_write_and_all_hear_it(server: tuple[str, int]) -> None:
    status, _, headers = request(
        server, "POST", "/games", "key=live-create-01&name=Ana&name=Ben&colour=crimson&colour=navy&plague=2&plague=3"
    )
    assert status == 303
    game = headers["Location"]
    _, page, _ = request(server, "GET", game)
    seq = int(found(r'data-seq="(\d+)"', page).group(1))

    heard: dict[int, list[tuple[float, int]]] = {i: [] for i in range(PHONES)}
    ready = threading.Barrier(PHONES + 1)
    stop = threading.Event()

    def listen(i: int) -> None:
        conn = http.client.HTTPConnection(*server, timeout=5)
        conn.request("GET", f"{game}/events?since={seq}")
        response = conn.getresponse()
        assert response.getheader("Content-Type", "").startswith("text/event-stream")
        ready.wait()
        while not stop.is_set():
            try:
                line = response.readline().decode()
            except TimeoutError:
                break
            if line.startswith("data: ") and line[6:].strip().isdigit():
                heard[i].append((time.monotonic(), int(line[6:])))
        conn.close()

    threads = [threading.Thread(target=listen, args=(i,), daemon=True) for i in range(PHONES)]
    for t in threads:
        t.start()
    ready.wait(10)
    time.sleep(0.3)
    started = time.monotonic()
    status, _, _ = request(server, "POST", f"{game}/loan", f"seq={seq}&key=live-loan-0001&player=0")
    wrote = time.monotonic()
    assert status == 303 or status == 200
    assert wrote - started < 1.0, "a write waited behind the listening phones"
    deadline = time.monotonic() + 3
    while time.monotonic() < deadline and not all(heard[i] for i in range(PHONES)):
        time.sleep(0.05)
    stop.set()
    for i in range(PHONES):
        assert heard[i], f"phone {i} heard nothing"
        when, new_seq = heard[i][-1]
        assert new_seq == seq + 1
        assert when - wrote < 1.0, f"phone {i} heard the change after {when - wrote:.2f}s"


def test_a_reconnecting_phone_is_told_at_once_where_the_log_stands(server: tuple[str, int]) -> None:
    status, _, headers = request(server, "POST", "/games", "key=live-create-02&name=Ana&colour=crimson&plague=2")
    assert status == 303
    game = headers["Location"]
    conn = http.client.HTTPConnection(*server, timeout=5)
    conn.request("GET", f"{game}/events", headers={"Last-Event-ID": "1"})  # it last heard seq 1; the log is at 2
    response = conn.getresponse()
    lines = [response.readline().decode() for _ in range(6)]
    conn.close()
    assert "id: 2\n" in lines and "event: seq\n" in lines


def new_game(addr: tuple[str, int], key: str) -> str:
    status, _, headers = request(addr, "POST", "/games", f"key={key}&name=Ana&colour=crimson&plague=2")
    assert status == 303
    return headers["Location"]


def test_a_join_and_a_closed_page_reach_the_other_pages_at_once(server: tuple[str, int]) -> None:
    game = new_game(server, "live-create-03")
    first = Stream(*server, f"{game}/events")
    assert first.when(lambda s: shared_phones(s.presence()) == 1, 3)
    second = Stream(*server, f"{game}/events")
    assert first.when(lambda s: shared_phones(s.presence()) == 2, 2), first.presence()
    hung_up = time.monotonic()
    second.close()
    heard = first.when(lambda s: shared_phones(s.presence()) == 1, 3)
    assert heard is not None, f"the closed page is still listed: {first.presence()}"
    assert heard - hung_up < 2.0
    first.close()


def test_reloading_a_page_leaves_no_ghost(server: tuple[str, int]) -> None:
    game = new_game(server, "live-create-04")
    table = Stream(*server, f"{game}/events")
    phone = Stream(*server, f"{game}/events")
    for _ in range(3):  # a reload: the old connection closes, a new one opens
        phone.close()
        phone = Stream(*server, f"{game}/events")
    assert table.when(lambda s: shared_phones(s.presence()) == 2, 3)
    time.sleep(0.7)  # longer than a stream takes to notice a hang-up
    assert shared_phones(table.presence()) == 2, table.presence()
    phone.close()
    table.close()


def test_a_stream_beats_while_quiet_then_ends_so_the_browser_reconnects(tmp_path: Path) -> None:
    settings = {"LIVE_STREAM_SECONDS": 1.0, "LIVE_HEARTBEAT_SECONDS": 0.2}
    app = create_app({"DATABASE": str(tmp_path / "short.sqlite3"), "SECRET_KEY": "t", "WTF_CSRF_ENABLED": False})
    app.config.update(settings)
    with serving(app) as addr:
        game = new_game(addr, "live-create-05")
        conn = http.client.HTTPConnection(*addr, timeout=5)
        started = time.monotonic()
        conn.request("GET", f"{game}/events")
        response = conn.getresponse()
        lines = []
        while line := response.readline().decode():
            lines.append(line)
        ended = time.monotonic() - started
        conn.close()
        assert "retry: 1000\n" in lines and "id: 2\n" in lines  # creating a game records two entries
        assert lines.count(": keep-alive\n") >= 3, lines
        assert 0.8 < ended < 3.0, ended
        deadline = time.monotonic() + 2
        while notifier_of(app).listeners() and time.monotonic() < deadline:
            time.sleep(0.02)
        assert notifier_of(app).listeners() == 0, "an ended stream is still listed"
