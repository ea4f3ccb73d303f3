"""The benchmark runs the app and its bare insert server on the server ``companion serve`` really uses, named
explicitly."""

from __future__ import annotations

import http.client
import os
from pathlib import Path

import pytest

from bench.served import bare_server, companion_server, server, server_kind
from companion.cli.serve import gunicorn_runs_here


def test_auto_is_what_companion_serve_picks() -> None:
    assert server_kind("auto") == ("gunicorn" if gunicorn_runs_here() else "waitress")
    assert server_kind("waitress") == "waitress"


def test_the_app_is_asked_for_its_server_by_name(tmp_path: Path) -> None:
    gunicorn = companion_server(tmp_path / "a.sqlite3", "gunicorn", 48)
    assert gunicorn[gunicorn.index("--server") + 1] == "gunicorn"
    assert gunicorn[gunicorn.index("--workers") + 1] == "1"
    assert "--threads" not in gunicorn  # waitress only: gunicorn would ignore it
    waitress = companion_server(tmp_path / "a.sqlite3", "waitress", 48)
    assert waitress[waitress.index("--server") + 1] == "waitress"
    assert waitress[waitress.index("--threads") + 1] == "48"


def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(entry.name))
    return found


@pytest.mark.skipif(not gunicorn_runs_here() or not os.path.isdir("/proc"), reason="gunicorn and /proc (Linux)")
def test_the_bare_peer_runs_on_gunicorn_with_one_worker(tmp_path: Path) -> None:
    argv = bare_server(tmp_path / "bare.sqlite3", "gunicorn", 8)
    with server(argv) as port:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        for expected in (1, 2):
            conn.request("POST", "/hit", body="key=k", headers={"Content-Type": "application/x-www-form-urlencoded"})
            answer = conn.getresponse()
            assert answer.status == 200
            assert f'data-seq="{expected}"' in answer.read().decode()
        conn.close()
        ours = {
            int(p.name)
            for p in Path("/proc").iterdir()
            if p.name.isdigit() and str(port).encode() in _cmdline(p) and b"bare_server.py" in _cmdline(p)
        }
        masters = [pid for pid in ours if set(_children(pid)) & ours]
        assert len(ours) == 2 and len(masters) == 1  # gunicorn's master and its one (forked) gevent worker


def _cmdline(proc: Path) -> bytes:
    try:
        return (proc / "cmdline").read_bytes()
    except OSError:
        return b""


@pytest.mark.parametrize("kind", ["gunicorn", "waitress"])
def test_the_app_and_its_bare_peer_both_start_with_room_in_their_wal(tmp_path: Path, kind: str) -> None:
    """``companion serve`` makes room in its log's WAL file when it starts, and the bare peer as well: each COMMIT of
    either writes over the file instead of growing it (like for like: ``events.sqlite.make_wal_room``)."""
    from events.sqlite import WAL_ROOM_BYTES

    if kind == "gunicorn" and not gunicorn_runs_here():
        pytest.skip("gunicorn does not run on this system")
    app_db, bare_db = tmp_path / "app.sqlite3", tmp_path / "bare.sqlite3"
    with server(companion_server(app_db, kind, 8)) as app_port, server(bare_server(bare_db, kind, 8)) as bare_port:
        for port, path in ((app_port, "/"), (bare_port, "/")):  # a first answer: the worker has made its app
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            conn.request("GET", path)
            assert conn.getresponse().status == 200
            conn.close()
        for db in (app_db, bare_db):
            wal = db.with_name(db.name + "-wal")
            assert wal.exists() and wal.stat().st_size >= WAL_ROOM_BYTES, db.name
