"""Several server processes on one database (two ``companion serve`` on their own ports, as two
workers are, and one ``--workers 2``): a write through one reaches the live pages of the other
within 200 ms at p95, the other never serves the game as it was before the write, and every page
sees who is at the table whichever process serves it."""

from __future__ import annotations

import json
import statistics
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from testkit.live_client import Stream, free_port, new_game, shared_phones, start_server, stop_server, take_loan

WRITES = 20
P95_LIMIT = 0.200


def game_seq(port: int, game: dict[str, Any]) -> int:
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/api/v1/games/{game['game_id']}",
        headers={"Authorization": f"Bearer {game['write_token']}"},
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return int(json.loads(response.read())["seq"])


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return str(tmp_path / "workers.sqlite3")
    return str(request.getfixturevalue("pg_url"))


@pytest.fixture
def two_servers(database: str) -> Iterator[tuple[int, int]]:
    ports = free_port(), free_port()
    first = _start(database, ports[0])
    try:
        second = _start(database, ports[1])
    except BaseException:
        stop_server(first)
        raise
    yield ports
    stop_server(second)
    stop_server(first)


def _start(database: str, port: int) -> subprocess.Popen[bytes]:
    """A server on ``database`` (a SQLite file or a PostgreSQL URL, which ``Path`` would mangle)."""
    return start_server(database if "://" in database else Path(database), port)


def test_a_write_through_one_process_reaches_the_other_fast_and_is_never_served_stale(
    two_servers: tuple[int, int],
) -> None:
    a, b = two_servers
    game = new_game(a, "workers-create-01")
    assert game_seq(b, game) == game["seq"]  # B has the game in its view cache now
    stream = Stream("127.0.0.1", b, f"/g/{game['game_id']}/events")
    try:
        assert stream.when(lambda s: game["seq"] in s.seqs(), 5), "B's page never started"
        seq, delays = game["seq"], []
        for i in range(WRITES):
            seq = take_loan(a, game, seq, f"workers-loan-{i:04d}")
            wrote = time.monotonic()  # A acknowledged the write

            def holds(s: Stream, seq: int = seq) -> bool:
                return seq in s.seqs()

            heard = stream.when(holds, 3)
            assert heard is not None, f"B's page never heard seq {seq}"
            delays.append(heard - wrote)
            assert game_seq(b, game) == seq, "B served the game as it was before A's write"
        p95 = statistics.quantiles(delays, n=20)[-1]
        assert p95 <= P95_LIMIT, f"p95 {p95 * 1000:.0f} ms: {[round(d * 1000) for d in delays]}"
    finally:
        stream.close()


def test_pages_on_two_processes_see_each_other_join_and_leave(two_servers: tuple[int, int]) -> None:
    a, b = two_servers
    game = new_game(a, "workers-create-02")
    events = f"/g/{game['game_id']}/events"
    on_a = Stream("127.0.0.1", a, events)
    on_b = Stream("127.0.0.1", b, events)
    try:
        assert on_a.when(lambda s: shared_phones(s.presence()) == 2, 5), on_a.presence()
        assert on_b.when(lambda s: shared_phones(s.presence()) == 2, 5), on_b.presence()
        second_b = Stream("127.0.0.1", b, events)
        assert on_a.when(lambda s: shared_phones(s.presence()) == 3, 3), on_a.presence()
        closed = time.monotonic()
        second_b.close()
        left = on_a.when(lambda s: shared_phones(s.presence()) == 2, 3)
        assert left is not None and left - closed < 2.0, on_a.presence()
    finally:
        on_a.close()
        on_b.close()


def _children(pid: int) -> list[int]:
    path = Path(f"/proc/{pid}/task/{pid}/children")
    return [int(c) for c in path.read_text().split()] if path.exists() else []


def test_two_gunicorn_workers_serve_one_table(tmp_path: Path) -> None:
    port = free_port()
    server = start_server(tmp_path / "two.sqlite3", port, "--workers", "2")
    streams: list[Stream] = []
    try:
        if Path("/proc").exists():
            deadline = time.monotonic() + 10
            while len(_children(server.pid)) < 2 and time.monotonic() < deadline:
                time.sleep(0.1)
            assert len(_children(server.pid)) == 2, "gunicorn did not start two workers"
        game = new_game(port, "workers-create-03")
        streams = [Stream("127.0.0.1", port, f"/g/{game['game_id']}/events") for _ in range(6)]
        for stream in streams:  # whichever worker the kernel gave each page to
            assert stream.when(lambda s: shared_phones(s.presence()) == 6, 5), stream.presence()
        wrote = time.monotonic()
        seq = take_loan(port, game, game["seq"], "workers-loan-two")
        heard = [s.when(lambda s: seq in s.seqs(), 3) for s in streams]
        assert all(h is not None and h - wrote < 1.0 for h in heard), heard
    finally:
        for stream in streams:
            stream.close()
        stop_server(server)
