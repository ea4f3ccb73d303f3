"""Snapshots beside the log: a state survives the trip to JSON and back, a cold start reads the
newest snapshot that still holds, and one from another projection version, another edition, or
from before an undo that reached behind it is ignored (the log decides)."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.editions import load_all
from companion.formats.export import replay_export
from companion.game.commands import CreateGame
from companion.game.errors import RuleViolation
from companion.game.game_or_tally import AnyState, replay_any
from companion.game.projection import PROJECTION_VERSION
from companion.game.state import GameState
from companion.game.timeline import build_timeline
from companion.service import GameService, GameView
from companion.service.caches import ViewCache
from companion.service.replay import decoded
from companion.service.snapshot import SnapshotError, in_effect, state_from_json, state_to_json
from events.sqlite import SqliteStore
from testkit.random_play import choices
from tests.builders import game_view, seats

EDITIONS = load_all()
FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def play(service: GameService, game_id: str, steps: int, rng: random.Random) -> GameView:
    """Random legal commands (and the odd undo) through the service."""
    view = game_view(service.view(game_id))
    for step in range(steps):
        try:
            if rng.random() < 0.1:
                view = game_view(service.undo(game_id, view.seq, f"undo-{step}").view)
                continue
            options = choices(view.state, rng)
            if not options:
                break
            view = game_view(service.execute(game_id, view.seq, rng.choice(options), f"step-{step}").view)
        except RuleViolation:
            continue
    return view


@settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck), database=None)
@given(seed=st.integers(0, 10_000), players=st.integers(2, 4), steps=st.integers(0, 60))
def test_a_game_state_round_trips_through_its_snapshot(tmp_path_factory, seed: int, players: int, steps: int) -> None:
    store = SqliteStore.open(tmp_path_factory.mktemp("snap") / "s.sqlite3")
    try:
        service = GameService(store, EDITIONS)
        game_id = service.create_game(CreateGame(players=seats(players), plague_card=(2, 4, 6)), "create")
        view = play(service, game_id, steps, random.Random(seed))
        text = state_to_json(view.state)
        assert state_from_json(text, view.edition) == view.state
        assert state_to_json(state_from_json(text, view.edition)) == text
    finally:
        store.close()


@pytest.mark.parametrize("name", ["tally-three.json", "expansion-two-players.json", "base-two-players.json"])
def test_a_finished_game_or_tally_round_trips(name: str) -> None:
    edition, state, _breach = replay_export(json.loads((FIXTURES / name).read_text(encoding="utf-8")))
    assert state is not None
    assert state_from_json(state_to_json(state), edition) == state


def test_a_snapshot_of_another_shape_does_not_load() -> None:
    edition = next(iter(EDITIONS.values()))[1]
    with pytest.raises(SnapshotError):
        state_from_json('{"kind":"game","state":{"turn":1}}', edition)


@pytest.fixture
def played(tmp_path: Path) -> tuple[Path, str, GameView, GameView]:
    """A game of a few dozen events (no snapshot kept yet), its first view and its last."""
    path = tmp_path / "snapshots.sqlite3"
    store = SqliteStore.open(path)
    service = GameService(store, EDITIONS)
    game_id = service.create_game(CreateGame(players=seats(3), plague_card=(2, 4, 6)), "create")
    first = game_view(service.view(game_id))
    last = play(service, game_id, 30, random.Random(7))
    assert last.seq > first.seq + 10
    store.close()
    return path, game_id, first, last


def cold_state(path: Path, game_id: str) -> AnyState:
    store = SqliteStore.open(path)
    try:
        return GameService(store, EDITIONS, cache=ViewCache()).view(game_id).state
    finally:
        store.close()


def keep(path: Path, game_id: str, view: GameView, seq: int, state: AnyState, version: int, edition_hash: str) -> None:
    """Store ``state`` as the snapshot at ``seq`` of the game ``view`` shows, with these tags."""
    store = SqliteStore.open(path)
    try:
        store.save_snapshot(game_id, seq, version, edition_hash, in_effect(view.timeline, seq), state_to_json(state))
    finally:
        store.close()


def marked(state: AnyState) -> GameState:
    """``state`` with a mark no event of random play changes: seen in a cold start that read it."""
    assert isinstance(state, GameState)
    return replace(state, table_mode="seats")


def test_a_snapshot_of_another_projection_version_or_edition_is_ignored(played) -> None:
    path, game_id, first, last = played
    edition_hash = last.edition.content_hash
    keep(path, game_id, last, first.seq, marked(first.state), PROJECTION_VERSION + 1, edition_hash)
    keep(path, game_id, last, first.seq, marked(first.state), PROJECTION_VERSION, "0" * 64)
    assert cold_state(path, game_id) == last.state
    keep(path, game_id, last, first.seq, marked(first.state), PROJECTION_VERSION, edition_hash)
    assert cold_state(path, game_id) == marked(last.state)  # the control: a snapshot that fits is read


def test_a_snapshot_from_before_an_undo_that_reaches_behind_it_is_ignored(played) -> None:
    path, game_id, _first, last = played
    second = last.timeline.undoable[1]  # the second game action
    at = max(r.seq for r in decoded(last.rows) if r.action == second)
    state_at = replay_any(last.edition, build_timeline(r for r in decoded(last.rows) if r.seq <= at).effective_events())
    keep(path, game_id, last, at, marked(state_at), PROJECTION_VERSION, last.edition.content_hash)
    assert cold_state(path, game_id) == marked(last.state)  # it fits the log as it is
    store = SqliteStore.open(path)
    try:
        service = GameService(store, EDITIONS, cache=ViewCache())
        undone = service.undo(game_id, last.seq, "undo-to-second", to_action=second).view
    finally:
        store.close()
    assert second not in undone.timeline.live
    assert cold_state(path, game_id) == undone.state != marked(undone.state)


def test_a_long_game_keeps_snapshots_and_a_cold_start_folds_only_what_follows(tmp_path: Path) -> None:
    path = tmp_path / "long.sqlite3"
    store = SqliteStore.open(path)
    try:
        service = GameService(store, EDITIONS)
        game_id = service.create_game(CreateGame(players=seats(2), plague_card=(2, 4, 6)), "create")
        last = play(service, game_id, 150, random.Random(3))
        kept = store.latest_snapshot(game_id, PROJECTION_VERSION, last.edition.content_hash, last.seq)
        assert kept is not None and last.seq - kept.seq < 100 + 40  # one every 100, behind the undo window
        at_snapshot = build_timeline(r for r in decoded(last.rows) if r.seq <= kept.seq)
        assert state_from_json(kept.state, last.edition) == replay_any(last.edition, at_snapshot.effective_events())
        assert cold_state(path, game_id) == last.state
    finally:
        store.close()
