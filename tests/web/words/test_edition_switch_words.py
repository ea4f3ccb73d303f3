"""Each difference between two editions told as a player reads it on the components, in English and
Spanish, never as a JSON path, a dict or a code."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from flask import Flask

from companion.editions import load_all
from companion.editions.diff import diff
from companion.web.words.edition_switch import tell_difference

SHIPPED: dict[str, Any] = next(iter(load_all().values()))[1].raw


def _told(app: Flask, other: dict[str, Any], language: str = "en") -> list[str]:
    with app.test_request_context("/", headers={"Accept-Language": language}):
        return [tell_difference(d, other) for d in diff(SHIPPED, other)]


def _copy() -> dict[str, Any]:
    return json.loads(json.dumps(SHIPPED))


def test_the_examples_of_the_issue_read_as_on_the_board(app: Flask) -> None:
    other = _copy()
    other["circles"][2]["infamy"] = 3
    other["phlegethon"]["scale"] = [1, 2, 3, 5, 8]
    row = other["sides"][0]["circles"]["2"]
    row[1]["quarter"], row[3]["quarter"] = row[3]["quarter"], row[1]["quarter"]
    other["sides"][0]["lines"]["2b"].append("3d")
    told = _told(app, other)
    assert "Circle 3: infamy: 2 → 3" in told
    assert "Phlegethon track: 1 2 3 4 5 → 1 2 3 5 8" in told
    assert "Shield 2B shows the Eagle, not the Cross" in told
    assert "A line from 2B down to 3D added" in told
    spanish = _told(app, other, "es")
    assert "El escudo 2B muestra Águila, no Cruz" in spanish
    assert "Marcador del Flegetonte: 1 2 3 4 5 → 1 2 3 5 8" in spanish


CODE = re.compile(r"\[\d|\{|_|\bNone\b|\bTrue\b|\bFalse\b|#[0-9a-f]{6}\b|\w+\.\w+\[")


def _one_value_variants() -> list[tuple[str, dict[str, Any]]]:
    """The shipped file with one number, list or word changed, for each section value."""
    out = []
    for section, values in SHIPPED.items():
        if not isinstance(values, dict) or section in ("sides",):
            continue
        for key, value in values.items():
            if key in ("source", "note", "notes") or key.endswith("_source"):
                continue
            other = _copy()
            if isinstance(value, bool):
                other[section][key] = not value
            elif isinstance(value, int):
                other[section][key] = value + 1
            elif isinstance(value, list) and value and all(isinstance(v, int) for v in value):
                other[section][key] = [*value[:-1], value[-1] + 1]
            elif isinstance(value, dict):
                inner = next((k for k, v in value.items() if isinstance(v, int) and not isinstance(v, bool)), None)
                if inner is None:
                    continue
                other[section][key] = {**value, inner: value[inner] + 1}
            else:
                continue
            out.append((f"{section}.{key}", other))
    return out


@pytest.mark.parametrize("language", ["en", "es"])
def test_no_difference_is_told_as_code(app: Flask, language: str) -> None:
    bad = []
    for name, other in _one_value_variants():
        for sentence in _told(app, other, language):
            if CODE.search(sentence):
                bad.append((name, sentence))
    assert bad == []
