"""``changed``: ``dataclasses.replace`` without its cost, for the frozen game state (``companion/game/frozen.py``)."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.editions import load_all
from companion.game.frozen import changed
from companion.game.state import GameState, PlayerState
from tests.builders import Table

STATE = Table(load_all()["inferno-base"][1]).create(players=3).state
PLAYER = STATE.p[0]


@settings(max_examples=60, deadline=None)
@given(
    fields=st.sets(st.sampled_from(sorted(f.name for f in dataclasses.fields(PlayerState))), max_size=4),
    value=st.integers(min_value=0, max_value=9),
)
def test_a_player_changed_equals_dataclasses_replace(fields: set[str], value: int) -> None:
    changes = {name: value for name in fields}
    before = dict(PLAYER.__dict__)
    made = changed(PLAYER, **changes)
    assert made == dataclasses.replace(PLAYER, **changes)
    assert type(made) is PlayerState
    assert made is not PLAYER
    assert PLAYER.__dict__ == before  # the original is left as it was


def test_a_state_changed_keeps_every_other_field() -> None:
    made = changed(STATE, turn=STATE.turn + 3, active=1)
    assert made == dataclasses.replace(STATE, turn=STATE.turn + 3, active=1)
    assert (made.turn, made.active, STATE.active) == (STATE.turn + 3, 1, 0)
    others = [f.name for f in dataclasses.fields(GameState) if f.name not in ("turn", "active")]
    assert all(getattr(made, name) is getattr(STATE, name) for name in others)


@pytest.mark.parametrize("obj", [STATE, PLAYER], ids=["state", "player"])
def test_a_name_that_is_no_field_is_refused_every_time(obj: object) -> None:
    for _ in range(2):  # the fields' names are kept after the first call: the second is refused alike
        with pytest.raises(TypeError, match=r"has no field \['not_a_field'\]"):
            changed(obj, not_a_field=1)
