"""Events survive the trip to JSON and back; old versions are upcast on read."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from events.catalog import EVENT_TYPES, GameCreated, SeatSetup
from events.codec import UnknownEventType, decode, dumper, encode, schema_instance


def every_event_type(test: Callable[..., None]) -> Callable[..., Any]:
    """Run ``test(cls, data)`` once per event type of the catalogue, each with 25 events drawn
    (``data.draw(st.from_type(cls))``)."""
    types = sorted(EVENT_TYPES.values(), key=lambda c: c.TYPE)
    drawn = settings(max_examples=25, deadline=None)(given(data=st.data())(test))
    return pytest.mark.parametrize("cls", types, ids=lambda c: c.TYPE)(drawn)


@every_event_type
def test_every_event_type_round_trips_through_json(cls, data) -> None:
    event = data.draw(st.from_type(cls))
    type_name, version, payload = encode(event)
    assert (type_name, version) == (cls.TYPE, cls.VERSION)
    text = json.dumps(payload)
    assert decode(type_name, version, json.loads(text)) == event


def _as_the_log_reads_it(payload: Any) -> None:
    """``payload`` is what the log gives back of it (``json.loads`` of the text an append stores): equal, each dict's
    keys sorted, lists for tuples, all the way down (an append keeps the payload itself as its row's, ``dumper``)."""
    from events.store import NewEvent

    read = json.loads(NewEvent("T", 1, payload).text)
    assert payload == read
    assert json.dumps(payload) == json.dumps(read)  # the same key order and list-or-tuple, as JSON writes them

    def sorted_down(value: Any) -> None:
        if isinstance(value, dict):
            assert list(value) == sorted(value)
            for inner in value.values():
                sorted_down(inner)
        elif isinstance(value, (list, tuple)):
            assert type(value) is list
            for inner in value:
                sorted_down(inner)

    sorted_down(payload)


@every_event_type
def test_every_event_is_written_as_its_marshmallow_schema_writes_it(cls, data) -> None:
    """The generated dumper (``encode``) and the event's schema give the same JSON, key for key, its keys sorted as
    the log stores them."""
    event = data.draw(st.from_type(cls))
    ours, theirs = dumper(cls)(event), schema_instance(cls).dump(event)
    assert ours == theirs
    assert json.dumps(ours) == json.dumps(theirs, sort_keys=True)
    _as_the_log_reads_it(ours)


def every_command_type(test: Callable[..., None]) -> Callable[..., Any]:
    """Run ``test(cls, data)`` once per command type, each with 25 commands drawn."""
    from companion.game.commands import COMMAND_TYPES

    types = sorted(COMMAND_TYPES.values(), key=lambda c: c.__name__)
    drawn = settings(max_examples=25, deadline=None)(given(data=st.data())(test))
    return pytest.mark.parametrize("cls", types, ids=lambda c: c.__name__)(drawn)


@every_command_type
def test_every_command_is_written_as_its_marshmallow_schema_writes_it(cls, data) -> None:
    command = data.draw(st.from_type(cls))
    ours, theirs = dumper(cls)(command), schema_instance(cls).dump(command)
    assert ours == theirs
    assert json.dumps(ours) == json.dumps(theirs, sort_keys=True)
    _as_the_log_reads_it(ours)


# A GameCreated exactly as version 1 (the walking skeleton) wrote it. Never edit this payload.
GAME_CREATED_V1 = {
    "edition_id": "inferno-base",
    "edition_hash": "0" * 64,
    "players": [{"name": "Ana", "colour": "crimson"}, {"name": "Ben", "colour": "navy"}],
    "side": "1-2",
    "expansion": False,
}


def test_a_version_1_game_created_is_upcast_to_the_current_version() -> None:
    event = decode("GameCreated", 1, GAME_CREATED_V1)
    assert isinstance(event, GameCreated)
    assert event.players == (SeatSetup("Ana", "crimson"), SeatSetup("Ben", "navy"))
    assert event.florence == () and event.guardians == ()
    assert event.start_florins == () and event.start_drachmas == ()


def test_an_unknown_type_is_refused_by_name() -> None:
    with pytest.raises(UnknownEventType, match="SoulTeleported"):
        decode("SoulTeleported", 1, {})


def test_a_version_from_the_future_is_refused() -> None:
    with pytest.raises(UnknownEventType, match="newer"):
        decode("GameCreated", 99, GAME_CREATED_V1)


def test_a_payload_with_a_wrong_field_does_not_load() -> None:
    with pytest.raises(UnknownEventType):
        decode("LoanTaken", 1, {"player": "zero", "drachmas": 2, "ship_from": 0, "ship_to": 1, "infamy_penalty": 0})
