"""Server CPU per tap: what the app's process spends on a table's taps, one tree against another.

A benchmark, not a test: it prints figures. For each game size it makes a game by seeded random legal play (as
``bench/run.py`` does), stores it in a SQLite file, and starts ``companion serve`` (gunicorn, one gevent worker) from
each repository root given, in turn, on a copy of that file. One phone plays the same seeded mix of taps on each
(``bench/table_play.py``: selects, brings, moves, sends, loans, undo and redo, with ``HX-Game-Parts``), one request
after another. Before and after the mix it reads the CPU time (user + system) of the server's whole process tree
from ``/proc``; CPU per request is the difference over the requests the phone sent. The client is this tree's for
every root, so only the server differs: a root is a checkout of another commit (``git worktree add``).

Runs alternate between the roots (A, B, A, B…), so a slower stretch of the host falls on both.

    .venv/bin/python bench/tap_cpu.py                       # this tree alone
    .venv/bin/python bench/tap_cpu.py --root OTHER --root .  # another checkout against this one
    .venv/bin/python bench/tap_cpu.py --runs 5 --steps 150 --sizes 10 300

Linux only (``/proc``). CPU is counted in clock ticks of the kernel (usually 10 ms): a run sends hundreds of
requests, so a tick is a small part of its total.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repository root, for bench/
import contextlib

from bench.games import play_random_game, state_reader, store_game
from bench.served import Answer, Client, companion_server, served_process
from bench.table_play import Phone, play_mix
from companion.editions import DEFAULT_EDITION, load_all
from companion.game.edition import Edition
from events.sqlite import SqliteStore

HERE = Path(__file__).resolve().parents[1]
TICKS = os.sysconf("SC_CLK_TCK")


def _tree(pid: int) -> list[int]:
    """``pid`` and every process below it."""
    found, todo = [], [pid]
    while todo:
        p = todo.pop()
        found.append(p)
        for task in Path(f"/proc/{p}/task").glob("*"):
            with contextlib.suppress(OSError):
                todo += [int(c) for c in (task / "children").read_text().split()]
    return found


def cpu_seconds(pid: int) -> float:
    """User and system CPU of ``pid``'s process tree, in seconds."""
    total = 0
    for p in _tree(pid):
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15 of stat)
    return total / TICKS


@contextmanager
def serving(root: Path, db: Path) -> Iterator[tuple[int, subprocess.Popen[bytes]]]:
    """``companion serve`` of the checkout at ``root`` on ``db`` (one gunicorn gevent worker): its port and process."""
    with served_process(companion_server(db, "gunicorn", 1), {"PYTHONPATH": str(root)}, cwd=root) as served:
        yield served


@dataclass
class CountingClient(Client):
    """This tree's client, counting the requests it sends."""

    sent: int = 0

    def _send(self, method: str, path: str, body: str | None, headers: dict[str, str]) -> Answer:
        self.sent += 1
        return super()._send(method, path, body, headers)


def one(
    root: Path,
    seed_db: Path,
    workdir: Path,
    game_id: str,
    editions: dict[str, tuple[str, Edition]],
    steps: int,
    seed: int,
) -> float:
    """The CPU per request, in ms, of ``steps`` steps of the mix on the server of ``root``."""
    db = workdir / f"run-{time.monotonic_ns()}.sqlite3"
    shutil.copyfile(seed_db, db)
    with serving(root, db) as (port, process):
        client = CountingClient(port)
        phone = Phone(client, game_id)
        phone.open()
        for _ in range(3):  # the first answers of a process compile templates and fill caches
            phone.refresh()
        state_of = state_reader(db, editions, game_id)
        try:
            before, client.sent = cpu_seconds(process.pid), 0
            play_mix(phone, None, state_of, steps, random.Random(seed))
            used, requests = cpu_seconds(process.pid) - before, client.sent
        finally:
            state_of.close()
            phone.client.close()
    return 1000 * used / max(requests, 1)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--root", action="append", type=Path, help="a repository root to serve (default: this one)")
    parser.add_argument("--sizes", type=int, nargs="+", default=[10, 300], help="events of each game (default 10 300)")
    parser.add_argument("--runs", type=int, default=3, help="runs per root and size (default 3)")
    parser.add_argument("--steps", type=int, default=120, help="steps of the mix per run (default 120)")
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args(argv)
    roots = [r.resolve() for r in (args.root or [HERE])]
    editions = load_all()
    edition = editions[DEFAULT_EDITION][1]
    figures: dict[tuple[str, int], list[float]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        for size in args.sizes:
            seed_db = workdir / f"seed-{size}.sqlite3"
            store = SqliteStore.open(seed_db)
            try:
                game_id = store_game(store, editions, play_random_game(edition, args.seed, size))
            finally:
                store.close()
            for n in range(args.runs):
                for root in roots if n % 2 == 0 else reversed(roots):
                    ms = one(root, seed_db, workdir, game_id, editions, args.steps, args.seed + n)
                    figures.setdefault((str(root), size), []).append(ms)
                    line = f"{root.name:<12} {size:>4} events  run {n + 1}: {ms:.2f} ms CPU per request"
                    print(line, file=sys.stderr)
    print(f"{'tree':<40} {'events':>6} {'CPU per request, median ms':>28}  runs")
    for (root, size), values in figures.items():
        runs = " ".join(f"{v:.2f}" for v in values)
        print(f"{Path(root).name:<40} {size:>6} {statistics.median(values):>28.2f}  {runs}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
