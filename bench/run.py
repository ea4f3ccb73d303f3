"""Benchmark of the Inferno Companion: replay, a recorded action end to end, undo, first page load.

A benchmark, not a test: it prints figures. What it measures, in one run:

1. **Replay.** A game log of about 1,000 events is built by random legal play through the real
   rules (``rules.decide``/``decide_create``, ``projection.evolve``; the command generator is
   adapted from ``tests/game/test_properties.py``), seeded, 2-4 players, with loans and the odd
   undo/redo. While the log is short of the target, commands that would end the game are set
   aside, so one game reaches it. Then:

   - events folded per second by ``projection.replay`` over the events in effect (median);
   - the same steps recorded on a temp SQLite file through ``GameService.create_game``/
     ``execute``/``undo``/``redo`` (so the log has real batches), checked against the pure play;
   - the wall time of a cold ``GameService.view`` (a new service per call, as each web request
     makes: store read, decode/upcast, timeline, replay), with its stages timed one by one;
   - the ``eventsourcing`` library (9.5.x) on the same number of events: a ``Counter`` aggregate
     saved by an ``Application`` on SQLite, read back with ``app.repository.get`` (median); the
     ratio of the two.
2. **A recorded action end to end.** The real app (``companion.web.create_app``) on a loopback
   werkzeug server (threaded); N POSTs of ``/g/<id>/loan`` as htmx sends them (each with the seq
   read from the previous fragment's ``data-seq``), then N POSTs to a bare Flask endpoint on the
   same kind of server doing one durable SQLite insert (WAL, ``synchronous=FULL``) per request.
   ``http.client`` with keep-alive; p50/p95/mean and the ratio app/bare.
3. **Undo on the ~1,000-event game.** ``GameService.undo`` then ``redo``, alternately (read,
   replay, decide, durable append), with a new service per call and with one long-lived service.
4. **The game page.** Full-page GETs of a short and of the long game; then Playwright + Chromium
   with the Pixel 7 profile opens each page in a fresh context: every response's body length
   (as served: the dev server does not compress) and its ``gzip.compress`` length, per resource
   and in total. Server-Sent Event streams are listed but not counted.

Run from the repository root (about 40 s on 2 cores)::

    .venv/bin/python bench/run.py                # plain-text report on stdout
    .venv/bin/python bench/run.py --json         # the report on stderr, a JSON object on stdout
    .venv/bin/python bench/run.py --save         # also write bench/results/<UTC time>.json
    .venv/bin/python bench/run.py --help         # sizes, seed, --skip-browser

Databases live in a temporary directory; the only file ever written in the repository is the
optional ``bench/results/*.json`` (git-ignored). Progress goes to stderr.
"""

from __future__ import annotations

import argparse
import gzip
import http.client
import json
import logging
import os
import platform
import random
import re
import sqlite3
import statistics
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from eventsourcing.application import Application
from eventsourcing.domain import Aggregate, event
from flask import Flask, g, request
from playwright.sync_api import Browser, Response, sync_playwright
from werkzeug.serving import BaseWSGIServer, make_server

from companion.editions import DEFAULT_EDITION, load_all
from companion.game.commands import (
    CreateGame,
)
from companion.game.dispatch import replay_any
from companion.game.edition import Edition
from companion.game.errors import RuleViolation
from companion.game.projection import evolve, replay
from companion.game.rules import decide, decide_create
from companion.game.state import GameState, Phase
from companion.game.timeline import Recorded, build_timeline, decide_redo, decide_undo
from companion.service import GameService
from companion.web import create_app
from companion.wire import event_from_row
from events.catalog import Event, GameEnded, SeatSetup
from events.store import EventStore

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repository root, for tests/
from tests.random_play import choices

ROOT = Path(__file__).resolve().parents[1]
NAMES = ("Ana", "Ben", "Cleo", "Dino")
COLOURS = ("crimson", "navy", "forest", "gold")
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SEQ_RE = re.compile(r'data-seq="(\d+)"')
_T0 = time.perf_counter()


def log(message: str) -> None:
    """Progress, on stderr (the report itself goes to stdout)."""
    print(f"[bench {time.perf_counter() - _T0:6.1f} s] {message}", file=sys.stderr, flush=True)


# --------------------------------------------------------------------------- statistics


def percentile(values: list[float], p: float) -> float:
    """The ``p``-th percentile (0-100) by linear interpolation between closest ranks."""
    ordered = sorted(values)
    if len(ordered) == 1:
        return ordered[0]
    rank = (len(ordered) - 1) * p / 100
    low = int(rank)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (rank - low)


def summary_ms(seconds: list[float]) -> dict[str, float]:
    """p50/p95/mean/min/max of durations, in milliseconds."""
    ms = [s * 1000 for s in seconds]
    return {
        "n": len(ms),
        "p50_ms": round(percentile(ms, 50), 3),
        "p95_ms": round(percentile(ms, 95), 3),
        "mean_ms": round(statistics.fmean(ms), 3),
        "min_ms": round(min(ms), 3),
        "max_ms": round(max(ms), 3),
    }


def timed(fn: Callable[[], object], repeats: int) -> list[float]:
    """Wall times (seconds) of ``repeats`` calls of ``fn``."""
    out = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        out.append(time.perf_counter() - start)
    return out


# --------------------------------------------------------------------------- random legal play


def seats(count: int) -> tuple[SeatSetup, ...]:
    """``count`` players in turn order."""
    return tuple(SeatSetup(NAMES[i], COLOURS[i]) for i in range(count))


@dataclass(frozen=True)
class Step:
    """One entry of the played game: a command, or an undo/redo of the latest action."""

    kind: str  # "command" | "undo" | "redo"
    command: Any = None


@dataclass
class PlayedGame:
    """A game played through the pure core: its creation, its steps and its log."""

    seed: int
    create: CreateGame
    steps: list[Step] = field(default_factory=list)
    records: list[Recorded] = field(default_factory=list)
    live: GameState | None = None
    restarts: int = 0

    def append(self, events: list[Event]) -> None:
        first = len(self.records) + 1
        self.records += [Recorded(first + i, first, e) for i, e in enumerate(events)]

    def effective_events(self) -> list[Event]:
        return list(build_timeline(self.records).effective_events())


def play_random_game(
    edition: Edition, seed: int, target: int, undo_rate: float = 0.03, redo_rate: float = 0.3
) -> PlayedGame:
    """Random legal play until the log holds at least ``target`` events.

    The game is kept going: while the log is short of ``target``, a command that would end the
    game is set aside for another legal one, the plague deck never runs out, and when every
    choice would end the game the table undoes its latest action (as players do). If a game
    still ends early (it should not) a new one starts with the next seed.
    """
    for attempt in range(20):
        rng = random.Random(seed + attempt)
        plague = tuple(rng.choices(range(1, 10), k=rng.randint(3, 6)))
        game = PlayedGame(seed + attempt, CreateGame(players=seats(rng.randint(2, 4)), plague_card=plague))
        game.restarts = attempt
        game.append(decide_create(edition, game.create))
        live = replay(edition, game.effective_events())
        while len(game.records) < target and live.phase is not Phase.OVER:
            timeline = build_timeline(game.records)
            roll = rng.random()
            if timeline.undone and roll < redo_rate:  # right after an undo, sometimes put it back
                game.append([decide_redo(timeline)])
                game.steps.append(Step("redo"))
                live = replay(edition, game.effective_events())
                continue
            if roll < undo_rate and timeline.undoable:
                game.append(list(decide_undo(timeline)))
                game.steps.append(Step("undo"))
                live = replay(edition, game.effective_events())
                continue
            options = choices(live, rng, allow_deck_end=False)
            rng.shuffle(options)
            chosen: tuple[object, list[Event]] | None = None
            for command in options:
                try:
                    events = decide(live, command)  # type: ignore[arg-type]
                except RuleViolation:
                    continue
                if not any(isinstance(e, GameEnded) for e in events):
                    chosen = (command, events)
                    break
            if chosen is None:
                if not timeline.undoable:
                    break
                game.append(list(decide_undo(timeline)))
                game.steps.append(Step("undo"))
                live = replay(edition, game.effective_events())
                continue
            command, events = chosen
            game.append(events)
            game.steps.append(Step("command", command))
            for e in events:
                live = evolve(live, e)
        if len(game.records) >= target:
            game.live = live
            return game
    raise RuntimeError(f"could not build a game of {target} events")


# --------------------------------------------------------------------------- eventsourcing comparison


class Counter(Aggregate):
    """The comparison aggregate: a counter and a small dict, changed by one simple event."""

    def __init__(self) -> None:
        self.count = 0
        self.tally: dict[str, int] = {}

    @event("Incremented")
    def increment(self, key: str, by: int) -> None:
        self.count += by
        self.tally[key] = self.tally.get(key, 0) + by


class CounterApp(Application[Any]):
    """An eventsourcing application holding ``Counter`` aggregates."""


def bench_eventsourcing(workdir: Path, events: int, repeats: int) -> dict[str, Any]:
    """Save a ``Counter`` with ``events`` stored events on SQLite and time ``repository.get``."""
    path = workdir / "eventsourcing.sqlite3"
    app = CounterApp(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(path)})
    counter = Counter()  # its creation is the first event
    keys = ("florins", "drachmas", "infamy", "souls")
    for i in range(events - 1):
        counter.increment(keys[i % len(keys)], 1 + i % 3)
    app.save(counter)
    loaded = app.repository.get(counter.id)
    assert loaded.version == events, (loaded.version, events)
    assert loaded.count == counter.count
    times = timed(lambda: app.repository.get(counter.id), repeats)
    app.close()
    return {"events": events, "repository_get": summary_ms(times)}


# --------------------------------------------------------------------------- service path


@dataclass
class ServiceGame:
    """The random game as recorded by ``GameService`` on a temp SQLite file."""

    path: Path
    game_id: str
    rows: int
    actions: int
    record_seconds: float


def record_through_service(path: Path, editions: dict[str, tuple[str, Edition]], game: PlayedGame) -> ServiceGame:
    """Play ``game``'s steps again through ``GameService`` on ``path``, as the web layer records them.

    One service instance is used throughout (so its view cache, if any, is warm); every step is a
    ``create_game``/``execute``/``undo``/``redo`` with a fresh idempotency key and one durable
    append. The rebuilt state is checked against the pure play.
    """
    store = EventStore.open(path)
    try:
        service = GameService(store, editions, rng=random.Random(game.seed))
        start = time.perf_counter()
        game_id = service.create_game(game.create, uuid.uuid4().hex, actor="shared")
        seq = service.view(game_id).seq
        for step in game.steps:
            key = uuid.uuid4().hex
            if step.kind == "undo":
                outcome = service.undo(game_id, seq, key, actor="shared")
            elif step.kind == "redo":
                outcome = service.redo(game_id, seq, key, actor="shared")
            else:
                outcome = service.execute(game_id, seq, step.command, key, actor="shared")
            seq = outcome.view.seq
        elapsed = time.perf_counter() - start
        view = GameService(store, editions).view(game_id)
        if view.seq != len(game.records):
            raise AssertionError(f"the stored log has {view.seq} events, the pure play {len(game.records)}")
        if view.state != game.live:
            raise AssertionError("GameService.view rebuilds a different state than the pure play")
        return ServiceGame(path, game_id, view.seq, len(view.timeline.actions), elapsed)
    finally:
        store.close()


def bench_view(path: Path, editions: dict[str, tuple[str, Edition]], game_id: str, repeats: int) -> dict[str, Any]:
    """Time a cold ``GameService.view`` (a new service per call, as each web request makes), and its stages.

    Also the same service asked again while the log has not moved (its per-instance view cache).
    """
    store = EventStore.open(path)
    try:
        GameService(store, editions).view(game_id)  # warm the OS page cache and the SQLite connection
        cold = timed(lambda: GameService(store, editions).view(game_id), repeats)
        service = GameService(store, editions)
        service.view(game_id)
        again = timed(lambda: service.view(game_id), repeats)
        meta = store.game(game_id)
        edition = service.pinned_edition(meta["edition_hash"])
        rows = store.read(game_id)
        records = [Recorded(r.seq, r.action, event_from_row(r.type, r.version, r.data)) for r in rows]
        timeline = build_timeline(records)
        effective = list(timeline.effective_events())
        stages = {
            "store_read": timed(lambda: store.read(game_id), repeats),
            "decode_upcast": timed(
                lambda: [Recorded(r.seq, r.action, event_from_row(r.type, r.version, r.data)) for r in rows], repeats
            ),
            "timeline": timed(lambda: list(build_timeline(records).effective_events()), repeats),
            "replay": timed(lambda: replay_any(edition, effective), repeats),
        }
        return {
            "rows": len(rows),
            "actions": len(timeline.actions),
            "effective_events": len(effective),
            "view": summary_ms(cold),
            "view_same_service_unchanged_log": summary_ms(again),
            "stages_p50_ms": {k: round(percentile(v, 50) * 1000, 3) for k, v in stages.items()},
        }
    finally:
        store.close()


def bench_replay(edition: Edition, events: list[Event], min_seconds: float = 1.5) -> dict[str, Any]:
    """Events per second folded by ``projection.replay`` (median over repeats)."""
    replay(edition, events)
    times: list[float] = []
    start = time.perf_counter()
    while len(times) < 10 or (time.perf_counter() - start < min_seconds and len(times) < 500):
        times += timed(lambda: replay(edition, events), 1)
    median = statistics.median(times)
    return {
        "events": len(events),
        "repeats": len(times),
        "replay_p50_ms": round(median * 1000, 3),
        "replay_min_ms": round(min(times) * 1000, 3),
        "events_per_second": round(len(events) / median),
        "events_per_second_best": round(len(events) / min(times)),
    }


def bench_undo(path: Path, editions: dict[str, tuple[str, Edition]], game_id: str, pairs: int) -> dict[str, Any]:
    """Alternate ``GameService.undo`` and ``redo`` on the long game; each is the full durable path.

    First with a new service per call (as each web request makes: cold read and replay), then
    with one long-lived service (its view cache warm).
    """
    store = EventStore.open(path)
    try:
        seq = GameService(store, editions).view(game_id).seq
        start_rows = seq
        result: dict[str, Any] = {"rows_before": start_rows}
        for label in ("fresh_service", "same_service"):
            shared = GameService(store, editions)
            shared.view(game_id)
            undo: list[float] = []
            redo: list[float] = []
            for _ in range(pairs):
                svc = shared if label == "same_service" else GameService(store, editions)
                t0 = time.perf_counter()
                seq = svc.undo(game_id, seq, uuid.uuid4().hex).view.seq
                t1 = time.perf_counter()
                svc = shared if label == "same_service" else GameService(store, editions)
                t2 = time.perf_counter()
                seq = svc.redo(game_id, seq, uuid.uuid4().hex).view.seq
                t3 = time.perf_counter()
                undo.append(t1 - t0)
                redo.append(t3 - t2)
            result[label] = {"undo": summary_ms(undo), "redo": summary_ms(redo)}
        result["rows_after"] = seq
        return result
    finally:
        store.close()


# --------------------------------------------------------------------------- HTTP


@contextmanager
def serve(app: Flask) -> Iterator[int]:
    """Serve ``app`` on a loopback port in a thread; yields the port."""
    logging.getLogger("werkzeug").setLevel(logging.ERROR)  # no access log: it would be timed too
    server: BaseWSGIServer = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, name="bench-http", daemon=True)
    thread.start()
    try:
        yield server.server_port
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


def bare_app(path: Path) -> Flask:
    """A bare Flask app: one durable SQLite insert per POST (WAL, synchronous=FULL)."""
    setup = sqlite3.connect(path)
    setup.execute("PRAGMA journal_mode = WAL")
    setup.execute("CREATE TABLE IF NOT EXISTS hits (id INTEGER PRIMARY KEY, key TEXT NOT NULL, at REAL NOT NULL)")
    setup.commit()
    setup.close()
    app = Flask("bench_bare")

    def connection() -> sqlite3.Connection:
        # One connection per request, like the companion app (flaskr style).
        if "conn" not in g:
            conn = sqlite3.connect(path)
            conn.execute("PRAGMA journal_mode = WAL")
            conn.execute("PRAGMA synchronous = FULL")
            g.conn = conn
        return g.conn  # type: ignore[no-any-return]

    @app.teardown_appcontext
    def close(_exc: BaseException | None) -> None:
        conn = g.pop("conn", None)
        if conn is not None:
            conn.close()

    @app.post("/hit")
    def hit() -> str:
        conn = connection()
        cursor = conn.execute("INSERT INTO hits (key, at) VALUES (?, ?)", (request.form["key"], time.time()))
        conn.commit()
        return f'<div id="hit" data-seq="{cursor.lastrowid}">ok</div>'

    return app


def post(conn: http.client.HTTPConnection, path: str, form: dict[str, Any], headers: dict[str, str]) -> str:
    """POST a form; the response body as text (raises unless 200)."""
    body = urlencode(form)
    conn.request("POST", path, body=body, headers={"Content-Type": "application/x-www-form-urlencoded", **headers})
    response = conn.getresponse()
    text = response.read().decode("utf-8")
    if response.status != 200:
        raise RuntimeError(f"POST {path}: HTTP {response.status}: {text[:300]}")
    return text


def bench_http(port_app: int, loan_game: str, port_bare: int, requests: int, warmup: int) -> dict[str, Any]:
    """Time real keep-alive POSTs: the app's loan (htmx fragment) against the bare insert."""
    htmx = {"HX-Request": "true", "HX-Current-URL": f"http://127.0.0.1:{port_app}/g/{loan_game}"}
    conn = http.client.HTTPConnection("127.0.0.1", port_app, timeout=30)
    conn.request("GET", f"/g/{loan_game}")
    first = conn.getresponse()
    page = first.read().decode("utf-8")
    match = SEQ_RE.search(page)
    if first.status != 200 or match is None:
        raise RuntimeError(f"GET /g/{loan_game}: HTTP {first.status}, no data-seq")
    seq = int(match.group(1))
    start_seq = seq
    app_times: list[float] = []
    fragment_bytes = 0
    for i in range(warmup + requests):
        form = {"seq": seq, "key": uuid.uuid4().hex, "player": 0}
        t0 = time.perf_counter()
        text = post(conn, f"/g/{loan_game}/loan", form, htmx)
        elapsed = time.perf_counter() - t0
        found = SEQ_RE.search(text)
        if found is None:
            raise RuntimeError("the loan fragment has no data-seq")
        new_seq = int(found.group(1))
        if new_seq != seq + 1:
            raise RuntimeError(f"loan did not record exactly one event: seq {seq} -> {new_seq}")
        seq = new_seq
        if i >= warmup:
            app_times.append(elapsed)
            fragment_bytes = len(text.encode("utf-8"))
    conn.close()

    bare = http.client.HTTPConnection("127.0.0.1", port_bare, timeout=30)
    bare_times: list[float] = []
    for i in range(warmup + requests):
        form = {"seq": i, "key": uuid.uuid4().hex, "player": 0}
        t0 = time.perf_counter()
        post(bare, "/hit", form, {"HX-Request": "true"})
        elapsed = time.perf_counter() - t0
        if i >= warmup:
            bare_times.append(elapsed)
    bare.close()

    app_summary = summary_ms(app_times)
    bare_summary = summary_ms(bare_times)
    tenth = max(1, requests // 10)
    return {
        "requests": requests,
        "warmup": warmup,
        "app_loan": app_summary,
        "app_loan_first_tenth_p50_ms": round(percentile(app_times[:tenth], 50) * 1000, 3),
        "app_loan_last_tenth_p50_ms": round(percentile(app_times[-tenth:], 50) * 1000, 3),
        "app_log_rows": {"start": start_seq, "end": seq},
        "app_fragment_bytes": fragment_bytes,
        "bare_insert": bare_summary,
        "ratio_app_over_bare": {
            "p50": round(app_summary["p50_ms"] / bare_summary["p50_ms"], 2),
            "p95": round(app_summary["p95_ms"] / bare_summary["p95_ms"], 2),
            "mean": round(app_summary["mean_ms"] / bare_summary["mean_ms"], 2),
        },
    }


def bench_get(port: int, path: str, repeats: int) -> dict[str, Any]:
    """Time full-page GETs of ``path`` (server render + transfer on loopback), keep-alive."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    times: list[float] = []
    size = 0
    for _ in range(repeats + 1):
        t0 = time.perf_counter()
        conn.request("GET", path)
        response = conn.getresponse()
        body = response.read()
        times.append(time.perf_counter() - t0)
        if response.status != 200:
            raise RuntimeError(f"GET {path}: HTTP {response.status}")
        size = len(body)
    conn.close()
    return {"bytes": size, "get": summary_ms(times[1:])}


# --------------------------------------------------------------------------- browser


def load_page(browser: Browser, device: dict[str, Any], base: str, path: str) -> dict[str, Any]:
    """Open ``path`` in a fresh context (empty cache) and list every response with its bytes."""
    context = browser.new_context(**device)
    page = context.new_page()
    seen: list[Response] = []

    def collect(response: Response) -> None:
        seen.append(response)

    page.on("response", collect)
    start = time.perf_counter()
    page.goto(base + path, wait_until="load")
    load_ms = (time.perf_counter() - start) * 1000
    page.wait_for_timeout(750)  # late requests: deferred scripts, the live stream, icons
    resources = []
    for response in seen:
        content_type = (response.headers.get("content-type") or "").split(";")[0]
        url = response.url.removeprefix(base)
        entry: dict[str, Any] = {"url": url, "status": response.status, "type": content_type}
        if content_type == "text/event-stream":
            entry.update(bytes=None, gzip_bytes=None, note="stream, not counted")
        else:
            try:
                body = response.body()
            except Exception as exc:  # a redirect or an aborted request has no body
                entry.update(bytes=None, gzip_bytes=None, note=f"no body ({type(exc).__name__})")
            else:
                entry.update(bytes=len(body), gzip_bytes=len(gzip.compress(body)))
        resources.append(entry)
    context.close()
    counted = [r for r in resources if r["bytes"] is not None]
    return {
        "path": path,
        "load_event_ms": round(load_ms, 1),
        "resources": resources,
        "total_bytes": sum(r["bytes"] for r in counted),
        "total_gzip_bytes": sum(r["gzip_bytes"] for r in counted),
    }


def bench_page_load(port: int, pages: dict[str, str]) -> dict[str, Any]:
    """Open each page in a fresh Pixel 7 context; every response's bytes, raw and gzipped."""
    results: dict[str, Any] = {}
    with sync_playwright() as pw:
        launch: dict[str, Any] = {"args": CHROMIUM_ARGS, "headless": True}
        executable = CHROMIUM if os.path.exists(CHROMIUM) else None
        if executable:
            launch["executable_path"] = executable
        browser = pw.chromium.launch(**launch)
        results["browser"] = {"executable": executable or "playwright default", "version": browser.version}
        device = dict(pw.devices["Pixel 7"])
        for label, path in pages.items():
            results[label] = load_page(browser, device, f"http://127.0.0.1:{port}", path)
        browser.close()
    return results


# --------------------------------------------------------------------------- report


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


def format_report(r: dict[str, Any]) -> str:
    """The plain-text report."""
    m = r["machine"]
    lines = [
        "Inferno Companion benchmark",
        "=" * 27,
        f"Python {m['python']} ({m['implementation']}), SQLite {m['sqlite']}, "
        f"{m['cpu_count']} CPUs ({m['cpus_usable']} usable), {m['platform']}",
        "Packages: " + ", ".join(f"{k} {v}" for k, v in m["packages"].items()),
        f"Run at {m['when']}, seed {r['seed']}, total wall time {r['wall_seconds']:.1f} s",
        "",
    ]

    def stat(s: dict[str, float]) -> str:
        return f"p50 {s['p50_ms']:.2f} ms, p95 {s['p95_ms']:.2f} ms, mean {s['mean_ms']:.2f} ms (n={s['n']})"

    g_ = r["game"]
    rp = r["replay"]
    v = r["service_view"]
    es = r["eventsourcing"]
    lines += [
        "1. Replay",
        f"   Game: {g_['players']} players, random legal play (seed {g_['seed']}), {g_['rows']} events in "
        f"{g_['actions']} actions ({g_['commands']} commands, {g_['undos']} undos, {g_['redos']} redos); "
        f"{g_['effective_events']} events in effect; phase {g_['phase']}.",
        f"   Recorded through GameService.create_game/execute/undo/redo (one service instance, one durable "
        f"append per action): {g_['record_seconds']:.2f} s ({g_['record_ms_per_action']:.2f} ms per action).",
        f"   projection.replay: {rp['events_per_second']:,} events/s "
        f"(median {rp['replay_p50_ms']:.2f} ms for {rp['events']} events, {rp['repeats']} repeats; "
        f"best {rp['events_per_second_best']:,} events/s)",
        f"   GameService.view, cold (new service per call, as per web request; {v['rows']} rows, "
        f"{v['actions']} actions): {stat(v['view'])}",
        "      stages (p50): " + ", ".join(f"{k} {ms:.2f} ms" for k, ms in v["stages_p50_ms"].items()),
        f"      same service asked again, log unchanged (its view cache): {stat(v['view_same_service_unchanged_log'])}",
        f"   eventsourcing {m['packages']['eventsourcing']} repository.get ({es['events']} events, SQLite): "
        f"{stat(es['repository_get'])}",
        f"   ratio GameService.view / repository.get (p50): {r['ratio_view_over_eventsourcing']:.2f}x",
        "",
    ]
    h = r["http"]
    lines += [
        f"2. A recorded action end to end (real HTTP on loopback, keep-alive, {h['requests']} requests "
        f"after {h['warmup']} warm-up)",
        f"   app POST /g/<id>/loan (htmx fragment, {h['app_fragment_bytes']:,} bytes): {stat(h['app_loan'])}",
        f"      log grew from {h['app_log_rows']['start']} to {h['app_log_rows']['end']} events; "
        f"p50 first tenth {h['app_loan_first_tenth_p50_ms']:.2f} ms, "
        f"last tenth {h['app_loan_last_tenth_p50_ms']:.2f} ms",
        f"   bare Flask, one durable SQLite insert: {stat(h['bare_insert'])}",
        f"   ratio app / bare: p50 {h['ratio_app_over_bare']['p50']:.2f}x, "
        f"p95 {h['ratio_app_over_bare']['p95']:.2f}x, mean {h['ratio_app_over_bare']['mean']:.2f}x",
        "",
    ]
    u = r["undo"]
    lines += [
        f"3. Undo on the {u['rows_before']}-event game (GameService.undo then redo, alternately; full durable path)",
        f"   undo, new service per call (as a web request): {stat(u['fresh_service']['undo'])}",
        f"   redo, new service per call (as a web request): {stat(u['fresh_service']['redo'])}",
        f"   undo, one long-lived service (view cache warm): {stat(u['same_service']['undo'])}",
        f"   redo, one long-lived service (view cache warm): {stat(u['same_service']['redo'])}",
        "",
    ]
    lines.append("4. The game page")
    for label, got in r["page_get"].items():
        lines.append(f"   GET /g/<id>, {label} ({got['bytes']:,} bytes HTML): {stat(got['get'])}")
    b = r.get("page_load")
    if b is None:
        lines.append("   First page load in Chromium: skipped")
    else:
        lines.append(
            f"   First page load, Pixel 7 profile, Chromium {b['browser']['version']} ({b['browser']['executable']}), "
            "fresh context each (empty cache); bytes as served (the dev server does not compress) "
            "and gzip.compress level 9"
        )
        for label, page in b.items():
            if label == "browser":
                continue
            lines.append(
                f"   {label} ({page['path'][:12]}…): {page['total_bytes']:,} bytes as served, "
                f"{page['total_gzip_bytes']:,} gzipped; load event after {page['load_event_ms']:.0f} ms"
            )
            for res in page["resources"]:
                url = res["url"] if len(res["url"]) <= 60 else res["url"][:57] + "…"
                if res["bytes"] is None:
                    lines.append(f"      {res['status']} {url:<60} {res['type']:<24} {res['note']}")
                else:
                    lines.append(
                        f"      {res['status']} {url:<60} {res['type']:<24} "
                        f"{res['bytes']:>9,} B  gzip {res['gzip_bytes']:>8,} B"
                    )
    lines.append("")
    return "\n".join(lines)


# --------------------------------------------------------------------------- main


def run(args: argparse.Namespace) -> dict[str, Any]:
    started = time.perf_counter()
    editions = load_all()
    edition = editions[DEFAULT_EDITION][1]
    report: dict[str, Any] = {"machine": machine(), "seed": args.seed}
    with tempfile.TemporaryDirectory(prefix="companion-bench-") as tmp:
        workdir = Path(tmp)
        db = workdir / "companion.sqlite3"

        log(f"playing a random legal game to {args.events} events")
        game = play_random_game(edition, args.seed, args.events)
        effective = game.effective_events()
        assert game.live is not None

        log("recording it through GameService.create_game/execute/undo/redo on a temp SQLite file")
        recorded = record_through_service(db, editions, game)
        report["game"] = {
            "seed": game.seed,
            "restarts": game.restarts,
            "players": len(game.create.players),
            "rows": recorded.rows,
            "actions": recorded.actions,
            "commands": sum(s.kind == "command" for s in game.steps),
            "undos": sum(s.kind == "undo" for s in game.steps),
            "redos": sum(s.kind == "redo" for s in game.steps),
            "effective_events": len(effective),
            "phase": game.live.phase.value,
            "record_seconds": round(recorded.record_seconds, 2),
            "record_ms_per_action": round(recorded.record_seconds * 1000 / max(1, len(game.steps)), 2),
        }

        log("timing projection.replay")
        report["replay"] = bench_replay(edition, effective)
        log("timing GameService.view")
        report["service_view"] = bench_view(db, editions, recorded.game_id, args.repeats)
        log("timing eventsourcing repository.get")
        report["eventsourcing"] = bench_eventsourcing(workdir, recorded.rows, args.repeats)
        report["ratio_view_over_eventsourcing"] = round(
            report["service_view"]["view"]["p50_ms"] / report["eventsourcing"]["repository_get"]["p50_ms"], 2
        )

        log("timing undo/redo on the long game")
        report["undo"] = bench_undo(db, editions, recorded.game_id, args.undo_pairs)

        log("starting the app and the bare endpoint on loopback")
        store = EventStore.open(db)
        try:
            loan_game = GameService(store, editions).create_game(
                CreateGame(players=seats(2), plague_card=(2, 5, 7, 9)), uuid.uuid4().hex
            )
        finally:
            store.close()
        app = create_app({"DATABASE": str(db), "SECRET_KEY": "bench", "WTF_CSRF_ENABLED": False})
        with serve(app) as port_app, serve(bare_app(workdir / "bare.sqlite3")) as port_bare:
            log(f"timing {args.requests} HTTP POSTs against each")
            report["http"] = bench_http(port_app, loan_game, port_bare, args.requests, args.warmup)
            pages = {
                f"new game after {report['http']['app_log_rows']['end']} events": f"/g/{loan_game}",
                f"long game, {report['undo']['rows_after']} events": f"/g/{recorded.game_id}",
            }
            log("timing full-page GETs")
            report["page_get"] = {label: bench_get(port_app, path, args.page_gets) for label, path in pages.items()}
            if args.skip_browser:
                report["page_load"] = None
            else:
                log("loading game pages in Chromium (Pixel 7)")
                report["page_load"] = bench_page_load(port_app, pages)
    report["wall_seconds"] = round(time.perf_counter() - started, 1)
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--json", action="store_true", help="print a JSON object on stdout (the report on stderr)")
    parser.add_argument("--save", action="store_true", help="also write the JSON to bench/results/")
    parser.add_argument("--seed", type=int, default=2024, help="seed of the random game (default 2024)")
    parser.add_argument("--events", type=int, default=1000, help="events in the long game (default 1000)")
    parser.add_argument("--requests", type=int, default=200, help="timed HTTP POSTs per endpoint (default 200)")
    parser.add_argument("--warmup", type=int, default=10, help="untimed HTTP POSTs first (default 10)")
    parser.add_argument("--repeats", type=int, default=21, help="repeats of view and repository.get (default 21)")
    parser.add_argument("--undo-pairs", type=int, default=8, help="undo+redo pairs on the long game (default 8)")
    parser.add_argument("--page-gets", type=int, default=5, help="timed GETs of each game page (default 5)")
    parser.add_argument("--skip-browser", action="store_true", help="skip the Chromium page load")
    args = parser.parse_args(argv)

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
