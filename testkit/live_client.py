"""Helpers for live pages over real sockets: an SSE reader, the real server in a subprocess (or an app
served in a thread), JSON API calls, and Chromium's flags for a headless run on loopback. Used by the
live-stream tests, the browser journeys (``e2e/conftest.py``) and the benchmarks (``bench/``), so each
exists once."""

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
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from werkzeug.serving import make_server

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM_ARGS = [  # headless on loopback: no GPU, no QUIC, nothing fetched in the background
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def chromium_path() -> str | None:
    """CHROMIUM_PATH, else Debian's /usr/bin/chromium, else Playwright's own download (None)."""
    env = os.environ.get("CHROMIUM_PATH")
    if env and Path(env).exists():
        return env
    if Path("/usr/bin/chromium").exists():
        return "/usr/bin/chromium"
    return None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(db: str | Path, port: int, *extra: str, errors: Path | None = None) -> subprocess.Popen[bytes]:
    """``python -m companion serve`` on 127.0.0.1:``port``, as ``make run`` starts it, with the options
    ``extra``; waits until it answers. Its stderr goes to the file ``errors`` if given (and is told
    when the server exits before answering), else nowhere."""
    env = {**os.environ, "COMPANION_SECRET_KEY": "live-test"}
    command = [sys.executable, "-m", "companion", "serve", "--port", str(port), "--db", str(db), *extra]
    with errors.open("wb") if errors else contextlib.nullcontext(subprocess.DEVNULL) as sink:
        proc = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=sink)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/openapi.json", timeout=1).read()
            return proc
        except OSError as exc:
            if proc.poll() is not None:
                told = errors.read_text(errors="replace") if errors else ""
                raise RuntimeError(f"the server exited with {proc.returncode}: {told}") from exc
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError("the server did not start in 30 s")


def stop_server(proc: subprocess.Popen[bytes]) -> None:
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(5)


@contextlib.contextmanager
def serving(app: Any) -> Iterator[tuple[str, int]]:
    """``app`` served on 127.0.0.1 (a free port) by a threaded werkzeug server in this process; its
    address while the block runs, then the server is shut down."""
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield "127.0.0.1", server.server_port
    finally:
        server.shutdown()
        thread.join(5)


def api(
    port: int, path: str, body: dict[str, Any], token: str | None = None, timeout: float = 10
) -> tuple[int, dict[str, Any]]:
    """POST ``body`` as JSON to the API (with the bearer ``token`` if given); the status and the JSON answer."""
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=json.dumps(body).encode(), headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=timeout) as response:
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
