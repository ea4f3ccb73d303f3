"""Every value in the shipped edition file is read by some code, so correcting it changes something.

The edition's JSON is loaded into dicts that record each key read (``Tracked``), then parsed,
and whole games are played, scored and tallied with it through the real rules. A key nothing
read is a value a table could "correct" to no effect: the test names it. The few keys only the
web pages read are declared below with the file that reads them, and that file is checked.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any, ClassVar

import pytest

import companion.game.edition.loading as edition_module
from companion.editions import EDITIONS_DIR
from companion.game.commands import CreateGame, EnterCircle, EnterPlayer, PlaceHalfDiplomas, StartTally
from companion.game.edition import Edition, parse_edition
from companion.game.projection import replay
from companion.game.rules import decide, decide_create
from companion.game.rules.guardians import guardian_definition
from companion.game.rules.setup import guardian_start
from companion.game.scoring import score_state
from companion.game.tally import decide_start_tally, decide_tally, replay_tally, tally_score
from events.catalog import Event
from testkit.random_play import play
from tests.builders import Table, seats

ROOT = Path(__file__).resolve().parents[2]
BASE = EDITIONS_DIR / "inferno-base.json"

# Documentation, not values: provenance tags and notes are for the people correcting the file.
TEXT_KEYS = {"source", "note", "notes", "definition", "provenance", "name", "format"}

# Keys read outside the rules (the web layer, or the edition's colour lookup), with the file
# that reads them, with the file that reads them.
WEB_READS = {
    "players.colours[].hex": ("companion/game/edition/model.py", 'c["hex"]'),
    "circles[].hex": ("companion/web/screens/hell_map.py", ".hex"),
    "quarters[].glyph": ("companion/web/screens/hell_map.py", '"glyph"'),
    "souls.plague_card_souls": ("companion/web/pages/home.py", '"plague_card_souls"'),
}


class Tracked(dict):
    """A dict that records every key read, under its dotted path (list items as ``[]``)."""

    read: ClassVar[set[str]] = set()

    def __init__(self, data: dict[str, Any], path: str) -> None:
        super().__init__({k: _track(v, f"{path}.{k}" if path else k) for k, v in data.items()})
        self._path = path

    def _mark(self, key: object) -> None:
        Tracked.read.add(f"{self._path}.{key}" if self._path else str(key))

    def __getitem__(self, key: str) -> Any:
        self._mark(key)
        return super().__getitem__(key)

    def get(self, key: str, default: Any = None) -> Any:
        self._mark(key)
        return super().get(key, default)

    def __contains__(self, key: object) -> bool:
        self._mark(key)
        return super().__contains__(key)

    def items(self) -> Any:
        for key in self:
            self._mark(key)
        return super().items()

    def values(self) -> Any:
        for key in self:
            self._mark(key)
        return super().values()


def _track(value: Any, path: str) -> Any:
    if isinstance(value, dict):
        return Tracked(value, path)
    if isinstance(value, list):
        return [_track(v, f"{path}[]") for v in value]
    return value


def _leaves(value: Any, path: str = "") -> set[str]:
    """Every key path of the file, down to the first level whose value is not an object."""
    out: set[str] = set()
    if isinstance(value, dict):
        for key, inner in value.items():
            if key in TEXT_KEYS or key.startswith("_"):
                continue
            here = f"{path}.{key}" if path else key
            out.add(here)
            out |= _leaves(inner, here)
    elif isinstance(value, list):
        for inner in value:
            out |= _leaves(inner, f"{path}[]")
    return out


def _play(edition: Edition, players: int, expansion: bool, seed: int) -> None:
    rng = random.Random(seed)
    log: list[Event] = decide_create(
        edition,
        CreateGame(
            players=seats(players),
            plague_card=(2, 3, 5, 1),
            expansion=expansion,
            starting_skulls=tuple((2 + i,) for i in range(players)),
        ),
    )
    state = play(replay(edition, log), rng, tries=400)
    sheet = score_state(state)
    for i, p in enumerate(sheet.players):
        if p.half_diplomas >= 2 and state.ended:
            decide(state, PlaceHalfDiplomas(i, p.half_tracks))


def _tally(edition: Edition) -> None:
    start = decide_start_tally(edition, StartTally(("Ana", "Ben")))
    state = replay_tally(edition, start)
    events = list(start)
    for circle in edition.track_circles:
        events += decide_tally(state, EnterCircle(circle, 1, 2))
    state = replay_tally(edition, events)
    events += decide_tally(state, EnterPlayer(0, 10, (1,) * 8, (2,), 2, 1, ()))
    tally_score(replay_tally(edition, events))


@pytest.fixture
def tracked_edition(monkeypatch: pytest.MonkeyPatch) -> Edition:
    Tracked.read = set()
    real_loads, real_dumps = json.loads, json.dumps

    class TrackingJson:
        JSONDecodeError = json.JSONDecodeError

        @staticmethod
        def loads(text: str, **options: Any) -> Any:
            return _track(real_loads(text, **options), "")

    real_check = edition_module._check_shape  # type: ignore[attr-defined]  # a private step, patched to count keys
    # The validator reads every key to judge it: it checks a plain copy, so that only the keys
    # the game itself reads are counted.
    monkeypatch.setattr(edition_module, "_check_shape", lambda raw, v: real_check(real_loads(real_dumps(raw)), v))
    monkeypatch.setattr(edition_module, "json", TrackingJson)
    return parse_edition(BASE.read_text(encoding="utf-8"))


def _scenarios(edition: Edition) -> None:
    """Run the rule tests of the rarer branches (guardian effects, Desks, assumptions, corrections)
    against the tracked edition, so that the keys they read are counted."""
    import inspect

    from tests.game import (
        test_assumptions,
        test_correction_rules,
        test_expansion_rules,
        test_guardian_rules,
        test_styx_rules,
    )

    for module in (test_assumptions, test_correction_rules, test_expansion_rules, test_guardian_rules, test_styx_rules):
        for name, fn in vars(module).items():
            if not name.startswith("test_") or not callable(fn):
                continue
            params = inspect.signature(fn).parameters
            if set(params) - {"table", "edition"}:
                continue  # parametrised tests need their parameters; the plain ones suffice here
            kwargs = {"table": Table(edition), "edition": edition}
            fn(**{k: kwargs[k] for k in params})


def test_every_key_of_the_shipped_edition_is_read(tracked_edition: Edition) -> None:
    edition = tracked_edition
    _scenarios(edition)
    for side in edition.sides.values():
        for guardian in edition.raw["guardians"]:
            guardian_start(edition, side.id, guardian["id"])
            guardian_definition(
                replay(edition, decide_create(edition, CreateGame(seats(2), plague_card=(2,)))), guardian["id"]
            )
        for name in ("plutus", "phlegyas"):
            guardian_start(edition, side.id, name)
    for players in range(edition.min_players, edition.max_players + 1):
        for expansion in (False, True):
            for seed in range(3):
                _play(edition, players, expansion, seed)
    _tally(edition)
    read = {k.replace(".0.", ".").rstrip(".") for k in Tracked.read}
    for key, (path, needle) in WEB_READS.items():
        assert needle in (ROOT / path).read_text(encoding="utf-8"), f"{path} no longer reads {key}"
        read.add(key)
    raw = json.loads(BASE.read_text(encoding="utf-8"))
    unread = sorted(k for k in _leaves(raw) if k not in read)
    assert unread == [], f"edition keys that no code reads (remove them or read them): {unread}"
