"""The real server (``python -m companion serve`` in a subprocess, on 127.0.0.1): many open live
pages, idle sockets and slow readers lock nobody out, and presence follows every join and leave."""

from __future__ import annotations

import socket
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.editions import load_all
from companion.game.commands import TakeLoan
from companion.service import GameService
from events.sqlite import SqliteStore
from testkit.live_client import Stream, free_port, new_game, shared_phones, start_server, stop_server, take_loan

DATABASE = "live.sqlite3"
LIVE_PAGES = 60  # more than the 32 threads the old server had
IDLE = 40  # connect and send nothing
HALF_SENT = 30  # send half a request, then nothing
NOT_READING = 30  # open a live page and never read it


@pytest.fixture
def port(tmp_path: Path) -> Iterator[int]:
    port = free_port()
    server: subprocess.Popen[bytes] = start_server(tmp_path / DATABASE, port)
    yield port
    stop_server(server)


def timed_get(port: int, path: str) -> tuple[int, float]:
    started = time.monotonic()
    with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=10) as response:
        response.read()
        return response.status, time.monotonic() - started


def test_open_pages_idle_sockets_and_slow_readers_lock_nobody_out(port: int) -> None:
    game = new_game(port, "server-create-01")
    page = f"/g/{game['game_id']}"
    held: list[socket.socket] = []
    streams: list[Stream] = []
    try:
        streams = [Stream("127.0.0.1", port, f"{page}/events") for _ in range(LIVE_PAGES)]
        for i in range(IDLE + HALF_SENT + NOT_READING):
            sock = socket.create_connection(("127.0.0.1", port), timeout=5)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
            if i >= IDLE + HALF_SENT:
                sock.sendall(f"GET {page}/events HTTP/1.1\r\nHost: x\r\n\r\n".encode())  # and never read
            elif i >= IDLE:
                sock.sendall(f"GET {page} HTTP/1.1\r\nHost: x\r\n".encode())  # the rest never comes
            held.append(sock)
        loads = [timed_get(port, page) for _ in range(5)]
        assert all(status == 200 for status, _ in loads)
        assert max(seconds for _, seconds in loads) < 2.0, loads
        assert sorted(seconds for _, seconds in loads)[2] < 0.5, loads

        before = game["seq"]
        wrote = time.monotonic()
        seq = take_loan(port, game, before, "server-loan-0001")
        assert time.monotonic() - wrote < 2.0
        heard = [s.when(lambda s: seq in s.seqs(), 5) for s in streams]
        assert all(h is not None for h in heard), f"{sum(h is None for h in heard)} pages heard nothing"
        assert max(h - wrote for h in heard if h is not None) < 2.0
    finally:
        for sock in held:
            sock.close()
        for stream in streams:
            stream.close()


def test_presence_follows_every_join_and_leave_without_ghosts(port: int) -> None:
    game = new_game(port, "server-create-02")
    events = f"/g/{game['game_id']}/events"
    table = Stream("127.0.0.1", port, events)
    assert table.when(lambda s: shared_phones(s.presence()) == 1, 5), table.presence()
    phone = Stream("127.0.0.1", port, events)
    assert table.when(lambda s: shared_phones(s.presence()) == 2, 2), table.presence()
    for _ in range(3):  # reloads: the old connection closes, a new one opens
        phone.close()
        phone = Stream("127.0.0.1", port, events)
    settled = table.when(lambda s: shared_phones(s.presence()) == 2, 2)
    assert settled is not None, table.presence()
    time.sleep(0.5)
    assert shared_phones(table.presence()) == 2, f"a reload left a ghost: {table.presence()}"
    assert shared_phones(phone.presence()) == 2, phone.presence()
    closed = time.monotonic()
    phone.close()
    left = table.when(lambda s: shared_phones(s.presence()) == 1, 3)
    assert left is not None and left - closed < 2.0, table.presence()
    table.close()


def test_the_threaded_fallback_still_serves_live_pages(tmp_path: Path) -> None:
    port = free_port()
    server = start_server(tmp_path / "fallback.sqlite3", port, "--server", "waitress")
    try:
        game = new_game(port, "fallback-create-01")
        streams = [Stream("127.0.0.1", port, f"/g/{game['game_id']}/events") for _ in range(3)]
        assert streams[0].when(lambda s: shared_phones(s.presence()) == 3, 3), streams[0].presence()
        wrote = time.monotonic()
        seq = take_loan(port, game, game["seq"], "fallback-loan-0001")
        heard = [s.when(lambda s: seq in s.seqs(), 3) for s in streams]
        assert all(h is not None and h - wrote < 2.0 for h in heard), heard
        for stream in streams:
            stream.close()
    finally:
        stop_server(server)


def test_a_write_by_another_process_reaches_the_open_pages(port: int, tmp_path: Path) -> None:
    game = new_game(port, "server-create-03")
    streams = [Stream("127.0.0.1", port, f"/g/{game['game_id']}/events") for _ in range(5)]
    assert all(s.when(lambda s: game["seq"] in s.seqs(), 3) for s in streams)
    store = SqliteStore.open(tmp_path / DATABASE)  # this test's process, not the server's
    try:
        wrote = time.monotonic()
        outcome = GameService(store, load_all()).execute(game["game_id"], game["seq"], TakeLoan(0), "other-0001")
    finally:
        store.close()
    seq = outcome.view.seq
    heard = [s.when(lambda s: seq in s.seqs(), 3) for s in streams]
    assert all(h is not None and h - wrote < 2.0 for h in heard), heard
    for stream in streams:
        stream.close()
