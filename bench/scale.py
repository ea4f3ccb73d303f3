"""Benchmark of scale: how many real tables one server keeps at action p95 < 50 ms, and where p95
crosses 50 ms.

A real table, as ``static/js/table.js`` and the game page make it: 4 phones (``--phones``), each with
its own session, its event stream (``/g/<id>/events``) and the parts its screen shows; one of them
makes a real tap of a table's mix (``bench/table_play.py``: a bring or a move after the map's select
round trip, a send, an end of turn, a loan, a guardian, a fraud card, every fifth an undo and its redo)
once every ``--every`` seconds; whenever a phone's stream names a seq its screen does not show, the
phone fetches its refreshed parts as the live trigger does (``HX-Trigger: live-trigger``,
``HX-Game-Parts``); a phone fetches what its page fetches on its own right after an answer (the
Wall's fraud card, reported apart as ``card``, like the select round trips). A benchmark, not a test:
it prints figures. One run per engine, bounded in time,
loopback only:

1. Starts the real server (``python -m companion serve --workers N`` on 127.0.0.1) on a temp
   SQLite file, or on the PostgreSQL database ``--db`` (or ``COMPANION_TEST_PG``) names.
2. Ramps the number of tables (``--steps``): for each step it creates the new games through the JSON
   API, opens each new table's phones (the page, then its stream), makes one untimed tap per new table
   (a table in play has been read before), then for ``--step-seconds`` makes one tap per table every
   ``--every`` seconds (spread evenly) and measures each tap's answer time, each phone's refresh, and
   the time from a tap until every other phone of its table holds the refreshed parts.
3. Stops at the first step whose action p95 crosses ``--limit-ms`` (or that failed), or when
   ``--timeout`` seconds pass, and reports every step, the largest one under the limit, and the load
   average.

Run from the repository root::

    .venv/bin/python bench/scale.py                                    # SQLite, 1 process
    scripts/pg-throwaway.sh run .venv/bin/python bench/scale.py --engine postgresql --workers 2
    .venv/bin/python bench/scale.py --quick                           # 2 and 4 tables, a few seconds each

It kills the server it started. The client (its phones are threads of one pool, their streams one
asyncio loop) shares the machine's cores with the server.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repository root, for bench/ and testkit/
from bench.listeners import HOST, log, percentiles, raise_open_files
from bench.served import Client, stream_events
from bench.table_play import CARD, MIX, SELECT, Phone, play_mix
from companion.editions import load_all
from companion.game.state import GameState
from companion.service import GameService
from companion.service.caches import ViewCache
from events.factory import open_store
from testkit.live_client import api, free_port, start_server, stop_server

STREAMS_PER_CLIENT = "100000"  # every phone of the benchmark connects from 127.0.0.1: no cap per address


@dataclass
class TablePhone:
    """One phone of a table: what its screen shows, and a lock (its tap and its refresh share a connection)."""

    phone: Phone
    lock: threading.Lock = field(default_factory=threading.Lock)


@dataclass
class Table:
    game_id: str
    phones: list[TablePhone]
    rng: random.Random
    taps: int = 0
    kinds: dict[str, int] = field(default_factory=dict)  # the kinds this table sent, so its mix stays a mix
    sent: dict[int, float] = field(default_factory=dict)  # seq a tap recorded -> when that tap was sent
    holds: list[list[tuple[float, int]]] = field(default_factory=list)  # per phone: (when, seq it then held)


class Recorded:
    """The games as recorded, read by the benchmark's own service (the mix's legal commands)."""

    def __init__(self, db: str) -> None:
        self.service = GameService(open_store(db), load_all(), cache=ViewCache(100_000))
        self.lock = threading.Lock()

    def reader(self, game_id: str) -> Any:
        def state_of() -> tuple[GameState, bool, bool]:
            with self.lock:
                view = self.service.view(game_id)
            assert isinstance(view.state, GameState)  # a played game, not a quick tally
            return view.state, bool(view.timeline.undoable), bool(view.timeline.undone)

        return state_of

    def close(self) -> None:
        self.service.store.close()


@dataclass
class Figures:
    """What one step measured (seconds)."""

    actions: list[float] = field(default_factory=list)
    selects: list[float] = field(default_factory=list)
    cards: list[float] = field(default_factory=list)  # the forms fetched right after an answer (``CARD``)
    refreshes: list[float] = field(default_factory=list)
    kinds: dict[str, int] = field(default_factory=dict)
    refresh_bytes: list[int] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    refresh_failures: int = 0


def new_table(port: int, key: str, phones: int, seed: int) -> Table:
    """A 2-player game made through the JSON API, and its phones with the page open."""
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
    game_id = str(game["game_id"])
    table = Table(game_id, [], random.Random(seed))
    for _ in range(phones):
        phone = Phone(Client(port), game_id)
        phone.open()
        table.phones.append(TablePhone(phone))
        table.holds.append([])
    return table


def tap(table: Table, recorded: Recorded, figures: Figures | None) -> None:
    """One real tap of the mix by the table's first phone (every fifth an undo and its redo)."""
    actor = table.phones[0]
    undo_every = 1 if table.taps % 5 == 4 else 5
    table.taps += 1
    sent = time.monotonic()
    try:
        with actor.lock:
            reader = recorded.reader(table.game_id)
            result = play_mix(actor.phone, None, reader, 1, table.rng, undo_every=undo_every, counts=table.kinds)
            table.sent[actor.phone.seq] = sent
            table.holds[0].append((time.monotonic(), actor.phone.seq))
    except Exception as exc:  # a failed tap is counted and told, the step goes on
        if figures is not None:
            figures.failures.append(f"{table.game_id}: {exc!r}"[:300])
        return
    if figures is None:
        return
    for kind, seconds in result.seconds.items():
        (figures.selects if kind == SELECT else figures.cards if kind == CARD else figures.actions).extend(seconds)
        figures.kinds[kind] = figures.kinds.get(kind, 0) + len(seconds)


def refresh(table: Table, i: int, seq: int, figures: list[Figures]) -> None:
    """Phone ``i`` heard ``seq`` on its stream: it fetches its refreshed parts unless it shows that seq."""
    held = table.phones[i]
    with held.lock:
        if held.phone.seq >= seq:
            return
        try:
            answer = held.phone.refresh()
        except (OSError, RuntimeError):
            figures[-1].refresh_failures += 1
            held.phone.client.close()
            held.phone.client = Client(held.phone.client.port, held.phone.client.cookies, held.phone.client.csrf)
            return
        table.holds[i].append((time.monotonic(), held.phone.seq))
    figures[-1].refreshes.append(answer.seconds)
    figures[-1].refresh_bytes.append(answer.body_bytes)


async def stream(
    table: Table, i: int, port: int, pool: ThreadPoolExecutor, figures: list[Figures], stop: asyncio.Event
) -> None:
    """Phone ``i``'s live page: its event stream; a seq it does not show makes it fetch its parts."""
    loop = asyncio.get_running_loop()
    reader, writer = await asyncio.open_connection(HOST, port)
    since = table.phones[i].phone.seq
    writer.write(f"GET /g/{table.game_id}/events?since={since} HTTP/1.0\r\nHost: {HOST}\r\n\r\n".encode())
    try:
        async for event, data in stream_events(reader, stop):
            if event == "seq" and int(data) > table.phones[i].phone.seq:
                loop.run_in_executor(pool, refresh, table, i, int(data), figures)
    finally:
        writer.close()


def held_after(table: Table) -> list[float]:
    """For each tap, the time until every other phone of the table held its seq (or a later one)."""
    out = []
    for seq, sent in table.sent.items():
        last = [next((t for t, s in h if s >= seq), None) for h in table.holds[1:]]
        if last and all(t is not None for t in last):
            out.append(max(t for t in last if t is not None) - sent)
    return out


async def run_step(
    tables: list[Table], recorded: Recorded, seconds: float, every: float, pool: ThreadPoolExecutor, figures: Figures
) -> dict[str, Any]:
    loop = asyncio.get_running_loop()
    gap = every / len(tables)  # taps spread evenly: one per table every ``every`` seconds
    for table in tables:
        table.sent.clear()
        for h in table.holds:
            h.clear()
    started = time.monotonic()
    pending: list[asyncio.Future[None]] = []
    sent = 0
    while time.monotonic() - started < seconds:
        table = tables[sent % len(tables)]
        pending.append(loop.run_in_executor(pool, tap, table, recorded, figures))
        sent += 1
        await asyncio.sleep(max(0.0, started + sent * gap - time.monotonic()))
    await asyncio.gather(*pending)
    await asyncio.sleep(1.5)  # the last taps reach their phones, and the phones fetch
    missed = sum(1 for t in tables for seq in t.sent if not all(any(s >= seq for _, s in h) for h in t.holds[1:]))
    hold = [x for t in tables for x in held_after(t)]
    return {
        "tables": len(tables),
        "phones": sum(len(t.phones) for t in tables),
        "taps_per_second": round(sent / seconds, 1),
        "failed": len(figures.failures),
        "failures": figures.failures[:3],
        "action": percentiles(figures.actions),
        "select": percentiles(figures.selects),
        "card": percentiles(figures.cards),
        "refresh": percentiles(figures.refreshes),
        "refresh_bytes_max": max(figures.refresh_bytes, default=0),
        "refresh_failed": figures.refresh_failures,
        "all_hold": percentiles(hold),
        "missed": missed,
        "kinds": dict(sorted(figures.kinds.items())),
        "load": round(os.getloadavg()[0], 2),
    }


async def ramp(args: argparse.Namespace, port: int, recorded: Recorded) -> list[dict[str, Any]]:
    stop = asyncio.Event()
    tables: list[Table] = []
    streams: list[asyncio.Task[None]] = []
    steps: list[dict[str, Any]] = []
    figures: list[Figures] = [Figures()]
    deadline = time.monotonic() + args.timeout
    loop = asyncio.get_running_loop()
    with ThreadPoolExecutor(max_workers=args.threads) as pool:
        try:
            for size in [int(s) for s in args.steps.split(",")]:
                if time.monotonic() + args.step_seconds + 10 > deadline:
                    log(f"stopping: the {args.timeout:.0f} s budget is spent")
                    break
                made = await asyncio.gather(
                    *[
                        loop.run_in_executor(pool, new_table, port, f"scale-new-{i:06d}", args.phones, args.seed + i)
                        for i in range(len(tables), size)
                    ]
                )
                for table in made:  # phones join a few at a time, as they do at real tables
                    for i in range(args.phones):
                        streams.append(asyncio.create_task(stream(table, i, port, pool, figures, stop)))
                    await asyncio.sleep(0.01)
                tables += made
                await asyncio.sleep(0.5)
                await asyncio.gather(  # one untimed tap each: a table in play has been read before
                    *[loop.run_in_executor(pool, tap, t, recorded, None) for t in made]
                )
                await asyncio.sleep(1.0)  # the phones fetch after the warming taps
                figures.append(Figures())
                step = await run_step(tables, recorded, args.step_seconds, args.every, pool, figures[-1])
                step["streams_failed"] = sum(1 for s in streams if s.done() and s.exception() is not None)
                steps.append(step)
                log(json.dumps(step))
                crossed = step["action"].get("p95_ms", 0) >= args.limit_ms
                if step["failed"] or (crossed and not args.quick):  # --quick runs both of its steps
                    break
        finally:
            stop.set()
            for task in streams:
                task.cancel()
            await asyncio.gather(*streams, return_exceptions=True)
            for table in tables:
                for held in table.phones:
                    held.phone.client.close()
    return steps


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--engine", choices=("sqlite", "postgresql"), default="sqlite")
    parser.add_argument("--db", help="PostgreSQL URL (default: $COMPANION_TEST_PG)")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--steps", default="25,50,75,100,150,200,250,300,400,500")
    parser.add_argument("--step-seconds", type=float, default=20.0)
    parser.add_argument("--every", type=float, default=10.0, help="seconds between two taps of one table")
    parser.add_argument("--phones", type=int, default=4, help="phones per table (the first one taps)")
    parser.add_argument("--threads", type=int, default=64, help="the client's threads (taps and fetches)")
    parser.add_argument("--limit-ms", type=float, default=50.0)
    parser.add_argument("--timeout", type=float, default=600.0)
    parser.add_argument("--seed", type=int, default=27)
    parser.add_argument("--json", action="store_true", help="a JSON object on stdout, the report on stderr")
    parser.add_argument("--quick", action="store_true", help="2 then 4 tables, 6 s each, a tap every 2 s")
    args = parser.parse_args(argv)
    if args.quick:
        args.steps, args.step_seconds, args.every, args.timeout = "2,4", 6.0, 2.0, 120.0
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
        os.environ["COMPANION_LIVE_STREAMS_PER_CLIENT"] = STREAMS_PER_CLIENT
        server = start_server(
            db, port, "--workers", str(args.workers), "--server", "gunicorn", errors=folder / "server.log"
        )
        recorded = Recorded(db)
        try:
            steps = asyncio.run(ramp(args, port, recorded))
        finally:
            recorded.close()
            stop_server(server)
    under = [s["tables"] for s in steps if s["action"].get("p95_ms", 1e9) < args.limit_ms and not s["failed"]]
    crossed = [s["tables"] for s in steps if s["action"].get("p95_ms", 0) >= args.limit_ms or s["failed"]]
    report = {
        "engine": args.engine,
        "workers": args.workers,
        "phones_per_table": args.phones,
        "every_s": args.every,
        "mix": list(MIX),
        "steps": steps,
        "largest_under": max(under) if under else None,
        "crossed_at": crossed[0] if crossed else None,
        "load_average": os.getloadavg(),
    }
    lines = [f"engine: {args.engine}, workers: {args.workers}, phones per table: {args.phones}, every: {args.every} s"]
    lines += [json.dumps(step) for step in steps]
    lines.append(f"largest under action p95 {args.limit_ms:.0f} ms: {report['largest_under'] or 'none'} tables")
    told = crossed[0] if crossed else "not within the steps run"
    lines.append(f"action p95 crossed {args.limit_ms:.0f} ms at: {told} tables")
    lines.append(f"load average at the end: {os.getloadavg()}")
    if args.json:
        print("\n".join(lines), file=sys.stderr)
        print(json.dumps(report))
    else:
        print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
