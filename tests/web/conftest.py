"""A real app on a temp SQLite file, and a helper that plays it through the test client."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.web import create_app

HX = {"HX-Request": "true"}


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Flask]:
    yield create_app(
        {"TESTING": True, "DATABASE": str(tmp_path / "web.sqlite3"), "SECRET_KEY": "test", "WTF_CSRF_ENABLED": False}
    )


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


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
        return int(re.search(r'data-seq="(\d+)"', self.html).group(1))

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
