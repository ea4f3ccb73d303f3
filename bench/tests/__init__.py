"""Tests of the benchmark scripts: they run in ``make test`` (and CI), not in ``make test-fast``."""
