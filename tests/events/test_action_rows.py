"""One function makes every row of the log (``events.store.action_rows``): appends, imports and
restored copies store the same text on both engines, and a copy that is not made of actions is
refused whole rather than stored otherwise than it was."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import fields, replace

import pytest

from events.factory import open_store
from events.store import EVENT_COLUMNS, NewEvent, Store, StoredEvent, UnknownGame, action_rows, stored_event


def evt(n: int) -> NewEvent:
    return NewEvent("InfamyChanged", 1, {"reason": "test", "amount": n, "player": 0})


@pytest.fixture
def store(store_url: str) -> Iterator[Store]:
    s = open_store(store_url)
    yield s
    s.close()


def test_an_action_numbers_its_rows_and_only_its_first_carries_key_command_and_actor() -> None:
    rows = action_rows("g", 4, [evt(1), evt(2)], "2026-01-01T00:00:00.000+00:00", "k", {"type": "X", "b": 1}, "seat-0")
    named = [dict(zip(EVENT_COLUMNS, row, strict=True)) for row in rows]
    assert [(r["seq"], r["action"]) for r in named] == [(4, 4), (5, 4)]
    assert (named[0]["idempotency_key"], named[0]["command"], named[0]["actor"]) == (
        "k",
        '{"b": 1, "type": "X"}',
        "seat-0",
    )
    assert (named[1]["idempotency_key"], named[1]["command"], named[1]["actor"]) == (None, None, None)
    assert named[0]["data"] == '{"amount":1,"player":0,"reason":"test"}'  # compact, sorted: the same text everywhere
    assert {r["recorded_at"] for r in named} == {"2026-01-01T00:00:00.000+00:00"}


def test_a_copied_action_keeps_one_time_per_row() -> None:
    rows = action_rows("g", 1, [evt(1), evt(2)], ["t1", "t2"])
    assert [row[6] for row in rows] == ["t1", "t2"]
    with pytest.raises(ValueError):
        action_rows("g", 1, [evt(1), evt(2)], ["t1"])


def _copy_of(store: Store) -> tuple[dict[str, object], list[StoredEvent]]:
    store.create_game("src", "game", "h" * 64, ("r", "w"), [evt(0)], "create", {"type": "C", "data": {}}, "seat-0")
    store.append("src", 1, [evt(1), evt(2), evt(3)], "k1", {"type": "X", "data": {}}, "seat-1")
    meta, rows = store.game("src"), store.read("src")
    return {**meta, "game_id": "copy", "join_code": None}, rows


def test_a_restored_game_reads_back_exactly_as_it_was_times_included(store: Store) -> None:
    meta, rows = _copy_of(store)
    rows[2] = replace(rows[2], recorded_at="2020-01-01T00:00:00.000+00:00")  # a follower with its own time
    store.restore_game(meta, rows)
    assert store.read("copy") == rows


@pytest.mark.parametrize(
    "spoil",
    [
        lambda rows: [*rows[:2], replace(rows[2], actor="someone")],  # a follower carrying an actor
        lambda rows: [*rows[:2], replace(rows[2], seq=9), rows[3]],  # a gap in the numbering
        lambda rows: [rows[0], replace(rows[1], action=1), *rows[2:]],  # an action whose head is another's
    ],
)
def test_rows_that_do_not_form_actions_are_refused_and_nothing_is_stored(
    store: Store, spoil: Callable[[list[StoredEvent]], list[StoredEvent]]
) -> None:
    meta, rows = _copy_of(store)
    with pytest.raises(ValueError):
        store.restore_game(meta, spoil(rows))
    with pytest.raises(UnknownGame):
        store.game("copy")


def test_an_import_and_an_append_store_the_same_text(store: Store) -> None:
    command = {"type": "X", "data": {"z": 1, "a": [1, 2]}}
    store.create_game("a", "game", "h" * 64, ("r", "w"), [evt(0)], "create-a", command)
    exported = json.loads(json.dumps([vars(row) for row in store.read("a")]))  # as an export file has them
    store.import_game("b", "game", "h" * 64, ("r2", "w2"), exported)
    appended, imported = store.read("a"), store.read("b")
    assert [replace(r, idempotency_key=None) for r in appended] == imported


def test_a_row_filled_directly_is_the_row_its_init_makes() -> None:
    """``stored_event`` (what a read and an append's kept rows use) fills every field ``StoredEvent`` has: a field
    added to the row and left out there would make rows without it."""
    values = (7, 6, "InfamyChanged", 1, {"amount": 2}, "2026-01-01T00:00:00.000+00:00", "k", {"type": "X"}, "seat-0")
    direct = stored_event(*values)
    assert direct == StoredEvent(*values)
    assert list(vars(direct)) == [f.name for f in fields(StoredEvent)]


def test_an_events_text_is_the_json_its_row_stores_and_reads_back_as_its_data() -> None:
    """``NewEvent.text`` is written once and is what the row holds: the data, keys sorted, compact."""
    event = NewEvent("CoinsGained", 1, {"player": 1, "amount": 3, "kind": "florins", "why": ["bonus", None]})
    (row,) = action_rows("g", 1, [event], "2026-01-01T00:00:00.000+00:00", "k")
    written = json.dumps(event.data, sort_keys=True, separators=(",", ":"))
    assert row[EVENT_COLUMNS.index("data")] == event.text == written
    assert json.loads(event.text) == event.data
