"""A switch means "this game was played on the corrected edition all along": the state after it
is the replay of every entry in effect under the new edition, set-up values included, at every
player count (the 3-player shortcut of Dante's path included)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from companion.editions import load_all
from companion.editions.library import validated
from companion.game.commands import CreateGame, RaiseCube, TakeLoan
from companion.game.edition import Edition
from companion.game.errors import RuleViolation
from companion.game.game_or_tally import scoresheet
from companion.game.projection import replay
from companion.service import Conflict, GameService
from companion.service.switches import preview_switch, switch_edition
from events.catalog import EditionChanged
from events.sqlite import SqliteStore
from testkit.random_play import choices
from tests.builders import game_view, seats


def _corrected(edition: Edition, change: Any) -> tuple[str, Edition]:
    raw = json.loads(json.dumps(edition.raw))
    change(raw)
    return validated(raw)


def _new_start(raw: dict[str, Any]) -> None:
    raw["phlegethon"]["start"] = {c: 0 for c in raw["phlegethon"]["start"]}  # every cube starts on the first space


def _service(tmp_path: Path) -> GameService:
    return GameService(SqliteStore.open(tmp_path / "g.sqlite3"), load_all())


def _played(service: GameService, players: int, actions: int = 14, seed: int = 7) -> str:
    """A game of ``players`` with ``actions`` random legal entries (no Phlegethon cube raised)."""
    rng = random.Random(seed)
    game_id = service.create_game(CreateGame(seats(players), plague_card=(5, 2, 3, 4)), "create")
    done = 0
    while done < actions:
        view = game_view(service.view(game_id))
        legal = [c for c in choices(view.state, rng) if not isinstance(c, RaiseCube)]
        options = [c for c in legal if not isinstance(c, TakeLoan)] or legal
        if view.state.ended or not options:
            break
        try:
            service.execute(game_id, view.seq, rng.choice(options), f"k-{view.seq}")
        except RuleViolation:
            continue
        done += 1
    return game_id


def test_set_up_values_come_from_the_new_edition(tmp_path: Path) -> None:
    # given a game played on the shipped board, every cube on its shipped start space
    service = _service(tmp_path)
    game_id = _played(service, 2)
    before = game_view(service.view(game_id)).state
    assert set(before.phlegethon.values()) == {2}
    # when the table switches to its copy, whose Phlegethon cubes all start on the first space
    text, ours = _corrected(before.edition, _new_start)
    service.library.save_edition("Our copy", text)
    outcome = switch_edition(service, game_id, service.view(game_id).seq, "switch", ours.content_hash)
    # then the cubes stand where the corrected board starts them, and the final tally counts from there
    after = game_view(outcome.view).state
    assert set(after.phlegethon.values()) == {0}
    from_start = replay(
        ours, [e for e in service.view(game_id).timeline.effective_events() if not isinstance(e, EditionChanged)]
    )
    assert after.phlegethon == from_start.phlegethon and after.p == from_start.p and after.supply == from_start.supply
    assert scoresheet(after) == scoresheet(from_start)
    # and a cold read of the log (no kept view) gives the same table
    service.cache.clear()
    assert service.view(game_id).state == after


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_every_player_count_can_switch(tmp_path: Path, players: int) -> None:
    service = _service(tmp_path)
    game_id = _played(service, players)
    text, ours = _corrected(service.view(game_id).state.edition, _new_start)
    service.library.save_edition("Our copy", text)
    _view, check = preview_switch(service, game_id, ours.content_hash)
    assert check.broken is None, check.reason
    outcome = switch_edition(service, game_id, service.view(game_id).seq, "switch", ours.content_hash)
    assert outcome.view.state.edition.content_hash == ours.content_hash
    assert set(game_view(outcome.view).state.phlegethon.values()) == {0}


def test_undoing_the_switch_gives_back_the_old_set_up(tmp_path: Path) -> None:
    service = _service(tmp_path)
    game_id = _played(service, 2)
    before = service.view(game_id).state
    text, ours = _corrected(before.edition, _new_start)
    service.library.save_edition("Our copy", text)
    switch_edition(service, game_id, service.view(game_id).seq, "switch", ours.content_hash)
    undone = service.undo(game_id, service.view(game_id).seq, "undo").view.state
    assert undone == before
    redone = game_view(service.redo(game_id, service.view(game_id).seq, "redo").view).state
    assert set(redone.phlegethon.values()) == {0}


def test_only_a_recorded_switch_keeps_the_edition(tmp_path: Path) -> None:
    # given a server that offers a corrected edition without having kept it in the database
    shipped = load_all()
    text, ours = _corrected(next(iter(shipped.values()))[1], _new_start)
    service = GameService(SqliteStore.open(tmp_path / "g.sqlite3"), {**shipped, "our-copy": (text, ours)})
    game_id = _played(service, 2)
    seq = service.view(game_id).seq
    # when a phone confirms on a stale screen, the switch is refused and nothing is kept
    with pytest.raises(Conflict):
        switch_edition(service, game_id, seq - 1, "stale", ours.content_hash)
    assert service.store.edition_content(ours.content_hash) is None
    # and once recorded, the edition is kept beside the log
    switch_edition(service, game_id, seq, "switch", ours.content_hash)
    assert service.store.edition_content(ours.content_hash) == text


def test_a_long_game_read_from_a_snapshot_switches_like_a_fresh_one(tmp_path: Path) -> None:
    # given a game long enough to keep a snapshot, read back cold (from that snapshot)
    service = _service(tmp_path)
    game_id = _played(service, 2, actions=90, seed=3)
    service.cache.clear()
    state = game_view(service.view(game_id)).state
    cubes = dict(state.phlegethon)
    # when it switches to a board whose cubes start on another space
    text, ours = _corrected(state.edition, _new_start)
    service.library.save_edition("Our copy", text)
    _view, check = preview_switch(service, game_id, ours.content_hash)
    assert check.broken is None, check.reason
    after = game_view(
        switch_edition(service, game_id, service.view(game_id).seq, "switch", ours.content_hash).view
    ).state
    # then every cube still on its start space moved with the start, and a cold read agrees
    assert all(after.phlegethon[c] == 0 for c, i in cubes.items() if i == 2)
    service.cache.clear()
    assert service.view(game_id).state == after
