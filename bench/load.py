"""A bounded load test on loopback: many tables playing at once on one server.

Starts the real server (``companion serve`` as ``make run`` starts it: gunicorn with one gevent
worker where gunicorn runs, else waitress with 32 threads) on a throwaway database, creates
TABLES games through the JSON API, then runs one client thread per table. Each client
plays like a phone at the table: it reads the game, records an action (a loan for the active
player: always legal, always a durable append), and now and then reads the history or the score
sheet. It reports the throughput and the p50/p95/p99 latency per kind of request.

    .venv/bin/python bench/load.py [--tables 16] [--rounds 40] [--json]

This is a benchmark, not a test: it prints figures and asserts nothing.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repository root, for bench/ and testkit/
from bench.figures import p50, p95, p99
from bench.served import server_kind
from testkit.live_client import free_port, start_server, stop_server

THREADS = 32  # waitress only (the fallback where gunicorn does not run)


class Client:
    """One phone: a keep-alive connection and a record of how long each request took."""

    def __init__(self, port: int) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.timings: dict[str, list[float]] = {}

    def request(self, kind: str, method: str, path: str, body: Any = None, token: str = "") -> tuple[int, Any]:
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        started = time.perf_counter()
        self.conn.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
        response = self.conn.getresponse()
        raw = response.read()
        self.timings.setdefault(kind, []).append(time.perf_counter() - started)
        return response.status, json.loads(raw) if raw else None


def play_table(port: int, table: int, rounds: int, results: list[Client]) -> None:
    client = Client(port)
    status, game = client.request(
        "create",
        "POST",
        "/api/v1/games",
        {
            "players": [{"name": f"P{table}a", "colour": "crimson"}, {"name": f"P{table}b", "colour": "navy"}],
            "plague_card": [2, 3, 5],
            "idempotency_key": f"load-create-{table:04d}",
        },
    )
    assert status == 201, game
    seq = game["seq"]
    gid = game["game_id"]
    for n in range(rounds):
        client.request("read state", "GET", f"/api/v1/games/{gid}", token=game["read_token"])
        status, body = client.request(
            "record action",
            "POST",
            f"/api/v1/games/{gid}/commands",
            {
                "expected_seq": seq,
                "idempotency_key": f"load-{table:04d}-{n:05d}",
                "command": {"type": "TakeLoan", "data": {"player": 0}},
            },
            token=game["write_token"],
        )
        if status == 200:
            seq = body["seq"]
        if n % 10 == 9:
            client.request("read history", "GET", f"/api/v1/games/{gid}/history", token=game["read_token"])
            client.request("read score", "GET", f"/api/v1/games/{gid}/score", token=game["read_token"])
    results.append(client)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=16)
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        server = start_server(Path(tmp) / "load.sqlite3", port, "--threads", str(THREADS))
        try:
            results: list[Client] = []
            threads = [
                threading.Thread(target=play_table, args=(port, t, args.rounds, results)) for t in range(args.tables)
            ]
            started = time.perf_counter()
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            elapsed = time.perf_counter() - started
        finally:
            stop_server(server)
    merged: dict[str, list[float]] = {}
    for client in results:
        for kind, values in client.timings.items():
            merged.setdefault(kind, []).extend(values)
    total = sum(len(v) for v in merged.values())
    served = "gunicorn, one gevent worker" if server_kind() == "gunicorn" else f"waitress, {THREADS} threads"
    report = {
        "server": served,
        "tables": args.tables,
        "rounds": args.rounds,
        "requests": total,
        "seconds": round(elapsed, 2),
        "throughput_rps": round(total / elapsed, 1),
        "writes_per_second": round(len(merged.get("record action", [])) / elapsed, 1),
        "latency_ms": {
            kind: {
                "n": len(v),
                "p50": round(p50(v) * 1000, 1),
                "p95": round(p95(v) * 1000, 1),
                "p99": round(p99(v) * 1000, 1),
                "mean": round(statistics.fmean(v) * 1000, 1),
            }
            for kind, v in sorted(merged.items())
        },
        "cpus": os.cpu_count(),
    }
    if args.json:
        print(json.dumps(report, indent=1))
        return 0
    print(f"{args.tables} tables x {args.rounds} rounds on one server ({served}), {os.cpu_count()} CPUs")
    print(
        f"{total} requests in {elapsed:.2f} s: {report['throughput_rps']} requests/s, "
        f"{report['writes_per_second']} durable writes/s"
    )
    print(f"{'request':<15} {'n':>6} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8} {'mean ms':>8}")
    for kind, row in report["latency_ms"].items():
        print(f"{kind:<15} {row['n']:>6} {row['p50']:>8} {row['p95']:>8} {row['p99']:>8} {row['mean']:>8}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
