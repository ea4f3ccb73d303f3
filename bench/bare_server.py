"""The bare insert server: a plain Flask endpoint doing one durable SQLite insert, the benchmark's yardstick for a tap.

Run as ``python bench/bare_server.py PORT DB [gunicorn|waitress] [THREADS]`` on 127.0.0.1, on the
same server kind as the app, so the ratio compares like with like: gunicorn with one gevent worker
and the settings of ``companion.cli.serve`` (the default where gunicorn runs), or waitress with
``THREADS`` threads (the fallback).
"""

from __future__ import annotations

import os
import sqlite3
import sys
import threading
import time
from pathlib import Path

from flask import Flask, g, request

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repository root, for companion.cli.serve
from companion.cli import serve as companion_server
from companion.web.http.server_timing import ServerTiming
from events.sqlite import make_wal_room


def bare_app(path: Path) -> Flask:
    """One durable SQLite insert per POST (WAL, synchronous=FULL) on a connection the process keeps,
    as the app keeps its connections in a pool (closing one per request would checkpoint the WAL
    each time and make this server slower than the app's own write), with room made in its WAL file when it starts as
    the app's server makes it (``events.sqlite.make_wal_room``: no insert waits for the file to grow), on plain
    Flask as the app."""
    setup = sqlite3.connect(path)
    setup.execute("PRAGMA journal_mode = WAL")
    setup.execute("CREATE TABLE IF NOT EXISTS hits (id INTEGER PRIMARY KEY, key TEXT NOT NULL, at REAL NOT NULL)")
    setup.commit()
    setup.close()
    app = Flask("bench_bare")

    def opened() -> sqlite3.Connection:
        conn = sqlite3.connect(path, check_same_thread=False)
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA synchronous = FULL")
        return conn

    first = opened()
    make_wal_room(first)
    idle: list[sqlite3.Connection] = [first]  # idle connections, lent to one request at a time
    lock = threading.Lock()

    def connection() -> sqlite3.Connection:
        if "conn" not in g:
            with lock:
                conn = idle.pop() if idle else None
            g.conn = conn if conn is not None else opened()
        return g.conn

    @app.teardown_appcontext
    def give_back(_exc: BaseException | None) -> None:
        conn = g.pop("conn", None)
        if conn is not None:
            with lock:
                idle.append(conn)

    @app.get("/")
    def page() -> str:
        return '<input type="hidden" name="csrf_token" value="none">'

    @app.post("/hit")
    def hit() -> str:
        conn = connection()
        cursor = conn.execute("INSERT INTO hits (key, at) VALUES (?, ?)", (request.form["key"], time.time()))
        conn.commit()
        return f'<div id="hit" data-seq="{cursor.lastrowid}">ok</div>'

    if os.environ.get("COMPANION_SERVER_TIMING") == "1":  # as the app's (``--server-timing``): split alike
        app.wsgi_app = ServerTiming(app.wsgi_app)  # type: ignore[method-assign]
    return app


def serve_gunicorn(path: Path, port: int) -> None:
    """One gevent worker, served by the app server's own ``serve_gunicorn`` (``companion.cli.serve``)."""
    companion_server.raise_open_files_limit()
    companion_server.serve_gunicorn("127.0.0.1", port, 1, make_app=lambda: bare_app(path), name="bench-bare")


def serve_waitress(path: Path, port: int, threads: int) -> None:
    """The threaded fallback, as ``companion serve --server waitress``."""
    from waitress import serve

    app = bare_app(path)
    companion_server.settle_collector()  # as the app's server does
    serve(app, host="127.0.0.1", port=port, threads=threads, _quiet=True)


if __name__ == "__main__":
    port_arg, db_arg = int(sys.argv[1]), Path(sys.argv[2])
    kind = sys.argv[3] if len(sys.argv) > 3 else "waitress"
    threads_arg = int(sys.argv[4]) if len(sys.argv) > 4 else 8
    sys.argv = sys.argv[:1]  # gunicorn reads the command line: leave it nothing of ours to parse
    if kind == "gunicorn":
        serve_gunicorn(db_arg, port_arg)
    else:
        serve_waitress(db_arg, port_arg, threads_arg)
