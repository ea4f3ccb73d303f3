"""Benchmark of scale: how many tables (4 phones listening each, one action per table every 10 s)
one server keeps at p95 < 50 ms per action, and where p95 crosses 50 ms.

A benchmark, not a test: it prints figures. One run per engine, bounded in time, loopback only:

1. Starts the real server (``python -m companion serve --workers N`` on 127.0.0.1) on a temp
   SQLite file, or on the PostgreSQL database ``--db`` (or ``COMPANION_TEST_PG``) names.
2. Ramps the number of tables (``--steps``, e.g. 50,100,200,...): for each step it creates the new
   games through the JSON API, opens ``--phones`` live streams (``/g/<id>/events``) per new table,
   sends one untimed action per new table (a table in play has been read before), then for
   ``--step-seconds`` sends one action per table every ``--every`` seconds (spread evenly)
   and measures each action's answer time (sent to answered) and how long it takes to reach the
   table's phones (answered to heard).
3. Stops at the first step whose p95 crosses ``--limit-ms``, or when ``--timeout`` seconds pass,
   and reports every step, the largest one under the limit, and the load average.

Run from the repository root::

    .venv/bin/python bench/scale.py                                    # SQLite, 1 process
    scripts/pg-throwaway.sh run .venv/bin/python bench/scale.py --engine postgresql --workers 2
    .venv/bin/python bench/scale.py --steps 25,50 --step-seconds 10   # smaller

It kills the server it started. The client shares the machine's cores with the server.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repository root, for bench/ and tests/
from bench.listeners import Listeners, listen, log, percentiles, raise_open_files
from tests.live_client import api, free_port, start_server, stop_server


@dataclass
class Table:
    game_id: str
    write_token: str
    seq: int
    answered_at: dict[int, float] = field(default_factory=dict)  # seq -> when the write that made it answered


def new_table(port: int, key: str) -> Table:
    status, game = api(
        port,
        "/api/v1/games",
        {
            "players": [{"name": "A", "colour": "crimson"}, {"name": "B", "colour": "navy"}],
            "plague_card": [2, 3],
            "idempotency_key": key,
        },
        timeout=30,
    )
    if status != 201:
        raise RuntimeError(f"could not create a game: {status} {game}")
    return Table(str(game["game_id"]), str(game["write_token"]), int(game["seq"]))


def act(port: int, table: Table, key: str) -> float:
    """One action (alternately a loan and its undo, so a game never ends); its answer time."""
    started = time.monotonic()
    if table.seq % 2 == 1:
        path, body = "undo", {"expected_seq": table.seq, "idempotency_key": key}
    else:
        command = {"type": "TakeLoan", "data": {"player": 0}}
        path, body = "commands", {"expected_seq": table.seq, "idempotency_key": key, "command": command}
    status, answer = api(port, f"/api/v1/games/{table.game_id}/{path}", body, table.write_token, timeout=30)
    answered = time.monotonic()
    if status != 200:
        raise RuntimeError(f"{path}: {status} {answer}")
    table.seq = int(answer["seq"])
    table.answered_at[table.seq] = answered
    return answered - started


async def run_step(
    port: int, tables: list[Table], box: Listeners, seconds: float, every: float, pool: ThreadPoolExecutor
) -> dict[str, Any]:
    loop = asyncio.get_running_loop()
    gap = every / len(tables)  # actions spread evenly: one per table every ``every`` seconds
    started = time.monotonic()
    pending: list[asyncio.Future[float]] = []
    sent = 0
    while time.monotonic() - started < seconds:
        table = tables[sent % len(tables)]
        pending.append(loop.run_in_executor(pool, act, port, table, f"scale-{table.game_id}-{table.seq}"))
        sent += 1
        await asyncio.sleep(max(0.0, started + sent * gap - time.monotonic()))
    answers = await asyncio.gather(*pending, return_exceptions=True)
    times = [a for a in answers if isinstance(a, float)]
    await asyncio.sleep(1.0)  # the last actions reach their phones
    reach = [
        heard - table.answered_at[seq]
        for table in tables
        for seq in table.answered_at
        for heard in box.heard.get((table.game_id, seq), [])
    ]
    for table in tables:
        table.answered_at.clear()
    return {
        "tables": len(tables),
        "phones": box.connected,
        "actions_per_second": round(len(answers) / seconds, 1),
        "failed": len(answers) - len(times),
        "action": percentiles(times),
        "reach": percentiles(reach),
        "load": os.getloadavg()[0],
    }


async def ramp(args: argparse.Namespace, port: int) -> list[dict[str, Any]]:
    box, stop = Listeners(), asyncio.Event()
    tables: list[Table] = []
    streams: list[asyncio.Task[None]] = []
    steps: list[dict[str, Any]] = []
    deadline = time.monotonic() + args.timeout
    loop = asyncio.get_running_loop()
    with ThreadPoolExecutor(max_workers=32) as pool:
        try:
            for size in [int(s) for s in args.steps.split(",")]:
                if time.monotonic() + args.step_seconds + 10 > deadline:
                    log(f"stopping: the {args.timeout:.0f} s budget is spent")
                    break
                made = await asyncio.gather(
                    *[
                        loop.run_in_executor(pool, new_table, port, f"scale-new-{i:06d}")
                        for i in range(len(tables), size)
                    ]
                )
                for table in made:  # phones join a few at a time, as they do at real tables
                    streams += [asyncio.create_task(listen(table.game_id, port, box, stop)) for _ in range(args.phones)]
                    await asyncio.sleep(0.02)
                tables += made
                await asyncio.gather(  # one untimed action each: a table in play has been read before
                    *[loop.run_in_executor(pool, act, port, t, f"scale-warm-{t.game_id}") for t in made]
                )
                for table in made:
                    table.answered_at.clear()
                await asyncio.sleep(1.0)  # the last phones connect
                step = await run_step(port, tables, box, args.step_seconds, args.every, pool)
                steps.append(step)
                log(json.dumps(step))
                if step["action"].get("p95_ms", 0) >= args.limit_ms or step["failed"]:
                    break
        finally:
            stop.set()
            for task in streams:
                task.cancel()
            await asyncio.gather(*streams, return_exceptions=True)
    return steps


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--engine", choices=("sqlite", "postgresql"), default="sqlite")
    parser.add_argument("--db", help="PostgreSQL URL (default: $COMPANION_TEST_PG)")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--steps", default="25,50,75,100,150,200,300,500")
    parser.add_argument("--step-seconds", type=float, default=15.0)
    parser.add_argument("--every", type=float, default=10.0, help="seconds between two actions of one table")
    parser.add_argument("--phones", type=int, default=4, help="phones listening per table")
    parser.add_argument("--limit-ms", type=float, default=50.0)
    parser.add_argument("--timeout", type=float, default=180.0)
    args = parser.parse_args(argv)
    raise_open_files(65536)
    with tempfile.TemporaryDirectory(prefix="companion-scale-") as tmp:
        folder = Path(tmp)
        if args.engine == "sqlite":
            db = str(folder / "scale.sqlite3")
        else:
            db = args.db or os.environ.get("COMPANION_TEST_PG", "")
            if "://" not in db:
                parser.error("PostgreSQL: give --db postgresql://… or run under scripts/pg-throwaway.sh run")
        port = free_port()
        server = start_server(
            db, port, "--workers", str(args.workers), "--server", "gunicorn", errors=folder / "server.log"
        )
        try:
            steps = asyncio.run(ramp(args, port))
        finally:
            stop_server(server)
    under = [s["tables"] for s in steps if s["action"].get("p95_ms", 1e9) < args.limit_ms and not s["failed"]]
    crossed = [s["tables"] for s in steps if s["action"].get("p95_ms", 0) >= args.limit_ms or s["failed"]]
    print(f"engine: {args.engine}, workers: {args.workers}, phones per table: {args.phones}, every: {args.every} s")
    for step in steps:
        print(json.dumps(step))
    print(f"largest under p95 {args.limit_ms:.0f} ms: {max(under) if under else 'none'} tables")
    print(f"p95 crossed {args.limit_ms:.0f} ms at: {crossed[0] if crossed else 'not within the steps run'} tables")
    print(f"load average at the end: {os.getloadavg()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
