"""``Slots``: a value per slot kept with its inputs, and up to ``depth`` of them for inputs that come back
(``screens.parts``: a game's turn title for each player and phase, round after round)."""

from __future__ import annotations

import functools
import random
from collections.abc import Callable
from typing import Any

from companion.service.caches import Slots


def maker(made: list[str], value: str) -> Callable[[], str]:
    def make() -> str:
        made.append(value)
        return value

    return make


def test_a_slot_of_depth_one_keeps_its_latest_value_only() -> None:
    slots: Slots[str, str] = Slots(size=8)
    made: list[str] = []
    assert slots.get_or_make("turn", ("ana", "hell"), maker(made, "A")) == "A"
    assert slots.get_or_make("turn", ("ana", "hell"), maker(made, "again")) == "A"
    assert slots.get_or_make("turn", ("ben", "hell"), maker(made, "B")) == "B"
    assert slots.get_or_make("turn", ("ana", "hell"), maker(made, "A2")) == "A2"  # A went when B came
    assert made == ["A", "B", "A2"]
    assert slots.made == 3


def test_a_deeper_slot_finds_inputs_that_come_back() -> None:
    slots: Slots[str, str] = Slots(size=8)
    made: list[str] = []
    for _round in range(3):
        for player in ("ana", "ben", "cai"):
            slots.get_or_make("turn", (player,), maker(made, player), depth=3)
    assert made == ["ana", "ben", "cai"]  # drawn in the first round only
    assert slots.latest("turn") == (("cai",), "cai")  # the latest asked for, as the shields of a map read it


def test_a_deeper_slot_drops_its_least_recently_used_value() -> None:
    slots: Slots[str, str] = Slots(size=8)
    made: list[str] = []
    for value in ("a", "b", "c"):
        slots.get_or_make("s", value, maker(made, value), depth=3)
    slots.get_or_make("s", "a", maker(made, "a"), depth=3)  # used again: now the most recent
    slots.get_or_make("s", "d", maker(made, "d"), depth=3)  # b is the least recently used: it goes
    assert made == ["a", "b", "c", "d"]
    slots.get_or_make("s", "a", maker(made, "a"), depth=3)
    slots.get_or_make("s", "c", maker(made, "c"), depth=3)
    assert made == ["a", "b", "c", "d"]
    slots.get_or_make("s", "b", maker(made, "b"), depth=3)
    assert made == ["a", "b", "c", "d", "b"]


def test_a_deeper_slot_answers_as_a_model_of_it_over_random_asks() -> None:
    """Against a plain list of (inputs, value), most recent first: the same values, made the same times."""
    rng = random.Random(7)
    for depth in (1, 2, 4, 9):
        slots: Slots[str, tuple[int, ...]] = Slots(size=4)
        model: dict[str, list[int]] = {}
        made = 0
        for step in range(600):
            slot, inputs = rng.choice("xyz"), rng.randrange(12)
            kept = model.setdefault(slot, [])
            if inputs in kept:
                kept.remove(inputs)
            else:
                made += 1
            kept.insert(0, inputs)
            del kept[depth:]
            value = slots.get_or_make(slot, inputs, functools.partial(tuple, (inputs, step)), depth)
            assert value[0] == inputs
            assert slots.made == made, (depth, step)


def test_the_slots_count_is_the_bound_not_the_values_in_them() -> None:
    slots: Slots[str, str] = Slots(size=2)
    made: list[str] = []
    for slot in ("a", "b", "c"):
        slots.get_or_make(slot, 1, maker(made, slot), depth=4)
    assert slots.latest("a") is None  # the least recently used slot went, with all its values
    assert slots.latest("c") == (1, "c")


def test_a_slot_stays_within_its_depth_and_keeps_one_value_for_inputs_kept_twice_at_once() -> None:
    """Two requests may ask at once: a value found while another was kept in between goes first without the slot
    passing its depth, and a value made twice for the same inputs is kept (and counted) once."""
    slots: Slots[str, str] = Slots(size=8)
    made: list[str] = []
    for value in ("a", "b", "c"):
        slots.get_or_make("s", value, maker(made, value), depth=3)  # the slot: c b a
    lru = slots._slots
    update = lru.update
    armed = [True]

    def meanwhile(key: str, choose: Any) -> Any:  # another request keeps "d" between the find and the move
        if armed[0]:
            armed[0] = False
            slots.get_or_make("s", "d", maker(made, "d"), depth=3)  # the slot: d c b ("a" went)
        return update(key, choose)

    lru.update = meanwhile  # type: ignore[method-assign]
    assert slots.get_or_make("s", "a", maker(made, "again"), depth=3) == "a"  # found in the slot as it was read
    assert [entry[0] for entry in lru.get("s") or ()] == ["a", "d", "c"]  # first, and still 3

    twin: Slots[str, str] = Slots(size=8)
    both: list[str] = []

    def first_maker() -> str:  # while this request draws, a twin draws and keeps the same inputs
        twin.get_or_make("t", 1, maker(both, "twin"), depth=3)
        return "first"

    assert twin.get_or_make("t", 1, first_maker, depth=3) == "first"
    assert [entry[0] for entry in twin._slots.get("t") or ()] == [1]  # one value for the inputs, not two
    assert twin.made == 1
