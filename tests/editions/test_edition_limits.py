"""Numbers no board can hold, ids that name nothing and hostile JSON are refused by the edition
validator, each with its code, the entry it names and, for a number, its range."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from companion.editions import EDITIONS_DIR
from companion.game.edition import MAX_SHIELDS_PER_CIRCLE, EditionError, parse_edition

TEXT = (EDITIONS_DIR / "inferno-base.json").read_text(encoding="utf-8")


def shipped() -> dict[str, Any]:
    raw: dict[str, Any] = json.loads(TEXT)
    return raw


def refused(change: Callable[[dict[str, Any]], object]) -> EditionError:
    raw = shipped()
    change(raw)
    with pytest.raises(EditionError) as info:
        parse_edition(json.dumps(raw))
    return info.value


def _set(path: tuple[Any, ...], value: Any) -> Callable[[dict[str, Any]], None]:
    def change(raw: dict[str, Any]) -> None:
        holder: Any = raw
        for step in path[:-1]:
            holder = holder[step]
        holder[path[-1]] = value

    return change


def _too_many_shields(raw: dict[str, Any]) -> None:
    row = raw["sides"][0]["circles"]["9"]
    row += [{"id": f"9x{i}", "quarter": "lily"} for i in range(MAX_SHIELDS_PER_CIRCLE)]


CASES: list[tuple[str, Callable[[dict[str, Any]], object], str, tuple[Any, ...], dict[str, Any]]] = [
    ("negative infamy", _set(("circles", 2, "infamy"), -1), "out_of_range", ("circles", 2, "infamy"), {"min": 0}),
    ("10^26 florins", _set(("economy", "start_florins"), 10**26), "out_of_range", ("economy", "start_florins"), {}),
    (
        "florins beyond the purse",
        _set(("economy", "start_florins"), 98 + 2),
        "start_beyond_purse",
        ("economy", "start_florins"),
        {"max": 99},
    ),
    ("empty tower", _set(("tower", "heights"), []), "too_few", ("tower", "heights"), {"min": 1}),
    ("tower start above it", _set(("tower", "start_floors"), 6), "tower_start", ("tower", "start_floors"), {"max": 5}),
    ("a side with no gate", _set(("sides", 0, "gates"), []), "no_gate", ("sides", 0, "gates"), {}),
    (
        "too many shields",
        _too_many_shields,
        "too_many_shields",
        ("sides", 0, "circles", "9"),
        {"max": MAX_SHIELDS_PER_CIRCLE},
    ),
    ("absurd track", _set(("tracks", "length"), 10_000), "out_of_range", ("tracks", "length"), {"max": 20}),
    (
        "absurd loan track",
        _set(("loan_track", "penalties"), [0] * 1000),
        "too_many",
        ("loan_track", "penalties"),
        {"max": 20},
    ),
    (
        "absurd Phlegethon",
        _set(("phlegethon", "scale"), list(range(1, 500))),
        "too_many",
        ("phlegethon", "scale"),
        {},
    ),
    ("guest colour x", _set(("guests", "colours"), [6, "x", 8, 9]), "not_integer", ("guests", "colours", 1), {}),
    ("guest colour 12", _set(("guests", "colours"), [6, 12]), "out_of_range", ("guests", "colours", 1), {"max": 9}),
    ("a float infamy", _set(("circles", 0, "infamy"), 1.5), "not_integer", ("circles", 0, "infamy"), {}),
    ("a bool infamy", _set(("circles", 0, "infamy"), True), "not_integer", ("circles", 0, "infamy"), {}),
    (
        "unknown default guardian",
        _set(("default_guardians", "ids"), ["medusa", "nobody"]),
        "unknown_guardian",
        ("default_guardians", "ids", 1),
        {"guardian": "nobody"},
    ),
    (
        "unknown layout location",
        _set(("default_layout", "quarters", "lily"), ["haystack", "nowhere"]),
        "unknown_location",
        ("default_layout", "quarters", "lily", 1),
        {},
    ),
    (
        "unknown layout quarter",
        lambda raw: raw["default_layout"]["quarters"].update({"moon": raw["default_layout"]["quarters"].pop("lily")}),
        "unknown_quarter",
        ("default_layout", "quarters", "moon"),
        {},
    ),
    ("an id with CR LF", _set(("id",), "base\r\nx"), "bad_slug", ("id",), {}),
    ("an id with a quote", _set(("id",), 'a"b'), "bad_slug", ("id",), {}),
    ("an id with a newline at the end", _set(("id",), "base\n"), "bad_slug", ("id",), {}),
    ("an empty name", _set(("name",), ""), "bad_name", ("name",), {}),
    ("a name with a control character", _set(("name",), "Our\x07copy"), "bad_name", ("name",), {}),
    ("a name of 61 characters", _set(("name",), "x" * 61), "text_too_long", ("name",), {"max": 60}),
    (
        "checks not dates",
        _set(("checks",), {"circles[2].infamy": "yesterday"}),
        "bad_date",
        ("checks", "circles[2].infamy"),
        {},
    ),
    (
        "checks 2026-02-30",
        _set(("checks",), {"tower.heights": "2026-02-30"}),
        "bad_date",
        ("checks", "tower.heights"),
        {},
    ),
    ("imported without from", _set(("imported",), {"on": "2026-01-02"}), "missing", ("imported",), {"key": "from"}),
    (
        "a start beyond the scale",
        _set(("phlegethon", "start", "5"), 9),
        "off_the_scale",
        ("phlegethon", "start", "5"),
        {"max": 4},
    ),
    (
        "negative loan penalty",
        _set(("loan_track", "penalties"), [0, -3]),
        "out_of_range",
        ("loan_track", "penalties", 1),
        {},
    ),
    ("a supply key that is no circle", _set(("souls", "supply", "x"), 3), "out_of_range", ("souls", "supply", "x"), {}),
    ("a line that is a number", _set(("sides", 0, "lines", "1a"), 0), "not_list", ("sides", 0, "lines", "1a"), {}),
    ("no colour for 4 players", _set(("players", "colours"), []), "too_few", ("players", "colours"), {}),
    ("5 players", _set(("players", "max"), 5), "out_of_range", ("players", "max"), {"max": 4}),
    (
        "a note nested 200 deep",
        _set(("tower", "note"), json.loads("[" * 200 + "]" * 200)),
        "too_deep",
        ("tower", "note"),
        {"max": 8},
    ),
    (
        "a shield holding a deep value",
        _set(("sides", 0, "circles", "1", 0, "x"), json.loads("[" * 50 + "]" * 50)),
        "too_deep",
        ("sides", 0, "circles", "1", 0, "x"),
        {},
    ),
    # Found by the "every accepted edition plays" property test: a loan of 0 drachmas never pays a debt.
    (
        "a loan of nothing",
        _set(("economy", "loan_drachmas"), 0),
        "out_of_range",
        ("economy", "loan_drachmas"),
        {"min": 1},
    ),
]


@pytest.mark.parametrize(("change", "code", "where", "params"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_a_number_or_id_no_board_can_hold_is_refused_naming_it(
    change: Callable[[dict[str, Any]], object], code: str, where: tuple[Any, ...], params: dict[str, Any]
) -> None:
    error = refused(change)
    assert (error.code, error.where) == (code, where), str(error)
    assert params.items() <= error.params.items()
    for key in ("min", "max"):
        if key in error.params:
            assert str(error.params[key]) in str(error), "a number's range is in the sentence"


@pytest.mark.parametrize(
    ("text", "code"),
    [
        (TEXT.replace('"infamy": 1,', '"infamy": NaN,', 1), "not_a_number"),
        (TEXT.replace('"infamy": 1,', '"infamy": Infinity,', 1), "not_a_number"),
        (TEXT.replace('"infamy": 1,', '"infamy": -Infinity,', 1), "not_a_number"),
        (TEXT.replace('"infamy": 1,', '"infamy": 1e400,', 1), "not_a_number"),
        (TEXT.replace('"infamy": 1,', '"infamy": 1, "infamy": 1,', 1), "duplicate_key"),
        (TEXT.replace('"format": ', '"format": "x", "format": ', 1), "duplicate_key"),
        (TEXT + " " * (512 * 1024), "too_large"),
        ("{oops", "not_json"),
        ("[" * 100_000 + "]" * 100_000, "too_deep"),
        ("[1, 2]", "not_object"),
    ],
    ids=[
        "nan",
        "infinity",
        "minus-infinity",
        "1e400",
        "duplicate-key",
        "duplicate-top-key",
        "too-large",
        "not-json",
        "deep",
        "list",
    ],
)
def test_hostile_json_is_refused(text: str, code: str) -> None:
    with pytest.raises(EditionError) as info:
        parse_edition(text)
    assert info.value.code == code, str(info.value)


def test_a_bom_is_accepted_and_the_hash_is_of_the_exact_text() -> None:
    edition = parse_edition("\ufeff" + TEXT)
    assert edition.id == "inferno-base"
    assert edition.content_hash != parse_edition(TEXT).content_hash


def test_the_editor_and_library_keys_are_allowed() -> None:
    raw = shipped()
    raw["checks"] = {"circles[2].infamy": "2026-11-30", "sides[0].circles['3']": "2026-12-01"}
    raw["imported"] = {"from": "Ana's table", "on": "2026-12-01"}
    assert parse_edition(json.dumps(raw)).raw["imported"]["from"] == "Ana's table"


def test_a_file_name_prefix_keeps_the_structure() -> None:
    error = refused(_set(("circles", 2, "infamy"), -1)).retold("mine.json")
    assert str(error).startswith("mine.json: circles[2].infamy: ")
    assert (error.code, error.where, error.params["value"]) == ("out_of_range", ("circles", 2, "infamy"), -1)
