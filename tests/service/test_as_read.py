"""A payload or a command as the store gives it back (``as_read``) is what a trip through JSON with sorted keys gives:
the same values, the same key order, lists for tuples. Held over every event and command type, drawn by hypothesis,
and over values the codec never writes (floats, number keys, nesting), which go through JSON itself."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.formats.commands import command_to_json
from companion.service.games import as_read, in_read_form
from events.codec import encode
from tests.events.test_codec import every_command_type, every_event_type


def _through_json(value: Any) -> Any:
    return json.loads(json.dumps(value, sort_keys=True))


def _same(ours: Any, theirs: Any) -> None:
    """Equal, of the same types all the way down, and with the keys in the same order."""
    assert ours == theirs
    assert json.dumps(ours) == json.dumps(theirs)  # key order and list-or-tuple as JSON writes them
    assert type(ours) is type(theirs)
    if isinstance(ours, dict):
        assert list(ours) == list(theirs)
        for key in ours:
            _same(ours[key], theirs[key])
    elif isinstance(ours, list):
        for a, b in zip(ours, theirs, strict=True):
            _same(a, b)


@every_event_type
def test_every_event_payload_is_as_read(cls, data) -> None:
    payload = encode(data.draw(st.from_type(cls)))[2]
    _same(as_read(payload), _through_json(payload))


@every_command_type
def test_every_command_is_as_read(cls, data) -> None:
    command = command_to_json(data.draw(st.from_type(cls)))
    _same(as_read(command), _through_json(command))


JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=4) | st.floats(allow_nan=False),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.tuples(inner, inner)
        | st.dictionaries(st.text(max_size=3) | st.integers(0, 3), inner, max_size=3)
    ),
    max_leaves=12,
)


@settings(max_examples=300, deadline=None)
@given(value=JSONISH)
def test_any_value_of_json_is_as_read(value: Any) -> None:
    try:
        theirs = _through_json(value)
    except TypeError:  # keys of text and numbers together: JSON cannot sort them, nor can ``as_read``
        with pytest.raises(TypeError):
            as_read(value)
        return
    _same(as_read(value), theirs)


def test_a_copy_shares_nothing_that_can_change() -> None:
    payload = {"b": [1, {"y": 2, "x": (3, 4)}], "a": {"k": [5]}}
    read = as_read(payload)
    assert list(read) == ["a", "b"]
    assert read["b"][1] == {"x": [3, 4], "y": 2}
    assert read["a"] is not payload["a"] and read["a"]["k"] is not payload["a"]["k"]


@every_event_type
def test_every_event_payload_is_in_read_form_as_written(cls, data) -> None:
    """What the codec writes is kept as the append's row as it is (``_rows_as_stored``): it must already be as read."""
    payload = encode(data.draw(st.from_type(cls)))[2]
    assert in_read_form(payload)
    _same(payload, _through_json(payload))


@every_command_type
def test_every_command_is_in_read_form_as_written(cls, data) -> None:
    command = command_to_json(data.draw(st.from_type(cls)))
    assert in_read_form(command)
    _same(command, _through_json(command))


@settings(max_examples=300, deadline=None)
@given(value=JSONISH)
def test_a_value_in_read_form_is_as_read(value: Any) -> None:
    """``in_read_form`` may say no to a value JSON would give back alike (a float: left to JSON), never yes to one it
    would change."""
    if in_read_form(value):
        _same(value, _through_json(value))


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ({"a": 1, "b": [True, None, "x"]}, True),
        ({"b": 1, "a": 2}, False),  # keys out of order
        ({"a": (1, 2)}, False),  # a tuple where JSON gives a list
        ({"a": 1.5}, False),  # a float: JSON may write it otherwise
        ({1: "a"}, False),  # a number key: JSON gives it back as text
        ({"a": {"d": 1, "c": 2}}, False),  # out of order one level down
        ({"": 0, "a": 1}, True),
        ([], True),
    ],
)
def test_in_read_form_on_crafted_values(value: Any, expected: bool) -> None:
    assert in_read_form(value) is expected
