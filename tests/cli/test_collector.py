"""A server process keeps Python's cyclic garbage collector out of the way (issue 27, item 5): the objects
alive once the app is made are frozen out of its sight and collections are rarer, so a full collection of
a large view cache does not stall every request in flight several times a minute."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from companion.cli.serve import COLLECTOR_THRESHOLDS, gunicorn_runs_here
from testkit.live_client import free_port

ROOT = Path(__file__).resolve().parents[2]

REPORT = """
import gc, json
from companion.cli.serve import settle_collector
before = gc.get_threshold()
done = settle_collector()
print(json.dumps({"done": done, "before": before, "after": gc.get_threshold(), "frozen": gc.get_freeze_count()}))
"""


def _report(env: dict[str, str]) -> dict[str, object]:
    out = subprocess.run(
        [sys.executable, "-c", REPORT], cwd=ROOT, env={**os.environ, **env}, capture_output=True, text=True, check=True
    )
    return json.loads(out.stdout)


def test_settling_freezes_what_is_alive_and_makes_collections_rarer() -> None:
    got = _report({"COMPANION_GC": ""})
    assert got["done"] is True
    assert got["before"] == [700, 10, 10]  # Python's own
    assert got["after"] == list(COLLECTOR_THRESHOLDS)
    assert isinstance(got["frozen"], int) and got["frozen"] > 10_000  # the modules loaded so far, at least


def test_an_operator_may_keep_pythons_own_collector() -> None:
    got = _report({"COMPANION_GC": "python"})
    assert got == {"done": False, "before": [700, 10, 10], "after": [700, 10, 10], "frozen": 0}


WORKER = """
import gc, sys
from companion.cli.serve import serve_gunicorn

def app(environ, start_response):
    start_response("200 OK", [("Content-Type", "application/json")])
    return [("[%d, %d, %d, %d]" % (*gc.get_threshold(), gc.get_freeze_count())).encode()]

serve_gunicorn("127.0.0.1", int(sys.argv[1]), make_app=lambda: app, name="collector-test")
"""


@pytest.mark.skipif(not gunicorn_runs_here(), reason="gunicorn does not run on this system")
def test_the_gunicorn_worker_serves_with_the_settled_collector() -> None:
    port = free_port()
    env = {**os.environ, "COMPANION_GC": ""}
    server = subprocess.Popen([sys.executable, "-c", WORKER, str(port)], cwd=ROOT, env=env)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2) as answer:
                    got = json.loads(answer.read())
                break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise
                time.sleep(0.1)
    finally:
        server.terminate()
        server.wait(timeout=10)
    assert got[:3] == list(COLLECTOR_THRESHOLDS)
    assert got[3] > 10_000
