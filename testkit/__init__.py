"""Helpers shared by the tests, the browser journeys and the benchmark: random legal play (``random_play``) and
live pages over real sockets (``live_client``). Neither holds a test; both are imported from the repository root."""
