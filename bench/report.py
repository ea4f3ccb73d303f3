"""The report of ``bench/run.py``: each run's figures summed up over the runs (``summarise``) and printed as plain text
(``format_report``), the server's CPU per tap by kind first.

Every figure is the median of the runs with the lowest and highest run in brackets. A kind's taps are also set
against the bare insert: each tap's wall time over the p50 of the bare inserts sent between the taps of the same run
("x bare"), pooled over the runs, with the interval that holds that p50 with 95 % confidence.
"""

from __future__ import annotations

import statistics
from typing import Any

from bench.figures import median_interval, p50
from bench.table_play import MIX, SELECT

__all__ = ["CONTROL_LIMITS", "SPLIT", "control_figure", "control_line", "cpu_lines", "format_report", "summarise"]

SERVER_THREADS = 48  # waitress only (the fallback): 32 open streams must leave room for the writes
SPLIT = ("app_p50_ms", "cpu_p50_ms", "outside_p50_ms")
"""A tap's time split by the servers' ``Server-Timing`` (``run.split_ms``)."""
CONTROL_LIMITS = (0.95, 1.05)
"""The control inserts say the two places time a request alike when their pooled ratio is within these (and its
interval holds 1)."""
PAGES = ("/", "/history", "/score")


def server_label(kind: str) -> str:
    """How the report names the server both processes ran on."""
    return "gunicorn, one gevent worker" if kind == "gunicorn" else f"waitress, {SERVER_THREADS} threads"


def spread(values: list[float]) -> dict[str, float]:
    """A figure over the runs: its median, lowest and highest."""
    return {"median": round(statistics.median(values), 3), "low": round(min(values), 3), "high": round(max(values), 3)}


def _fmt(s: dict[str, float], unit: str = "") -> str:
    return f"{s['median']:.2f}{unit} [{s['low']:.2f}–{s['high']:.2f}]"


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
    """The p50 of every tap of a kind in every run, each over its own run's bare p50: a kind tapped twice a run has a
    run's p50 of two taps, which swings whatever the code; pooled, its p50 rests on all of them, each still set against
    the bare inserts of its own run."""
    return round(p50([x for f in figures for x in f["x_bare_each"]]), 3)


def x_bare_all_interval(figures: list[dict[str, Any]]) -> list[float] | None:
    """Where the p50 of ``x_bare_all`` lies, with 95 % confidence whatever the taps' distribution
    (``figures.median_interval``); ``None`` under 6 taps."""
    found = median_interval([x for f in figures for x in f["x_bare_each"]])
    return None if found is None else [round(found[0], 3), round(found[1], 3)]


def _kind_summary(rows: list[dict[str, Any]], kind: str) -> dict[str, Any] | None:
    """One kind's figures at one size over the runs; ``None`` when no run tapped it."""
    have = [r for r in rows if kind in r["mix"]["kinds"]]
    if not have:
        return None
    figures = [r["mix"]["kinds"][kind] for r in have]
    out = {
        **pooled(figures),
        "p50_ms": spread([f["p50_ms"] for f in figures]),
        "p95_ms": spread([f["p95_ms"] for f in figures]),
        "x_bare": spread([f["p50_ms"] / r["mix"]["bare"]["p50_ms"] for f, r in zip(figures, have, strict=True)]),
        "answer_bytes_max": max(f["answer_bytes_max"] for f in figures),
    }
    splits = [f["split"] for f in figures if "split" in f]
    if splits:
        out["split"] = {k: spread([sp[k] for sp in splits]) for k in SPLIT}
    return out


def summarise(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """Each figure's spread over the runs: by game size and kind, p50, p95 and the ratio to the run's bare p50."""
    out: dict[str, Any] = {"growth": [], "live": None}
    for i, row in enumerate(runs[0]["growth"]):
        rows = [r["growth"][i] for r in runs]
        out["growth"].append(
            {
                "events": row["events"],
                "kinds": {kind: _kind_summary(rows, kind) for kind in kinds_in(rows)},
                "control": control_figure(rows),
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
                "pages_p95_ms": {k: spread([r["pages"][k]["get"]["p95_ms"] for r in rows]) for k in PAGES},
                "pages_first_ms": {k: spread([r["pages"][k]["first_ms"] for r in rows]) for k in PAGES},
            }
        )
    for name in ("live", "live_apart"):
        out[name] = _live_summary([r[name] for r in runs if r.get(name) and r[name]["all_hold"]])
    return out


def control_figure(rows: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The control inserts at one size: bare inserts timed in a tap's place (after the table chose its command),
    pooled over the runs like a kind's taps, over their runs' bare p50 (``pooled``); ``None`` without them
    (``--gap 0`` without ``--control``). Its interval holding 1 says the two places time the same request alike."""
    figures = [r["mix"]["control"] for r in rows if "control" in r["mix"]]
    return pooled(figures) if figures else None


def control_line(control: dict[str, Any] | None) -> list[str]:
    """The report's line for ``control_figure``."""
    if control is None:
        return ["  control: not timed (--gap 0 without --control)"]
    band = control["x_bare_all_95"]
    holds = band is not None and band[0] <= 1.0 <= band[1]
    alike = holds and CONTROL_LIMITS[0] <= control["x_bare_all"] <= CONTROL_LIMITS[1]
    interval = f" [{band[0]:.2f}–{band[1]:.2f}]" if band else " [-]"
    return [
        f"  control: a bare insert timed in a tap's place, over the bare inserts between the taps: "
        f"{control['x_bare_all']:.2f}x{interval} ({control['n']} inserts): "
        + ("the places are alike" if alike else "the places differ: read the ratios with care")
    ]


def _live_summary(lives: list[dict[str, Any]]) -> dict[str, Any] | None:
    if not lives:
        return None
    return {
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


def cpu_lines(growth: list[dict[str, Any]]) -> list[str]:
    """The table the report opens with: the server's CPU per tap (p50 ms, median of the runs) by kind, one column per
    game size, the bare insert last; a line saying why when the servers did not tell it (``--no-server-timing``)."""
    if not any(k and "split" in k for row in growth for k in row["kinds"].values()):
        return ["Server CPU per tap: not measured (--no-server-timing)"]
    sizes = [f"{row['events']:,} events" for row in growth]
    lines = [
        "Server CPU per tap, p50 ms (median of the runs), by kind and game size:",
        f"  {'kind':<12}" + "".join(f"{size:>14}" for size in sizes),
    ]

    def cell(split: dict[str, Any] | None) -> str:
        return f"{split['cpu_p50_ms']['median']:>14.2f}" if split else f"{'-':>14}"

    for kind in dict.fromkeys(kind for row in growth for kind in row["kinds"]):
        lines.append(f"  {kind:<12}" + "".join(cell((row["kinds"].get(kind) or {}).get("split")) for row in growth))
    lines.append(f"  {'bare insert':<12}" + "".join(cell(row["bare_split"]) for row in growth))
    return lines


def _header(r: dict[str, Any]) -> list[str]:
    m = r["machine"]
    gap = (
        f"every timed request sent after the servers were left alone {r['gap_ms']:g} ms (a table's taps come "
        "seconds apart)"
        if r.get("gap_ms")
        else "every request sent back to back (--gap 0)"
    )
    control = any(row.get("control") for row in r["summary"]["growth"])
    return [
        "Inferno Companion benchmark",
        "=" * 27,
        f"Python {m['python']}, SQLite {m['sqlite']}, {m['cpu_count']} CPUs ({m['cpus_usable']} usable), "
        f"{m['platform']}; load average at the start {r['load_before']}, at the end {r['load_after']}",
        f"Run at {m['when']}, seed {r['seed']}, {r['runs']} runs, total wall time {r['wall_seconds']:.1f} s.",
        "",
        *cpu_lines(r["summary"]["growth"]),
        "",
        f"Server: companion serve ({server_label(r['server'])}) in its own process, CSRF on, Accept-Encoding as "
        "Chromium's; the bare insert server on the same kind, its connection held open (as the app pools), one "
        f"insert sent after each tap; {gap}"
        + ("; every third step a control insert timed in the tap's place too." if control else "."),
        "",
        "Every figure: the median of the runs [lowest–highest run]. A tap is sent as static/js/table.js sends it",
        "(HX-Game-Parts; a bring or a move after its select round trip, timed as 'select'); x bare = the tap's p50",
        "over the p50 of the bare inserts interleaved with it in the same run; all runs = the p50 of every tap of",
        "the kind in every run, each over its own run's bare p50 (n taps), with the interval that holds that p50",
        "with 95 % confidence (order statistics; '-' under 6 taps). answer B = the largest answer before",
        "compression.",
    ]


def _size_lines(row: dict[str, Any]) -> list[str]:
    """One game size's block: each kind's wall times and ratio, the control, the split, cold rebuild and pages."""
    lines = [
        "",
        f"Game of {row['events']:,} events: bare insert p50 {_fmt(row['bare_p50_ms'])} ms, "
        f"p95 {_fmt(row['bare_p95_ms'])} ms; taps refused {row['refused']}",
        f"  {'kind':<10} {'n':>4} {'p50 ms':>22} {'p95 ms':>22} {'x bare':>20} {'all runs [95 %]':>22} {'answer B':>9}",
    ]
    for kind, k in row["kinds"].items():
        if k is None:
            lines.append(f"  {kind:<10}    - (not reached)")
            continue
        band = k.get("x_bare_all_95")
        pooled_x = f"{k['x_bare_all']:.2f}x " + (f"[{band[0]:.2f}–{band[1]:.2f}]" if band else "[-]")
        lines.append(
            f"  {kind:<10} {k['n']:>4} {_fmt(k['p50_ms']):>22} {_fmt(k['p95_ms']):>22} "
            f"{_fmt(k['x_bare'], 'x'):>20} {pooled_x:>22} {k['answer_bytes_max']:>9,}"
        )
    lines += control_line(row.get("control"))
    lines += _split_lines(row)
    return [
        *lines,
        f"  cold, snapshot + {row['after_snapshot']} events: app {_fmt(row['cold_snapshot_ms'])} ms, "
        f"eventsourcing (snapshot, same events after it) {_fmt(row['es_snapshot_ms'])} ms",
        f"  full replay: app {_fmt(row['full_replay_ms'])} ms, eventsourcing {_fmt(row['es_full_replay_ms'])} ms",
        "  pages p95 ms (game / history / score): " + " / ".join(_fmt(row["pages_p95_ms"][k]) for k in PAGES),
    ]


def _live_lines(s: dict[str, Any]) -> list[str]:
    lv, apart, lines = s["live"], s.get("live_apart"), []
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
    if apart:
        lines.append(
            f"  the same with each phone's answer drawn apart (COMPANION_LIVE_ANSWERS=0), interleaved: "
            f"p50 {_fmt(apart['p50_ms'])} ms, p95 {_fmt(apart['p95_ms'])} ms; missed {apart['missed']}"
        )
    return lines


def format_report(r: dict[str, Any]) -> str:
    """The plain-text report: the CPU per tap first, then each figure's median over the runs with the lowest and
    highest run in brackets."""
    lines = _header(r)
    for row in r["summary"]["growth"]:
        lines += _size_lines(row)
    lines += _live_lines(r["summary"])
    b = r.get("first_load")
    if b is None:
        lines.append("First load in Chromium: skipped")
    else:
        lines.append(
            f"First load, Chromium {b['browser']}, Pixel 7 profile, fresh context (bytes on the wire / decompressed):"
        )
        for label, page in b.items():
            if label != "browser":
                lines.append(f"   {label}: {page['wire_bytes']:,} B on the wire, {page['bytes']:,} B decompressed")
    lines.append("")
    return "\n".join(lines)


def _split_lines(row: dict[str, Any]) -> list[str]:
    """Where each kind's time went, inside the app and outside it (``Server-Timing``), and the bare insert's."""
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
