"""Test helpers for live pages over real sockets: an SSE reader, the real server in a subprocess,
and JSON API calls (used by the live-stream tests and the benchmark's checks)."""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import re
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(db: str | Path, port: int, *extra: str) -> subprocess.Popen[bytes]:
    """``python -m companion serve`` on 127.0.0.1:``port``, as ``make run`` starts it; waits until it answers."""
    env = {**os.environ, "COMPANION_SECRET_KEY": "live-test"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "companion", "serve", "--port", str(port), "--db", str(db), *extra],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/openapi.json", timeout=1).read()
            return proc
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError("the server did not start")


def stop_server(proc: subprocess.Popen[bytes]) -> None:
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(5)


def api(port: int, path: str, body: dict[str, Any], token: str | None = None) -> tuple[int, dict[str, Any]]:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=json.dumps(body).encode(), headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=10) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read() or b"{}")


def new_game(port: int, key: str, players: int = 2) -> dict[str, Any]:
    colours = ["crimson", "navy", "forest", "gold"]
    status, game = api(
        port,
        "/api/v1/games",
        {
            "players": [{"name": f"P{i}", "colour": colours[i]} for i in range(players)],
            "plague_card": [2, 3][:players],
            "idempotency_key": key,
        },
    )
    assert status == 201, game
    return game


def take_loan(port: int, game: dict[str, Any], seq: int, key: str) -> int:
    """One write through the API; returns the new seq."""
    status, body = api(
        port,
        f"/api/v1/games/{game['game_id']}/commands",
        {"expected_seq": seq, "idempotency_key": key, "command": {"type": "TakeLoan", "data": {"player": 0}}},
        game["write_token"],
    )
    assert status == 200, body
    return int(body["seq"])


class Stream:
    """One open live page: reads its events in a thread and keeps them, with when they came."""

    def __init__(self, host: str, port: int, path: str, headers: dict[str, str] | None = None) -> None:
        self.conn = http.client.HTTPConnection(host, port, timeout=10)
        self.conn.request("GET", path, headers=headers or {})
        self.sock = self.conn.sock  # kept: the connection lets go of it once the response is open
        self.response = self.conn.getresponse()
        assert self.response.getheader("Content-Type", "").startswith("text/event-stream")
        self.events: list[tuple[float, str, str]] = []  # (when, event name, data)
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        name, data = "message", ""
        try:
            while True:
                line = self.response.readline().decode()
                if not line:
                    return
                if line.startswith("event: "):
                    name = line[7:].strip()
                elif line.startswith("data: "):
                    data = line[6:].rstrip("\n")
                elif line == "\n":
                    if data:
                        with self._lock:
                            self.events.append((time.monotonic(), name, data))
                    name, data = "message", ""
        except (OSError, ValueError, AttributeError, http.client.HTTPException):
            return  # hung up (http.client may trip over a socket closed under it)

    def seqs(self) -> list[int]:
        with self._lock:
            return [int(d) for _, n, d in self.events if n == "seq"]

    def presence(self) -> str:
        """The newest presence list this page was sent ("" before any)."""
        with self._lock:
            sent = [d for _, n, d in self.events if n == "presence"]
        return sent[-1] if sent else ""

    def when(self, predicate: Callable[[Stream], bool], seconds: float = 5.0) -> float | None:
        """Wait until ``predicate(self)`` holds; the time it first held, or None."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if predicate(self):
                return time.monotonic()
            time.sleep(0.01)
        return None

    def close(self) -> None:
        """Hang up, as a browser does on a reload or a closed tab."""
        with contextlib.suppress(OSError):
            self.sock.shutdown(socket.SHUT_RDWR)
        self._thread.join(5)
        self.response.close()
        self.conn.close()


def shared_phones(presence: str) -> int:
    """The "shared phones: N" count in a presence list (0 when absent)."""
    found = re.search(r"shared phones: (\d+)", presence)
    return int(found.group(1)) if found else 0
