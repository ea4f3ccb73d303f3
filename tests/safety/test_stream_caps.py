"""Issue 26, item 5: one client, one game and one worker hold only so many live streams; beyond, a 503
with ``Retry-After``, while page loads and writes are answered. Over a real socket; clients told
apart by their forwarded address (one trusted proxy)."""

from __future__ import annotations

import http.client
import json
from pathlib import Path
from typing import Any

from companion.cli.serve import WORKER_CONNECTIONS
from companion.web import create_app
from companion.web.live.stream import STREAMS_PER_WORKER
from testkit.live_client import Stream, serving

CREATE = {
    "players": [{"name": "Ana", "colour": "crimson"}, {"name": "Ben", "colour": "navy"}],
    "plague_card": [2, 3, 5],
    "random_florence": False,
}


def call(addr: tuple[str, int], method: str, path: str, body: Any = None, **headers: str) -> tuple[int, dict[str, str]]:
    conn = http.client.HTTPConnection(*addr, timeout=10)
    data = json.dumps(body) if body is not None else None
    conn.request(method, path, body=data, headers={**({"Content-Type": "application/json"} if data else {}), **headers})
    response = conn.getresponse()
    status, got = response.status, dict(response.getheaders())
    response.read() if status != 200 or "event-stream" not in got.get("Content-Type", "") else None
    conn.close()
    return status, got


def from_client(ip: str) -> dict[str, str]:
    return {"X-Forwarded-For": ip}


def test_streams_are_capped_per_client_per_game_and_per_worker_and_pages_stay_answered(tmp_path: Path) -> None:
    app = create_app(
        {
            "DATABASE": str(tmp_path / "caps.sqlite3"),
            "SECRET_KEY": "t",
            "WTF_CSRF_ENABLED": False,
            "PROXY_HOPS": 1,
            "LIVE_STREAMS_PER_CLIENT": 3,
            "LIVE_STREAMS_PER_GAME": 5,
            "LIVE_STREAMS_PER_WORKER": 7,
        }
    )
    opened: list[Stream] = []
    with serving(app) as addr:
        games = []
        for i in range(2):
            conn = http.client.HTTPConnection(*addr, timeout=10)
            conn.request(
                "POST",
                "/api/v1/games",
                json.dumps({**CREATE, "idempotency_key": f"caps-create-{i:06d}"}),
                {"Content-Type": "application/json"},
            )
            games.append(json.loads(conn.getresponse().read()))
            conn.close()
        link = f"/v/{games[0]['read_token']}/events"
        try:
            opened += [Stream(*addr, link, from_client("10.0.0.1")) for _ in range(3)]
            status, headers = call(addr, "GET", link, **from_client("10.0.0.1"))  # a 4th from one client
            assert status == 503 and int(headers["Retry-After"]) > 0
            opened += [Stream(*addr, link, from_client("10.0.0.2")) for _ in range(2)]
            status, headers = call(addr, "GET", link, **from_client("10.0.0.3"))  # a 6th on one game
            assert status == 503 and int(headers["Retry-After"]) > 0
            other = f"/v/{games[1]['read_token']}/events"
            opened += [Stream(*addr, other, from_client(f"10.0.1.{i}")) for i in range(2)]
            status, _ = call(addr, "GET", other, **from_client("10.0.2.1"))  # an 8th in the worker
            assert status == 503
            # Pages and writes are answered all the while.
            assert call(addr, "GET", f"/v/{games[0]['read_token']}", **from_client("10.0.0.1"))[0] == 200
            assert call(addr, "GET", "/", **from_client("10.0.0.1"))[0] == 200
            loan = {
                "expected_seq": games[0]["seq"],
                "idempotency_key": "caps-loan-0001",
                "command": {"type": "TakeLoan", "data": {"player": 0}},
            }
            wrote, _ = call(
                addr,
                "POST",
                f"/api/v1/games/{games[0]['game_id']}/commands",
                loan,
                Authorization=f"Bearer {games[0]['write_token']}",
                **from_client("10.0.0.1"),
            )
            assert wrote == 200
        finally:
            for stream in opened:
                stream.close()


def test_the_worker_keeps_connections_for_pages_beyond_its_streams() -> None:
    assert WORKER_CONNECTIONS - STREAMS_PER_WORKER >= 500
