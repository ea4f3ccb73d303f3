"""How long the app took to make each answer, told in the answer's ``Server-Timing`` header, when asked.

``Server-Timing: app;dur=2.31, cpu;dur=2.18`` (milliseconds): from the moment the server hands the request to the app
until the app begins its answer (``start_response``), in all (``app``) and in this thread's CPU (``cpu``). What the
server does around it (reading the request, writing the answer) and the trip to the phone are not in it, so the time
a phone waits less ``app`` is what the server and the network cost. Chromium's developer tools show the header under
a request's timing, and ``bench/run.py --server-timing`` reads it to split each tap's time inside and outside the app.

Off unless ``SERVER_TIMING`` is set (env ``COMPANION_SERVER_TIMING=1``): the header tells anyone how long each
request took, which a public server has no reason to say. The benchmark's bare peer wears the same wrapper
(``bench/bare_server.py``), so the two are split alike.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from typing import Any

__all__ = ["HEADER", "ServerTiming", "install", "parse"]

HEADER = "Server-Timing"

StartResponse = Callable[..., Any]
WsgiApp = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]


class ServerTiming:
    """A WSGI wrapper adding ``Server-Timing: app;dur=…, cpu;dur=…`` to every answer of ``app``."""

    def __init__(self, app: WsgiApp) -> None:
        self.app = app

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        began, cpu = time.perf_counter(), time.thread_time()

        def timed_start(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            took, used = time.perf_counter() - began, time.thread_time() - cpu
            headers.append((HEADER, f"app;dur={took * 1000:.3f}, cpu;dur={used * 1000:.3f}"))
            if exc_info is not None:
                return start_response(status, headers, exc_info)
            return start_response(status, headers)

        return self.app(environ, timed_start)


def install(app: Any) -> bool:
    """Wrap ``app``'s WSGI callable when its ``SERVER_TIMING`` setting is on (outermost: last installed); returns
    whether it did."""
    if not app.config.get("SERVER_TIMING"):
        return False
    app.wsgi_app = ServerTiming(app.wsgi_app)
    return True


def parse(value: str | None) -> dict[str, float]:
    """The metrics of a ``Server-Timing`` value, by name, in milliseconds (``{}`` for none); a metric without a
    duration is left out."""
    found: dict[str, float] = {}
    for metric in (value or "").split(","):
        name, *params = (piece.strip() for piece in metric.split(";"))
        for param in params:
            key, _, number = param.partition("=")
            if key.strip() == "dur" and name:
                try:
                    found[name] = float(number.strip().strip('"'))
                except ValueError:
                    continue
    return found
