"""A game rebuilt cold, in this process: ``GameService.view`` with an empty view cache (the newest snapshot plus the
events after it) and a full replay of the log, each next to the ``eventsourcing`` library's ``repository.get`` of an
aggregate with as many events, like for like (snapshot against snapshot, full replay against full replay)."""

from __future__ import annotations

import functools
import uuid
from pathlib import Path
from typing import Any

from eventsourcing.application import Application
from eventsourcing.domain import Aggregate, event

from bench.figures import summary_ms, timed
from companion.editions import DEFAULT_EDITION
from companion.formats.commands import event_from_stored_row
from companion.game.edition import Edition
from companion.game.game_or_tally import replay_any
from companion.game.projection import PROJECTION_VERSION
from companion.game.timeline import Recorded, build_timeline
from companion.service import GameService
from companion.service.caches import ViewCache
from events.sqlite import SqliteStore

__all__ = ["bench_cold", "bench_eventsourcing"]


class Counter(Aggregate):
    """The comparison aggregate: a counter and a small dict, changed by one simple event."""

    def __init__(self) -> None:
        self.count = 0
        self.tally: dict[str, int] = {}

    @event("Incremented")
    def increment(self, key: str, by: int) -> None:
        self.count += by
        self.tally[key] = self.tally.get(key, 0) + by


class CounterApp(Application[Any]):
    """An eventsourcing application holding ``Counter`` aggregates."""


def bench_eventsourcing(workdir: Path, events: int, after_snapshot: int, repeats: int) -> dict[str, Any]:
    """``repository.get`` of a ``Counter`` with ``events`` stored events on SQLite: a full replay, and
    with a snapshot taken ``after_snapshot`` events before the end (as the app's cold view folds)."""
    keys = ("florins", "drachmas", "infamy", "souls")
    out: dict[str, Any] = {"events": events}
    for label, snapshot_at in (("full_replay", None), ("snapshot", max(1, events - after_snapshot))):
        path = workdir / f"eventsourcing-{events}-{label}-{uuid.uuid4().hex[:6]}.sqlite3"
        env = {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(path)}
        if snapshot_at is not None:
            env["IS_SNAPSHOTTING_ENABLED"] = "y"
        app = CounterApp(env=env)
        counter = Counter()  # its creation is the first event
        for i in range(events - 1):
            counter.increment(keys[i % len(keys)], 1 + i % 3)
            if snapshot_at is not None and counter.version == snapshot_at:
                app.save(counter)
                app.take_snapshot(counter.id)
        app.save(counter)
        loaded: Counter = app.repository.get(counter.id)
        assert loaded.version == events and loaded.count == counter.count, (loaded.version, events)
        out[label] = summary_ms(timed(functools.partial(app.repository.get, counter.id), repeats))
        app.close()
    return out


def events_after_snapshot(store: SqliteStore, view: Any) -> int:
    """How many events a cold view folds after the newest snapshot it can start from (all without one)."""
    found = store.latest_snapshot(view.game_id, PROJECTION_VERSION, view.edition.content_hash, view.seq)
    return int(view.seq - (found.seq if found is not None else 0))


def bench_cold(
    store: SqliteStore, editions: dict[str, tuple[str, Edition]], game_id: str, repeats: int
) -> dict[str, Any]:
    """A cold ``GameService.view`` (empty cache: snapshot plus the events after it), and a full replay."""
    view = GameService(store, editions, cache=ViewCache()).view(game_id)  # keeps a snapshot
    cold = timed(lambda: GameService(store, editions, cache=ViewCache()).view(game_id), repeats)
    edition = editions[DEFAULT_EDITION][1]

    def full_replay() -> object:
        rows = store.read(game_id)
        records = [Recorded(r.seq, r.action, event_from_stored_row(r.type, r.version, r.data)) for r in rows]
        return replay_any(edition, build_timeline(records).effective_events())

    return {
        "events": view.seq,
        "after_snapshot": events_after_snapshot(store, view),
        "view": summary_ms(cold),
        "full_replay": summary_ms(timed(full_replay, repeats)),
    }
