"""Benchmark of the Inferno Companion, every figure beside its peer, on the real server.

A benchmark, not a test: it prints figures. One run:

1. **Games of 10, 1,000, 2,000 and 5,000 events** are made by seeded random legal play through the
   real rules (``tests/random_play.py``; 2-4 players, loans, the odd undo and redo; commands that
   would end the game are set aside) and stored in one SQLite file (imported as one transaction
   each, with their commands; no snapshot yet: the first cold start keeps one, as in production).
2. **Cold rebuild** of each game, in this process: ``GameService.view`` with an empty view cache
   (store read, typed decoding, timeline, the snapshot plus the events after it), and the same
   without a snapshot (a full replay); beside it ``eventsourcing``'s ``repository.get`` of an
   aggregate with the same number of events on SQLite.
3. **The real server in its own process**: ``companion serve --server gunicorn`` (one gevent
   worker, as ``companion serve`` runs by default; ``--server waitress`` only where gunicorn cannot
   run, or when asked) on 127.0.0.1 and a free port, CSRF on (the token is read from the page, the
   session cookie kept), ``Accept-Encoding`` as Chromium sends it (gzip, deflate, br, zstd). For
   each game: a recorded action (htmx ``POST /g/<id>/loan``, the seq read from the previous
   answer) beside a bare Flask endpoint doing one durable insert (its own process, on the same
   server kind); the answer's bytes before compression and on the wire; undo and redo over HTTP,
   alternately; the game, history and score pages (p95). The report names the server used.
4. **Live update latency**: 32 phones listen to the 1,000-event game's event stream while another
   phone records actions; the time from sending each action to every listener reading its seq.
5. **First load in Chromium** (Pixel 7 profile, fresh context): bytes on the wire per resource
   (``request.sizes()``: compressed as served) and decompressed.

Run from the repository root (about 30 seconds on 2 cores)::

    .venv/bin/python bench/run.py                # plain-text report on stdout
    .venv/bin/python bench/run.py --json         # the report on stderr, a JSON object on stdout
    .venv/bin/python bench/run.py --save         # also write bench/results/<UTC time>.json
    .venv/bin/python bench/run.py --server waitress  # both servers on the threaded fallback
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
import re
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
from bench.figures import p50, p95
from bench.served import Client, bare_server, companion_server, loan_player, seq_of, server, server_kind
from companion.editions import DEFAULT_EDITION, load_all
from companion.formats.commands import command_to_json, event_from_stored_row
from companion.game.any_log import replay_any
from companion.game.commands import CreateGame, Redo, Undo
from companion.game.edition import Edition
from companion.game.errors import RuleViolation
from companion.game.projection import evolve, replay
from companion.game.rules import decide, decide_create
from companion.game.state import GameState, Phase
from companion.game.timeline import Recorded, Timeline, build_timeline, decide_redo, decide_undo, extend_timeline
from companion.service import GameService, new_token
from companion.service.caches import ViewCache
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


def play_random_game(edition: Edition, seed: int, target: int, undo_rate: float = 0.03) -> PlayedGame:
    """Random legal play until the log holds at least ``target`` events.

    The state before each action in effect is kept, so undo and redo cost nothing and a long game
    is made in linear time. While the log is short of ``target``, a command that would end the
    game is set aside; when every choice would, the table undoes its latest action.
    """
    for attempt in range(20):
        rng = random.Random(seed + attempt)
        plague = tuple(rng.choices(range(1, 10), k=rng.randint(3, 6)))
        game = PlayedGame(seed + attempt, CreateGame(players=seats(rng.randint(2, 4)), plague_card=plague))
        created = decide_create(edition, game.create)
        timeline: Timeline = build_timeline(game.append(created, game.create))
        live = replay(edition, created)
        before: dict[int, GameState] = {}

        while len(game.records) < target and live.phase is not Phase.OVER:
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
                timeline, live = undo_latest(game, timeline, before)
                continue
            command, events = chosen
            added = game.append(events, command)
            timeline = extend_timeline(timeline, added)
            before[added[0].seq] = live
            for e in events:
                live = evolve(live, e)
        if len(game.records) >= target:
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


def bench_eventsourcing(workdir: Path, events: int, repeats: int) -> dict[str, Any]:
    """Save a ``Counter`` with ``events`` stored events on SQLite and time ``repository.get``."""
    path = workdir / f"eventsourcing-{events}.sqlite3"
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


# --------------------------------------------------------------------------- cold rebuild


def bench_cold(
    store: SqliteStore, editions: dict[str, tuple[str, Edition]], game_id: str, repeats: int
) -> dict[str, Any]:
    """A cold ``GameService.view`` (empty cache: snapshot plus the events after it), and a full replay."""
    GameService(store, editions, cache=ViewCache()).view(game_id)  # keeps a snapshot, warms the page cache
    cold = timed(lambda: GameService(store, editions, cache=ViewCache()).view(game_id), repeats)
    edition = editions[DEFAULT_EDITION][1]

    def full_replay() -> object:
        rows = store.read(game_id)
        records = [Recorded(r.seq, r.action, event_from_stored_row(r.type, r.version, r.data)) for r in rows]
        return replay_any(edition, build_timeline(records).effective_events())

    return {"view": summary_ms(cold), "full_replay": summary_ms(timed(full_replay, repeats))}


# --------------------------------------------------------------------------- over HTTP


PARTS_RE = re.compile(r'id="game" data-seq="\d+" data-parts="([^"]*)"')


def _after_parts_answer(answer: Any) -> tuple[int, str]:
    """The seq and parts digests a parts answer announces (``HX-Trigger-After-Settle``), as the phone reads them."""
    update = json.loads(answer.headers["hx-trigger-after-settle"])["game:update"]
    return int(update["seq"]), str(update["parts"])


def bench_actions(port: int, game_id: str, requests: int, warmup: int, parts: bool = False) -> dict[str, Any]:
    """Recorded actions (htmx loans), each drawn at the seq of the previous answer; their bytes.

    With ``parts`` the client says which parts it shows (``HX-Game-Parts``, as the phone's table.js
    does) and gets only those that changed; without, it gets the whole game.
    """
    phone = Client(port)
    page = phone.get(f"/g/{game_id}").text
    seq, player = seq_of(page), loan_player(page)
    shown = PARTS_RE.search(page)
    digests = shown.group(1) if shown else ""
    times: list[float] = []
    body: list[int] = []
    wire: list[int] = []
    for i in range(warmup + requests):
        headers = {**HTMX, "HX-Game-Parts": digests} if parts else HTMX
        answer = phone.post(f"/g/{game_id}/loan", {"seq": seq, "key": uuid.uuid4().hex, "player": player}, headers)
        if parts:
            new_seq, digests = _after_parts_answer(answer)
        else:
            new_seq = seq_of(answer.text)
        if new_seq <= seq:
            raise RuntimeError(f"the loan recorded nothing: seq {seq} -> {new_seq}")
        seq = new_seq
        if i >= warmup:
            times.append(answer.seconds)
            body.append(answer.body_bytes)
            wire.append(answer.wire_bytes)
    phone.close()
    return {
        "action": summary_ms(times),
        "answer_bytes_p50": round(statistics.median(body)),
        "answer_wire_bytes_p50": round(statistics.median(wire)),
        "seq_after": seq,
    }


def bench_bare(port: int, requests: int, warmup: int) -> dict[str, Any]:
    """The peer: one durable insert per POST, same client, same server kind."""
    phone = Client(port)
    phone.get("/")
    times = []
    for i in range(warmup + requests):
        answer = phone.post("/hit", {"key": uuid.uuid4().hex}, HTMX)
        if i >= warmup:
            times.append(answer.seconds)
    phone.close()
    return summary_ms(times)


def bench_undo_http(port: int, game_id: str, pairs: int) -> dict[str, Any]:
    """Undo then redo the latest action over HTTP, alternately (each the full durable path), as a phone
    sends them: with ``HX-Game-Parts``, reading the new seq and parts from the answer's header."""
    phone = Client(port)
    page = phone.get(f"/g/{game_id}").text
    seq = seq_of(page)
    shown = PARTS_RE.search(page)
    digests = shown.group(1) if shown else ""
    undo: list[float] = []
    redo: list[float] = []
    for _ in range(pairs):
        for path, into in (("undo", undo), ("redo", redo)):
            headers = {**HTMX, "HX-Game-Parts": digests}
            answer = phone.post(f"/g/{game_id}/{path}", {"seq": seq, "key": uuid.uuid4().hex}, headers)
            new_seq, digests = _after_parts_answer(answer)
            if new_seq <= seq:
                raise RuntimeError(f"the {path} recorded nothing: seq {seq} -> {new_seq}")
            seq = new_seq
            into.append(answer.seconds)
    phone.close()
    return {"undo": summary_ms(undo), "redo": summary_ms(redo)}


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
            "wire_bytes": answers[-1].wire_bytes,
        }
    phone.close()
    return out


def bench_live(port: int, game_id: str, writes: int, listeners: int = LISTENERS) -> dict[str, Any]:
    """``listeners`` phones on the game's event stream; the time until each hears each write."""
    import http.client

    heard: list[list[tuple[float, int]]] = [[] for _ in range(listeners)]
    ready = threading.Barrier(listeners + 1, timeout=30)
    stop = threading.Event()
    start_seq = seq_of(Client(port).get(f"/g/{game_id}").text)

    def listen(i: int) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        conn.request("GET", f"/g/{game_id}/events?since={start_seq}", headers={"Accept-Encoding": "gzip"})
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
                elif line.startswith("data:") and event_name == "seq":
                    heard[i].append((time.perf_counter(), int(line[5:].strip())))
        except OSError:
            return
        finally:
            conn.close()

    threads = [threading.Thread(target=listen, args=(i,), daemon=True) for i in range(listeners)]
    for t in threads:
        t.start()
    ready.wait()
    time.sleep(0.5)  # every stream has sent its first events
    writer = Client(port)
    page = writer.get(f"/g/{game_id}").text
    seq, player = seq_of(page), loan_player(page)
    latencies: list[float] = []
    missed = 0
    for _ in range(writes):
        sent = time.perf_counter()
        answer = writer.post(f"/g/{game_id}/loan", {"seq": seq, "key": uuid.uuid4().hex, "player": player}, HTMX)
        seq = seq_of(answer.text)
        deadline = time.monotonic() + 3
        while time.monotonic() < deadline and not all(any(s >= seq for _, s in h) for h in heard):
            time.sleep(0.002)
        for h in heard:
            at = next((t for t, s in h if s >= seq), None)
            if at is None:
                missed += 1
            else:
                latencies.append(at - sent)
        time.sleep(0.2)
    stop.set()
    writer.close()
    return {"listeners": listeners, "writes": writes, "missed": missed, "latency": summary_ms(latencies)}


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


def format_report(r: dict[str, Any]) -> str:
    """The plain-text report: the growth table, then the figures with their peers."""
    m = r["machine"]
    lines = [
        "Inferno Companion benchmark",
        "=" * 27,
        f"Python {m['python']}, SQLite {m['sqlite']}, {m['cpu_count']} CPUs ({m['cpus_usable']} usable), "
        f"{m['platform']}",
        "Packages: " + ", ".join(f"{k} {v}" for k, v in m["packages"].items()),
        f"Run at {m['when']}, seed {r['seed']}, total wall time {r['wall_seconds']:.1f} s. Server: companion serve "
        f"({server_label(r['server'])}) in its own process, CSRF on, Accept-Encoding as Chromium's; "
        f"the bare peer on the same.",
        "",
        "Growth (p50 unless said; ms). action = htmx POST /g/<id>/loan as a phone sends it (HX-Game-Parts: it gets",
        "only the parts that changed); bare = one durable insert (own process, same server); whole = the same POST",
        "without HX-Game-Parts (the whole game comes back); cold = GameService.view, empty cache (snapshot + events",
        "after it); full = the same without a snapshot; es = eventsourcing repository.get, same event count;",
        "pages p95 = worst of game, history, score; answer B / wire B = the action's answer, before / compressed.",
        "",
        f"{'events':>7} {'action':>8} {'bare':>6} {'ratio':>6} {'whole':>6} {'cold':>6} {'full':>6} {'es':>6} "
        f"{'es/cold':>7} {'undo':>6} {'undo95':>6} {'game95':>7} {'hist95':>7} {'score95':>7} {'answer B':>9} "
        f"{'wire B':>7}",
    ]
    bare = r["bare"]["p50_ms"]
    for row in r["growth"]:
        a, w, c, p, u = row["actions_parts"], row["actions"], row["cold"], row["pages"], row["undo"]["undo"]
        action, whole = a["action"]["p50_ms"], w["action"]["p50_ms"]
        cold, full = c["view"]["p50_ms"], c["full_replay"]["p50_ms"]
        es = row["eventsourcing"]["p50_ms"]
        game, hist, score = (p[k]["get"]["p95_ms"] for k in ("/", "/history", "/score"))
        lines.append(
            f"{row['events']:>7} {action:>8.2f} {bare:>6.2f} {action / bare:>5.1f}x {whole:>6.2f} "
            f"{cold:>6.2f} {full:>6.2f} {es:>6.2f} {es / cold:>6.1f}x {u['p50_ms']:>6.2f} {u['p95_ms']:>6.2f} "
            f"{game:>7.2f} {hist:>7.2f} {score:>7.2f} {a['answer_bytes_p50']:>9,} {a['answer_wire_bytes_p50']:>7,}"
        )
    lv = r["live"]
    lines += [
        "",
        "Action p95 by size: "
        + ", ".join(f"{row['events']}: {row['actions_parts']['action']['p95_ms']:.2f}" for row in r["growth"])
        + f"; bare p95 {r['bare']['p95_ms']:.2f}",
        "The whole game (the POST without HX-Game-Parts), p50 ms / answer bytes / on the wire: "
        + ", ".join(
            f"{row['events']}: {row['actions']['action']['p50_ms']:.2f} ms "
            f"({row['actions']['action']['p50_ms'] / bare:.1f}x bare) / "
            f"{row['actions']['answer_bytes_p50']:,} / {row['actions']['answer_wire_bytes_p50']:,} B"
            for row in r["growth"]
        ),
        "Redo p50 by size: "
        + ", ".join(f"{row['events']}: {row['undo']['redo']['p50_ms']:.2f}" for row in r["growth"]),
        "Page bytes (game page, before / on the wire): "
        + ", ".join(
            f"{row['events']}: {row['pages']['/']['bytes']:,} / {row['pages']['/']['wire_bytes']:,}"
            for row in r["growth"]
        ),
        "Pages, the first GET after the writes (game / history / score): "
        + ", ".join(
            f"{row['events']}: " + " / ".join(f"{row['pages'][k]['first_ms']:.1f}" for k in ("/", "/history", "/score"))
            for row in r["growth"]
        ),
        "History page bytes: "
        + ", ".join(f"{row['events']}: {row['pages']['/history']['bytes']:,}" for row in r["growth"]),
        "",
        f"Live update, {lv['listeners']} phones on the stream of the {lv['events']}-event game, {lv['writes']} writes: "
        f"from sending the action to each phone reading its seq p50 {lv['latency']['p50_ms']:.1f} ms, "
        f"p95 {lv['latency']['p95_ms']:.1f} ms, max {lv['latency']['max_ms']:.1f} ms; missed {lv['missed']}",
    ]
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
            for res in page["resources"]:
                lines.append(
                    f"      {res['url']:<60} {res['type']:<24} {res['encoding'] or '-':<5} "
                    f"{res['wire_bytes']:>8,} B  {res['bytes']:>8,} B"
                )
    lines.append("")
    return "\n".join(lines)


# --------------------------------------------------------------------------- main


def run(args: argparse.Namespace) -> dict[str, Any]:
    started = time.perf_counter()
    editions = load_all()
    edition = editions[DEFAULT_EDITION][1]
    kind = server_kind(args.server)
    report: dict[str, Any] = {"machine": machine(), "seed": args.seed, "server": kind, "growth": []}
    os.environ.setdefault("COMPANION_SECRET_KEY", "bench-" + uuid.uuid4().hex)  # nothing written in instance/
    with tempfile.TemporaryDirectory(prefix="companion-bench-") as tmp:
        workdir = Path(tmp)
        db = workdir / "companion.sqlite3"
        store = SqliteStore.open(db)
        games: dict[int, str] = {}
        try:
            for size in args.sizes:
                log(f"playing a random legal game to {size} events and storing it")
                games[size] = store_game(store, editions, play_random_game(edition, args.seed, size))
            for size in args.sizes:
                log(f"cold rebuild of the {size}-event game, and eventsourcing at {size} events")
                report["growth"].append(
                    {
                        "events": size,
                        "cold": bench_cold(store, editions, games[size], args.repeats),
                        "eventsourcing": bench_eventsourcing(workdir, size, args.repeats)["repository_get"],
                    }
                )
        finally:
            store.close()

        with (
            server(companion_server(db, kind, SERVER_THREADS)) as port,
            server(bare_server(workdir / "bare.sqlite3", kind, SERVER_THREADS)) as bare,
        ):
            log(f"servers: {server_label(kind)} (the app and the bare peer)")
            log("timing the bare durable insert")
            report["bare"] = bench_bare(bare, args.requests, args.warmup)
            for row in report["growth"]:
                game_id = games[row["events"]]
                log(f"the {row['events']}-event game over HTTP: actions, undo/redo, pages")
                row["actions"] = bench_actions(port, game_id, args.requests, args.warmup)
                row["actions_parts"] = bench_actions(port, game_id, args.requests, args.warmup, parts=True)
                row["undo"] = bench_undo_http(port, game_id, args.undo_pairs)
                row["pages"] = bench_pages(port, game_id, args.page_gets)
            live_size = 1000 if 1000 in games else args.sizes[0]
            log(f"live updates: {LISTENERS} listeners on the {live_size}-event game")
            report["live"] = {"events": live_size, **bench_live(port, games[live_size], args.live_writes)}
            if args.skip_browser:
                report["first_load"] = None
            else:
                log("first load in Chromium (Pixel 7)")
                small, large = min(games), max(games)
                report["first_load"] = bench_first_load(
                    port, {f"{small}-event game": f"/g/{games[small]}", f"{large}-event game": f"/g/{games[large]}"}
                )
    report["wall_seconds"] = round(time.perf_counter() - started, 1)
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--json", action="store_true", help="print a JSON object on stdout (the report on stderr)")
    parser.add_argument("--save", action="store_true", help="also write the JSON to bench/results/")
    parser.add_argument("--seed", type=int, default=2024, help="seed of the random games (default 2024)")
    parser.add_argument(
        "--sizes",
        type=int,
        nargs="+",
        default=[10, 1000, 2000, 5000],
        help="game sizes in events (default 10 1000 2000 5000)",
    )
    parser.add_argument("--requests", type=int, default=40, help="timed actions per game and bare POSTs (default 40)")
    parser.add_argument("--warmup", type=int, default=10, help="untimed POSTs first (default 10)")
    parser.add_argument(
        "--repeats", type=int, default=15, help="repeats of cold rebuild and repository.get (default 15)"
    )
    parser.add_argument("--undo-pairs", type=int, default=10, help="undo+redo pairs over HTTP per game (default 10)")
    parser.add_argument("--page-gets", type=int, default=20, help="timed GETs of each page (default 20)")
    parser.add_argument("--live-writes", type=int, default=10, help="writes heard by the listeners (default 10)")
    parser.add_argument("--skip-browser", action="store_true", help="skip the Chromium first load")
    parser.add_argument(
        "--server",
        choices=("auto", "gunicorn", "waitress"),
        default="auto",
        help="the app's and the bare peer's server (default auto: gunicorn + one gevent worker where it runs)",
    )
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
