"""Snapshots: a rebuilt game state as JSON and back, typed by the state's own annotations, read from
and written to the store.

A snapshot lets a cold start of a long game fold only the events after it. It is disposable
and never the truth: it is stored beside the log with the projection's code version and the
edition's hash, and ignored when either differs (or when undo or a correction changed what
was in effect before it). The edition itself is not written: it is the game's pinned edition,
given back on load; a board side is written by its id.
"""

from __future__ import annotations

import json
import logging
import sqlite3
from collections.abc import Callable
from typing import Any

from companion.game.edition import Edition, Side
from companion.game.game_or_tally import AnyState
from companion.game.projection import PROJECTION_VERSION
from companion.game.state import GameState
from companion.game.tally import TallyState
from companion.game.timeline import Timeline
from companion.log_view import AnyView
from events.shapes import fields_of, shape_of
from events.store import Store

__all__ = [
    "SNAPSHOT_EVERY",
    "SnapshotError",
    "in_effect",
    "save_snapshot",
    "state_from_json",
    "state_to_json",
    "usable_snapshot",
]

logger = logging.getLogger(__name__)

SNAPSHOT_EVERY = 100  # events between two snapshots of a game: a cold start folds about this many, plus the
# latest actions kept for undo

Dump = Callable[[Any], Any]
Load = Callable[[Any, Edition], Any]
KINDS: dict[str, type] = {"game": GameState, "tally": TallyState}


class SnapshotError(ValueError):
    """A stored snapshot that does not fit the state's shape (it is then ignored)."""


def _dumper(annotation: Any) -> Dump:
    if annotation is Edition:
        return lambda v: None
    if annotation is Side:
        return lambda v: v.id
    shape = shape_of(annotation)
    match shape.kind:
        case "optional":
            dump_inner = _dumper(shape.args[0])
            return lambda v: None if v is None else dump_inner(v)
        case "scalar":
            return lambda v: v
        case "enum":
            return lambda v: v.value
        case "dict":
            key, value = _dumper(shape.args[0]), _dumper(shape.args[1])
            return lambda v: [[key(k), value(x)] for k, x in v.items()]
        case "items":
            item = _dumper(shape.args[0])
            return lambda v: [item(x) for x in v]
        case "tuple":
            items = [_dumper(a) for a in shape.args]
            return lambda v: [d(x) for d, x in zip(items, v, strict=True)]
        case "frozenset":  # in a stable order: the same state always writes the same text
            member = _dumper(shape.args[0])
            return lambda v: sorted((member(x) for x in v), key=lambda m: json.dumps(m, sort_keys=True))
        case "dataclass":
            return _dataclass_dumper(shape.args[0])
    raise TypeError(f"no snapshot form for {annotation!r}")


def _scalar(kind: type) -> Load:
    def scalar(v: Any, _ed: Edition) -> Any:
        if type(v) is not kind:
            raise SnapshotError(f"{v!r} is not {kind.__name__}")
        return v

    return scalar


def _loader(annotation: Any) -> Load:
    if annotation is Edition:
        return lambda _v, ed: ed
    if annotation is Side:
        return lambda v, ed: ed.sides[v]
    shape = shape_of(annotation)
    match shape.kind:
        case "optional":
            load_inner = _loader(shape.args[0])
            return lambda v, ed: None if v is None else load_inner(v, ed)
        case "scalar":
            return _scalar(shape.args[0])
        case "enum":
            cls = shape.args[0]
            return lambda v, _ed: cls(v)
        case "dict":
            key, value = _loader(shape.args[0]), _loader(shape.args[1])
            return lambda v, ed: {key(k, ed): value(x, ed) for k, x in v}
        case "items":
            item = _loader(shape.args[0])
            return lambda v, ed: tuple(item(x, ed) for x in v)
        case "tuple":
            items = [_loader(a) for a in shape.args]
            return lambda v, ed: tuple(f(x, ed) for f, x in zip(items, v, strict=True))
        case "frozenset":
            member = _loader(shape.args[0])
            return lambda v, ed: frozenset(member(x, ed) for x in v)
        case "dataclass":
            return _dataclass_loader(shape.args[0])
    raise TypeError(f"no snapshot form for {annotation!r}")


def _fields(cls: type) -> list[tuple[str, Any]]:
    return [(f.name, annotation) for f, annotation in fields_of(cls)]


_DUMPERS: dict[type, Dump] = {}
_LOADERS: dict[type, Load] = {}


def _dataclass_dumper(cls: type) -> Dump:
    if cls not in _DUMPERS:
        parts = [(name, _dumper(annotation)) for name, annotation in _fields(cls)]

        def dump(v: Any) -> Any:
            return {name: part(getattr(v, name)) for name, part in parts}

        _DUMPERS[cls] = dump
    return _DUMPERS[cls]


def _dataclass_loader(cls: type) -> Load:
    if cls not in _LOADERS:
        parts = [(name, _loader(annotation)) for name, annotation in _fields(cls)]
        names = {name for name, _ in parts}

        def load(v: Any, ed: Edition) -> Any:
            if type(v) is not dict or set(v) != names:
                raise SnapshotError(f"{cls.__name__}: fields differ")
            return cls(**{name: part(v[name], ed) for name, part in parts})

        _LOADERS[cls] = load
    return _LOADERS[cls]


def state_to_json(state: AnyState) -> str:
    """The state as JSON text (its kind, then its fields)."""
    kind = "tally" if isinstance(state, TallyState) else "game"
    return json.dumps({"kind": kind, "state": _dataclass_dumper(type(state))(state)}, separators=(",", ":"))


def state_from_json(text: str, edition: Edition) -> AnyState:
    """The state written by ``state_to_json``, with ``edition`` as its pinned edition."""
    try:
        raw = json.loads(text)
        cls = KINDS[raw["kind"]]
        state: AnyState = _dataclass_loader(cls)(raw["state"], edition)
    except (KeyError, TypeError, ValueError) as exc:
        raise SnapshotError(f"snapshot does not load: {exc}") from exc
    return state


def in_effect(timeline: Timeline, seq: int) -> str:
    """What was in effect up to ``seq``: the live actions and the corrections answering for entries.

    A snapshot at ``seq`` serves a later timeline only when this is still the same for it: an
    undo or a correction reaching behind the snapshot makes it useless, never wrong.
    """
    live = sorted(a for a in timeline.live if a <= seq)
    replacements = sorted([target, r.seq] for target, r in timeline.replacements.items() if target <= seq)
    return json.dumps({"live": live, "replacements": replacements}, separators=(",", ":"))


def usable_snapshot(
    store: Store, game_id: str, edition: Edition, timeline: Timeline, seq: int
) -> tuple[int, AnyState] | None:
    """The newest stored state of this projection and edition, at ``seq`` or before, that still holds for
    ``timeline``: (its seq, the state), or None."""
    found = store.latest_snapshot(game_id, PROJECTION_VERSION, edition.content_hash, seq)
    if found is None or found.in_effect != in_effect(timeline, found.seq):
        return None
    try:
        return found.seq, state_from_json(found.state, edition)
    except SnapshotError:
        return None


def save_snapshot(view: AnyView, store: Store) -> None:
    """Store a snapshot of ``view`` next to its log in ``store`` (a shortcut for the next cold start): the
    state before the oldest action held for undo when there is one, else the state now.

    A snapshot is disposable: when it cannot be written (a read-only or busy file), the game
    is served all the same and the next cold start simply folds more events.
    """
    seq, state = (view.priors[0][0] - 1, view.priors[0][1]) if view.priors else (view.seq, view.state)
    try:
        store.save_snapshot(
            view.game_id,
            seq,
            PROJECTION_VERSION,
            view.edition.content_hash,
            in_effect(view.timeline, seq),
            state_to_json(state),
        )
    except sqlite3.Error:
        logger.warning("could not keep a snapshot of game %s at seq %d", view.game_id, seq, exc_info=True)
