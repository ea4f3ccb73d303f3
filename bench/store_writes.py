"""How many durable appends per second one store sustains: a benchmark of the event store, not a test.

Writers (``--processes`` × ``--threads``, each thread on its own connection) append one-event
actions, each to its own games in turn, through the store's real ``append`` (expected-seq check,
idempotency key, one durable transaction, and on PostgreSQL its NOTIFY) for ``--seconds``
seconds. It prints the appends per second and the p50/p95/p99 latency of one append.

    .venv/bin/python bench/store_writes.py --db postgresql://user@127.0.0.1:5432/db
    .venv/bin/python bench/store_writes.py --start-pg          # on a throw-away cluster (scripts/)
    .venv/bin/python bench/store_writes.py --db /tmp/w.sqlite3 # SQLite, for comparison

Loopback only, bounded (default 4 processes × 4 threads × 10 s); the client shares the machine
with the database, so the figures are a floor for a primary with its own machine.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.figures import percentiles_ms  # noqa: E402
from events.factory import connect_store, is_postgres, open_store  # noqa: E402
from events.store import NewEvent  # noqa: E402

EVENT = NewEvent("InfamyChanged", 1, {"player": 0, "amount": 1, "reason": "bench"})


def worker(url: str, games: list[str], threads: int, seconds: float, start_at: float, queue: Any) -> None:
    """Append round-robin to ``games`` (split over ``threads``) until the time is up; latencies go on ``queue``."""
    import threading

    latencies: list[float] = []
    lock = threading.Lock()

    def run(mine: list[str]) -> None:
        store = connect_store(url)
        seqs = {g: store.last_seq(g) for g in mine}
        local: list[float] = []
        while time.time() < start_at:
            time.sleep(0.005)
        end = start_at + seconds
        i = 0
        while time.time() < end:
            game = mine[i % len(mine)]
            t0 = time.perf_counter()
            store.append(game, seqs[game], [EVENT], uuid.uuid4().hex)
            local.append(time.perf_counter() - t0)
            seqs[game] += 1
            i += 1
        store.close()
        with lock:
            latencies.extend(local)

    running = [threading.Thread(target=run, args=(games[i::threads],)) for i in range(threads)]
    for t in running:
        t.start()
    for t in running:
        t.join()
    queue.put(latencies)


def add_database_arguments(parser: argparse.ArgumentParser) -> None:
    """``--db URL`` and ``--start-pg``: where a store benchmark runs (``database`` reads them)."""
    parser.add_argument("--db", help="postgresql://… or a SQLite path (default: a throw-away SQLite file)")
    parser.add_argument("--start-pg", action="store_true", help="start a throw-away PostgreSQL cluster for the run")


@contextmanager
def database(args: argparse.Namespace) -> Iterator[str]:
    """The URL a run uses: ``--db``, else a throw-away PostgreSQL cluster (``--start-pg``, stopped on
    leaving), else a SQLite file in a temp folder."""
    folder = None
    url = args.db
    if args.start_pg:
        started = subprocess.run(
            [str(ROOT / "scripts" / "pg-throwaway.sh"), "start"], capture_output=True, text=True, check=True
        )
        folder, url = started.stdout.split()
    if url is None:
        url = str(Path(tempfile.mkdtemp()) / "writes.sqlite3")
    try:
        yield url
    finally:
        if folder:
            subprocess.run([str(ROOT / "scripts" / "pg-throwaway.sh"), "stop", folder], check=False)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_database_arguments(parser)
    parser.add_argument("--processes", type=int, default=4)
    parser.add_argument("--threads", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--games", type=int, default=64, help="games written to (each by one thread)")
    args = parser.parse_args()
    with database(args) as url:
        store = open_store(url)
        names = [f"bench-{uuid.uuid4().hex[:10]}" for _ in range(max(args.games, args.processes * args.threads))]
        for name in names:
            store.create_game(name, "game", "h" * 64, ("r" + name, "w" + name), [EVENT], "c-" + name)
        store.close()
        queue: Any = multiprocessing.Queue()
        start_at = time.time() + 1.0
        procs = [
            multiprocessing.Process(
                target=worker, args=(url, names[p :: args.processes], args.threads, args.seconds, start_at, queue)
            )
            for p in range(args.processes)
        ]
        for p in procs:
            p.start()
        latencies = [x for _ in procs for x in queue.get(timeout=args.seconds + 120)]
        for p in procs:
            p.join(30)
    report = {
        "engine": "postgresql" if is_postgres(url) else "sqlite",
        "writers": args.processes * args.threads,
        "seconds": args.seconds,
        "appends": len(latencies),
        "appends_per_second": round(len(latencies) / args.seconds),
        **percentiles_ms(latencies, 50, 95, 99),
    }
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
