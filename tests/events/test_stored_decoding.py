"""The log's hot read path (``decode_stored``, no marshmallow) gives exactly what ``decode`` gives."""

from __future__ import annotations

import json

import pytest
from hypothesis import strategies as st

from events.codec import UnknownEventType, decode, decode_stored, encode
from tests.events.test_codec import GAME_CREATED_V1, every_event_type


@every_event_type
def test_every_event_type_reads_back_the_same_as_through_its_schema(cls, data) -> None:
    event = data.draw(st.from_type(cls))
    type_name, version, payload = encode(event)
    stored = json.loads(json.dumps(payload))
    loaded = decode_stored(type_name, version, stored)
    assert loaded == decode(type_name, version, stored) == event
    assert type(loaded) is cls


def test_an_old_version_is_upcast_on_the_hot_path_too() -> None:
    assert decode_stored("GameCreated", 1, GAME_CREATED_V1) == decode("GameCreated", 1, GAME_CREATED_V1)


@pytest.mark.parametrize(
    "payload",
    [
        {"player": "zero", "drachmas": 2, "ship_from": 0, "ship_to": 1, "infamy_penalty": 0},
        {"player": 0, "drachmas": 2, "ship_from": 0, "ship_to": 1, "infamy_penalty": 0, "extra": 1},
        {"drachmas": 2, "ship_from": 0, "ship_to": 1, "infamy_penalty": 0},
    ],
    ids=["wrong type", "unknown field", "missing field"],
)
def test_a_payload_that_does_not_fit_is_refused_as_by_the_schema(payload: dict[str, object]) -> None:
    with pytest.raises(UnknownEventType):
        decode("LoanTaken", 1, payload)
    with pytest.raises(UnknownEventType):
        decode_stored("LoanTaken", 1, payload)


def test_unknown_and_future_types_are_refused() -> None:
    with pytest.raises(UnknownEventType, match="SoulTeleported"):
        decode_stored("SoulTeleported", 1, {})
    with pytest.raises(UnknownEventType, match="newer"):
        decode_stored("GameCreated", 99, GAME_CREATED_V1)
