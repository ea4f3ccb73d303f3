"""Every event of the catalogue has its sentence in the one registry (``words/history.TELLERS``),
and that sentence is told in English and in Spanish: an event added to the catalogue without its
sentence, or a sentence left untranslated, fails here by name."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask_babel import force_locale

from companion.editions import load_all
from companion.game.commands import CreateGame, StartTally
from companion.game.projection import replay
from companion.game.rules import decide_create
from companion.game.tally import decide_start_tally, replay_tally
from companion.web.words.history import TELLERS, narrate
from events.catalog import EVENT_TYPES, Event, SeatSetup
from events.shapes import fields_of, shape_of

TEXT, EDITION = next(iter(load_all().values()))
SILENT = {"OptionTaken"}  # told by the entries it leads to (its teller says nothing on purpose)


def _sample(annotation: Any) -> Any:
    """A plain value of the annotation's type (ids that name nothing fall back to their own text)."""
    shape = shape_of(annotation)
    if shape.kind == "optional":
        return _sample(shape.args[0])
    if shape.kind == "scalar":
        return {bool: True, int: 1, str: "x"}[shape.args[0]]
    if shape.kind == "items":
        return (_sample(shape.args[0]),)
    if shape.kind == "dataclass":
        return _build(shape.args[0])
    raise TypeError(annotation)


def _build(cls: type, **given: Any) -> Any:
    return cls(**{f.name: given.get(f.name, _sample(a)) for f, a in fields_of(cls)})


GIVEN: dict[str, dict[str, Any]] = {  # values that must name something real on the board
    "SoulMoved": {"from_shield": "1a", "path": ("2a",)},
    "EditionChanged": {"content": TEXT},
}


def _event(name: str) -> Event:
    event: Event = _build(EVENT_TYPES[name], **GIVEN.get(name, {}))
    return event


def _state_before(name: str) -> Any:
    if name.startswith("Tally"):
        return replay_tally(EDITION, decide_start_tally(EDITION, StartTally(("Ana", "Ben"))))
    seats = (SeatSetup("Ana", "crimson"), SeatSetup("Ben", "navy"))
    return replay(EDITION, decide_create(EDITION, CreateGame(seats, plague_card=(2, 3, 5, 1))))


def test_the_registry_is_the_catalogue() -> None:
    assert sorted(cls.__name__ for cls in TELLERS) == sorted(EVENT_TYPES)


@pytest.mark.parametrize("name", sorted(EVENT_TYPES))
def test_every_event_is_told_in_english_and_in_spanish(app: Flask, name: str) -> None:
    event, state = _event(name), _state_before(name)
    with app.test_request_context():
        with force_locale("en"):
            english = narrate(event, state)
        with force_locale("es"):
            spanish = narrate(event, state)
    if name in SILENT:
        assert english == spanish == ""
        return
    assert english and english != name, f"{name} has no sentence"
    assert spanish != english, f"{name} is told in English on a Spanish page: {english!r}"
