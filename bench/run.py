"""Benchmark of the Inferno Companion on the real server: what a table's taps cost, and what players wait for.

A benchmark, not a test: it prints figures. One run:

1. **Games of 10 and ~400 events in play, and a complete game** are made by seeded random legal play
   through the real rules (2-4 players, loans, the odd undo and redo) and stored in one SQLite file
   (``bench/games.py``).
2. **Cold rebuild** of each game, in this process, and the ``eventsourcing`` library's like for like
   (``bench/cold.py``).
3. **The real server in its own process**: ``companion serve`` (gunicorn with one gevent worker where
   gunicorn runs, else waitress, or the one ``--server`` names) on 127.0.0.1 and a free port, CSRF on,
   ``Accept-Encoding`` as Chromium sends it. For each game, a table's mix of real taps sent as
   ``static/js/table.js`` sends them (``bench/table_play.py``), each followed by one durable insert on a
   bare Flask endpoint in its own process on the same server kind (``bench/bare_server.py``). Both servers
   tell each answer's time and CPU in the app (``Server-Timing``): the report opens with the server's CPU
   per tap by kind. Every timed request is sent after the servers were left alone ``--gap`` ms (a table's
   taps come seconds apart), and every third step a control insert is timed in the tap's own place (the
   two places must time a request alike for the ratio to the bare insert to mean anything). Then the
   game, history and score pages.
4. **Live update latency**: phones listen to the largest game's event stream, each fetching its
   refreshed parts when its stream names a newer seq, while another phone plays the mix: the time from
   sending the tap that records until every phone holds the new parts.
5. **First load in Chromium** (Pixel 7 profile, fresh context): bytes on the wire per resource
   (``bench/first_load.py``).

Run from the repository root::

    .venv/bin/python bench/run.py                # plain-text report on stdout
    .venv/bin/python bench/run.py --quick --skip-browser   # a short run
    .venv/bin/python bench/run.py --json         # the report on stderr, a JSON object on stdout
    .venv/bin/python bench/run.py --save         # also write bench/results/<UTC time>.json
    .venv/bin/python bench/run.py --server waitress  # both servers on the threaded fallback
    .venv/bin/python bench/run.py --gap 0 --control  # every request back to back, the control inserts timed
    .venv/bin/python bench/run.py --help         # sizes, seed, runs, --no-server-timing

Databases live in a temporary directory; the only file ever written in the repository is the
optional ``bench/results/*.json`` (git-ignored). Progress goes to stderr.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import platform
import random
import sqlite3
import sys
import tempfile
import threading
import time
import uuid
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repository root, for bench/, testkit/ and companion/
from bench.cold import bench_cold, bench_eventsourcing
from bench.figures import p50, summary_ms
from bench.first_load import bench_first_load
from bench.games import play_random_game, state_reader, store_game
from bench.report import SERVER_THREADS, format_report, summarise
from bench.served import Client, bare_server, companion_server, server, server_kind
from bench.table_play import CONTROL_EVERY, GAP, Phone, play_mix
from companion.editions import DEFAULT_EDITION, load_all
from events.sqlite import SqliteStore

ROOT = Path(__file__).resolve().parents[1]
LISTENERS = 32
_T0 = time.perf_counter()


def log(message: str) -> None:
    """Progress, on stderr (the report itself goes to stdout)."""
    print(f"[bench {time.perf_counter() - _T0:6.1f} s] {message}", file=sys.stderr, flush=True)


def bench_mix(
    port: int,
    bare: Client,
    db: Path,
    editions: Any,
    game_id: str,
    steps: int,
    seed: int,
    gap: float = GAP,
    control: bool = True,
) -> dict[str, Any]:
    """A table's mix of taps on one game, each followed by a bare insert, every timed request sent after the servers
    were left alone ``gap`` seconds; with ``control``, bare inserts timed in a tap's place too."""
    phone = Phone(Client(port), game_id)
    phone.open()
    state_of = state_reader(db, editions, game_id)
    try:
        result = play_mix(
            phone, bare, state_of, steps, random.Random(seed), gap=gap, control_every=CONTROL_EVERY if control else 0
        )
    finally:
        state_of.close()
        phone.client.close()
    bare_p50 = p50(result.bare)

    def over_bare(seconds: list[float]) -> list[float]:
        """Each over the run's bare p50: pooled over the runs for a kind a run taps only a few times."""
        return [round(s / bare_p50, 4) for s in seconds]

    kinds = {
        kind: {
            **summary_ms(seconds),
            "answer_bytes_max": max(result.body_bytes[kind]),
            "x_bare_each": over_bare(seconds),
        }
        for kind, seconds in result.seconds.items()
    }
    for kind, split in result.inside.items():
        kinds[kind]["split"] = split_ms(split)
    out = {"kinds": kinds, "bare": summary_ms(result.bare), "refused": result.refused, "seq_after": phone.seq}
    if result.control:  # the same insert timed where the taps are: near 1 over the others when the places are alike
        out["control"] = {**summary_ms(result.control), "x_bare_each": over_bare(result.control)}
    if result.bare_inside:
        out["bare_split"] = split_ms(result.bare_inside)
    return out


def split_ms(taps: list[tuple[float, float, float]]) -> dict[str, float]:
    """Where the taps' time went (``Server-Timing``), each a p50 in milliseconds over the taps: in the app, its CPU
    there, and outside it (the wait less the app: the server reading and writing, the trip, the client's own work)."""
    return {
        "app_p50_ms": round(p50([app for _, app, _ in taps]), 3),
        "cpu_p50_ms": round(p50([cpu for _, _, cpu in taps]), 3),
        "outside_p50_ms": round(p50([waited - app for waited, app, _ in taps]), 3),
    }


def bench_pages(port: int, game_id: str, gets: int) -> dict[str, Any]:
    """Full GETs of the game, history and score pages (server render and transfer on loopback)."""
    phone = Client(port)
    out: dict[str, Any] = {}
    for page in ("", "/history", "/score"):
        path = f"/g/{game_id}{page}"
        first = phone.get(path)  # the first read of the page after the writes above
        answers = [phone.get(path) for _ in range(gets)]
        if any(a.status != 200 for a in answers):
            raise RuntimeError(f"GET {path}: HTTP {answers[0].status}")
        out[page or "/"] = {
            "get": summary_ms([a.seconds for a in answers]),
            "first_ms": round(first.seconds * 1000, 2),
            "bytes": answers[-1].body_bytes,
        }
    phone.close()
    return out


def bench_live(
    port: int, db: Path, editions: Any, game_id: str, writes: int, seed: int, listeners: int = LISTENERS
) -> dict[str, Any]:
    """``listeners`` phones on the game, each fetching its refreshed parts when its stream names a newer
    seq (as table.js's live trigger does); the time from a tap until every phone holds the new parts."""
    holds: list[list[tuple[float, int]]] = [[] for _ in range(listeners)]
    ready = threading.Barrier(listeners + 1, timeout=60)
    stop = threading.Event()
    failures: list[str] = []

    def listen(i: int) -> None:
        phone = Phone(Client(port), game_id)
        phone.open()
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        conn.request("GET", f"/g/{game_id}/events?since={phone.seq}", headers={"Accept-Encoding": "gzip"})
        response = conn.getresponse()
        ready.wait()
        event_name = ""
        try:
            while not stop.is_set():
                line = response.readline().decode()
                if not line:
                    return
                if line.startswith("event:"):
                    event_name = line[6:].strip()
                elif line.startswith("data:") and event_name == "seq" and int(line[5:].strip()) != phone.seq:
                    phone.refresh()  # table.js fetches only when the stream names a seq it does not show
                    holds[i].append((time.perf_counter(), phone.seq))
        except (OSError, RuntimeError) as exc:
            if not stop.is_set():
                failures.append(repr(exc))
        finally:
            conn.close()
            phone.client.close()

    threads = [threading.Thread(target=listen, args=(i,), daemon=True) for i in range(listeners)]
    for t in threads:
        t.start()
    ready.wait()
    time.sleep(0.5)
    writer = Phone(Client(port), game_id)
    writer.open()
    state_of = state_reader(db, editions, game_id)
    rng = random.Random(seed)
    latencies: list[float] = []  # from sending the tap that records
    from_step: list[float] = []  # from the step's start: the client choosing its move, a select round trip, the tap
    kinds: list[str] = []
    missed = 0
    try:
        for _ in range(writes):
            sent = time.perf_counter()
            result = play_mix(writer, None, state_of, 1, rng)
            tapped = writer.sent_at  # an undo step sends the undo, then the redo: timed from the redo
            kinds += list(result.seconds)
            seq = writer.seq
            deadline = time.monotonic() + 5
            while time.monotonic() < deadline and not all(any(s >= seq for _, s in h) for h in holds):
                time.sleep(0.002)
            last = [next((t for t, s in h if s >= seq), None) for h in holds]
            missed += sum(1 for t in last if t is None)
            held = [t for t in last if t is not None]
            if held:
                latencies.append(max(held) - tapped)
                from_step.append(max(held) - sent)
            time.sleep(0.2)
    finally:
        stop.set()
        state_of.close()
        writer.client.close()
    return {
        "listeners": listeners,
        "writes": writes,
        "kinds": sorted(set(kinds)),
        "missed": missed,
        "failures": failures[:3],
        "all_hold": summary_ms(latencies) if latencies else None,
        "all_hold_from_step": summary_ms(from_step) if from_step else None,
    }


def machine() -> dict[str, Any]:
    """Where the figures come from."""

    def version(package: str) -> str:
        try:
            return metadata.version(package)
        except metadata.PackageNotFoundError:
            return "?"

    affinity = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None
    return {
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "sqlite": sqlite3.sqlite_version,
        "cpu_count": os.cpu_count(),
        "cpus_usable": affinity,
        "platform": platform.platform(),
        "machine": platform.machine(),
        "packages": {p: version(p) for p in ("flask", "werkzeug", "sqlite-utils", "eventsourcing", "playwright")},
        "when": datetime.now(UTC).isoformat(timespec="seconds"),
    }


def copy_db(source: Path, target: Path) -> None:
    """A consistent copy of a SQLite database (the backup API: the WAL's pages too)."""
    src, dst = sqlite3.connect(source), sqlite3.connect(target)
    with dst:
        src.backup(dst)
    src.close()
    dst.close()


def load_average() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "?"


def one_run(
    args: argparse.Namespace, n: int, seed_db: Path, workdir: Path, games: dict[str, str], editions: Any
) -> dict[str, Any]:
    """One run on a fresh copy of the games: cold, then both servers anew, the mix on each game, pages, live."""
    db = workdir / f"run{n}.sqlite3"
    copy_db(seed_db, db)
    kind = server_kind(args.server)
    out: dict[str, Any] = {"growth": []}
    store = SqliteStore.open(db)
    try:
        for label, game_id in games.items() if not args.live_only else ():
            log(f"run {n}: cold rebuild of the {label} game, and eventsourcing like for like")
            cold = bench_cold(store, editions, game_id, args.repeats)
            es = bench_eventsourcing(workdir, cold["events"], cold["after_snapshot"], args.repeats)
            out["growth"].append({"label": label, "events": cold["events"], "cold": cold, "eventsourcing": es})
    finally:
        store.close()
    timing = {"COMPANION_SERVER_TIMING": "1"} if args.server_timing else {}
    with (
        server(companion_server(db, kind, SERVER_THREADS), timing) as port,
        server(bare_server(workdir / f"bare{n}.sqlite3", kind, SERVER_THREADS), timing) as bare_port,
    ):
        bare = Client(bare_port)
        bare.get("/")
        for row, game_id in zip(out["growth"], games.values() if not args.live_only else (), strict=True):
            log(f"run {n}: the {row['events']}-event game over HTTP: {args.steps} taps of the mix, pages")
            row["mix"] = bench_mix(
                port,
                bare,
                db,
                editions,
                game_id,
                args.steps,
                args.seed + n,
                args.gap / 1000,
                control=args.gap > 0 or args.control,
            )
            row["pages"] = bench_pages(port, game_id, args.page_gets)
        bare.close()
        live_label = str(max(args.sizes))  # a game in play (the complete one is at its last turn)
        if args.live_writes and (not args.live_compare or n % 2 == 1):
            out["live"] = one_live(args, n, port, db, editions, games, live_label, "")
        if n == 1 and not args.skip_browser:
            log("first load in Chromium (Pixel 7)")
            first, last = next(iter(games.values())), list(games.values())[-1]
            out["first_load"] = bench_first_load(port, {"smallest game": f"/g/{first}", "largest game": f"/g/{last}"})
    if args.live_writes and args.live_compare:  # the same figure with each phone's answer drawn apart, interleaved
        env = {"COMPANION_LIVE_ANSWERS": "0"}
        with server(companion_server(db, kind, SERVER_THREADS), env) as apart_port:
            out["live_apart"] = one_live(args, n, apart_port, db, editions, games, live_label, " (drawn apart)")
        if n % 2 == 0:
            with server(companion_server(db, kind, SERVER_THREADS)) as port:
                out["live"] = one_live(args, n, port, db, editions, games, live_label, "")
    return out


def one_live(
    args: argparse.Namespace, n: int, port: int, db: Path, editions: Any, games: dict[str, str], label: str, how: str
) -> dict[str, Any]:
    """The live figure of run ``n`` on the server at ``port``."""
    log(f"run {n}: live, {args.listeners} phones on the {label}-event game{how}")
    game_id = games[label]
    return {"events": label, **bench_live(port, db, editions, game_id, args.live_writes, args.seed + n, args.listeners)}


def run(args: argparse.Namespace) -> dict[str, Any]:
    started = time.perf_counter()
    editions = load_all()
    edition = editions[DEFAULT_EDITION][1]
    report: dict[str, Any] = {
        "machine": machine(),
        "seed": args.seed,
        "server": server_kind(args.server),
        "runs": args.runs,
        "gap_ms": args.gap,
        "load_before": load_average(),
    }
    os.environ.setdefault("COMPANION_SECRET_KEY", "bench-" + uuid.uuid4().hex)  # nothing written in instance/
    with tempfile.TemporaryDirectory(prefix="companion-bench-") as tmp:
        workdir = Path(tmp)
        seed_db = workdir / "games.sqlite3"
        store = SqliteStore.open(seed_db)
        games: dict[str, str] = {}
        try:
            for size in args.sizes:
                log(f"playing a random legal game to {size} events and storing it")
                games[str(size)] = store_game(store, editions, play_random_game(edition, args.seed, size))
            if args.complete:
                log(f"playing {args.complete} complete games; the longest is timed")
                played = [
                    play_random_game(edition, args.seed + 100 * i, 0, complete=True) for i in range(args.complete)
                ]
                games["complete"] = store_game(store, editions, max(played, key=lambda g: len(g.records)))
        finally:
            store.close()
        runs = [one_run(args, n, seed_db, workdir, games, editions) for n in range(1, args.runs + 1)]
    report["runs_raw"] = runs
    report["first_load"] = runs[0].get("first_load")
    report["summary"] = summarise(runs)
    report["load_after"] = load_average()
    report["wall_seconds"] = round(time.perf_counter() - started, 1)
    return report


def _parser(argv: list[str] | None) -> argparse.ArgumentParser:
    """The command line; with ``--quick`` in ``argv``, shorter defaults (what is given still counts)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--json", action="store_true", help="print a JSON object on stdout (the report on stderr)")
    parser.add_argument("--save", action="store_true", help="also write the JSON to bench/results/")
    parser.add_argument("--quick", action="store_true", help="a short run for tests: one small game, 2 runs")
    parser.add_argument("--seed", type=int, default=2024, help="seed of the random games (default 2024)")
    parser.add_argument(
        "--sizes", type=int, nargs="+", default=[10, 400], help="sizes of games in play, in events (default 10 400)"
    )
    parser.add_argument(
        "--complete",
        type=int,
        default=12,
        help="also the longest of this many complete games, a round before its end (default 12; 0: none)",
    )
    parser.add_argument("--runs", type=int, default=3, help="runs, each on fresh servers and a fresh copy (default 3)")
    parser.add_argument("--steps", type=int, default=90, help="taps of the mix per game and run (default 90)")
    parser.add_argument(
        "--gap",
        type=float,
        default=GAP * 1000,
        help=f"ms the servers are left alone before each timed request of the mix (default {GAP * 1000:g}; 0: back to "
        "back, without control inserts unless --control)",
    )
    parser.add_argument(
        "--control", action="store_true", help="with --gap 0: time control inserts in the taps' place too"
    )
    parser.add_argument("--repeats", type=int, default=10, help="repeats of cold rebuild and repository.get")
    parser.add_argument("--page-gets", type=int, default=8, help="timed GETs of each page (default 8)")
    parser.add_argument("--live-writes", type=int, default=10, help="taps heard by the live phones (default 10)")
    parser.add_argument("--listeners", type=int, default=LISTENERS, help=f"live phones (default {LISTENERS})")
    parser.add_argument("--skip-browser", action="store_true", help="skip the Chromium first load")
    parser.add_argument("--live-only", action="store_true", help="only the live figure (no cold, mix or pages)")
    parser.add_argument(
        "--live-compare",
        action="store_true",
        help="the live figure also with each phone's answer drawn apart (COMPANION_LIVE_ANSWERS=0), interleaved",
    )
    parser.add_argument(
        "--server",
        choices=("auto", "gunicorn", "waitress"),
        default="auto",
        help="the app's and the bare insert server's (default auto: gunicorn + one gevent worker where it runs)",
    )
    parser.add_argument(
        "--server-timing",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="both servers tell each answer's time and CPU in the app (Server-Timing): the CPU per tap, and each "
        "kind's time split inside and outside the app (default on)",
    )
    if "--quick" in (sys.argv[1:] if argv is None else argv):
        parser.set_defaults(sizes=[10], complete=0, runs=2, steps=40, repeats=3, page_gets=2)
        parser.set_defaults(live_writes=3, listeners=4, skip_browser=True)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = _parser(argv).parse_args(argv)

    report = run(args)
    text = format_report(report)
    if args.json:
        print(text, file=sys.stderr)
        print(json.dumps(report, indent=2))
    else:
        print(text)
    if args.save:
        out = ROOT / "bench" / "results"
        out.mkdir(parents=True, exist_ok=True)
        stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
        (out / f"{stamp}.json").write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
        log(f"saved bench/results/{stamp}.json")
    return 0


if __name__ == "__main__":
    sys.exit(main())
