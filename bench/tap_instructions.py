"""Server work per tap counted in instructions: one tree against another, with a ruler that does not move.

A benchmark, not a test: it prints figures. CPU time on a shared virtual machine moves with whatever else runs on it;
an instruction count does not. This script:

1. makes a game by seeded random legal play (as ``bench/run.py`` does) and stores it in a SQLite file;
2. plays a table's mix of taps (``bench/table_play.py``: selects, brings, moves, sends, loans, undo and redo, with
   ``HX-Game-Parts``) against ``companion serve`` of this tree, and records every request a phone sent;
3. for each repository root given, replays exactly those requests in a process of its own, the app built by that
   tree's ``create_app`` and driven through Flask's test client (the session cookie and CSRF token as a phone sends
   them), under ``valgrind --tool=callgrind``; and once more building the app and opening the page without the
   taps. The difference over the number of requests is the instructions the app runs per request. The process's
   garbage collector is left as ``companion serve`` leaves it (``settle_collector``).

The server's own parsing and writing are left out (the same for every tree); the app's hooks, the service, the
store's SQL, drawing, compression are in. Run from the repository root (valgrind from Debian's packages)::

    .venv/bin/python bench/tap_instructions.py --root ../before --root .
    .venv/bin/python bench/tap_instructions.py --root . --steps 40 --events 10
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parents[1]

CHILD = r"""
import json, re, sys
root, db, script, replay = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4] == "1"
sys.path.insert(0, root)
from companion.web import create_app
recorded = json.loads(open(script).read())
app = create_app({"DATABASE": db, "SECRET_KEY": "bench", "WARM_UP": True})
from companion.cli.serve import settle_collector
settle_collector()  # as companion serve leaves its collector once the app is made
client = app.test_client()
page = client.get(recorded["page"]).get_data(as_text=False)  # plain, to read its CSRF token
found = re.search(rb'name="csrf_token" value="([^"]+)"', page)
token = found.group(1).decode() if found else ""
sent = refused = 0
for method, path, body, headers in recorded["requests"] if replay else ():
    headers = {k: (token if k.lower() == "x-csrftoken" else v) for k, v in headers.items()}
    if body is not None:
        body = re.sub(r"csrf_token=[^&]*", "csrf_token=" + token, body)
    answer = client.open(path, method=method, data=body, headers=headers)
    answer.get_data()
    sent += 1
    refused += answer.status_code >= 400
print(sent, refused)
"""


def record(seed_db: Path, workdir: Path, game_id: str, editions: Any, steps: int, seed: int) -> dict[str, Any]:
    """The requests a phone sends playing ``steps`` steps of the mix on this tree's server."""
    from bench.games import state_reader
    from bench.served import ENCODING, Answer, Client
    from bench.table_play import Phone, play_mix
    from bench.tap_cpu import serving

    db = workdir / "record.sqlite3"
    shutil.copyfile(seed_db, db)
    requests: list[tuple[str, str, str | None, dict[str, str]]] = []

    class Recording(Client):
        def _send(self, method: str, path: str, body: str | None, headers: dict[str, str]) -> Answer:
            requests.append((method, path, body, {"Accept-Encoding": ENCODING, **headers}))
            return super()._send(method, path, body, headers)

    with serving(HERE, db) as (port, _process):
        phone = Phone(Recording(port), game_id)
        phone.open()
        requests.clear()  # the page itself is opened by every replay
        state_of = state_reader(db, editions, game_id)
        try:
            play_mix(phone, None, state_of, steps, random.Random(seed))
        finally:
            state_of.close()
            phone.client.close()
    return {"page": f"/g/{game_id}", "requests": requests}


def instructions(root: Path, seed_db: Path, workdir: Path, script: Path, replay: bool) -> tuple[int, int]:
    """The instructions a process of ``root``'s app runs (building it, opening the page, and the replay when asked),
    and how many requests it replayed."""
    db = workdir / f"replay-{os.getpid()}-{random.random()}.sqlite3"
    shutil.copyfile(seed_db, db)
    child = workdir / "child.py"
    child.write_text(CHILD, encoding="utf-8")
    out = workdir / "callgrind.out"
    done = subprocess.run(
        [
            "valgrind",
            "--tool=callgrind",
            f"--callgrind-out-file={out}",
            sys.executable,
            str(child),
            str(root),
            str(db),
            str(script),
            "1" if replay else "0",
        ],
        cwd=root,
        env={**os.environ, "PYTHONHASHSEED": "0", "PYTHONPATH": str(root)},
        capture_output=True,
        text=True,
        check=True,
    )
    totals = [line for line in out.read_text().splitlines() if line.startswith(("totals:", "summary:"))]
    sent, refused = (int(n) for n in done.stdout.strip().splitlines()[-1].split())
    if refused:
        raise RuntimeError(f"{root.name}: {refused} of {sent} replayed requests were refused: not the taps recorded")
    return int(totals[-1].split()[1]), sent


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--root", action="append", type=Path, help="a repository root to measure (default: this one)")
    parser.add_argument("--events", type=int, default=300, help="events of the game (default 300)")
    parser.add_argument("--steps", type=int, default=60, help="steps of the mix recorded (default 60)")
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args(argv)
    sys.path.insert(0, str(HERE))
    from bench.games import play_random_game, store_game
    from companion.editions import DEFAULT_EDITION, load_all
    from events.sqlite import SqliteStore

    roots = [r.resolve() for r in (args.root or [HERE])]
    editions = load_all()
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        seed_db = workdir / "seed.sqlite3"
        store = SqliteStore.open(seed_db)
        try:
            game_id = store_game(
                store, editions, play_random_game(editions[DEFAULT_EDITION][1], args.seed, args.events)
            )
        finally:
            store.close()
        script = workdir / "requests.json"
        script.write_text(json.dumps(record(seed_db, workdir, game_id, editions, args.steps, args.seed)))
        print(f"{'tree':<30} {'requests':>8} {'instructions per request':>26}")
        for root in roots:
            base, _ = instructions(root, seed_db, workdir, script, replay=False)
            full, sent = instructions(root, seed_db, workdir, script, replay=True)
            print(f"{root.name:<30} {sent:>8} {(full - base) / max(sent, 1):>26,.0f}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
