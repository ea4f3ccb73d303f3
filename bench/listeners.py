"""Benchmark of many open live pages: does the real server still answer while 1,000 phones listen?

A benchmark, not a test: it prints figures. One run, bounded in count and time, loopback only:

1. Starts the real server as ``make run`` does (``python -m companion serve`` on 127.0.0.1, a
   temp database), in its own process.
2. Creates ``--games`` games through the JSON API and opens ``--listeners`` live streams
   (``/g/<id>/events``) spread evenly over them, each a raw socket read by one asyncio client.
3. Runs a writing table (``--writes`` API commands with the write token, one every
   ``--write-every`` seconds, round the games) and page loads (full ``GET /g/<id>`` pages, at the
   same time), and reports p50/p95/max of page loads and of writes, and how long a write takes to
   reach the listeners of its game (from the moment the write was sent, over every listener).
4. Also times, in this process, the two database calls that block the server's event loop under
   gevent: the notifier's check (``SELECT MAX(rowid) FROM events``) and one durable append.

Run from the repository root::

    .venv/bin/python bench/listeners.py                    # 1,000 listeners, the report on stdout
    .venv/bin/python bench/listeners.py --listeners 200    # smaller
    .venv/bin/python bench/listeners.py --json             # a JSON object on stdout

It stops by itself (``--timeout`` seconds at most, default 150) and kills the server it started.
The open-files limit of this process is raised as needed (the server raises its own).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.request
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repository root, for bench/ and testkit/
from bench.figures import p50, p95
from bench.served import StreamRefused, stream_events
from testkit.live_client import api, free_port, start_server, stop_server

HOST = "127.0.0.1"
RUN = uuid.uuid4().hex[:8]  # idempotency keys are unique to one run


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def raise_open_files(wanted: int) -> int:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft < target:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def percentiles(values: list[float]) -> dict[str, float]:
    """n, p50/p95 and max in milliseconds (empty when there are no values)."""
    if not values:
        return {}
    return {
        "n": len(values),
        "p50_ms": round(p50(values) * 1000, 3),
        "p95_ms": round(p95(values) * 1000, 3),
        "max_ms": round(max(values) * 1000, 3),
    }


def worker_rss_mb(server: subprocess.Popen[bytes]) -> float | None:
    """Resident memory of the server's processes (master and worker), from /proc (Linux only)."""
    pids = [server.pid]
    children = Path(f"/proc/{server.pid}/task/{server.pid}/children")
    if children.exists():
        pids += [int(p) for p in children.read_text().split()]
    total = 0
    for pid in pids:
        status = Path(f"/proc/{pid}/status")
        if not status.exists():
            return None
        for line in status.read_text().splitlines():
            if line.startswith("VmRSS:"):
                total += int(line.split()[1])
    return round(total / 1024, 1)


@dataclass
class Table:
    game_id: str
    write_token: str
    seq: int
    sent_at: dict[int, float] = field(default_factory=dict)  # seq -> when the write that made it was sent


@dataclass
class Listeners:
    heard: dict[tuple[str, int], list[float]] = field(default_factory=dict)  # (game, seq) -> when each heard it
    opened: int = 0
    connected: int = 0
    failed: int = 0
    presence_messages: int = 0


async def listen(game_id: str, port: int, box: Listeners, stop: asyncio.Event) -> None:
    """One live page: a raw HTTP/1.0 request (so the body is the bare event stream)."""
    try:
        reader, writer = await asyncio.open_connection(HOST, port)
    except OSError:
        box.failed += 1
        return
    box.opened += 1
    writer.write(f"GET /g/{game_id}/events HTTP/1.0\r\nHost: {HOST}\r\n\r\n".encode())
    first = True
    try:
        async for event, data in stream_events(reader, stop):
            if event == "seq":
                seq = int(data)
                box.heard.setdefault((game_id, seq), []).append(time.monotonic())
                if first:
                    box.connected += 1
                    first = False
            elif event == "presence":
                box.presence_messages += 1
    except (OSError, ValueError, StreamRefused):
        box.failed += 1
    finally:
        writer.close()


def timed_get(port: int, path: str) -> float:
    started = time.monotonic()
    with urllib.request.urlopen(f"http://{HOST}:{port}{path}", timeout=30) as response:
        response.read()
        if response.status != 200:
            raise RuntimeError(f"GET {path}: {response.status}")
    return time.monotonic() - started


def write_once(port: int, table: Table, key: str) -> float:
    started = time.monotonic()
    table.sent_at[table.seq + 1] = started
    status, body = api(
        port,
        f"/api/v1/games/{table.game_id}/commands",
        {"expected_seq": table.seq, "idempotency_key": key, "command": {"type": "TakeLoan", "data": {"player": 0}}},
        table.write_token,
        timeout=30,
    )
    if status != 200:
        raise RuntimeError(f"write refused: {status} {body}")
    table.seq = int(body["seq"])
    return time.monotonic() - started


async def run_load(args: argparse.Namespace, port: int, tables: list[Table]) -> dict[str, Any]:
    box = Listeners()
    stop = asyncio.Event()
    tasks = []
    ramp_started = time.monotonic()
    for i in range(args.listeners):
        tasks.append(asyncio.create_task(listen(tables[i % len(tables)].game_id, port, box, stop)))
        if i % 100 == 99:
            await asyncio.sleep(0.05)  # open in batches, as phones arrive
    deadline = time.monotonic() + 60
    while box.connected + box.failed < args.listeners and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    ramp = time.monotonic() - ramp_started
    log(f"  {box.connected} listeners connected in {ramp:.1f} s ({box.failed} failed)")
    await asyncio.sleep(1.0)  # let the joins' presence updates settle

    page_times: list[float] = []
    write_times: list[float] = []

    async def pages() -> None:
        n = 0
        while n < args.page_loads:
            table = tables[n % len(tables)]
            page_times.append(await asyncio.to_thread(timed_get, port, f"/g/{table.game_id}"))
            n += 1
            await asyncio.sleep(args.write_every)

    async def writes() -> None:
        for n in range(args.writes):
            table = tables[n % len(tables)]
            write_times.append(await asyncio.to_thread(write_once, port, table, f"bench-write-{RUN}-{n:06d}"))
            await asyncio.sleep(args.write_every)

    await asyncio.gather(pages(), writes())
    await asyncio.sleep(1.0)  # the last writes reach their listeners
    stop.set()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)

    reach: list[float] = []
    missed = 0
    per_game = {t.game_id: sum(1 for i in range(args.listeners) if tables[i % len(tables)] is t) for t in tables}
    for table in tables:
        for seq, sent in table.sent_at.items():
            heard = box.heard.get((table.game_id, seq), [])
            reach += [when - sent for when in heard]
            missed += per_game[table.game_id] - len(heard)
    return {
        "listeners": {
            "asked": args.listeners,
            "connected": box.connected,
            "failed": box.failed,
            "ramp_seconds": round(ramp, 2),
            "presence_messages": box.presence_messages,
        },
        "page_load": percentiles(page_times),
        "write": percentiles(write_times),
        "write_reaches_listeners": {**percentiles(reach), "missed": missed},
    }


def blocking_calls(folder: Path) -> dict[str, Any]:
    """What one notifier check and one durable append cost (each blocks the gevent hub while it runs)."""
    from events.sqlite import SqliteStore
    from events.store import NewEvent

    store = SqliteStore.open(folder / "blocking.sqlite3")
    store.create_game("g", "game", "h", ("r", "w"), [NewEvent("GameStarted", 1, {})], "create")
    appends = []
    for n in range(200):
        started = time.monotonic()
        store.append("g", store.last_seq("g"), [NewEvent("LoanTaken", 1, {"player": 0})], f"k{n}")
        appends.append(time.monotonic() - started)
    conn = sqlite3.connect(folder / "blocking.sqlite3")
    checks = []
    for _ in range(2000):
        started = time.monotonic()
        conn.execute("SELECT COALESCE(MAX(rowid), 0) FROM events").fetchone()
        checks.append(time.monotonic() - started)
    conn.close()
    store.close()
    return {"notifier_check": percentiles(checks), "durable_append": percentiles(appends)}


def report_text(result: dict[str, Any]) -> str:
    lines = [f"Live pages: {result['setup']}"]
    for key in ("listeners", "page_load", "write", "write_reaches_listeners", "server_rss_mb"):
        lines.append(f"  {key}: {result.get(key)}")
    for key, value in result.get("blocking", {}).items():
        lines.append(f"  in-process {key}: {value}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--listeners", type=int, default=1000)
    parser.add_argument("--games", type=int, default=8, help="the listeners are spread over this many games")
    parser.add_argument("--writes", type=int, default=150)
    parser.add_argument("--page-loads", type=int, default=150)
    parser.add_argument("--write-every", type=float, default=0.1, help="seconds between two writes (and page loads)")
    parser.add_argument("--server", choices=("auto", "gunicorn", "waitress"), default="auto")
    parser.add_argument("--timeout", type=float, default=150.0, help="the whole run stops after this many seconds")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--attach", type=int, help="use a server already running on this loopback port (profiling)")
    args = parser.parse_args(argv)
    limit = raise_open_files(args.listeners + 512)
    if limit < args.listeners + 64:
        log(f"the open-files limit is {limit}: too low for {args.listeners} listeners")
        return 2

    with tempfile.TemporaryDirectory(prefix="companion-listeners-") as tmp:
        folder = Path(tmp)
        port = args.attach or free_port()
        log(f"starting the server on {HOST}:{port} ..." if not args.attach else f"using the server on port {port}")
        server = (
            None
            if args.attach
            else start_server(folder / "live.sqlite3", port, "--server", args.server, errors=folder / "live.log")
        )
        try:
            tables = []
            for g in range(args.games):
                status, game = api(
                    port,
                    "/api/v1/games",
                    {
                        "players": [{"name": "Ana", "colour": "crimson"}, {"name": "Ben", "colour": "navy"}],
                        "plague_card": [2, 3],
                        "idempotency_key": f"bench-game-{RUN}-{g:04d}",
                    },
                    timeout=30,
                )
                if status != 201:
                    raise RuntimeError(f"could not create a game: {status} {game}")
                tables.append(Table(game["game_id"], game["write_token"], int(game["seq"])))
            log(f"opening {args.listeners} live pages over {args.games} games ...")
            try:
                result = asyncio.run(asyncio.wait_for(run_load(args, port, tables), args.timeout))
            except TimeoutError:
                print(f"The run did not finish in {args.timeout:.0f} s: the server stopped answering.")
                return 1
            result["server_rss_mb"] = worker_rss_mb(server) if server else None
        finally:
            if server is not None:
                stop_server(server)  # its worker follows it (and dies with it even if it is killed)
        result["blocking"] = blocking_calls(folder)
    result["setup"] = {
        "listeners": args.listeners,
        "games": args.games,
        "writes": args.writes,
        "page_loads": args.page_loads,
        "write_every_s": args.write_every,
        "server": args.server,
        "cpus": os.cpu_count(),
    }
    if args.json:
        print(json.dumps(result, indent=1))
        log(report_text(result))
    else:
        print(report_text(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
