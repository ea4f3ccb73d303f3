"""Percentiles for every benchmark's report, computed one way: ``statistics.quantiles`` with the
inclusive method (linear interpolation between the closest ranks; the smallest and largest values
are the 0th and 100th percentiles).

    from bench.figures import p50, p95, p99, percentiles_ms, median_interval, summary_ms
"""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Callable, Sequence


def percentile(values: Sequence[float], p: int) -> float:
    """The ``p``-th percentile (1-99) of ``values``; the value itself when there is only one.

    Raises ``statistics.StatisticsError`` when there are no values."""
    if not 1 <= p <= 99:
        raise ValueError(f"a percentile from 1 to 99, not {p}")
    if not values:
        raise statistics.StatisticsError("no values to take a percentile of")
    if len(values) == 1:  # statistics.quantiles wants two (before Python 3.13)
        return float(values[0])
    return statistics.quantiles(values, n=100, method="inclusive")[p - 1]


def p50(values: Sequence[float]) -> float:
    return percentile(values, 50)


def p95(values: Sequence[float]) -> float:
    return percentile(values, 95)


def p99(values: Sequence[float]) -> float:
    return percentile(values, 99)


def percentiles_ms(seconds: Sequence[float], *points: int) -> dict[str, float]:
    """The ``points`` percentiles of durations in seconds, in milliseconds: ``{"p50_ms": …}`` (0 with none)."""
    return {f"p{point}_ms": round(percentile(seconds, point) * 1000, 2) if seconds else 0.0 for point in points}


def median_interval(values: Sequence[float], confidence: float = 0.95) -> tuple[float, float] | None:
    """The interval that holds the median of what ``values`` were drawn from with at least ``confidence``, whatever
    their distribution: the ``k``-th smallest and ``k``-th largest of them, ``k`` the largest for which
    ``P(k <= B <= n - k) >= confidence`` with ``B`` binomial(``n``, 1/2) (the order statistics' interval).

    ``None`` when there are too few values for any such interval (fewer than 6 at 95 %): a kind tapped a few times
    has a p50 that says little, and the report says so rather than print an interval that is not one."""
    n = len(values)
    ordered = sorted(values)
    best = 0
    for k in range(1, n // 2 + 1):
        inside = sum(math.comb(n, i) for i in range(k, n - k + 1)) / 2**n
        if inside < confidence:
            break
        best = k
    if best == 0:
        return None
    return float(ordered[best - 1]), float(ordered[n - best])


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
