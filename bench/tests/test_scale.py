"""The scale benchmark measures real tables: phones that fetch their updates and taps of the mix.

``bench/scale.py`` once drove the JSON API with a loan and its undo on games whose phones only
listened; these tests keep it from narrowing again: a quick run on the real server must make real taps
of several kinds of the mix (a select before a bring or a move among them), and every other phone of
the table must fetch its refreshed parts after each tap, as the page's live trigger does.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bench.table_play import MIX

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def quick_report() -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "scale.py"), "--quick", "--json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=240,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout)


def test_both_quick_steps_ran_without_a_failed_tap(quick_report: dict[str, Any]) -> None:
    steps = quick_report["steps"]
    assert [s["tables"] for s in steps] == [2, 4]
    assert all(s["failed"] == 0 and s["refresh_failed"] == 0 and s["streams_failed"] == 0 for s in steps)
    assert quick_report["phones_per_table"] == 4
    assert steps[-1]["phones"] == 16


def test_taps_are_real_actions_of_the_mix_not_only_loans(quick_report: dict[str, Any]) -> None:
    kinds: set[str] = set()
    for step in quick_report["steps"]:
        kinds |= set(step["kinds"])
        assert step["action"]["n"] >= step["tables"]  # each table tapped at least once a step
    assert len(kinds & set(MIX)) >= 3, kinds
    assert kinds - {"loan", "undo", "redo"}, kinds
    sent: dict[str, int] = {}
    for step in quick_report["steps"]:
        for kind, n in step["kinds"].items():
            sent[kind] = sent.get(kind, 0) + n
    actions = sum(n for kind, n in sent.items() if kind not in ("undo", "redo", "select"))
    assert sent.get("loan", 0) * 2 <= actions, sent  # each table keeps its mix across taps: loans stay a minority


def test_every_other_phone_fetches_its_refreshed_parts_after_each_tap(quick_report: dict[str, Any]) -> None:
    for step in quick_report["steps"]:
        taps = step["all_hold"]["n"]
        assert taps >= step["tables"]
        assert step["missed"] == 0
        # the three phones that did not tap each fetched once per tap they heard (a tap's undo and redo
        # may come as one fetch)
        assert step["refresh"]["n"] >= 3 * step["tables"]
        assert step["refresh_bytes_max"] > 0
