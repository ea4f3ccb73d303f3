"""A real app on a temp SQLite file (through the test client, or served on a real socket), and a helper
that plays it through the test client."""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.web import create_app
from testkit.live_client import serving
from tests.builders import found

HX = {"HX-Request": "true"}


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Flask]:
    yield create_app(
        {"TESTING": True, "DATABASE": str(tmp_path / "web.sqlite3"), "SECRET_KEY": "test", "WTF_CSRF_ENABLED": False}
    )


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[str, int]]:
    """A fresh app served on 127.0.0.1 in a thread, for tests that need a real socket: its address."""
    app = create_app({"DATABASE": str(tmp_path / "served.sqlite3"), "SECRET_KEY": "t", "WTF_CSRF_ENABLED": False})
    with serving(app) as address:
        yield address


def at_once(count: int, act: Callable[[int], None]) -> None:
    """``act(0)`` to ``act(count - 1)``, each in a thread of its own, all started before any is awaited."""
    threads = [threading.Thread(target=act, args=(i,)) for i in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(20)


class Phone:
    """One phone at the table: reads the page and submits its forms."""

    def __init__(self, client: FlaskClient) -> None:
        self.client = client
        self.url = ""
        self.html = ""

    def create(self, names=("Ana", "Ben"), plague=("2", "3", "5", "1"), **extra: Any) -> Phone:
        colours = ["crimson", "navy", "forest", "gold"]
        data = {
            "key": "create-key-0001",
            "name": list(names),
            "colour": colours[: len(names)],
            "plague": list(plague),
            "layout": "default",
            **extra,
        }
        response = self.client.post("/games", data=data)
        assert response.status_code == 303, response.data
        self.url = response.headers["Location"]
        return self.open()

    def open(self) -> Phone:
        response = self.client.get(self.url)
        assert response.status_code == 200
        self.html = response.data.decode()
        return self

    @property
    def seq(self) -> int:
        return int(found(r'data-seq="(\d+)"', self.html).group(1))

    def post(
        self, action: str, data: dict[str, Any], *, htmx: bool = True, key: str | None = None, seq: int | None = None
    ) -> Any:
        payload = {"seq": self.seq if seq is None else seq, "key": key or f"key-{action}-{self.seq}-x", **data}
        response = self.client.post(f"{self.url}/{action}", data=payload, headers=HX if htmx else {})
        if response.status_code in (200, 400, 403, 409, 422):
            self.html = response.data.decode()
        return response

    def florence(self, player: int, location: str, kind: str = "noble") -> Any:
        """A Florence action: send a member to ``location`` (in the turn's quarter)."""
        return self.post("send", {"player": player, "kind": kind, "location": location})

    def end_turn(self, player: int, location: str) -> Any:
        """Send a member to ``location``, then end the turn."""
        self.florence(player, location)
        return self.post("end-turn", {"player": player})

    def stat(self, player: int, name: str) -> int:
        values = re.findall(rf'data-stat="{name}">(-?\d+)<', self.html)
        return int(values[player])


@pytest.fixture
def phone(client: FlaskClient) -> Phone:
    return Phone(client)


# --- tables set up the same way for several tests (each says where it leaves the game) ---------


def broke_ana(phone: Phone) -> None:
    """Ana spends her 3 drachmas (Charon, then a bribe); on her next turn Charon needs a loan."""
    phone.create(plague=("9", "3", "2", "5"))
    phone.post("bring", {"player": 0, "colour": 9, "shield": "1b"})
    phone.post("send", {"player": 0, "kind": "noble", "location": "banquet", "bribe": "1"})
    phone.post("end-turn", {"player": 0})
    phone.post("bring", {"player": 1, "colour": 3, "shield": "1a"})
    phone.end_turn(1, "banquet")
    assert phone.stat(0, "drachmas") == 0


def ben_holds_a_bell(phone: Phone) -> None:
    """A Plutus & Phlegyas game at Ben's second turn, with the Bell Phlegyas gave him at the Bonfire:
    souls on 1A (blue), 1D (purple) and 1B (green); the plague deck is exhausted."""
    phone.create(names=("Ana", "Ben"), plague=("5", "2", "3"), expansion="1")
    phone.post("bring", {"player": 0, "colour": 5, "shield": "1a"})
    phone.florence(0, "banquet")
    phone.post("end-turn", {"player": 0})
    phone.post("bring", {"player": 1, "colour": 2, "shield": "1d"})  # 1D shows the Lily: the Bonfire
    phone.florence(1, "bonfire")
    phone.post("location/guardian", {"player": 1, "guardian": "phlegyas"})
    phone.post("end-turn", {"player": 1})
    phone.post("bring", {"player": 0, "colour": 3, "shield": "1b"})
    phone.post("plague", {"player": 0, "deck_empty": "1"})
    phone.end_turn(0, "bank")
