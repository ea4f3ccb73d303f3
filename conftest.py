"""Shared by tests/ and e2e/: the Spanish catalogue is compiled before any page is rendered."""

from __future__ import annotations

from companion.translations import compile_catalogues


def pytest_sessionstart(session: object) -> None:
    """Compile each .po to .mo when the .mo is missing or older (the app and make do the same)."""
    compile_catalogues()
