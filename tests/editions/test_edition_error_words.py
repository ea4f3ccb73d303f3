"""A refused edition in words, in English and Spanish: every code the validator can raise has a
sentence in both languages, and every place of the file is named as the physical game names it,
with no JSON path, underscore word or Python value left."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask_babel import force_locale

from companion.editions import EDITIONS_DIR
from companion.game.edition import ERROR_CODES, EditionError, parse_edition
from companion.web import create_app
from companion.web.words.edition_errors import SENTENCES, edition_error_text, where_in_words
from tests.editions.test_edition_mutants import places

SHIPPED: dict[str, Any] = json.loads((EDITIONS_DIR / "inferno-base.json").read_text(encoding="utf-8"))
CODE_LIKE = re.compile(r"\w+_\w+|[\[\]{}]|\?|'[^ ]*'|\bNone\b|\bTrue\b|\bFalse\b")

# Typical parameters of each code, as the validator gives them.
PARAMS: dict[str, dict[str, Any]] = {
    "too_large": {"max_kb": 512},
    "not_json": {"line": 1, "column": 2},
    "not_a_number": {"value": "NaN"},
    "duplicate_key": {"key": "infamy"},
    "wrong_format": {"value": "'x'"},
    "wrong_version": {"value": "3"},
    "missing": {"key": "infamy"},
    "out_of_range": {"value": -1, "min": 0, "max": 99},
    "too_few": {"min": 1, "count": 0},
    "too_many": {"max": 20, "count": 1000},
    "text_too_long": {"max": 60},
    "duplicate_id": {"id": "1a"},
    "unknown_circle": {"circles": ["10"]},
    "unknown_quarter": {"quarter": "moon", "shield": "1a"},
    "unknown_shield": {"shield": "3z"},
    "unknown_guardian": {"guardian": "nobody"},
    "unknown_location": {"location": "nowhere"},
    "unknown_colour": {"colour": "brown"},
    "unknown_tie_breaker": {"breakers": ["most_florins"]},
    "wrong_circles": {"found": [1, 2], "expected": [1, 2, 3, 4, 5, 6, 7, 8, 9]},
    "no_shields": {"circle": 9},
    "too_many_shields": {"max": 8, "count": 10_000},
    "lacks_quarter": {"circle": 2, "quarters": ["key"]},
    "line_not_one_down": {"origin": "1a", "target": "3a", "from": 1, "to": 3},
    "no_line_down": {"shield": "8d"},
    "gate_off_wall": {"shield": "5a", "circle": 6},
    "wall_not_adjacent": {"upper": 5, "lower": 7},
    "no_side": {"players": 3},
    "too_few_colours": {"count": 2, "players": 4},
    "location_per_track": {"found": [2, 3], "tracks": [2, 3, 4]},
    "loan_start_not_free": {"value": 1},
    "no_minimum_space": {"value": 9},
    "off_the_scale": {"value": 9, "min": 0, "max": 4},
    "bonus_tiles": {"silver": 4, "gold": 5, "tracks": 8},
    "no_dante_path": {"players": 3},
    "step_off_path": {"value": 40, "max": 15},
    "step_needs_track": {"kind": "diploma"},
    "track_group": {"circle": 1},
    "tower_start": {"value": 6, "max": 5},
    "min_above_max": {"min": 4, "max": 1},
    "start_beyond_purse": {"value": 100, "max": 99},
    "guardians_count": {"count": 3, "wanted": 2},
    "guardians_share_shield": {"first": "medusa", "second": "minotaur", "side": 0},
    "plague_card": {"value": 7, "max": 6},
    "urchins_at_home": {"value": 5, "max": 4},
}


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Flask]:
    yield create_app({"TESTING": True, "DATABASE": str(tmp_path / "w.sqlite3"), "SECRET_KEY": "test"})


def _both(app: Flask, fn: Any, *args: Any) -> tuple[str, str]:
    with app.test_request_context():
        with force_locale("en"):
            english = fn(*args)
        with force_locale("es"):
            spanish = fn(*args)
    return english, spanish


def test_every_code_the_validator_raises_has_a_sentence() -> None:
    assert set(SENTENCES) == set(ERROR_CODES)


@pytest.mark.parametrize("code", ERROR_CODES)
def test_every_code_is_said_in_english_and_spanish_with_no_code_left(app: Flask, code: str) -> None:
    error = EditionError("English for the logs", code, ("circles", 2, "infamy"), PARAMS.get(code, {}))
    english, spanish = _both(app, edition_error_text, error, SHIPPED)
    for text in (english, spanish):
        assert not CODE_LIKE.search(text), text
        assert "%(" not in text and text[:1].isupper(), text
    assert english != spanish, f"{code} is said in English on a Spanish page: {english}"


def test_every_place_of_the_file_is_named_in_words(app: Flask) -> None:
    for path in places(SHIPPED):
        english, spanish = _both(app, where_in_words, path, SHIPPED)
        for text in (english, spanish):
            assert text and not CODE_LIKE.search(text), (path, text)


def test_the_entry_is_named_as_the_game_names_it(app: Flask) -> None:
    cases = {
        ("circles", 2, "infamy"): "circle 3, its infamy",
        ("sides", 1, "circles", "3", 0): "the board side for 3–4 players, circle 3, its first shield",
        ("sides", 0, "lines", "1a"): "the board side for 1–2 players, the lines down from shield 1A",
        ("guardians", 0, "start", "circle"): "Medusa's card, where it starts, its circle",
        ("economy", "start_florins"): "the starting purse, its florins",
        ("phlegethon", "scale", 4): "the Phlegethon track, space 5",
        ("phlegethon", "start", "5"): "the Phlegethon track, where the cube of circle 5 starts",
        ("loan_track", "penalties"): "the loan track, the infamy lost on each space",
        ("dante", "paths", "3"): "Dante's track, the path for 3 players",
        ("tower", "heights"): "the tower, the height of each floor",
        ("expansion", "plutus", "position"): "Plutus's card, its place in the row",
        ("checks", "circles[2].infamy"): "the check marks",
        (): "the file",
    }
    with app.test_request_context(), force_locale("en"):
        said = {path: where_in_words(path, SHIPPED) for path in cases}
    assert said == cases


def test_a_refusal_names_the_entry_and_its_range_in_spanish(app: Flask) -> None:
    raw = json.loads(json.dumps(SHIPPED))
    raw["circles"][2]["infamy"] = -1
    with pytest.raises(EditionError) as info:
        parse_edition(json.dumps(raw))
    english, spanish = _both(app, edition_error_text, info.value, raw)
    assert english == "Circle 3, its infamy: -1 is not possible; it must be from 0 to 99."
    assert "círculo 3" in spanish.lower() and "-1" in spanish and "99" in spanish


def test_a_missing_key_is_named_in_words(app: Flask) -> None:
    raw = json.loads(json.dumps(SHIPPED))
    del raw["tower"]["heights"]
    with pytest.raises(EditionError) as info:
        parse_edition(json.dumps(raw))
    english, _spanish = _both(app, edition_error_text, info.value, raw)
    assert english == "Missing: the tower, the height of each floor."


def test_the_errors_of_the_files_variants_are_said_in_words(app: Flask) -> None:
    """Every seventh variant of item 1's enumeration: its refusal in both languages has no code left."""
    from tests.editions.test_edition_mutants import mutant, variants

    said = 0
    for n, (path, value) in enumerate(variants()):
        if n % 7:
            continue
        text = mutant(path, value)
        try:
            parse_edition(text)
        except EditionError as exc:
            raw = json.loads(text)
            english, spanish = _both(app, edition_error_text, exc, raw)
            for words in (english, spanish):
                assert not CODE_LIKE.search(words), (path, value, words)
            said += 1
    assert said > 500
