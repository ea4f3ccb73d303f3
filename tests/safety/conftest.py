"""The app of the pages' tests (a temp SQLite file), for the safety tests too."""

from __future__ import annotations

from tests.web.conftest import app, client

__all__ = ["app", "client"]
