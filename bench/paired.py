"""Two checkouts of the app timed tap by tap in lockstep: is a change faster, on a machine whose speed wanders?

A benchmark, not a test. On a shared machine two runs of the same code a few seconds apart can differ widely (the
host's other work); an old tree and a new one run one after the other compare the spells, not the code. Here each
tree plays the same table in a process of its own (``--worker``), in step: a chunk of five taps of the mix on one,
the same five on the other, the order swapped every chunk (ABBA), so a spell falls on both. Each tap is timed by the
CPU its request took in the app until its answer is in hand (``time.thread_time`` around the WSGI call and the body's
read; no network, no server, no disk wait),
under gevent's patching as ``companion serve`` runs it, the collector settled as there. Both sides make the same
game by the same seeded play and choose the same taps, so their chunks hold the same work. The worker started second
may run a little faster whatever it holds, so half the chunks are played by a pair started the other way round.

Run from this repository's root, with another checkout next to it (``git worktree add ../before HEAD~1``)::

    .venv/bin/python bench/paired.py ../before              # before = A, this tree = B
    .venv/bin/python bench/paired.py ../before --chunks 120 --size complete
    .venv/bin/python bench/paired.py . --python ../other-venv/bin/python   # an interpreter: this tree in both

``--python`` runs A in another interpreter (a venv holding ``requirements-dev.txt``): the same tree on both sides
then compares the interpreters, tap by tap.

It prints the median over the chunks of B's CPU over A's for the same chunk, with the quartiles, and each kind's
median CPU a tap on each side. A small change needs more chunks than the default 60.

The other tree's own ``bench`` and ``companion`` are imported by its worker (its ``bench.games``, or ``bench.run`` in
a tree from before it, and ``bench.table_play``); this file is the same for both.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve()
ROOT = HERE.parents[1]
STEPS = 5  # taps a chunk (an undo and its redo every fifth)


class TimedApp:
    """A WSGI app whose every call's CPU is noted in ``cpu`` once the answer is in hand (the body read inside: drawn
    lazily or not; what runs once it is sent, in its ``close()``, left out)."""

    def __init__(self, app: Any, cpu: list[float]) -> None:
        self.app, self.cpu = app, cpu

    def __call__(self, environ: dict[str, Any], start_response: Any) -> list[bytes]:
        began = time.thread_time()
        out = self.app(environ, start_response)
        body = b"".join(out)
        self.cpu.append(time.thread_time() - began)  # the answer in hand: what the phone waits for
        if hasattr(out, "close"):
            out.close()  # what the server does after the last byte
        return [body]


def worker(tree: Path, size: str, seed: int) -> None:
    """One side: make the game, then play a chunk of the mix for each ``go`` read, printing its taps' CPU (ms) by
    kind as one JSON line."""
    from gevent import monkey

    monkey.patch_all()
    sys.path.insert(0, str(tree))
    os.environ.setdefault("COMPANION_SECRET_KEY", "paired-" + "x" * 24)
    try:
        from bench.games import play_random_game, state_reader, store_game
    except ImportError:  # a tree from before bench/games.py
        from bench.run import play_random_game, state_reader, store_game  # type: ignore[attr-defined]
    from bench.served import DECOMPRESS, ENCODING, Answer, Client
    from bench.table_play import Phone, play_mix
    from companion.cli.serve import settle_collector
    from companion.editions import DEFAULT_EDITION, load_all
    from companion.web import create_app
    from companion.web.http.db import make_log_room
    from events.sqlite import SqliteStore

    cpu: list[float] = []

    class InProcess(Client):
        """``bench.served.Client`` (its CSRF token, its forms) through the app's test client, not a socket: the
        answer's seconds are its CPU in the app."""

        def __init__(self, app: Any) -> None:
            super().__init__(0)
            self.test_client = app.test_client()

        def __post_init__(self) -> None:
            pass  # no connection to open

        def close(self) -> None:
            pass

        def _send(self, method: str, path: str, body: str | None, headers: dict[str, str]) -> Any:
            sent = {"Accept-Encoding": ENCODING, **headers}
            answer = self.test_client.open(path, method=method, data=body, headers=sent)
            raw = answer.get_data()
            text = DECOMPRESS[answer.headers.get("Content-Encoding")](raw)
            headers = {k.lower(): v for k, v in answer.headers.items()}
            return Answer(answer.status_code, text.decode(), len(raw), len(text), cpu[-1], headers)

    editions = load_all()
    edition = editions[DEFAULT_EDITION][1]
    with tempfile.TemporaryDirectory(prefix="companion-paired-") as tmp:
        db = Path(tmp) / "games.sqlite3"
        store = SqliteStore.open(db)
        played = play_random_game(edition, seed, 0, complete=True) if size == "complete" else None
        game_id = store_game(store, editions, played or play_random_game(edition, seed, int(size)))
        store.close()
        app = create_app({"DATABASE": str(db)})
        make_log_room(app)
        settle_collector()
        app.wsgi_app = TimedApp(app.wsgi_app, cpu)  # type: ignore[method-assign]
        phone = Phone(InProcess(app), game_id)
        phone.open()
        state_of = state_reader(db, editions, game_id)
        counts: dict[str, int] = {}
        rng = random.Random(seed)
        print("ready", flush=True)
        for line in sys.stdin:
            if line.strip() != "go":
                break
            result = play_mix(phone, None, state_of, STEPS, rng, counts=counts)
            print(json.dumps({k: [round(s * 1000, 4) for s in v] for k, v in result.seconds.items()}), flush=True)
        state_of.close()


def _start(tree: Path, size: str, seed: int, python: str = sys.executable) -> subprocess.Popen[str]:
    argv = [python, str(HERE), "--worker", str(tree), "--size", size, "--seed", str(seed)]
    process = subprocess.Popen(argv, cwd=tree, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert process.stdout is not None
    line = process.stdout.readline()
    if not line.startswith("ready"):
        process.kill()
        raise RuntimeError(f"the worker of {tree} did not start (see its error above)")
    return process


def compare(
    before: Path, after: Path, chunks: int, size: str, seed: int, python: str = sys.executable
) -> dict[str, Any]:
    """``chunks`` chunks of the mix on each tree in lockstep (ABBA), A's in ``python``; each kind's taps and each
    chunk's total CPU.

    The worker started second may run a little faster, whatever tree it holds: half the chunks are played by a pair
    started A first, the other half by a fresh pair started B first, so the start's advantage falls on both."""
    taps: dict[str, dict[str, list[float]]] = {"A": {}, "B": {}}
    totals: dict[str, list[float]] = {"A": [], "B": []}
    for half, count in enumerate((chunks - chunks // 2, chunks // 2)):
        if half == 0:
            sides = {"A": _start(before, size, seed, python), "B": _start(after, size, seed)}
        else:
            started_first = _start(after, size, seed)
            sides = {"A": _start(before, size, seed, python), "B": started_first}
        try:
            for chunk in range(count):
                for name in ("A", "B") if chunk % 2 == 0 else ("B", "A"):
                    process = sides[name]
                    assert process.stdin is not None and process.stdout is not None
                    process.stdin.write("go\n")
                    process.stdin.flush()
                    line = process.stdout.readline()
                    if not line:
                        raise RuntimeError(f"side {name} stopped (see its error above)")
                    played: dict[str, list[float]] = json.loads(line)
                    for kind, ms in played.items():
                        taps[name].setdefault(kind, []).extend(ms)
                    totals[name].append(sum(sum(ms) for ms in played.values()))
        finally:
            for process in sides.values():
                if process.stdin is not None:
                    process.stdin.close()
                process.wait(timeout=30)
    ratios = sorted(b / a for a, b in zip(totals["A"], totals["B"], strict=True) if a > 0)
    return {"taps": taps, "totals": totals, "ratios": ratios}


def report(found: dict[str, Any], before: Path, after: Path, python: str | None = None) -> str:
    ratios = found["ratios"]
    n = len(ratios)
    a_side = f"{before} in {python}" if python else str(before)
    lines = [
        f"A = {a_side}, B = {after}: {n} chunks of {STEPS} taps each, in lockstep (ABBA); CPU in the app (ms)",
        f"B over A, a chunk's CPU: median {statistics.median(ratios):.3f} "
        f"[quartiles {ratios[n // 4]:.3f}–{ratios[(3 * n) // 4]:.3f}]",
        f"  {'kind':<10} {'n':>4} {'A p50':>8} {'B p50':>8} {'B/A':>6}",
    ]
    a_taps, b_taps = found["taps"]["A"], found["taps"]["B"]
    for kind in sorted(a_taps):
        a, b = a_taps[kind], b_taps.get(kind, [])
        if not b:
            continue
        ratio = statistics.median(b) / statistics.median(a)
        lines.append(
            f"  {kind:<10} {len(a):>4} {statistics.median(a):>8.3f} {statistics.median(b):>8.3f} {ratio:>6.3f}"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("before", nargs="?", help="the other checkout (A); this tree is B")
    parser.add_argument("--chunks", type=int, default=60, help=f"chunks of {STEPS} taps on each side (default 60)")
    parser.add_argument("--size", default="403", help="events of the game in play, or 'complete' (default 403)")
    parser.add_argument("--seed", type=int, default=2024, help="seed of the game and of the taps (default 2024)")
    parser.add_argument(
        "--python", metavar="INTERPRETER", help="A's Python, with the app's packages (default: this one, as B's)"
    )
    parser.add_argument("--worker", metavar="TREE", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        worker(Path(args.worker).resolve(), args.size, args.seed)
        return 0
    if not args.before:
        parser.error("name the other checkout (A)")
    before = Path(args.before).resolve()
    found = compare(before, ROOT, args.chunks, args.size, args.seed, args.python or sys.executable)
    print(report(found, before, ROOT, args.python))
    return 0


if __name__ == "__main__":
    sys.exit(main())
