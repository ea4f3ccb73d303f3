"""The benchmark and load-test scripts (see bench/README.md): each prints figures; none is a test."""
