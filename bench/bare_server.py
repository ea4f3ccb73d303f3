"""The benchmark's peer for a recorded action: a bare Flask endpoint doing one durable SQLite insert.

Run as ``python bench/bare_server.py PORT DB``; served by waitress on 127.0.0.1, like the app.
"""

from __future__ import annotations

import sqlite3
import sys
import time
from pathlib import Path

from flask import Flask, g, request
from waitress import serve


def bare_app(path: Path) -> Flask:
    """One durable SQLite insert per POST (WAL, synchronous=FULL, a connection per request)."""
    setup = sqlite3.connect(path)
    setup.execute("PRAGMA journal_mode = WAL")
    setup.execute("CREATE TABLE IF NOT EXISTS hits (id INTEGER PRIMARY KEY, key TEXT NOT NULL, at REAL NOT NULL)")
    setup.commit()
    setup.close()
    app = Flask("bench_bare")

    def connection() -> sqlite3.Connection:
        if "conn" not in g:
            conn = sqlite3.connect(path)
            conn.execute("PRAGMA journal_mode = WAL")
            conn.execute("PRAGMA synchronous = FULL")
            g.conn = conn
        return g.conn  # type: ignore[no-any-return]

    @app.teardown_appcontext
    def close(_exc: BaseException | None) -> None:
        conn = g.pop("conn", None)
        if conn is not None:
            conn.close()

    @app.get("/")
    def page() -> str:
        return '<input type="hidden" name="csrf_token" value="none">'

    @app.post("/hit")
    def hit() -> str:
        conn = connection()
        cursor = conn.execute("INSERT INTO hits (key, at) VALUES (?, ?)", (request.form["key"], time.time()))
        conn.commit()
        return f'<div id="hit" data-seq="{cursor.lastrowid}">ok</div>'

    return app


if __name__ == "__main__":
    serve(bare_app(Path(sys.argv[2])), host="127.0.0.1", port=int(sys.argv[1]), threads=8, _quiet=True)
