"""What an append keeps as its rows is what the log gives back: every payload the codec writes (``encode``) and every
command the service records (``command_to_json``, a replacement's too) equal their trip through the stored JSON, with
the same key order and lists for tuples, all the way down (``service.replay.rows_as_stored`` takes them as they are)."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.formats.commands import command_to_json
from companion.game.commands import EndTurn, ReplaceEntry, TakeLoan
from events.codec import encode
from events.store import NewEvent
from tests.events.test_codec import every_command_type, every_event_type


def _as_stored_and_read(value: Any) -> Any:
    """``value`` through the text the log stores (``NewEvent.text``: compact, keys sorted) and back."""
    return json.loads(NewEvent("T", 1, value).text)


def _same(ours: Any, theirs: Any) -> None:
    """Equal, of the same types all the way down, and with the keys in the same order."""
    assert ours == theirs
    assert type(ours) is type(theirs)
    if isinstance(ours, dict):
        assert list(ours) == list(theirs)
        for key in ours:
            _same(ours[key], theirs[key])
    elif isinstance(ours, list):
        for a, b in zip(ours, theirs, strict=True):
            _same(a, b)


@every_event_type
def test_every_event_payload_is_kept_as_the_log_reads_it(cls, data) -> None:
    payload = encode(data.draw(st.from_type(cls)))[2]
    _same(payload, _as_stored_and_read(payload))


@every_command_type
def test_every_command_is_kept_as_the_log_reads_it(cls, data) -> None:
    command = command_to_json(data.draw(st.from_type(cls)))
    _same(command, _as_stored_and_read(command))


@settings(max_examples=50, deadline=None)
@given(target=st.integers(min_value=1, max_value=10_000), player=st.integers(min_value=0, max_value=3))
def test_a_replacement_is_kept_as_the_log_reads_it(target: int, player: int) -> None:
    """A replacement is written by hand around the command it carries (``command_to_json``), not by a dumper."""
    for replacement in (EndTurn(player), TakeLoan(player)):
        command = command_to_json(ReplaceEntry(target, replacement))
        assert list(command) == ["data", "type"] and list(command["data"]) == ["replacement", "target"]
        _same(command, _as_stored_and_read(command))


def test_a_dict_out_of_order_is_told_apart() -> None:
    """``_same`` fails on what the rows must never hold: keys out of order, a tuple where the log gives a list."""
    for bad in ({"b": 1, "a": 2}, {"a": (1, 2)}, {"a": {"d": 1, "c": 2}}):
        try:
            _same(bad, _as_stored_and_read(bad))
        except AssertionError:
            continue
        raise AssertionError(f"{bad!r} passed as read back")
