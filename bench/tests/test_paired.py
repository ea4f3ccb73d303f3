"""``bench/paired.py`` times two checkouts tap by tap in lockstep: here this tree against itself, a few chunks."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("python", [None, sys.executable], ids=["same-python", "python-named"])
def test_two_trees_play_the_same_taps_in_lockstep_and_each_kind_is_reported_on_both_sides(python: str | None) -> None:
    """Two trees; with ``--python``, A in the interpreter named (here this one: the run is the same, and says so)."""
    named = ["--python", python] if python else []
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "paired.py"), str(ROOT), "--chunks", "4", "--size", "10", *named],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    out = done.stdout
    assert "4 chunks of 5 taps each, in lockstep (ABBA)" in out
    assert (f"A = {ROOT} in {python}, B = {ROOT}:" if python else f"A = {ROOT}, B = {ROOT}:") in out
    median = float(re.search(r"a chunk's CPU: median (\d+\.\d+)", out).group(1))  # type: ignore[union-attr]
    assert 0.2 < median < 5  # the same code on both sides: near 1, whatever the machine's spell
    rows = {
        m.group(1): (int(m.group(2)), float(m.group(3)), float(m.group(4)))
        for m in re.finditer(r"^  (\S+) +(\d+) +(\d+\.\d+) +(\d+\.\d+) +\d+\.\d+$", out, re.MULTILINE)
    }
    # the same seeded game and taps on both sides: 20 taps of the mix each, their kinds named with both sides' CPU
    assert {"undo", "redo"} <= set(rows) and sum(n for n, _, _ in rows.values()) >= 20
    assert all(a > 0 and b > 0 for _, a, b in rows.values())


def test_half_the_chunks_are_played_by_a_pair_started_the_other_way_round(monkeypatch: pytest.MonkeyPatch) -> None:
    """The worker started second runs a few per cent faster whatever it holds: each side is started second once."""
    from bench import paired

    started: list[str] = []

    class Worker:
        def __init__(self, tree: Path) -> None:
            self.name = "A" if tree == Path("a") else "B"
            self.stdin = self
            self.stdout = self

        def write(self, _text: str) -> None:
            pass

        def flush(self) -> None:
            pass

        def close(self) -> None:
            pass

        def readline(self) -> str:
            return '{"loan": [2.0]}\n' if self.name == "A" else '{"loan": [1.0]}\n'

        def wait(self, timeout: float) -> int:
            return 0

    def start(tree: Path, size: str, seed: int, python: str = sys.executable) -> Worker:
        worker = Worker(tree)
        started.append(worker.name)
        return worker

    monkeypatch.setattr(paired, "_start", start)
    found = paired.compare(Path("a"), Path("b"), 6, "10", 1)
    assert started == ["A", "B", "B", "A"]
    assert found["ratios"] == [0.5] * 6 and len(found["totals"]["A"]) == 6
