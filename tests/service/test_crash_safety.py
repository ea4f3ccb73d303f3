"""Crash safety: the server is killed (SIGKILL) while phones are writing; after a restart every
acknowledged action is in the log, and the log replays through the rules. Runs on both engines
(``store_url``: a SQLite file, then a PostgreSQL schema)."""

from __future__ import annotations

import http.client
import signal
import threading
import time
from pathlib import Path

from companion.editions import load_all
from companion.formats.export import export_game, replay_export
from companion.game.state import GameState
from companion.service import GameService
from events.factory import open_store
from testkit.live_client import api, free_port, start_server

ROOT = Path(__file__).resolve().parents[2]


def test_a_killed_server_loses_no_acknowledged_action(store_url: str) -> None:
    db = store_url
    port = free_port()
    server = start_server(db, port)
    status, game = api(
        port,
        "/api/v1/games",
        {"players": [{"name": "Ana", "colour": "crimson"}], "plague_card": [2], "idempotency_key": "crash-create-k01"},
    )
    assert status == 201
    acknowledged: list[str] = []
    lock = threading.Lock()
    stop = threading.Event()

    def writer(w: int) -> None:
        seq, n = game["seq"], 0
        while not stop.is_set():
            key = f"crash-w{w}-{n:05d}"
            try:
                status, body = api(
                    port,
                    f"/api/v1/games/{game['game_id']}/commands",
                    {
                        "expected_seq": seq,
                        "idempotency_key": key,
                        "command": {"type": "TakeLoan", "data": {"player": 0}},
                    },
                    game["write_token"],
                )
            except (OSError, http.client.HTTPException, ValueError):
                return  # the server is gone (perhaps mid-answer: a cut body is not acknowledged)
            if status == 200:
                with lock:
                    acknowledged.append(key)
                seq, n = body["seq"], n + 1
            elif status == 409:
                seq = body["seq"]

    threads = [threading.Thread(target=writer, args=(w,), daemon=True) for w in range(4)]
    for t in threads:
        t.start()
    deadline = time.monotonic() + 20
    while len(acknowledged) < 40 and time.monotonic() < deadline:
        time.sleep(0.02)
    server.send_signal(signal.SIGKILL)  # mid-write, no chance to clean up
    server.wait(10)
    stop.set()
    for t in threads:
        t.join(10)
    assert len(acknowledged) >= 40

    restarted = start_server(db, port)
    try:
        status, answer = api(
            port,
            f"/api/v1/games/{game['game_id']}/undo",
            {"expected_seq": -1, "idempotency_key": "x" * 8},
            game["write_token"],
        )
        assert status in (400, 409, 422)  # the restarted server answers for the game
        assert answer.get("code"), answer
    finally:
        restarted.send_signal(signal.SIGTERM)
        restarted.wait(10)

    service = GameService(open_store(db), load_all())
    exported = export_game(service, game["game_id"])
    keys = {r.idempotency_key for r in service.store.read(game["game_id"]) if r.idempotency_key}
    missing = [k for k in acknowledged if k not in keys]
    assert missing == []
    _edition, final, breach = replay_export(exported)
    assert breach is None and isinstance(final, GameState)
    assert final.p[0].ship == min(len(keys) - 1, 6)  # every recorded loan moved the Ship (6 is the last space)
