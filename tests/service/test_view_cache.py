"""The process's view cache and the stored snapshots never change what a game looks like
(hypothesis, real SQLite).

Random legal play with undos, "undo to here", redos and corrections goes through services that
share one ``ViewCache``; after every step the view they serve (kept current by the write path,
brought forward from new rows, or rebuilt from a snapshot) equals a cold start by a brand-new
service with an empty cache, and both equal a full replay of the log; so does every state kept
for undo. A cache is never trusted over the log: another connection (as another process would)
writing to the same file is seen at once. Snapshots are taken every few events here so that
random games cross many of them.
"""

from __future__ import annotations

import gc
import json
import random
import tempfile
import threading
from pathlib import Path
from unittest.mock import patch

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import companion.service.games as service_module
import companion.service.replay as replay_module
from companion.editions import load_all
from companion.game.commands import CreateGame, TakeLoan
from companion.game.errors import RuleViolation
from companion.game.game_or_tally import AnyState, replay_any
from companion.game.timeline import Recorded, build_timeline, records_of
from companion.service import AnyView, GameService, is_game
from companion.service.caches import ViewCache
from events.codec import decode
from events.sqlite import SqliteStore
from events.store import UnknownGame
from testkit.random_play import choices
from tests.builders import game_view, seats

EDITIONS = load_all()


def cold(path: Path, game_id: str) -> AnyView:
    """The game rebuilt from the log alone: a new connection, a new service, an empty cache."""
    store = SqliteStore.open(path)
    try:
        return GameService(store, EDITIONS, cache=ViewCache()).view(game_id)
    finally:
        store.close()


def full_replay(view: AnyView) -> AnyState:
    """The state from every row of the log, decoded by the schemas, folded from the first event."""
    records = [Recorded(r.seq, r.action, decode(r.type, r.version, r.data)) for r in view.rows]
    return replay_any(view.edition, build_timeline(records).effective_events())


def assert_same_game(served: AnyView, path: Path) -> None:
    """``served`` equals the cold start and the full replay; every state kept for undo is the
    replay before its action."""
    fresh = cold(path, served.game_id)
    assert served.state == full_replay(fresh)
    assert served.seq == fresh.seq
    assert served.rows == fresh.rows
    # key order too: an append keeps its payloads and command as written, which must be as the log reads them back
    assert [json.dumps((r.data, r.command)) for r in served.rows] == [
        json.dumps((r.data, r.command)) for r in fresh.rows
    ]
    # the events the served view folded (each as judged, not decoded from its row) are the log's, read back
    read_back = [Recorded(r.seq, r.action, decode(r.type, r.version, r.data)) for r in fresh.rows]
    assert records_of(served.timeline.actions) == read_back
    assert served.timeline == fresh.timeline
    assert served.timeline.live == fresh.timeline.live
    assert served.timeline.replacements == fresh.timeline.replacements
    assert served.state == fresh.state
    for seq, before in served.priors:
        assert seq in fresh.timeline.live
        assert before == replay_any(fresh.edition, fresh.timeline.effective_events(before=seq))


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck), database=None)
@given(data=st.data(), players=st.integers(2, 4), seed=st.integers(0, 10_000), every=st.sampled_from([2, 5, 100]))
def test_a_view_from_the_cache_or_a_snapshot_equals_a_cold_replay(
    data: st.DataObject, players: int, seed: int, every: int
) -> None:
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as folder, patch.object(service_module, "SNAPSHOT_EVERY", every):
        path = Path(folder) / "cache.sqlite3"
        cache: ViewCache[AnyView] = ViewCache()
        writer_store, reader_store = SqliteStore.open(path), SqliteStore.open(path)
        try:
            writer = GameService(writer_store, EDITIONS, cache=cache)
            reader = GameService(reader_store, EDITIONS, cache=cache)  # another request of the same process
            game_id = writer.create_game(CreateGame(players=seats(players), plague_card=(2, 4, 6, 8)), "create")
            for step in range(data.draw(st.integers(5, 30), label="steps")):
                view = reader.view(game_id)
                roll = data.draw(st.integers(0, 11), label="roll")
                key = f"step-{step}"
                try:
                    if roll <= 1:
                        view = writer.undo(game_id, view.seq, key).view
                    elif roll == 2 and len(view.timeline.undoable) > 1:
                        to = data.draw(st.sampled_from(view.timeline.undoable[-4:]), label="undo to")
                        view = writer.undo(game_id, view.seq, key, to_action=to).view
                    elif roll <= 4:
                        view = writer.redo(game_id, view.seq, key).view
                    elif roll == 5 and view.timeline.undoable:
                        target = data.draw(st.sampled_from(view.timeline.undoable), label="corrected")
                        command = writer.commands(view).get(target)
                        if command is None:
                            continue
                        view = writer.replace(game_id, view.seq, key, target, command).view
                    else:
                        options = choices(view.state, rng) if is_game(view) else []
                        if not options:
                            break
                        command = data.draw(st.sampled_from(options), label="command")
                        view = writer.execute(game_id, view.seq, command, key).view
                except RuleViolation:
                    continue
                assert_same_game(view, path)
                assert_same_game(reader.view(game_id), path)
        finally:
            writer_store.close()
            reader_store.close()


@pytest.fixture
def game(tmp_path: Path) -> tuple[Path, str]:
    path = tmp_path / "two.sqlite3"
    store = SqliteStore.open(path)
    game_id = GameService(store, EDITIONS).create_game(CreateGame(players=seats(2), plague_card=(2, 4)), "create")
    store.close()
    return path, game_id


def test_a_write_by_another_process_is_seen_at_once(game: tuple[Path, str]) -> None:
    path, game_id = game
    here, there = SqliteStore.open(path), SqliteStore.open(path)
    try:
        ours = GameService(here, EDITIONS, cache=ViewCache())
        theirs = GameService(there, EDITIONS, cache=ViewCache())  # its own cache, as another process has
        seen = game_view(ours.view(game_id))
        theirs.execute(game_id, seen.seq, TakeLoan(seen.state.active), "their-loan")
        after = game_view(ours.view(game_id))
        assert after.seq > seen.seq
        assert after.state.p[seen.state.active].drachmas > seen.state.p[seen.state.active].drachmas
        assert after.state == cold(path, game_id).state
        theirs.undo(game_id, after.seq, "their-undo")
        assert ours.view(game_id).state == seen.state
    finally:
        here.close()
        there.close()


def test_a_stale_cache_never_answers_a_write(game: tuple[Path, str]) -> None:
    path, game_id = game
    here, there = SqliteStore.open(path), SqliteStore.open(path)
    try:
        ours = GameService(here, EDITIONS, cache=ViewCache())
        theirs = GameService(there, EDITIONS, cache=ViewCache())
        seen = game_view(ours.view(game_id))
        theirs.execute(game_id, seen.seq, TakeLoan(seen.state.active), "their-loan")
        now = theirs.view(game_id).seq
        outcome = ours.execute(game_id, now, TakeLoan(seen.state.active), "our-loan")  # drawn from their screen
        assert outcome.view.seq > now
        assert outcome.view == cold(path, game_id)
        assert outcome.view.state == cold(path, game_id).state
    finally:
        here.close()
        there.close()


def test_undo_of_the_latest_action_needs_no_replay(game: tuple[Path, str], monkeypatch: pytest.MonkeyPatch) -> None:
    path, game_id = game
    store = SqliteStore.open(path)
    try:
        service = GameService(store, EDITIONS, cache=ViewCache())
        view = game_view(service.view(game_id))
        before = view.state
        view = game_view(service.execute(game_id, view.seq, TakeLoan(view.state.active), "loan").view)

        def no_replay(*_args: object) -> None:
            raise AssertionError("replayed the log")

        monkeypatch.setattr(service_module, "replay_any", no_replay)
        monkeypatch.setattr(replay_module, "replay_any", no_replay)  # where a view is rebuilt
        undone = service.undo(game_id, view.seq, "undo").view
        assert undone.state == before
        assert service.redo(game_id, undone.seq, "redo").view.state == view.state
    finally:
        store.close()


def test_the_cache_keeps_at_most_its_size_and_drops_the_least_recently_used() -> None:
    class Seen:
        def __init__(self, seq: int) -> None:
            self.seq = seq

    cache: ViewCache[Seen] = ViewCache(games=2)
    cache.put("a", Seen(1))
    cache.put("b", Seen(1))
    assert cache.get("a") is not None  # "a" is now the most recently used
    cache.put("c", Seen(1))
    assert len(cache) == 2 and cache.get("b") is None and cache.get("a") is not None
    newer = cache.put("a", Seen(5))
    assert cache.put("a", Seen(3)) is newer  # an older view never replaces a newer one


def test_the_cache_is_safe_across_threads() -> None:
    class Seen:
        def __init__(self, seq: int) -> None:
            self.seq = seq

    cache: ViewCache[Seen] = ViewCache(games=8)

    def churn(offset: int) -> None:
        for i in range(2_000):
            cache.put(f"g{(i + offset) % 16}", Seen(i))
            cache.get(f"g{i % 16}")

    threads = [threading.Thread(target=churn, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(cache) == 8


def test_a_rebuild_leaves_the_garbage_collector_as_it_found_it(game: tuple[Path, str]) -> None:
    path, game_id = game
    store = SqliteStore.open(path)
    try:
        assert gc.isenabled()
        GameService(store, EDITIONS, cache=ViewCache()).view(game_id)
        assert gc.isenabled()
        with pytest.raises(UnknownGame):
            GameService(store, EDITIONS, cache=ViewCache()).view("no-such-game")
        assert gc.isenabled()
        gc.disable()
        try:
            GameService(store, EDITIONS, cache=ViewCache()).view(game_id)
            assert not gc.isenabled()
        finally:
            gc.enable()
    finally:
        store.close()


def test_the_view_cache_is_sized_by_the_app_setting(tmp_path: Path) -> None:
    """A hosted service keeps more games warm per process (VIEW_CACHE_BYTES: the views are kept by bytes)."""
    from companion.web import create_app
    from companion.web.process import process

    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "c.sqlite3"), "VIEW_CACHE_BYTES": 300_000_000})
    assert process(app).views.budget == 300_000_000
