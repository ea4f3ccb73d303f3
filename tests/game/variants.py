"""Editions that differ from the shipped one in a few values: how tests show the rules follow the data."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from companion.editions import EDITIONS_DIR
from companion.game.edition import Edition, parse_edition

BASE = EDITIONS_DIR / "inferno-base.json"


def shipped_raw() -> dict[str, Any]:
    """The shipped edition file as plain JSON data."""
    data: dict[str, Any] = json.loads(BASE.read_text(encoding="utf-8"))
    return data


def variant(*changes: Callable[[dict[str, Any]], None]) -> Edition:
    """The shipped edition with ``changes`` applied to its data, parsed and validated."""
    raw = shipped_raw()
    for change in changes:
        change(raw)
    return parse_edition(json.dumps(raw))


def assume(name: str, value: bool) -> Callable[[dict[str, Any]], None]:
    """A change that switches one named assumption."""

    def change(raw: dict[str, Any]) -> None:
        raw["assumptions"][name] = value

    return change
