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

import argparse
import gc
import os
import signal
import socket
import sys
from collections.abc import Callable
from typing import Any

__all__ = [
    "OPEN_FILES_WANTED",
    "WORKER_CONNECTIONS",
    "add_serve_command",
    "cmd_serve",
    "gunicorn_runs_here",
    "gunicorn_settings",
    "raise_open_files_limit",
    "serve",
    "serve_gunicorn",
    "settle_collector",
]

WORKER_CONNECTIONS = 4000  # open connections one worker accepts (each live page is one)
OPEN_FILES_WANTED = 16384  # each connection is a file descriptor; the usual default of 1,024 is too few


COLLECTOR_THRESHOLDS = (10_000, 20, 100)
"""Python's cyclic garbage collector in a server process: a young collection every 10,000 new objects
(Python's default: 700), an older one every 20 young ones, a full one after 100 older ones at most."""


def settle_collector() -> bool:
    """In a server process once its app is made: the objects alive now (modules, compiled templates,
    catalogues, editions) are moved out of the collector's sight (``gc.freeze``), and collections are made
    rarer (``COLLECTOR_THRESHOLDS``). Returns whether it did; env ``COMPANION_GC=python`` leaves Python's own.

    A full collection walks every object the process holds, and the view cache holds a few thousand per
    game: with hundreds of tables, Python's default thresholds made full collections frequent, every request
    in flight waiting meanwhile (``bench/scale.py`` measures it with the collector's own callbacks).
    Views are trees, freed by reference counting when dropped, frozen or not; only garbage in cycles
    needs the collector, and a request's cycles mostly die young, before the young collection."""
    if os.environ.get("COMPANION_GC", "").strip().lower() == "python":
        return False
    gc.collect()
    gc.freeze()
    gc.set_threshold(*COLLECTOR_THRESHOLDS)
    return True


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
    """A worker whose master is killed (even with SIGKILL) dies too, so no orphan holds the port."""
    if sys.platform.startswith("linux"):
        import ctypes

        pr_set_pdeathsig = 1
        ctypes.CDLL(None).prctl(pr_set_pdeathsig, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != worker.ppid:  # the master died before the line above
        os._exit(1)


def _bind(host: str, port: int) -> str:
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def _companion_app() -> Any:
    """The app a server serves, with room made in its log's WAL file (``make_log_room``)."""
    from companion.web import create_app
    from companion.web.http.db import make_log_room

    app = create_app()
    make_log_room(app)
    return app


def gunicorn_settings(host: str, port: int, workers: int, name: str = "inferno-companion") -> dict[str, Any]:
    """gunicorn's settings. gunicorn itself trusts no ``X-Forwarded-*`` header, not even from
    127.0.0.1 (its default): the app's ``PROXY_HOPS`` (env ``COMPANION_PROXY_HOPS``) alone decides
    how many proxies are believed, so a phone on the LAN cannot claim HTTPS."""
    return {
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
        "forwarded_allow_ips": "",
        "secure_scheme_headers": {},
    }


def serve_gunicorn(
    host: str,
    port: int,
    workers: int = 1,
    make_app: Callable[[], Any] = _companion_app,
    name: str = "inferno-companion",
) -> None:
    """Serve with gunicorn and ``workers`` gevent workers; ``make_app`` builds the app in each worker, after
    gevent has patched the standard library (the benchmark serves its plain insert server the same way)."""
    if workers < 1:
        raise ValueError("at least one worker")
    from gunicorn.app.base import BaseApplication

    class CompanionServer(BaseApplication):
        def load_config(self) -> None:
            for key, value in gunicorn_settings(host, port, workers, name).items():
                self.cfg.set(key, value)

        def load(self) -> Any:
            app = make_app()
            settle_collector()
            return app

    CompanionServer().run()


def serve_waitress(host: str, port: int, threads: int) -> None:
    """The fallback where gunicorn cannot run: each open live page holds one of ``threads``."""
    from waitress import serve as waitress_serve

    app = _companion_app()
    settle_collector()
    waitress_serve(app, host=host, port=port, threads=threads, channel_timeout=120)


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


def _lan_address() -> str | None:
    """This machine's address on the local network, if it has one."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("10.255.255.255", 1))  # no packet is sent: this only picks a route
            address = str(s.getsockname()[0])
    except OSError:
        return None
    return None if address.startswith("127.") else address


def cmd_serve(args: argparse.Namespace) -> int:
    """Serve the app (gunicorn with gevent where it runs, else waitress) and say where to open it."""
    from companion.cli import db_target
    from companion.editions import load_all
    from events.factory import shown

    os.environ["COMPANION_DB"] = db_target(args)
    load_all()  # a broken edition file stops the start here, with its message, before any server
    from events.factory import is_postgres, open_store

    if not is_postgres(db_target(args)):  # PostgreSQL migrates under a lock; psycopg must load after gevent
        open_store(db_target(args)).close()  # migrated once here, so the workers do not race to create tables
    server = args.server if args.server != "auto" else ("gunicorn" if gunicorn_runs_here() else "waitress")
    print(f"Inferno Companion — database: {shown(db_target(args))} — server: {server}")
    print(f"  Open on this computer:  http://127.0.0.1:{args.port}/")
    lan = _lan_address()
    if args.host in ("0.0.0.0", "::") and lan:
        print(f"  Open on phones:         http://{lan}:{args.port}/")
        print("  Phones must be on the same Wi-Fi as this computer; each game page shows a QR code to join.")
    elif args.host in ("127.0.0.1", "localhost"):
        print("  Only this computer can connect. For phones, run: companion serve --host 0.0.0.0")
    sys.stdout.flush()
    serve(args.host, args.port, threads=args.threads, server=server, workers=args.workers)
    return 0


def add_serve_command(sub: Any) -> None:
    """Add ``serve`` to the command line."""
    serve = sub.add_parser("serve", help="serve the web app")
    serve.add_argument("--host", default="127.0.0.1", help="0.0.0.0 to let phones on the LAN connect")
    serve.add_argument("--port", type=int, default=5000)
    serve.add_argument("--threads", type=int, default=32, help="waitress only: threads (one per open live page)")
    serve.add_argument(
        "--workers", type=int, default=1, help="gunicorn only: processes (each with gevent; they share presence)"
    )
    serve.add_argument(
        "--server", choices=("auto", "gunicorn", "waitress"), default="auto", help="auto: gunicorn where it runs"
    )
    serve.add_argument("--db")
    serve.set_defaults(run=cmd_serve)
