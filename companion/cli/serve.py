"""Run the web app on a server that holds thousands of open live pages: gunicorn with gevent workers
(one by default, ``--workers N`` for more) where gunicorn runs (Linux, macOS), else waitress with a
pool of threads.

Under gevent every connection is a greenlet, so an open live page, an idle socket or a slow reader
costs memory, not one of a few threads. The app is built inside the worker, after gevent has
patched the standard library, so its locks and the notifier's watcher are greenlet-aware. Workers
share nothing in memory: each has its own notifier and view cache, and they meet in the store (a
write through one reaches the pages of another by the notifier's check or LISTEN, presence by the
store's ``presence`` table, and every cached view is checked against the log's last seq).
"""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Callable
from typing import Any

__all__ = [
    "OPEN_FILES_WANTED",
    "WORKER_CONNECTIONS",
    "gunicorn_runs_here",
    "raise_open_files_limit",
    "serve",
    "serve_gunicorn",
]

WORKER_CONNECTIONS = 4000  # open connections one worker accepts (each live page is one)
OPEN_FILES_WANTED = 16384  # each connection is a file descriptor; the usual default of 1,024 is too few


def gunicorn_runs_here() -> bool:
    """True where gunicorn and its gevent worker can run (a POSIX system with both installed)."""
    if os.name != "posix":
        return False
    try:
        import gevent  # noqa: F401
        import gunicorn  # noqa: F401
    except ImportError:
        return False
    return True


def raise_open_files_limit(wanted: int = OPEN_FILES_WANTED) -> int:
    """Raise this process's soft limit of open files towards ``wanted`` (within the hard limit)."""
    try:
        import resource
    except ImportError:  # not a POSIX system
        return -1
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError):
            pass
    return int(soft)


def _die_with_parent(_server: Any, worker: Any) -> None:
    """A worker whose master is killed (even with SIGKILL) dies too, so no orphan keeps the port."""
    if sys.platform.startswith("linux"):
        import ctypes

        pr_set_pdeathsig = 1
        ctypes.CDLL(None).prctl(pr_set_pdeathsig, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != worker.ppid:  # the master died before the line above
        os._exit(1)


def _bind(host: str, port: int) -> str:
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def _companion_app() -> Any:
    from companion.web import create_app

    return create_app()


def serve_gunicorn(
    host: str,
    port: int,
    workers: int = 1,
    make_app: Callable[[], Any] = _companion_app,
    name: str = "inferno-companion",
) -> None:
    """Serve with gunicorn and ``workers`` gevent workers; ``make_app`` builds the app in each worker, after
    gevent has patched the standard library (the benchmark's bare peer is served the same way)."""
    if workers < 1:
        raise ValueError("at least one worker")
    from gunicorn.app.base import BaseApplication

    class CompanionServer(BaseApplication):  # type: ignore[misc]
        def load_config(self) -> None:
            settings = {
                "bind": [_bind(host, port)],
                "workers": workers,
                "worker_class": "gevent",
                "worker_connections": WORKER_CONNECTIONS,
                "timeout": 30,
                "graceful_timeout": 3,  # live streams never finish by themselves: do not wait long for them
                "keepalive": 5,
                "post_fork": _die_with_parent,
                "accesslog": None,
                "loglevel": "warning",
                "proc_name": name,
            }
            for key, value in settings.items():
                self.cfg.set(key, value)

        def load(self) -> Any:
            return make_app()

    CompanionServer().run()


def serve_waitress(host: str, port: int, threads: int) -> None:
    """The fallback where gunicorn cannot run: each open live page holds one of ``threads``."""
    from waitress import serve as waitress_serve

    from companion.web import create_app

    waitress_serve(create_app(), host=host, port=port, threads=threads, channel_timeout=120)


def serve(host: str, port: int, threads: int = 32, server: str = "auto", workers: int = 1) -> str:
    """Serve the app (built from ``COMPANION_DB`` and the rest of the environment) until stopped.

    ``server`` is "gunicorn", "waitress" or "auto" (gunicorn where it runs); ``workers`` is how many
    gunicorn processes (waitress always runs one). Returns the one used.
    """
    raise_open_files_limit()
    chosen = server if server != "auto" else ("gunicorn" if gunicorn_runs_here() else "waitress")
    if chosen == "gunicorn":
        serve_gunicorn(host, port, workers)
    else:
        serve_waitress(host, port, threads)
    return chosen
