"""Benchmark of the Inferno Companion, every figure beside its peer, on the real server.

A benchmark, not a test: it prints figures. One run:

1. **Games of 10 and ~400 events in play, and a complete game** are made by seeded random legal play
   through the real rules (2-4 players, loans, the odd undo and redo) and stored in one SQLite file.
2. **Cold rebuild** of each game, in this process: ``GameService.view`` with an empty view cache
   from its snapshot plus the events after it, and from a full replay; beside each ``eventsourcing``'s
   ``repository.get`` like for like (snapshot against snapshot, full replay against full replay).
3. **The real server in its own process**: ``companion serve --server gunicorn`` (one gevent
   worker, as ``companion serve`` runs by default; ``--server waitress`` only where gunicorn cannot
   run, or when asked) on 127.0.0.1 and a free port, CSRF on (the token is read from the page, the
   session cookie kept), ``Accept-Encoding`` as Chromium sends it (gzip, deflate, br, zstd). For
   each game, a table's mix of real taps sent as ``static/js/table.js`` sends them (``bench/table_play.py``:
   bring and move after their select round trip, send, end turn, loan, undo, redo, a guardian, a fraud
   card, the locations' options, with ``HX-Game-Parts``), each followed by a durable insert on a bare
   Flask endpoint (its own process, on the same server kind, its connection kept), every timed request sent
   after the servers were left alone ``--gap`` ms (30; a table's taps come seconds apart), and every third step
   a bare insert timed in the tap's place too (the ruler: the two places must time it alike); the answer's bytes
   before compression; the game, history and score pages (p95). The report names the server used.
4. **Live update latency**: 32 phones listen to the ~400-event game's event stream, each fetching its
   refreshed parts when its stream names a newer seq, while another phone plays the mix: the time from
   sending the tap that records until every phone holds the new parts, and beside it the same from the
   step's start (the bench choosing its move from the log, a bring's or a move's select round trip).
5. **First load in Chromium** (Pixel 7 profile, fresh context): bytes on the wire per resource
   (``request.sizes()``: compressed as served) and decompressed.

Run from the repository root (about two minutes on 2 cores)::

    .venv/bin/python bench/run.py                # plain-text report on stdout
    .venv/bin/python bench/run.py --json         # the report on stderr, a JSON object on stdout
    .venv/bin/python bench/run.py --save         # also write bench/results/<UTC time>.json
    .venv/bin/python bench/run.py --server waitress  # both servers on the threaded fallback
    .venv/bin/python bench/run.py --server-timing    # each kind's time inside the app and outside it, and the bare's
    .venv/bin/python bench/run.py --gap 0 --ruler    # every request back to back, the ruler read
    .venv/bin/python bench/run.py --help         # sizes, seed, --skip-browser

Databases live in a temporary directory; the only file ever written in the repository is the
optional ``bench/results/*.json`` (git-ignored). Progress goes to stderr.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import sqlite3
import statistics
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Any

from eventsourcing.application import Application
from eventsourcing.domain import Aggregate, event
from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repository root, for tests/ and bench/
from bench.figures import median_interval, p50, p95
from bench.served import Client, bare_server, companion_server, server, server_kind
from bench.table_play import CARD, GAP, MIX, RULER_EVERY, SELECT, Phone, play_mix
from companion.editions import DEFAULT_EDITION, load_all
from companion.formats.commands import command_to_json, event_from_stored_row
from companion.game.any_log import replay_any
from companion.game.commands import CreateGame, Redo, Undo
from companion.game.edition import Edition
from companion.game.errors import RuleViolation
from companion.game.projection import PROJECTION_VERSION, evolve, replay
from companion.game.rules import decide, decide_create
from companion.game.state import GameState, Phase
from companion.game.timeline import Recorded, Timeline, build_timeline, decide_redo, decide_undo, extend_timeline
from companion.service import GameService
from companion.service.caches import ViewCache
from companion.tokens import new_token
from events.catalog import ActionRedone, Event, GameEnded, SeatSetup
from events.codec import encode
from events.sqlite import SqliteStore
from tests.live_client import CHROMIUM_ARGS, chromium_path
from tests.random_play import choices

ROOT = Path(__file__).resolve().parents[1]
NAMES = ("Ana", "Ben", "Cleo", "Dino")
COLOURS = ("crimson", "navy", "forest", "gold")
HTMX = {"HX-Request": "true"}
LISTENERS = 32
FINAL_ACTIONS = 60  # a complete game is timed this many commands before its end: its last turn is all loans
SERVER_THREADS = 48  # waitress only (the fallback): 32 open streams must leave room for the writes
_T0 = time.perf_counter()


def log(message: str) -> None:
    """Progress, on stderr (the report itself goes to stdout)."""
    print(f"[bench {time.perf_counter() - _T0:6.1f} s] {message}", file=sys.stderr, flush=True)


# --------------------------------------------------------------------------- statistics


def summary_ms(seconds: list[float]) -> dict[str, float]:
    """p50/p95/mean/min/max of durations, in milliseconds."""
    ms = [s * 1000 for s in seconds]
    return {
        "n": len(ms),
        "p50_ms": round(p50(ms), 3),
        "p95_ms": round(p95(ms), 3),
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


@dataclass
class PlayedGame:
    """A game played through the pure core: its creation, its log and the command of each action."""

    seed: int
    create: CreateGame
    records: list[Recorded] = field(default_factory=list)
    commands: dict[int, dict[str, Any]] = field(default_factory=dict)  # action seq -> command JSON
    live: GameState | None = None

    def append(self, events: list[Event], command: object) -> list[Recorded]:
        first = len(self.records) + 1
        added = [Recorded(first + i, first, e) for i, e in enumerate(events)]
        self.records += added
        self.commands[first] = command_to_json(command)  # type: ignore[arg-type]
        return added


def undo_latest(game: PlayedGame, timeline: Timeline, before: dict[int, GameState]) -> tuple[Timeline, GameState]:
    """Record an undo of the latest action; the timeline after it and the state before that action."""
    (undo,) = decide_undo(timeline)
    return extend_timeline(timeline, game.append([undo], Undo())), before[undo.action]


def play_random_game(
    edition: Edition, seed: int, target: int, undo_rate: float = 0.03, complete: bool = False
) -> PlayedGame:
    """Random legal play, a game still in play, until the log holds at least ``target`` events; or, with
    ``complete``, a complete game: played until the first command that would end it, then cut back
    ``FINAL_ACTIONS`` commands (at its very last turn all but a loan would end it: no real play). A
    game that could end short of ``target`` is set aside for another seed (played on to ``target``,
    it would be loan after loan at its last turn).

    The state before each action in effect is kept, so undo and redo cost nothing and a long game
    is made in linear time.
    """
    for attempt in range(60):
        rng = random.Random(seed + attempt)
        plague = tuple(rng.choices(range(1, 10), k=rng.randint(3, 6)))
        game = PlayedGame(seed + attempt, CreateGame(players=seats(rng.randint(2, 4)), plague_card=plague))
        created = decide_create(edition, game.create)
        timeline: Timeline = build_timeline(game.append(created, game.create))
        live = replay(edition, created)
        before: dict[int, GameState] = {}
        heads: list[tuple[int, GameState]] = []  # each fresh command's seq and the state it was decided on

        while (complete or len(game.records) < target) and live.phase is not Phase.OVER:
            roll = rng.random()
            if timeline.undone and roll < 0.3:  # right after an undo, sometimes put it back
                redo: ActionRedone = decide_redo(timeline)
                timeline = extend_timeline(timeline, game.append([redo], Redo()))
                before[redo.action] = live
                for e in timeline.action(redo.action).events:
                    live = evolve(live, e)
                continue
            if roll < undo_rate and timeline.undoable:
                timeline, live = undo_latest(game, timeline, before)
                continue
            options = choices(live, rng, allow_deck_end=False)
            rng.shuffle(options)
            chosen: tuple[object, list[Event]] | None = None
            ending = False
            for command in options:
                try:
                    events = decide(live, command)  # type: ignore[arg-type]
                except RuleViolation:
                    continue
                if any(isinstance(e, GameEnded) for e in events):
                    ending = True
                elif chosen is None:
                    chosen = (command, events)
            if ending and complete:  # the complete game: cut back to a round before its last turn
                cut, state = heads[max(0, len(heads) - FINAL_ACTIONS)]
                game.records = game.records[: cut - 1]
                game.commands = {seq: c for seq, c in game.commands.items() if seq < cut}
                game.live = state
                return game
            if ending:
                break  # the game would end short of ``target``: another game
            if chosen is None:
                if not timeline.undoable:
                    break
                timeline, live = undo_latest(game, timeline, before)
                continue
            command, events = chosen
            added = game.append(events, command)
            timeline = extend_timeline(timeline, added)
            before[added[0].seq] = live
            heads.append((added[0].seq, live))
            for e in events:
                live = evolve(live, e)
        if not complete and len(game.records) >= target:
            game.live = live
            return game
    raise RuntimeError(f"could not build a game of {target} events")


def store_game(store: SqliteStore, editions: dict[str, tuple[str, Edition]], game: PlayedGame) -> str:
    """Import ``game``'s log into ``store`` (one transaction) and check the app rebuilds the pure play."""
    edition = editions[DEFAULT_EDITION][1]
    store.keep_edition(edition.content_hash, edition.id, editions[DEFAULT_EDITION][0])
    rows = []
    for r in game.records:
        type_name, version, data = encode(r.event)
        head = r.seq == r.action
        rows.append(
            {
                "seq": r.seq,
                "action": r.action,
                "type": type_name,
                "version": version,
                "data": data,
                "command": game.commands[r.action] if head else None,
                "actor": "shared" if head else None,
            }
        )
    game_id = new_token()
    store.import_game(game_id, "game", edition.content_hash, (new_token(), new_token()), rows)
    store.set_join_code(game_id, new_token()[:10].upper())
    view = GameService(store, editions, cache=ViewCache()).view(game_id)
    if view.seq != len(game.records) or view.state != game.live:
        raise AssertionError("the stored game does not rebuild the pure play")
    return game_id


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


def bench_eventsourcing(workdir: Path, events: int, after_snapshot: int, repeats: int) -> dict[str, Any]:
    """``repository.get`` of a ``Counter`` with ``events`` stored events on SQLite: a full replay, and
    with a snapshot taken ``after_snapshot`` events before the end (as the app's cold view folds)."""
    keys = ("florins", "drachmas", "infamy", "souls")
    out: dict[str, Any] = {"events": events}
    for label, snapshot_at in (("full_replay", None), ("snapshot", max(1, events - after_snapshot))):
        path = workdir / f"eventsourcing-{events}-{label}-{uuid.uuid4().hex[:6]}.sqlite3"
        env = {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(path)}
        if snapshot_at is not None:
            env["IS_SNAPSHOTTING_ENABLED"] = "y"
        app = CounterApp(env=env)
        counter = Counter()  # its creation is the first event
        for i in range(events - 1):
            counter.increment(keys[i % len(keys)], 1 + i % 3)
            if snapshot_at is not None and counter.version == snapshot_at:
                app.save(counter)
                app.take_snapshot(counter.id)
        app.save(counter)
        loaded = app.repository.get(counter.id)
        assert loaded.version == events and loaded.count == counter.count, (loaded.version, events)
        out[label] = summary_ms(timed(lambda app=app, counter=counter: app.repository.get(counter.id), repeats))
        app.close()
    return out


# --------------------------------------------------------------------------- cold rebuild


def events_after_snapshot(store: SqliteStore, view: Any) -> int:
    """How many events a cold view folds after the newest snapshot it can start from (all without one)."""
    found = store.latest_snapshot(view.game_id, PROJECTION_VERSION, view.edition.content_hash, view.seq)
    return int(view.seq - (found.seq if found is not None else 0))


def bench_cold(
    store: SqliteStore, editions: dict[str, tuple[str, Edition]], game_id: str, repeats: int
) -> dict[str, Any]:
    """A cold ``GameService.view`` (empty cache: snapshot plus the events after it), and a full replay."""
    view = GameService(store, editions, cache=ViewCache()).view(game_id)  # keeps a snapshot
    cold = timed(lambda: GameService(store, editions, cache=ViewCache()).view(game_id), repeats)
    edition = editions[DEFAULT_EDITION][1]

    def full_replay() -> object:
        rows = store.read(game_id)
        records = [Recorded(r.seq, r.action, event_from_stored_row(r.type, r.version, r.data)) for r in rows]
        return replay_any(edition, build_timeline(records).effective_events())

    return {
        "events": view.seq,
        "after_snapshot": events_after_snapshot(store, view),
        "view": summary_ms(cold),
        "full_replay": summary_ms(timed(full_replay, repeats)),
    }


# --------------------------------------------------------------------------- over HTTP


def state_reader(db: Path, editions: dict[str, tuple[str, Edition]], game_id: str) -> Any:
    """``state_of()`` for ``play_mix``: the recorded game as the benchmark's own service reads it."""
    service = GameService(SqliteStore.open(db), editions, cache=ViewCache())

    def state_of() -> tuple[GameState, bool, bool]:
        view = service.view(game_id)
        return view.state, bool(view.timeline.undoable), bool(view.timeline.undone)

    state_of.close = service.store.close  # type: ignore[attr-defined]
    return state_of


def bench_mix(
    port: int,
    bare: Client,
    db: Path,
    editions: Any,
    game_id: str,
    steps: int,
    seed: int,
    gap: float = GAP,
    ruler: bool = True,
) -> dict[str, Any]:
    """A table's mix of taps on one game, each beside a bare insert on a kept connection, every timed request sent
    after the servers were left alone ``gap`` seconds; with ``ruler``, bare inserts timed in a tap's place too."""
    phone = Phone(Client(port), game_id)
    phone.open()
    state_of = state_reader(db, editions, game_id)
    try:
        result = play_mix(
            phone, bare, state_of, steps, random.Random(seed), gap=gap, ruler_every=RULER_EVERY if ruler else 0
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
    if result.ruler:  # the same insert timed where the taps are: over the bare beside, ~1 when the places are alike
        out["ruler"] = {**summary_ms(result.ruler), "x_bare_each": over_bare(result.ruler)}
    if result.bare_inside:
        out["bare_split"] = split_ms(result.bare_inside)
    return out


def split_ms(taps: list[tuple[float, float, float]]) -> dict[str, float]:
    """Where the taps' time went (``--server-timing``), each a p50 in milliseconds over the taps: in the app, its CPU
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
    import http.client

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


# --------------------------------------------------------------------------- browser


def bench_first_load(port: int, pages: dict[str, str]) -> dict[str, Any]:
    """Open each page in a fresh Pixel 7 context; every response's bytes on the wire and decompressed."""
    results: dict[str, Any] = {}
    base = f"http://127.0.0.1:{port}"
    with sync_playwright() as pw:
        launch: dict[str, Any] = {"args": CHROMIUM_ARGS, "headless": True}
        executable = chromium_path()  # else Playwright's own download
        if executable:
            launch["executable_path"] = executable
        browser = pw.chromium.launch(**launch)
        results["browser"] = browser.version
        device = dict(pw.devices["Pixel 7"])
        for label, path in pages.items():
            context = browser.new_context(**device)
            page = context.new_page()
            seen: list[Any] = []

            def finished(req: Any, into: list[Any] = seen) -> None:
                into.append(req)

            page.on("requestfinished", finished)
            page.goto(base + path, wait_until="load")
            page.wait_for_timeout(750)  # deferred scripts, icons
            resources = []
            for req in seen:
                response = req.response()
                if response is None:
                    continue
                kind = (response.headers.get("content-type") or "").split(";")[0]
                if kind == "text/event-stream":
                    continue
                sizes = req.sizes()
                try:
                    body = len(response.body())
                except Exception:  # a redirect has no body
                    body = 0
                resources.append(
                    {
                        "url": req.url.removeprefix(base)[:60],
                        "type": kind,
                        "encoding": response.headers.get("content-encoding", ""),
                        "wire_bytes": sizes["responseBodySize"],
                        "bytes": body,
                    }
                )
            context.close()
            results[label] = {
                "path": path,
                "resources": resources,
                "wire_bytes": sum(r["wire_bytes"] for r in resources),
                "bytes": sum(r["bytes"] for r in resources),
            }
        browser.close()
    return results


# --------------------------------------------------------------------------- machine


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


# --------------------------------------------------------------------------- report


def server_label(kind: str) -> str:
    """How the report names the server both processes ran on."""
    return "gunicorn, one gevent worker" if kind == "gunicorn" else f"waitress, {SERVER_THREADS} threads"


def spread(values: list[float]) -> dict[str, float]:
    """A figure over the runs: its median, lowest and highest."""
    return {"median": round(statistics.median(values), 3), "low": round(min(values), 3), "high": round(max(values), 3)}


def _fmt(s: dict[str, float], unit: str = "") -> str:
    return f"{s['median']:.2f}{unit} [{s['low']:.2f}–{s['high']:.2f}]"


def summarise(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """Each figure's spread over the runs: by game size and kind, p50, p95 and the ratio to the run's bare p50."""
    out: dict[str, Any] = {"growth": [], "live": None}
    for i, row in enumerate(runs[0]["growth"]):
        rows = [r["growth"][i] for r in runs]
        kinds: dict[str, Any] = {}
        for kind in kinds_in(rows):
            have = [r for r in rows if kind in r["mix"]["kinds"]]
            if not have:
                kinds[kind] = None
                continue
            figures = [r["mix"]["kinds"][kind] for r in have]
            kinds[kind] = {
                **pooled(figures),
                "p50_ms": spread([f["p50_ms"] for f in figures]),
                "p95_ms": spread([f["p95_ms"] for f in figures]),
                "x_bare": spread(
                    [f["p50_ms"] / r["mix"]["bare"]["p50_ms"] for f, r in zip(figures, have, strict=True)]
                ),
                "answer_bytes_max": max(f["answer_bytes_max"] for f in figures),
            }
            splits = [f["split"] for f in figures if "split" in f]
            if splits:
                kinds[kind]["split"] = {k: spread([sp[k] for sp in splits]) for k in SPLIT}
        out["growth"].append(
            {
                "events": row["events"],
                "kinds": kinds,
                "quiet": quiet_figure(rows),
                "ruler": ruler_figure(rows),
                "bare_p50_ms": spread([r["mix"]["bare"]["p50_ms"] for r in rows]),
                "bare_p95_ms": spread([r["mix"]["bare"]["p95_ms"] for r in rows]),
                "refused": sum(r["mix"]["refused"] for r in rows),
                "bare_split": (
                    {k: spread([r["mix"]["bare_split"][k] for r in rows]) for k in SPLIT}
                    if all("bare_split" in r["mix"] for r in rows)
                    else None
                ),
                "cold_snapshot_ms": spread([r["cold"]["view"]["p50_ms"] for r in rows]),
                "es_snapshot_ms": spread([r["eventsourcing"]["snapshot"]["p50_ms"] for r in rows]),
                "after_snapshot": row["cold"]["after_snapshot"],
                "full_replay_ms": spread([r["cold"]["full_replay"]["p50_ms"] for r in rows]),
                "es_full_replay_ms": spread([r["eventsourcing"]["full_replay"]["p50_ms"] for r in rows]),
                "pages_p95_ms": {
                    k: spread([r["pages"][k]["get"]["p95_ms"] for r in rows]) for k in ("/", "/history", "/score")
                },
                "pages_first_ms": {
                    k: spread([r["pages"][k]["first_ms"] for r in rows]) for k in ("/", "/history", "/score")
                },
            }
        )
    for name in ("live", "live_apart"):
        out[name] = _live_summary([r[name] for r in runs if r.get(name) and r[name]["all_hold"]])
    return out


def ruler_figure(rows: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The ruler at one size: the bare inserts timed in a tap's place (after the table chose its command), pooled over
    the runs like a kind's taps, over their runs' bare p50 (``pooled``); ``None`` without them (``--gap 0`` without
    ``--ruler``). Its
    interval holding 1 says the two places time the same request alike."""
    figures = [r["mix"]["ruler"] for r in rows if "ruler" in r["mix"]]
    return pooled(figures) if figures else None


RULER_LIMITS = (0.95, 1.05)
"""The ruler reads the places alike when its pooled p50 is within these (and its interval holds 1)."""


def ruler_line(ruler: dict[str, Any] | None) -> list[str]:
    """The report's line for ``ruler_figure``."""
    if ruler is None:
        return ["  ruler: not read (--gap 0 without --ruler)"]
    band = ruler["x_bare_all_95"]
    holds = band is not None and band[0] <= 1.0 <= band[1]
    alike = holds and RULER_LIMITS[0] <= ruler["x_bare_all"] <= RULER_LIMITS[1]
    interval = f" [{band[0]:.2f}–{band[1]:.2f}]" if band else " [-]"
    return [
        f"  ruler: a bare insert timed in a tap's place, over the bare inserts beside the taps: "
        f"{ruler['x_bare_all']:.2f}x{interval} ({ruler['n']} inserts): "
        + ("the places are alike" if alike else "the places differ: read the ratios with care")
    ]


SPLIT = ("app_p50_ms", "cpu_p50_ms", "outside_p50_ms")
"""A tap's time split by the servers' ``Server-Timing`` (``split_ms``)."""


def kinds_in(rows: list[dict[str, Any]]) -> list[str]:
    """The kinds of the runs' ``rows`` (one size's), in the report's order: the mix's, the select, then the others."""
    return [*MIX, SELECT, *sorted({k for r in rows for k in r["mix"]["kinds"]} - {*MIX, SELECT})]


def pooled(figures: list[dict[str, Any]]) -> dict[str, Any]:
    """One kind's taps in every run of ``figures``, pooled: how many, their p50 over their runs' bare p50s, and its
    95 % interval (``x_bare_all``, ``x_bare_all_interval``)."""
    return {
        "n": sum(f["n"] for f in figures),
        "x_bare_all": x_bare_all(figures),
        "x_bare_all_95": x_bare_all_interval(figures),
    }


def x_bare_all(figures: list[dict[str, Any]]) -> float:
    """The p50 of every tap of a kind in every run, each over its own run's bare p50: a kind tapped twice a run (an
    accusation late in a game) has a run's p50 of two taps, which swings by ±0.3x whatever the code; pooled, its p50
    rests on all of them, each still set against the bare inserts of its own run."""
    return round(p50([x for f in figures for x in f["x_bare_each"]]), 3)


def x_bare_all_interval(figures: list[dict[str, Any]]) -> list[float] | None:
    """Where the p50 of ``x_bare_all`` lies, with 95 % confidence whatever the taps' distribution
    (``figures.median_interval``): an accusation's 10-16 taps a set give one 0.4-1.3x wide; ``None`` under 6 taps."""
    found = median_interval([x for f in figures for x in f["x_bare_each"]])
    return None if found is None else [round(found[0], 3), round(found[1], 3)]


RECORDS_NOT = (SELECT, CARD)
"""The kinds that record nothing (a choice's round trip, a form fetched after an answer): item 2 of issue 27 asks
every tap that records to be within ``TARGET_X`` of the bare insert."""
TARGET_X = 3.0


def over_target(kinds: dict[str, Any]) -> tuple[list[str], list[str]]:
    """The kinds that record whose pooled p50 is over ``TARGET_X``, and those whose 95 % interval reaches past it."""
    recording = {k: v for k, v in kinds.items() if v is not None and k not in RECORDS_NOT}
    over = [k for k, v in recording.items() if v["x_bare_all"] > TARGET_X]
    reaching = [k for k, v in recording.items() if (v.get("x_bare_all_95") or (0.0, 0.0))[1] > TARGET_X]
    return over, reaching


DECIDING_RUNS = 20
"""Runs whose pooled taps decide item 2 on this machine: an accusation is tapped ~2-3 times a run at each size, so 3
runs give its p50 6-9 taps and an interval ~0.9x wide, and 20 runs 43-67 taps and ~0.3x (bench/README.md)."""


def _over_and_reaching(kinds: dict[str, Any]) -> tuple[list[str], list[str]]:
    """``over_target``'s two lists as the report says them: the kinds over, and the kinds reaching past it, each with
    the taps its p50 rests on, and *undecided* when its p50 is under ``TARGET_X``."""
    over, reaching = over_target(kinds)
    said = [f"{k} ({kinds[k]['n']} taps{'' if k in over else ', its p50 under it: undecided'})" for k in reaching]
    return over, said


def verdict_line(kinds: dict[str, Any], runs: int) -> str:
    """Item 2's verdict at one size: the kinds that record whose pooled p50 is over ``TARGET_X``, and those whose 95 %
    interval reaches past it, each with the taps its p50 rests on. A kind whose p50 is under ``TARGET_X`` while its
    interval reaches past it is not decided by these taps: the line says so, and under ``DECIDING_RUNS`` runs how many
    would narrow it."""
    over, said = _over_and_reaching(kinds)
    line = (
        f"  taps that record, all runs over {TARGET_X:g}x bare: {', '.join(over) or 'none'}; "
        f"95 % interval reaching past it: {', '.join(said) or 'none'}"
    )
    if runs < DECIDING_RUNS and any("undecided" in s for s in said):
        line += f"; more runs narrow it (--runs {DECIDING_RUNS})"
    return line


QUIET_SHARE = 3
"""Item 2 is read again on the runs whose bare p50 is in the lowest ``1 / QUIET_SHARE`` of them (``quiet_figure``)."""
QUIET_RUNS_LEAST = 6
"""Fewer runs than this give no quiet figure: their quietest third would be one run, two or three taps of a kind."""


def quiet_figure(rows: list[dict[str, Any]]) -> dict[str, Any] | None:
    """Each kind that records, pooled over the quietest third of the runs (the lowest bare p50s): item 2 where it is
    hardest to hold. The wait outside the app (the network stack, the server, the disk's sync) is paid by a tap and
    by the bare insert alike and grows with the host's other work, which pulls every ratio towards 1: on this machine
    an accusation was ~2.9x in the runs whose bare p50 was ~0.95 ms and ~2.6x where it was ~1.6 ms (bench/README.md,
    twenty-second stop). The runs are chosen by the bare's own p50, so their ratios lean a shade high: a conservative
    reading. ``None`` under ``QUIET_RUNS_LEAST`` runs."""
    if len(rows) < QUIET_RUNS_LEAST:
        return None
    chosen = sorted(rows, key=lambda r: r["mix"]["bare"]["p50_ms"])[: len(rows) // QUIET_SHARE]
    kinds: dict[str, Any] = {}
    for kind in kinds_in(chosen):
        figures = [r["mix"]["kinds"][kind] for r in chosen if kind in r["mix"]["kinds"]]
        if kind not in RECORDS_NOT and figures:
            kinds[kind] = pooled(figures)
    return {
        "runs": len(chosen),
        "of": len(rows),
        "bare_p50_ms_max": max(r["mix"]["bare"]["p50_ms"] for r in chosen),
        "kinds": kinds,
    }


def quiet_lines(quiet: dict[str, Any] | None) -> list[str]:
    """The report's lines for ``quiet_figure``: the highest kind there with its interval, then item 2's verdict."""
    if quiet is None or not quiet["kinds"]:
        return []
    kinds = quiet["kinds"]
    top = max(kinds, key=lambda k: kinds[k]["x_bare_all"])
    band = kinds[top]["x_bare_all_95"]
    interval = f" [{band[0]:.2f}–{band[1]:.2f}]" if band else ""
    over, said = _over_and_reaching(kinds)
    return [
        f"  the quietest third of the runs ({quiet['runs']} of {quiet['of']}, bare p50 up to "
        f"{quiet['bare_p50_ms_max']:.2f} ms; chosen by the bare's own p50, so a shade high): highest {top} "
        f"{kinds[top]['x_bare_all']:.2f}x{interval} ({kinds[top]['n']} taps)",
        f"    there, over {TARGET_X:g}x bare: {', '.join(over) or 'none'}; "
        f"95 % interval reaching past it: {', '.join(said) or 'none'}",
    ]


def _live_summary(lives: list[dict[str, Any]]) -> dict[str, Any] | None:
    out: dict[str, Any] = {"live": None}
    if lives:
        out["live"] = {
            "listeners": lives[0]["listeners"],
            "events": lives[0]["events"],
            "writes": sum(lv["writes"] for lv in lives),
            "missed": sum(lv["missed"] for lv in lives),
            "p50_ms": spread([lv["all_hold"]["p50_ms"] for lv in lives]),
            "p95_ms": spread([lv["all_hold"]["p95_ms"] for lv in lives]),
            "step_p50_ms": spread([lv["all_hold_from_step"]["p50_ms"] for lv in lives]),
            "step_p95_ms": spread([lv["all_hold_from_step"]["p95_ms"] for lv in lives]),
            "kinds": sorted({k for lv in lives for k in lv["kinds"]}),
        }
    return out["live"]  # type: ignore[no-any-return]


def format_report(r: dict[str, Any]) -> str:
    """The plain-text report: each figure's median over the runs with the lowest and highest run beside it."""
    m = r["machine"]
    s = r["summary"]
    lines = [
        "Inferno Companion benchmark",
        "=" * 27,
        f"Python {m['python']}, SQLite {m['sqlite']}, {m['cpu_count']} CPUs ({m['cpus_usable']} usable), "
        f"{m['platform']}; load average at the start {r['load_before']}, at the end {r['load_after']}",
        f"Run at {m['when']}, seed {r['seed']}, {r['runs']} runs, total wall time {r['wall_seconds']:.1f} s. Server: "
        f"companion serve ({server_label(r['server'])}) in its own process, CSRF on, Accept-Encoding as Chromium's; "
        "the bare peer on the same, its connection kept (as the app pools), one insert sent after each tap; "
        + (
            f"every timed request sent after the servers were left alone {r['gap_ms']:g} ms (a table's taps come "
            "seconds apart)"
            if r.get("gap_ms")
            else "every request sent back to back (--gap 0)"
        )
        + (
            "; every third step a bare insert timed in the tap's place too (the ruler)."
            if any(row.get("ruler") for row in s["growth"])
            else "."
        ),
        "",
        "Every figure: the median of the runs [lowest–highest run]. A tap is sent as static/js/table.js sends it",
        "(HX-Game-Parts; a bring or a move after its select round trip, timed as 'select'); x bare = the tap's p50",
        "over the p50 of the bare inserts interleaved with it in the same run; all runs = the p50 of every tap of",
        "the kind in every run, each over its own run's bare p50 (n taps), with the interval that holds that p50",
        "with 95 % confidence (order statistics; '-' under 6 taps). answer B = the largest answer before",
        "compression.",
    ]
    for row in s["growth"]:
        lines += [
            "",
            f"Game of {row['events']:,} events: bare insert p50 {_fmt(row['bare_p50_ms'])} ms, "
            f"p95 {_fmt(row['bare_p95_ms'])} ms; taps refused {row['refused']}",
            f"  {'kind':<10} {'n':>4} {'p50 ms':>22} {'p95 ms':>22} {'x bare':>20} {'all runs [95 %]':>22} "
            f"{'answer B':>9}",
        ]
        for kind, k in row["kinds"].items():
            if k is None:
                lines.append(f"  {kind:<10}    - (not reached)")
                continue
            band = k.get("x_bare_all_95")
            pooled = f"{k['x_bare_all']:.2f}x " + (f"[{band[0]:.2f}–{band[1]:.2f}]" if band else "[-]")
            lines.append(
                f"  {kind:<10} {k['n']:>4} {_fmt(k['p50_ms']):>22} {_fmt(k['p95_ms']):>22} "
                f"{_fmt(k['x_bare'], 'x'):>20} {pooled:>22} {k['answer_bytes_max']:>9,}"
            )
        lines.append(verdict_line(row["kinds"], r["runs"]))
        lines += ruler_line(row.get("ruler"))
        lines += quiet_lines(row.get("quiet"))
        lines += _split_lines(row)
        lines += [
            f"  cold, snapshot + {row['after_snapshot']} events: app {_fmt(row['cold_snapshot_ms'])} ms, "
            f"eventsourcing (snapshot, same events after it) {_fmt(row['es_snapshot_ms'])} ms",
            f"  full replay: app {_fmt(row['full_replay_ms'])} ms, eventsourcing {_fmt(row['es_full_replay_ms'])} ms",
            "  pages p95 ms (game / history / score): "
            + " / ".join(_fmt(row["pages_p95_ms"][k]) for k in ("/", "/history", "/score")),
        ]
    lv = s["live"]
    if lv:
        lines += [
            "",
            f"Live: {lv['listeners']} phones on the {lv['events']}-event game, each fetching its refreshed parts"
            f" when its stream names a newer seq; {lv['writes']} real taps ({', '.join(lv['kinds'])}): from sending",
            f"the tap that records until every phone holds the new parts p50 {_fmt(lv['p50_ms'])} ms, "
            f"p95 {_fmt(lv['p95_ms'])} ms; missed {lv['missed']}",
            f"  from the step's start (the bench choosing its move from the log, a bring's or a move's select round"
            f" trip, an undo before its redo): p50 {_fmt(lv['step_p50_ms'])} ms, p95 {_fmt(lv['step_p95_ms'])} ms",
        ]
    apart = s.get("live_apart")
    if apart:
        lines.append(
            f"  the same with each phone's answer drawn apart (COMPANION_LIVE_ANSWERS=0), interleaved: "
            f"p50 {_fmt(apart['p50_ms'])} ms, p95 {_fmt(apart['p95_ms'])} ms; missed {apart['missed']}"
        )
    b = r.get("first_load")
    if b is None:
        lines.append("First load in Chromium: skipped")
    else:
        lines.append(
            f"First load, Chromium {b['browser']}, Pixel 7 profile, fresh context (bytes on the wire / decompressed):"
        )
        for label, page in b.items():
            if label == "browser":
                continue
            lines.append(f"   {label}: {page['wire_bytes']:,} B on the wire, {page['bytes']:,} B decompressed")
    lines.append("")
    return "\n".join(lines)


def _split_lines(row: dict[str, Any]) -> list[str]:
    """Where each kind's time went, inside the app and outside it (``--server-timing``), beside the bare insert's."""
    bare = row.get("bare_split")
    split = {kind: k["split"] for kind, k in row["kinds"].items() if k is not None and "split" in k}
    if bare is None or not split:
        return []
    lines = [
        "  inside the servers (Server-Timing; p50 ms, median of the runs [lowest–highest]): in the app, its CPU there,"
        " outside it (the wait less the app)",
        f"  {'kind':<10} {'in the app':>22} {'its CPU':>22} {'outside':>22}",
    ]
    for kind, k in {"bare": bare, **split}.items():
        lines.append(
            f"  {kind:<10} {_fmt(k['app_p50_ms']):>22} {_fmt(k['cpu_p50_ms']):>22} {_fmt(k['outside_p50_ms']):>22}"
        )
    return lines


# --------------------------------------------------------------------------- main


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
                ruler=args.gap > 0 or args.ruler,
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


def main(argv: list[str] | None = None) -> int:
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
        "back, as before the twenty-fourth stop, without the ruler unless --ruler)",
    )
    parser.add_argument(
        "--ruler", action="store_true", help="with --gap 0: time bare inserts in the taps' place too (the ruler)"
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
        help="the app's and the bare peer's server (default auto: gunicorn + one gevent worker where it runs)",
    )
    parser.add_argument(
        "--server-timing",
        action="store_true",
        help="both servers tell each answer's time in the app (Server-Timing): each kind's time split inside and"
        " outside the app, beside the bare insert's",
    )
    if "--quick" in (sys.argv[1:] if argv is None else argv):  # shorter defaults; what is given still counts
        parser.set_defaults(sizes=[10], complete=0, runs=2, steps=40, repeats=3, page_gets=2)
        parser.set_defaults(live_writes=3, listeners=4, skip_browser=True)
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
