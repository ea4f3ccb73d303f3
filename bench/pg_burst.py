"""A burst of pages opening at once on PostgreSQL: how many get a store, and how many server connections it takes.

``--pages`` threads (500 by default) start together, each as one page does: borrow a store
(``events.factory.connect_store``), read where one game stands (``last_seq``), keep the store while
the page would be drawn (``--hold`` ms, 0 by default: a sleep standing for the rendering), and close it. A
sampler on a connection of its own counts the server's connections to the database meanwhile. It
prints one JSON line: the pages that succeeded, the errors by message (without a pool, PostgreSQL
refuses connections past ``max_connections``: "sorry, too many clients already"), the peak of
server connections (the sampler's own not counted) and the p50/p95 of the wait for a store and of a
whole page.

    .venv/bin/python bench/pg_burst.py --start-pg      # on a throw-away cluster (scripts/; max_connections=200)
    .venv/bin/python bench/pg_burst.py --start-pg --hold 1000   # pages that keep their store for 1 s
    .venv/bin/python bench/pg_burst.py --db postgresql://user@127.0.0.1:5432/db

Loopback only, bounded: one page per thread, each thread joined within ``--seconds``.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import threading
import time
import uuid
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.figures import percentiles_ms  # noqa: E402
from bench.store_writes import EVENT, add_database_arguments, database  # noqa: E402
from events.factory import connect_store, is_postgres, open_store  # noqa: E402

PEAK_QUERY = "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"


class Sampler(threading.Thread):
    """Counts the server's connections to the database every few milliseconds, on its own connection."""

    def __init__(self, url: str) -> None:
        super().__init__(daemon=True)
        import psycopg

        self.conn = psycopg.connect(url, autocommit=True)  # before the burst: it must not be refused
        self.peak = 0
        self.done = threading.Event()

    def count(self) -> int:
        row = self.conn.execute(PEAK_QUERY).fetchone()
        return 0 if row is None else int(row[0])

    def run(self) -> None:
        while not self.done.is_set():
            self.peak = max(self.peak, self.count())
            time.sleep(0.002)

    def stop(self) -> int:
        """Stop sampling; the peak seen (one last look included)."""
        self.done.set()
        self.join(10)
        self.peak = max(self.peak, self.count())
        self.conn.close()
        return self.peak


def burst(url: str, game_id: str, pages: int, hold: float, seconds: float) -> dict[str, object]:
    """Open ``pages`` stores at once from as many threads; what happened, as a JSON-ready dict."""
    start = threading.Barrier(pages + 1, timeout=seconds)
    lock = threading.Lock()
    waits: list[float] = []
    totals: list[float] = []
    errors: Counter[str] = Counter()

    def page() -> None:
        try:
            start.wait()
        except threading.BrokenBarrierError:
            with lock:
                errors["the burst did not start together"] += 1
            return
        t0 = time.perf_counter()
        try:
            store = connect_store(url)
            t1 = time.perf_counter()
            try:
                store.last_seq(game_id)
                time.sleep(hold)
            finally:
                store.close()
        except Exception as exc:  # every failure is what the burst reports
            message = re.sub(r"port \d+", "port N", str(exc).strip().splitlines()[0] if str(exc).strip() else "")
            with lock:
                errors[f"{type(exc).__name__}: {message[:120]}"] += 1
            return
        t2 = time.perf_counter()
        with lock:
            waits.append(t1 - t0)
            totals.append(t2 - t0)

    threads = [threading.Thread(target=page, daemon=True) for _ in range(pages)]
    for t in threads:
        t.start()
    sampler = Sampler(url)
    sampler.start()
    began = time.perf_counter()
    start.wait()
    deadline = time.monotonic() + seconds
    for t in threads:
        t.join(max(0.0, deadline - time.monotonic()))
    took = time.perf_counter() - began
    unfinished = sum(1 for t in threads if t.is_alive())
    peak = sampler.stop()
    return {
        "pages": pages,
        "hold_ms": round(hold * 1000),
        "succeeded": len(waits),
        "failed": sum(errors.values()),
        "unfinished": unfinished,
        "errors": dict(errors.most_common()),
        "peak_server_connections": peak,
        "seconds": round(took, 3),
        "wait": percentiles_ms(waits, 50, 95),
        "page": percentiles_ms(totals, 50, 95),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_database_arguments(parser)
    parser.add_argument("--pages", type=int, default=500, help="pages opening at once (one thread each)")
    parser.add_argument("--hold", type=float, default=0.0, help="ms a page keeps its store (drawing the page)")
    parser.add_argument("--seconds", type=float, default=60.0, help="how long the burst may take at most")
    args = parser.parse_args()
    with database(args) as url:
        if not is_postgres(url):
            parser.error("the burst is about PostgreSQL connections: give --db postgresql://… or --start-pg")
        store = open_store(url)
        game_id = f"burst-{uuid.uuid4().hex[:10]}"
        store.create_game(game_id, "game", "h" * 64, ("r" + game_id, "w" + game_id), [EVENT], "c-" + game_id)
        store.close()
        report = burst(url, game_id, args.pages, args.hold / 1000, args.seconds)
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
