"""Browser journeys: a live server on loopback and real Chromium in a phone profile (Pixel 7)."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.web import create_app
from testkit.live_client import CHROMIUM_ARGS, chromium_path, serving


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    args = {**browser_type_launch_args, "args": CHROMIUM_ARGS}
    path = chromium_path()
    if path:
        args["executable_path"] = path
    return args


@pytest.fixture(scope="session")
def live_server() -> Iterator[str]:
    folder = tempfile.mkdtemp(prefix="companion-e2e-")
    app = create_app({"DATABASE": str(Path(folder) / "e2e.sqlite3"), "SECRET_KEY": "e2e"})
    with serving(app) as (host, port):
        yield f"http://{host}:{port}"
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="session")
def base_url(live_server: str) -> str:
    return live_server


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict[str, Any], playwright: Any) -> dict[str, Any]:
    if "viewport" in browser_context_args:
        return browser_context_args
    return {**browser_context_args, **playwright.devices["Pixel 7"]}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "e2e" in str(item.fspath):
            item.add_marker(pytest.mark.e2e)


@pytest.fixture(autouse=True)
def _short_timeouts(page: Any) -> None:
    """Fail in seconds, not half a minute: every expectation here is met within a second."""
    page.set_default_timeout(8000)
