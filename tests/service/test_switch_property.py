"""Property: switching a random game to a corrected edition at any point, then finishing it, gives
the same final score as the same entries recorded on that edition from the start, where they are
legal there (RULES.md is the same; only the board's numbers and lines differ).

The game is played through ``GameService`` on a SQLite file with random legal commands; at the
switch point the table switches (or, when an entry would be recorded otherwise, switches from
there); the reference decides every command in effect, in order, on the corrected edition from its
set-up on, passing over those it refuses."""

from __future__ import annotations

import json
import random
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.editions import load_all
from companion.editions.library import validated
from companion.game.commands import CreateGame, SwitchEdition, SwitchEditionFrom
from companion.game.edition import Edition
from companion.game.errors import RuleViolation
from companion.game.projection import evolve, replay
from companion.game.rules import decide, decide_create
from companion.game.scoring import score_state
from companion.game.state import GameState
from companion.service import GameService
from companion.service.switches import preview_switch, switch_edition, switch_from
from events.catalog import EntriesSetAside
from events.sqlite import SqliteStore
from testkit.random_play import choices
from tests.builders import seats

SHIPPED_TEXT, SHIPPED = next(iter(load_all().values()))


def _scale(raw: dict[str, Any]) -> None:
    raw["phlegethon"]["scale"] = [1, 2, 3, 5, 8]


def _start(raw: dict[str, Any]) -> None:
    raw["phlegethon"]["start"] = {c: 1 for c in raw["phlegethon"]["start"]}


def _infamy(raw: dict[str, Any]) -> None:
    raw["circles"][4]["infamy"] = 6


def _line(raw: dict[str, Any]) -> None:
    for side in raw["sides"]:
        side["lines"]["1a"] = sorted({*side["lines"]["1a"], "2c"})


def _loan(raw: dict[str, Any]) -> None:
    raw["loan_track"]["penalties"] = [0, 2, 3, 5, 7, 10, 14]


VARIANTS: dict[str, Callable[[dict[str, Any]], None]] = {
    "scale": _scale,
    "start": _start,
    "infamy": _infamy,
    "line": _line,
    "loan": _loan,
}


def _corrected(name: str) -> tuple[str, Edition]:
    raw = json.loads(json.dumps(SHIPPED.raw))
    VARIANTS[name](raw)
    raw["name"] = f"Our copy ({name})"
    return validated(raw)


def _play(service: GameService, game_id: str, rng: random.Random, actions: int) -> None:
    """Up to ``actions`` random legal entries (fewer when the game ends)."""
    done = tries = 0
    while done < actions and tries < actions * 4:
        tries += 1
        view = service.view(game_id)
        state = view.state
        assert isinstance(state, GameState)
        if state.ended:
            return
        options = choices(state, rng)
        if not options:
            return
        try:
            service.execute(game_id, view.seq, rng.choice(options), f"k{view.seq}")
        except RuleViolation:
            continue
        done += 1


def _entries(service: GameService, game_id: str) -> list[Any]:
    """The commands of the entries in effect, in order, a switch from an entry standing for the entries
    it recorded again (a plain switch is no entry of play)."""
    view = service.view(game_id)
    commands = service.commands(view)
    out: list[Any] = []

    def add(seq: int) -> None:
        command = commands.get(seq)
        if isinstance(command, SwitchEditionFrom):
            first = view.timeline.action(seq).events[0]
            assert isinstance(first, EntriesSetAside)
            for again in first.recorded_again:
                add(again)
        elif not isinstance(command, SwitchEdition):
            out.append(command)

    for seq in view.timeline.done:
        add(seq)
    return out


def _from_the_start(edition: Edition, entries: list[Any]) -> GameState:
    create = entries[0]
    assert isinstance(create, CreateGame)
    state = replay(edition, decide_create(edition, create))
    for command in entries[1:]:
        try:
            events = decide(state, command)
        except RuleViolation:
            continue  # not legal on this edition: the table would enter it again
        for event in events:
            state = evolve(state, event)
    return state


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 100_000),
    players=st.integers(1, 4),
    before=st.integers(0, 160),
    variant=st.sampled_from(sorted(VARIANTS)),
)
def test_a_switch_at_any_point_scores_as_the_corrected_edition_from_the_start(
    seed: int, players: int, before: int, variant: str
) -> None:
    text, ours = _corrected(variant)
    with tempfile.TemporaryDirectory() as folder:
        service = GameService(SqliteStore.open(Path(folder) / "p.sqlite3"), load_all())
        service.library.save_edition("Our copy", text)
        game_id = service.create_game(CreateGame(seats(players), plague_card=(2, 3, 5, 1)), "create")
        rng = random.Random(seed)
        # given a game played some way on the shipped board
        _play(service, game_id, rng, before)
        # when the table switches to its corrected copy (from the first entry it would record otherwise)
        _view, check = preview_switch(service, game_id, ours.content_hash)
        seq = service.view(game_id).seq
        if check.broken is None:
            switch_edition(service, game_id, seq, "switch", ours.content_hash)
        else:
            switch_from(service, game_id, seq, "switch", ours.content_hash, check.broken)
        # and plays on to the end
        _play(service, game_id, rng, 400)
        final = service.view(game_id).state
        entries = _entries(service, game_id)
    assert isinstance(final, GameState) and final.edition.content_hash == ours.content_hash
    # then it scores as the same entries recorded on the corrected edition from the start
    reference = _from_the_start(ours, entries)
    assert score_state(final) == score_state(reference)
    assert final.p == reference.p and final.hell == reference.hell and final.phlegethon == reference.phlegethon
