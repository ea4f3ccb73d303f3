"""The benchmark times what a table does, not only loans, each tap followed by a bare insert.

A quick run must time every kind of the mix on the real server, tell the server's CPU per tap by kind,
follow each tap with one bare insert, and the bare insert server must hold its connection open as the app
pools its own.
"""

from __future__ import annotations

import http.client
import json
import math
import random
import subprocess
import sys
from pathlib import Path

import pytest

from bench.figures import median_interval, p50
from bench.games import play_random_game
from bench.report import _split_lines, control_figure, control_line, cpu_lines, format_report, x_bare_all
from bench.run import split_ms
from bench.served import Answer, bare_server, server, server_kind
from bench.table_play import CARD, GAP, MIX, SELECT, MixResult, form_of, kind_of, play_mix
from companion.editions import DEFAULT_EDITION, load_all
from companion.game.commands import PlayFraud, UseGuardian
from events.catalog import GuardianUse
from testkit.random_play import FRAUD

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def quick_report() -> dict:
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "run.py"), "--quick", "--runs", "1", "--json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout)


def test_the_mix_names_every_kind_a_table_taps() -> None:
    assert set(MIX) == {"bring", "move", "send", "end-turn", "loan", "undo", "redo", "guardian", "fraud"}


def test_a_guardian_is_chosen_then_posted_and_a_fraud_card_posted_to_their_location_forms() -> None:
    class _State:
        active = 1

    path, fields, choice = form_of(UseGuardian(1, GuardianUse("cerberus", "c3", effect=False), borrow=True), _State())  # type: ignore[arg-type]
    # chosen at the Bonfire, then its new shield on the map, as the page does
    assert (path, choice) == ("location/guardian", ({"guardian": "cerberus"}, {"guardian": "cerberus", "gto": "c3"}))
    assert fields["guardian"] == "cerberus" and fields["to_shield"] == "c3" and fields["player"] == 1
    path, fields, _ = form_of(PlayFraud(1, FRAUD, borrow=True), _State())  # type: ignore[arg-type]
    assert path == "location/fraud" and fields["fraud_barrels"] == [2] and fields["eg_effect_amount"] == 2
    assert kind_of(PlayFraud(1, FRAUD)) == "fraud"


def test_a_quick_run_times_every_kind_of_the_mix_on_the_real_server(quick_report: dict) -> None:
    (run,) = quick_report["runs_raw"]
    for row in run["growth"]:
        kinds = row["mix"]["kinds"]
        missing = [k for k in (*MIX, SELECT) if k not in kinds or kinds[k]["n"] < 1]
        assert not missing, f"the benchmark no longer times {missing} (it timed {sorted(kinds)})"
        assert kinds["loan"]["n"] < sum(k["n"] for k in kinds.values()) / 2  # not a benchmark of loans
        # each tap (the select round trips too) is followed by one bare insert: interleaved, like for like; a
        # form the page fetches on its own right after an answer (the Wall's fraud card) is timed, as a tap's
        # follow-up, before that insert
        taps = sum(k["n"] for name, k in kinds.items() if name != CARD)
        assert row["mix"]["bare"]["n"] == taps
        assert all(k["answer_bytes_max"] > 0 for k in kinds.values())
    summary = quick_report["summary"]["growth"][0]
    assert summary["kinds"]["move"]["x_bare"]["median"] > 0
    for kind, k in run["growth"][0]["mix"]["kinds"].items():
        # every tap is kept over the run's bare p50, and their p50 is the run's own ratio (to rounding)
        each = k["x_bare_each"]
        assert len(each) == k["n"], kind
        ratio = k["p50_ms"] / run["growth"][0]["mix"]["bare"]["p50_ms"]
        assert p50(each) == pytest.approx(ratio, rel=2e-3, abs=1e-3), kind
        assert summary["kinds"][kind]["x_bare_all"] == pytest.approx(p50(each), abs=1e-3), kind
        band = median_interval(each)
        pooled_band = summary["kinds"][kind]["x_bare_all_95"]
        assert (pooled_band is None) == (band is None), kind
        if band is not None:  # the pooled p50 between the bounds of its interval, each one of the taps
            assert pooled_band == pytest.approx(list(band), abs=1e-3), kind
            assert pooled_band[0] <= summary["kinds"][kind]["x_bare_all"] <= pooled_band[1], kind
    assert quick_report["summary"]["live"]["missed"] == 0


def test_a_quick_run_leaves_the_servers_alone_before_each_timed_request_and_times_control_inserts(
    quick_report: dict,
) -> None:
    """By default every timed request waits ``GAP`` (a table's taps come seconds apart), and bare inserts are timed in
    the taps' place too: the control inserts, printed under each size."""
    assert quick_report["gap_ms"] == GAP * 1000 > 0
    (run,) = quick_report["runs_raw"]
    mix = run["growth"][0]["mix"]
    control = mix["control"]
    assert control["n"] >= 3 and len(control["x_bare_each"]) == control["n"]
    assert p50(control["x_bare_each"]) == pytest.approx(control["p50_ms"] / mix["bare"]["p50_ms"], rel=2e-3, abs=1e-3)
    summary = quick_report["summary"]["growth"][0]
    assert summary["control"]["n"] == control["n"] and summary["control"]["x_bare_all"] == pytest.approx(
        p50(control["x_bare_each"]), abs=1e-3
    )
    report = format_report(quick_report)
    assert (
        f"left alone {GAP * 1000:g} ms" in report
        and "every third step a control insert timed in the tap's place too" in report
    )
    assert "  control: a bare insert timed in a tap's place, over the bare inserts between the taps: " in report


class _Phone:
    """A phone that records what it is asked in ``said``; each tap moves its seq on."""

    def __init__(self, said: list[str]) -> None:
        self.said, self.seq, self.lazy = said, 1, []  # type: ignore[var-annotated]

    def choose(self, choice: dict[str, str]) -> Answer:
        self.said.append("select")
        return Answer(200, "", 1, 1, 0.002, {})

    def send(self, path: str, fields: dict[str, object]) -> Answer:
        self.said.append("tap")
        self.seq += 1
        return Answer(200, "", 1, 1, 0.003, {})


class _Bare:
    def __init__(self, said: list[str]) -> None:
        self.said = said

    def post(self, path: str, form: dict[str, object], headers: dict[str, str] | None = None) -> Answer:
        self.said.append("bare")
        return Answer(200, "", 1, 1, 0.001, {})


def test_every_timed_request_waits_the_gap_and_a_control_insert_is_timed_where_the_tap_is() -> None:
    """Each choice, tap and bare insert (a control one too) goes after ``gap``; every ``control_every``-th step a bare
    insert is timed right where the tap is, after the table chose its command and its choices were made, and on an
    undo's step before the undo and before its redo; an undo and its redo wait too. Without a gap nothing waits (back
    to back, as before), and the control inserts are timed only if asked."""
    game = play_random_game(load_all()[DEFAULT_EDITION][1], 2024, 10)
    assert game.live is not None
    state = game.live
    for gap, control_every in ((0.03, 3), (0.0, 0), (0.0, 3)):
        said: list[str] = []

        def pause(seconds: float, said: list[str] = said) -> None:
            said.append(f"pause {seconds:g}")

        result = play_mix(
            _Phone(said),  # type: ignore[arg-type]
            _Bare(said),  # type: ignore[arg-type]
            lambda: (state, True, False),
            30,
            random.Random(7),
            gap=gap,
            control_every=control_every,
            pause=pause,
        )
        timed = [s for s in said if not s.startswith("pause")]
        assert timed.count("tap") == sum(len(v) for v in result.seconds.values()) - len(result.seconds.get(SELECT, []))
        if not gap:
            assert not any(s.startswith("pause") for s in said)
        for i, s in enumerate(said):  # every timed request right after its pause
            if gap and not s.startswith("pause"):
                assert said[i - 1] == f"pause {gap:g}", (i, said[max(0, i - 3) : i + 1])
        if not control_every:
            assert result.control == [] and timed.count("bare") == len(result.bare)
            continue
        # after the choices of every third step, and before an undo and before its redo on an undo's step
        control_steps = [step for step in range(30) if step % control_every == 0]
        assert len(result.control) == sum(2 if step % 5 == 4 else 1 for step in control_steps)
        assert any(step % 5 == 4 for step in control_steps)
        assert len(result.bare) == timed.count("select") + timed.count(
            "tap"
        )  # one bare insert after each choice and tap
        assert timed.count("bare") == len(result.bare) + len(result.control)
        # the control insert comes where the tap does: after the insert after the step before (or after its
        # choice, or after the undo before a redo), right before the tap; nowhere else do two inserts come in a row
        before = ["bare", *timed]  # as if the insert after a step before the first came first
        triples = list(zip(before, before[1:], before[2:], strict=False))
        assert triples.count(("bare", "bare", "tap")) == len(result.control) > 0
        assert sum(1 for a, b, _ in triples if (a, b) == ("bare", "bare")) == len(result.control)


def test_the_control_line_says_whether_the_two_places_time_a_bare_insert_alike() -> None:
    def rows(control: list[float]) -> list[dict]:
        return [{"mix": {"control": {"n": len(control), "x_bare_each": control}}}]

    alike = control_figure(rows([0.97, 0.99, 1.0, 1.01, 1.02, 1.03, 0.98, 1.0]))
    assert alike is not None and alike["n"] == 8
    (line,) = control_line(alike)
    assert line.startswith(
        "  control: a bare insert timed in a tap's place, over the bare inserts between the taps: 1.00x ["
    )
    assert line.endswith("(8 inserts): the places are alike")
    (line,) = control_line(control_figure(rows([0.7, 0.72, 0.75, 0.8, 0.78, 0.74, 0.71, 0.9])))
    assert line.endswith("the places differ: read the ratios with care")  # a tap's place faster: the ratio flattered
    assert control_figure([{"mix": {}}]) is None
    (line,) = control_line(None)
    assert line == "  control: not timed (--gap 0 without --control)"


def test_each_kind_is_split_inside_and_outside_the_app_and_its_cpu_opens_the_report(
    quick_report: dict,
) -> None:
    """By default both servers tell each answer's time and CPU in the app: the report opens with the CPU per tap by
    kind, and splits every kind's wall time by it."""
    (run,) = quick_report["runs_raw"]
    mix = run["growth"][0]["mix"]
    for kind, k in mix["kinds"].items():
        split = k["split"]  # every kind: the app's header crossed gunicorn on every answer
        assert 0 < split["cpu_p50_ms"] <= split["app_p50_ms"] * 1.05 + 0.05, kind  # CPU within the wall time
        assert split["app_p50_ms"] < k["p50_ms"], kind  # the client waited for more than the app's part
        assert split["outside_p50_ms"] > 0, kind
    bare = mix["bare_split"]
    assert 0 < bare["app_p50_ms"] < mix["bare"]["p50_ms"] and bare["outside_p50_ms"] > 0
    summary = quick_report["summary"]["growth"][0]
    assert summary["bare_split"]["app_p50_ms"]["median"] == bare["app_p50_ms"]
    assert summary["kinds"]["move"]["split"]["app_p50_ms"]["median"] == mix["kinds"]["move"]["split"]["app_p50_ms"]
    report = format_report(quick_report).splitlines()
    opens = report.index("Server CPU per tap, p50 ms (median of the runs), by kind and game size:")
    assert opens < 8  # near the top
    rows = {line.split()[0]: line.split()[-1] for line in report[opens + 2 : opens + 2 + len(mix["kinds"]) + 1]}
    assert float(rows["move"]) == pytest.approx(mix["kinds"]["move"]["split"]["cpu_p50_ms"], abs=0.01)
    assert float(rows["bare"]) == pytest.approx(bare["cpu_p50_ms"], abs=0.01)  # the "bare insert" row


def test_a_tap_is_split_by_its_answers_server_timing_and_left_alone_without_it() -> None:
    result = MixResult()
    timed = Answer(200, "", 10, 20, 0.003, {"server-timing": "app;dur=2.0, cpu;dur=1.5"})
    result.add("move", timed)
    result.add("move", Answer(200, "", 10, 20, 0.005, {"server-timing": "app;dur=3.0, cpu;dur=2.5"}))
    result.add("loan", Answer(200, "", 10, 20, 0.002, {}))  # a server not asked: no split, the time still counted
    result.add_bare(Answer(200, "", 10, 20, 0.001, {"server-timing": "app;dur=0.4, cpu;dur=0.3"}))
    assert result.seconds["loan"] == [0.002] and "loan" not in result.inside
    assert result.inside["move"] == [pytest.approx((3.0, 2.0, 1.5)), pytest.approx((5.0, 3.0, 2.5))]
    assert split_ms(result.inside["move"]) == {"app_p50_ms": 2.5, "cpu_p50_ms": 2.0, "outside_p50_ms": 1.5}
    assert result.bare == [0.001] and split_ms(result.bare_inside)["outside_p50_ms"] == pytest.approx(0.6)

    def spread(v: float) -> dict[str, float]:
        return {"median": v, "low": v, "high": v}

    row = {
        "bare_split": {"app_p50_ms": spread(0.4), "cpu_p50_ms": spread(0.3), "outside_p50_ms": spread(0.6)},
        "kinds": {
            "move": {"split": {"app_p50_ms": spread(2.5), "cpu_p50_ms": spread(2.0), "outside_p50_ms": spread(1.5)}},
            "loan": {},
            "council": None,
        },
    }
    lines = _split_lines(row)
    assert [line.split()[0] for line in lines[2:]] == ["bare", "move"]
    assert "2.50 [2.50–2.50]" in lines[3] and "1.50 [1.50–1.50]" in lines[3]
    assert _split_lines({**row, "bare_split": None}) == []  # a run without the header: no split said
    table = cpu_lines([{**row, "events": 400}])
    assert table[1].split() == ["kind", "400", "events"]
    assert [line.split() for line in table[2:]] == [
        ["move", "2.00"],
        ["loan", "-"],
        ["council", "-"],
        ["bare", "insert", "0.30"],
    ]
    assert cpu_lines([{**row, "kinds": {"loan": {}}}]) == ["Server CPU per tap: not measured (--no-server-timing)"]


def test_the_live_figure_waits_until_the_phones_hold_their_refreshed_parts(quick_report: dict) -> None:
    live = quick_report["runs_raw"][0]["live"]
    assert live["all_hold"]["n"] == live["writes"]
    assert not live["failures"]
    # timed from the tap that records; from the step's start (the bench's choice, a select) it is longer
    assert live["all_hold_from_step"]["n"] == live["writes"]
    assert live["all_hold"]["p50_ms"] <= live["all_hold_from_step"]["p50_ms"]
    assert live["all_hold"]["max_ms"] <= live["all_hold_from_step"]["max_ms"]


def test_the_bare_insert_server_holds_its_connection_open_like_the_app(tmp_path: Path) -> None:
    """A connection closed after each request checkpoints the WAL away; one held open leaves it in place."""
    db = tmp_path / "bare.sqlite3"
    with server(bare_server(db, server_kind(), 8)) as port:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        for _ in range(3):
            conn.request("POST", "/hit", body="key=k", headers={"Content-Type": "application/x-www-form-urlencoded"})
            answer = conn.getresponse()
            assert answer.status == 200
            answer.read()
            assert answer.getheader("Server-Timing") is None  # told only when asked
        conn.close()
        wal = db.with_name(db.name + "-wal")
        assert wal.exists() and wal.stat().st_size > 0


def test_all_runs_is_the_p50_of_every_tap_pooled_not_the_median_of_the_runs_p50s() -> None:
    """An accusation tapped twice a run: each run's p50 is the mean of two taps; pooled, the p50 of all of them."""
    runs = [{"x_bare_each": [2.0, 4.0]}, {"x_bare_each": [2.5, 2.6]}, {"x_bare_each": [2.7, 3.5]}]
    assert sorted(p50(r["x_bare_each"]) for r in runs) == pytest.approx([2.55, 3.0, 3.1])  # their median: 3.0
    assert x_bare_all(runs) == 2.65  # the p50 of the six taps: (2.6 + 2.7) / 2
    assert x_bare_all([{"x_bare_each": [3.1]}]) == 3.1


def test_the_interval_of_a_p50_is_the_order_statistics_one_and_holds_the_median_as_often_as_it_says() -> None:
    # 16 taps: the 4th smallest and the 4th largest (P(4 <= B <= 12) = 97.9 % for B binomial(16, 1/2); with the 5th,
    # P(5 <= B <= 11) = 92.3 %, too little)
    assert median_interval([float(v) for v in range(16, 0, -1)]) == (4.0, 13.0)
    assert median_interval([1.0, 2.0, 3.0, 4.0, 5.0]) is None  # 5 taps: even min..max holds it only 93.75 % of the time
    assert median_interval([0.0, 1.0, 2.0, 3.0, 4.0, 5.0]) == (0.0, 5.0)
    # drawn from a skewed distribution whose median is known (ln 2 for an exponential of rate 1): the interval holds
    # it at least 95 % of the time, whatever the size
    rng = random.Random(7)
    for n in (6, 10, 16, 31, 60):
        held = 0
        for _ in range(2000):
            band = median_interval([rng.expovariate(1.0) for _ in range(n)])
            assert band is not None
            held += band[0] <= math.log(2) <= band[1]
        assert held / 2000 >= 0.94, n  # 95 % and over, less the sampling's own spread
