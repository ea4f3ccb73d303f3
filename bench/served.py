"""The benchmark's servers and client: the real app (``companion serve``) and the bare insert server
(``bench/bare_server.py``), each in its own process on 127.0.0.1 and a free port, on the same server kind (gunicorn with
one gevent worker where gunicorn runs, as ``companion serve`` picks, else waitress), and a keep-alive
HTTP client that keeps the session cookie, sends the CSRF token read from the page, and counts bytes
on the wire.
"""

from __future__ import annotations

import asyncio
import gzip
import http.client
import os
import re
import socket
import subprocess
import sys
import time
import zlib
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlencode

import brotli
from backports import zstd

from companion.cli.serve import gunicorn_runs_here
from testkit.live_client import free_port

ROOT = Path(__file__).resolve().parents[1]
CSRF_RE = re.compile(r'name="csrf_token" value="([^"]+)"|"X-CSRFToken": "([^"]+)"')
SEQ_RE = re.compile(r'data-seq="(\d+)"')
LOAN_PLAYER_RE = re.compile(r'/loan"[^>]*>.*?name="player" value="(\d+)"', re.DOTALL)
ENCODING = "gzip, deflate, br, zstd"  # what Chromium accepts; http.client does not decompress: wire bytes
DECOMPRESS: dict[str | None, Callable[[bytes], bytes]] = {
    None: lambda b: b,
    "gzip": gzip.decompress,
    "deflate": zlib.decompress,
    "br": brotli.decompress,
    "zstd": zstd.decompress,
}


def _wait_until_listening(port: int, process: subprocess.Popen[bytes], seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server exited with {process.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"nothing listens on port {port} after {seconds} s")


@contextmanager
def server(argv: list[str], env: dict[str, str] | None = None) -> Iterator[int]:
    """Run ``argv`` (given ``{port}`` to fill in) in its own process; yields the port; stops it after."""
    with served_process(argv, env) as (port, _process):
        yield port


@contextmanager
def served_process(
    argv: list[str], env: dict[str, str] | None = None, cwd: Path = ROOT
) -> Iterator[tuple[int, subprocess.Popen[bytes]]]:
    """``server``, run from ``cwd`` (another checkout's root, to serve its app), yielding its process too."""
    port = free_port()
    process = subprocess.Popen(
        [a.format(port=port) for a in argv],
        cwd=cwd,
        env={**os.environ, **(env or {})},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        _wait_until_listening(port, process, seconds=60)
        yield port, process
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def server_kind(asked: str = "auto") -> str:
    """The server the benchmark runs: what ``companion serve`` picks (gunicorn + one gevent worker where
    gunicorn runs, else waitress), or the one ``asked``; the bare insert server runs on the same kind."""
    if asked != "auto":
        return asked
    return "gunicorn" if gunicorn_runs_here() else "waitress"


def companion_server(db: Path, kind: str, threads: int) -> list[str]:
    """``companion serve`` on 127.0.0.1, CSRF on as in production, on the server ``kind`` named
    explicitly: "gunicorn" (one gevent worker) or "waitress" (``threads`` threads)."""
    argv = [sys.executable, "-m", "companion", "serve", "--host", "127.0.0.1", "--port", "{port}", "--db", str(db)]
    if kind == "gunicorn":
        return [*argv, "--server", "gunicorn", "--workers", "1"]
    return [*argv, "--server", "waitress", "--threads", str(threads)]


def bare_server(db: Path, kind: str, threads: int) -> list[str]:
    """The bare insert server (one durable insert per POST) on the same server kind as the app."""
    return [sys.executable, str(ROOT / "bench" / "bare_server.py"), "{port}", str(db), kind, str(threads)]


@dataclass
class Answer:
    """One HTTP answer: status, body (decompressed) and the bytes that crossed the wire."""

    status: int
    text: str
    wire_bytes: int
    body_bytes: int
    seconds: float
    headers: dict[str, str] = field(default_factory=dict)


@dataclass
class Client:
    """A phone: one keep-alive connection, its session cookie, the page's CSRF token."""

    port: int
    cookies: dict[str, str] = field(default_factory=dict)
    csrf: str = ""

    def __post_init__(self) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)

    def close(self) -> None:
        self.conn.close()

    def _send(self, method: str, path: str, body: str | None, headers: dict[str, str]) -> Answer:
        sent = {"Accept-Encoding": ENCODING, **headers}
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        for attempt in (1, 2):
            t0 = time.perf_counter()
            try:
                self.conn.request(method, path, body=body, headers=sent)
                response = self.conn.getresponse()
                raw = response.read()
                break
            except (BrokenPipeError, ConnectionResetError, http.client.RemoteDisconnected):
                if attempt == 2:
                    raise
                self.conn.close()  # the server closed an idle connection: open another, as a browser does
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        seconds = time.perf_counter() - t0
        for header, value in response.getheaders():
            if header.lower() == "set-cookie":
                name, _, rest = value.partition("=")
                self.cookies[name.strip()] = rest.split(";", 1)[0]
        body_bytes = DECOMPRESS[response.getheader("Content-Encoding")](raw)
        headers = {k.lower(): v for k, v in response.getheaders()}
        return Answer(response.status, body_bytes.decode("utf-8"), len(raw), len(body_bytes), seconds, headers)

    def get(self, path: str, headers: dict[str, str] | None = None) -> Answer:
        """GET ``path``; keeps the CSRF token of a page that carries one."""
        answer = self._send("GET", path, None, headers or {})
        found = CSRF_RE.search(answer.text)
        if found:
            self.csrf = found.group(1) or found.group(2)
        return answer

    def post(self, path: str, form: dict[str, object], headers: dict[str, str] | None = None) -> Answer:
        """POST a form as htmx does, with the CSRF token; raises unless 200."""
        body = urlencode({"csrf_token": self.csrf, **form}, doseq=True)
        sent = {"Content-Type": "application/x-www-form-urlencoded", "X-CSRFToken": self.csrf, **(headers or {})}
        answer = self._send("POST", path, body, sent)
        if answer.status != 200:
            raise RuntimeError(f"POST {path}: HTTP {answer.status}: {answer.text[:300]}")
        return answer


def seq_of(text: str) -> int:
    """The log seq a page or fragment was drawn at (its highest ``data-seq``)."""
    found = [int(s) for s in SEQ_RE.findall(text)]
    if not found:
        raise RuntimeError("no data-seq in the answer")
    return max(found)


def loan_player(text: str) -> int:
    """The player the page's loan button acts for (the active player)."""
    found = LOAN_PLAYER_RE.search(text)
    if found is None:
        raise RuntimeError("no loan button in the answer")
    return int(found.group(1))


class StreamRefused(RuntimeError):
    """A live page's event stream answered with another status than 200."""


async def stream_events(reader: asyncio.StreamReader, stop: asyncio.Event) -> AsyncIterator[tuple[str, bytes]]:
    """The (event name, data) pairs of a live page's event stream read raw over HTTP/1.0 (its status line
    checked, its headers skipped), until the stream ends or ``stop`` is set; ``StreamRefused`` if not 200."""
    status = await reader.readline()
    if b" 200 " not in status:
        raise StreamRefused(f"stream refused: {status!r}")
    while (await reader.readline()) not in (b"\r\n", b"\n", b""):
        pass
    event = ""
    while not stop.is_set():
        line = await reader.readline()
        if not line:
            return
        if line.startswith(b"event: "):
            event = line[7:].strip().decode()
        elif line.startswith(b"data: "):
            yield event, line[6:]
