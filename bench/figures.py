"""Percentiles for every benchmark's report, computed one way: ``statistics.quantiles`` with the
inclusive method (linear interpolation between the closest ranks; the smallest and largest values
are the 0th and 100th percentiles).

    from bench.figures import p50, p95, p99, percentiles_ms
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence


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
