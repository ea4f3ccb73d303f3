"""The one path every page, the CLI and the API take: load → replay → decide → append.

The service owns the imperative shell around the pure core: it reads the log, upcasts and
replays it with the game's pinned edition, asks the rules, and appends what they decide in
one durable transaction. The log is the only truth: rebuilt views are cached in a disposable
per-process ``ViewCache``, served only after the store's last seq for the game matches, brought
forward from new rows, and extended by the write path with the events it just appended.

The editions a game is created with and replayed by come from the edition library
(``service.editions``); switching a game's edition is ``service.switches``, through ``record``.
"""

from __future__ import annotations

import functools
import hashlib
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.formats.commands import command_from_json, command_to_json, to_new_events
from companion.game.audit import LoggedAction, commands_of
from companion.game.commands import Command, CreateGame, Redo, ReplaceEntry, StartTally, TallyCommand, Undo
from companion.game.edition import Edition
from companion.game.errors import Choice, RuleViolation
from companion.game.game_or_tally import AnyState, decide_any, decide_start, replay_any
from companion.game.replacement import Recheck, decide_replace
from companion.game.timeline import Recorded, build_timeline, decide_redo, decide_undo, records_of
from companion.log_view import AnyView, LogView
from companion.service.caches import ViewCache
from companion.service.editions import EditionService
from companion.service.replay import (
    PRIOR_STATES,
    brought_forward,
    cyclic_gc_paused,
    decoded,
    live_actions,
    rebuild,
    rows_as_stored,
    switches,
)
from companion.service.snapshot import SNAPSHOT_EVERY, save_snapshot, usable_snapshot
from companion.tokens import new_join_code, new_token
from events.catalog import Event, LocationSetup
from events.store import KeyReused, StaleSequence, Store, UnknownGame

__all__ = ["Conflict", "GameService", "KeyReused", "Outcome", "UnknownGame", "refusal_of"]


def _durable() -> None:
    """An outcome's ``settle`` when its events were durable before it was returned."""


@dataclass(frozen=True)
class Outcome:
    """What a command did: the fresh view, the events it appended, and if it was a repeat.

    ``settle``: for an entry recorded ``background_commit`` (``GameService.execute``), waits until its events are
    durable and
    only then caches the fresh view for every request (raising, the view cached for no one, when they could not be
    stored); call it before anything is said of the entry. At once for any other."""

    view: AnyView
    events: tuple[Event, ...]
    duplicate: bool
    settle: Callable[[], None] = field(default=_durable, compare=False, repr=False)


class Conflict(Exception):
    """The screen that sent a command was drawn from an older seq; ``view`` is fresh."""

    def __init__(self, view: AnyView, expected: int) -> None:
        super().__init__(f"stale seq {expected}, game is at {view.seq}")
        self.view = view
        self.expected = expected


class GameService:
    """Create, read and change games through the rules and the event store."""

    def __init__(
        self,
        store: Store,
        editions: Mapping[str, tuple[str, Edition]],
        rng: random.Random | None = None,
        cache: ViewCache[AnyView] | None = None,
        read_once: bool = False,
    ) -> None:
        self.store = store
        self.library = EditionService(store, editions)  # the shipped editions and those the store keeps
        self.rng = rng or random.SystemRandom()
        self.default_actor: str | None = None
        self.cache: ViewCache[AnyView] = cache if cache is not None else ViewCache()
        # ``read_once``: a service that lives for one request reads where each game's log stands once;
        # its later reads take that view while the shared cache still holds it (no write came through
        # this process since). Only the append's own transaction must see the log as it is, and does.
        self._seen: dict[str, AnyView] | None = {} if read_once else None
        # the games whose view this request took as the process caches it, unread (``view_at``): checked against the log
        # by the append under its lock, or by ``checked`` before anything else is said of them
        self._unchecked: set[str] = set()
        # an entry recorded ``background_commit`` whose COMMIT is still running: this service's own view of its game,
        # cached for
        # every request only once it is durable (``Outcome.settle``)
        self._unsettled: dict[str, AnyView] = {}
        # ``later``: where a snapshot is written when something is to wait for none (a page's answer: after it is
        # sent, ``web.http.db``); a job given it is run with a store of its own. None: written at once, here.
        self.later: Callable[[Callable[[Store], None]], None] | None = None

    # ------------------------------------------------------------------ reading

    def view(self, game_id: str, fresh: bool = False) -> AnyView:
        """Read, upcast and replay a game; raises ``UnknownGame``.

        A cached view is served while the log has not moved (what it holds past the view's seq is read every time:
        one indexed read), brought forward from the new rows when it has, and rebuilt when it is gone.
        A service of one request (``read_once``) reads the log once per game unless asked ``fresh``.
        """
        if not fresh and game_id in self._unsettled:
            return self._unsettled[game_id]
        cached = self.cache.get(game_id)
        seen = self._seen
        if seen is not None and not fresh and cached is not None and seen.get(game_id) is cached:
            return cached
        view = self._read(game_id, cached)
        if seen is not None:
            seen[game_id] = view
        return view

    def cached_view(self, game_id: str) -> AnyView | None:
        """The view this process caches of ``game_id``, not checked against the log (None when none is cached): what
        never changes in a game is read from it (that it exists, and its kind: a game is never deleted nor made a
        tally)."""
        return self.cache.get(game_id)

    def view_at(self, game_id: str, seq: int | None) -> AnyView:
        """The game as a screen drawn at ``seq`` sends a command from it: the view this process caches, taken unread
        when it stands at that very seq (a request of its own, ``read_once``), else ``view``.

        Taken unread, it is checked where the entry is recorded: the append reads the log under its lock, and a log
        moved on meanwhile (an entry made through another process) is a ``Conflict`` there, as it was before when read
        here. An answer that records nothing (a refusal, a loan to confirm, a seat refused) must first take the view
        from ``checked``. A tap thus reads where the log stands once, under the append's lock."""
        seen = self._seen
        if seen is not None and seq is not None and game_id not in seen and game_id not in self._unsettled:
            cached = self.cache.get(game_id)
            if cached is not None and cached.seq == seq:
                seen[game_id] = cached
                self._unchecked.add(game_id)
                return cached
        return self.view(game_id)

    def checked(self, game_id: str) -> AnyView:
        """``view``, read from the log when this request took it unread (``view_at``): what is said of the game without
        an entry recorded is said of it as the log has it (moved on: the caller answers a conflict)."""
        if game_id in self._unchecked:
            self._unchecked.discard(game_id)
            return self.view(game_id, fresh=True)
        return self.view(game_id)

    def _read(self, game_id: str, cached: AnyView | None) -> AnyView:
        if cached is not None:
            since = self.store.read_past(game_id, cached.seq)  # where the log stands and what came since: one read
            if since is not None:
                return cached if not since else self.cache.put(game_id, brought_forward(cached, tuple(since)))
        with cyclic_gc_paused():
            return self.cache.put(game_id, self._cold(game_id))

    def _cold(self, game_id: str) -> AnyView:
        """The game rebuilt from its log, folding only the events after a snapshot when one fits."""
        meta = self.store.game(game_id)
        rows = tuple(self.store.read(game_id))
        edition = self.library.pinned_edition(meta["edition_hash"])
        records = decoded(rows)
        timeline = build_timeline(records)
        seq = rows[-1].seq if rows else 0
        live = live_actions(timeline)
        # a snapshot behind the latest live actions, so the states before them are held for undo
        window = live[-PRIOR_STATES].seq - 1 if len(live) > PRIOR_STATES and not timeline.replacements else seq
        # a switch of edition folds every event before it again: a snapshot (of the pinned edition) cannot
        base = None if switches(timeline) else usable_snapshot(self.store, game_id, edition, timeline, window)
        state, priors = rebuild(edition, timeline, base)
        view = LogView(
            game_id=game_id,
            kind=meta["kind"],
            edition=edition,
            rows=rows,
            timeline=timeline,
            state=state,
            seq=seq,
            read_token=meta["read_token"],
            write_token=meta["write_token"],
            join_code=meta.get("join_code"),
            priors=priors,
        )
        if seq - (base[0] if base else 0) >= SNAPSHOT_EVERY:
            self._snapshot_soon(view)
        return view

    def _snapshot_soon(self, view: AnyView) -> None:
        """``save_snapshot`` now, or where ``later`` puts it (after the answer is sent: its JSON and a second
        durable write, that no tap waits for)."""
        if self.later is None:
            save_snapshot(view, self.store)
        else:
            self.later(functools.partial(save_snapshot, view))

    # ------------------------------------------------------------------ writing

    def deal_florence(self, edition: Edition, key: str | None = None) -> tuple[LocationSetup, ...]:
        """A random layout of the location tiles: one free and one special per quarter.

        Dealt for a creation ``key``, the layout follows from the key, so a retry of the very same
        request (same secret key) is the very same command and is answered with the same game.
        """
        rng = random.Random(hashlib.sha256(key.encode("utf-8")).digest()) if key is not None else self.rng
        free = [loc["id"] for loc in edition.raw["locations"] if loc["kind"] == "free"]
        special = [loc["id"] for loc in edition.raw["locations"] if loc["kind"] == "special"]
        rng.shuffle(free)
        rng.shuffle(special)
        return tuple(
            LocationSetup(location, quarter)
            for quarter, pair in zip(edition.quarters, zip(free, special, strict=True), strict=True)
            for location in pair
        )

    def create_game(
        self,
        command: CreateGame | StartTally,
        idempotency_key: str,
        edition_id: str | None = None,
        actor: str | None = None,
    ) -> str:
        """Create a game (or a quick tally) and return its id.

        The same key with the same command (a retry) creates it once; the key with another command
        raises ``KeyReused`` and reveals nothing about the game that holds it.
        """
        library = self.library
        edition = library.edition(edition_id or next(iter(library.shipped)))
        return self._start(edition, library.shipped[edition.id][0], command, idempotency_key, actor)

    def create_game_with(
        self, content_hash: str, command: CreateGame, idempotency_key: str, actor: str | None = None
    ) -> str:
        """Create a game pinned to the shipped or saved edition with this hash."""
        edition = self.library.edition_by_hash(content_hash)
        return self._start(edition, self.library.edition_text(content_hash), command, idempotency_key, actor)

    def _start(
        self, edition: Edition, text: str, command: CreateGame | StartTally, idempotency_key: str, actor: str | None
    ) -> str:
        """Record the start of a game (or tally) on ``edition`` (kept by its hash with its ``text``)."""
        events = decide_start(edition, command)
        self.library.keep(edition, text)
        game_id = self.store.create_game(
            game_id=new_token(),
            kind="tally" if isinstance(command, StartTally) else "game",
            edition_hash=edition.content_hash,
            tokens=(new_token(), new_token()),
            events=to_new_events(events),
            idempotency_key=idempotency_key,
            command=command_to_json(command),
            actor=actor,
        )
        self.store.set_join_code(game_id, new_join_code())
        return game_id

    def game_for_code(self, code: str) -> str | None:
        """The game a typed join code opens (dashes, spaces and case ignored)."""
        cleaned = "".join(ch for ch in code.upper() if ch.isalnum())
        return self.store.game_for("join_code", cleaned) if len(cleaned) == 10 else None

    def game_for_read_token(self, token: str) -> str | None:
        """The game a viewer link shows."""
        return self.store.game_for("read_token", token)

    def record(
        self,
        game_id: str,
        expected_seq: int,
        key: str,
        produce: Callable[[AnyView], list[Event]],
        command: dict[str, Any] | None,
        actor: str | None,
        background_commit: bool = False,
    ) -> Outcome:
        """The one write path: ``produce`` judges the game as drawn at ``expected_seq`` and its events are
        appended under ``key`` with ``command`` (its JSON, as the log keeps it).

        Raises ``Conflict`` when the log moved on, ``RuleViolation`` as ``produce`` does, ``KeyReused`` when
        ``key`` was recorded with another command; the key recorded with this very command is a ``duplicate``.
        """
        view = self.view(game_id)
        if expected_seq != view.seq:
            # a screen behind the log: a double tap whose first tap was recorded, a key reused, or stale
            prior = self.store.recorded_under_key(game_id, key)
            if prior is not None:
                if prior[1] != command:
                    raise KeyReused()
                return Outcome(self.view(game_id, fresh=True), (), duplicate=True)
            view = self.view(game_id, fresh=True)
            if expected_seq != view.seq:
                raise Conflict(view, expected_seq)
        try:
            events = produce(view)
        except RuleViolation:
            # a key already recorded says more than the rule: it was reused for another command, or repeated
            prior = self.store.recorded_under_key(game_id, key)
            if prior is None:
                raise
            if prior[1] != command:
                raise KeyReused() from None
            return Outcome(view, (), duplicate=True)
        # else a key already recorded is found under the append's own lock (``KeyReused``, or ``duplicate``)
        new_events = to_new_events(events)
        who = actor or self.default_actor
        try:
            result = self.store.append(
                game_id, expected_seq, new_events, key, command, who, background_commit=background_commit
            )
        except StaleSequence as exc:
            raise Conflict(self.view(game_id, fresh=True), expected_seq) from exc
        if result.duplicate:  # a twin request recorded this key in between: its events, not ours, are in the log
            return Outcome(self.view(game_id, fresh=True), (), True)
        try:
            rows = rows_as_stored(result.first_seq, new_events, result.recorded_at, key, command, who)
            fresh = brought_forward(view, rows, events)
        except BaseException:
            if result.settle is not None:
                result.settle()
            raise
        if result.settle is None:
            return self._share(game_id, view, fresh, events)
        committing = result.settle
        self._unsettled[game_id] = fresh

        def settle() -> None:
            try:
                committing()  # raises when the COMMIT failed: nothing stored, the view cached for no one
            finally:
                self._unsettled.pop(game_id, None)
            self._share(game_id, view, fresh, events)

        return Outcome(fresh, tuple(events), False, settle=functools.cache(settle))

    def _share(self, game_id: str, view: AnyView, fresh: AnyView, events: list[Event]) -> Outcome:
        """``fresh`` (``view`` brought forward by durable ``events``) cached for every request, a snapshot made soon
        when it crossed a multiple of ``SNAPSHOT_EVERY``."""
        if fresh.seq // SNAPSHOT_EVERY > view.seq // SNAPSHOT_EVERY:
            self._snapshot_soon(fresh)
        cached = self.cache.put(game_id, fresh)
        if self._seen is not None:
            self._seen[game_id] = cached
        self._unchecked.discard(game_id)  # the append read the log under its lock: ``fresh`` follows it
        return Outcome(cached, tuple(events), False)

    def execute(
        self,
        game_id: str,
        expected_seq: int,
        command: Command | TallyCommand,
        idempotency_key: str,
        actor: str | None = None,
        judged: tuple[AnyView, list[Event]] | None = None,
        background_commit: bool = False,
    ) -> Outcome:
        """Judge ``command`` against the game drawn at ``expected_seq`` and record it.

        Raises ``Conflict`` when the log moved on, ``RuleViolation`` when illegal. A repeated
        ``idempotency_key`` records nothing and reports ``duplicate``; the key reused for another
        command raises ``KeyReused``. ``judged``: the events ``command`` was already judged to make on
        a view, taken as they are when that very view is the one it is recorded on. ``background_commit``: the store's
        COMMIT may still be running when this returns (the caller draws its answer meanwhile); the outcome's
        ``settle`` must be called before anything is said of it.
        """

        def produce(view: AnyView) -> list[Event]:
            if judged is not None and judged[0] is view:
                return judged[1]
            return decide_any(view.state, command)

        return self.record(
            game_id,
            expected_seq,
            idempotency_key,
            produce,
            command_to_json(command),
            actor,
            background_commit=background_commit,
        )

    def undo(
        self,
        game_id: str,
        expected_seq: int,
        idempotency_key: str,
        to_action: int | None = None,
        actor: str | None = None,
        background_commit: bool = False,
    ) -> Outcome:
        """Take back the latest action, or every action from ``to_action`` on (``background_commit``: as
        ``execute``)."""
        return self.record(
            game_id,
            expected_seq,
            idempotency_key,
            lambda view: list(decide_undo(view.timeline, to_action)),
            command_to_json(Undo(to_action)),
            actor,
            background_commit=background_commit,
        )

    def redo(
        self,
        game_id: str,
        expected_seq: int,
        idempotency_key: str,
        actor: str | None = None,
        background_commit: bool = False,
    ) -> Outcome:
        """Put back the most recently undone action (``background_commit``: as ``execute``)."""
        return self.record(
            game_id,
            expected_seq,
            idempotency_key,
            lambda view: [decide_redo(view.timeline)],
            command_to_json(Redo()),
            actor,
            background_commit=background_commit,
        )

    def commands(self, view: AnyView) -> dict[int, Any]:
        """Every entry's command as it stands now (replacements answer for what they replace)."""
        actions = [
            LoggedAction(r.seq, command_from_json(r.command, checked=False) if r.command else None, ())
            for r in view.rows
            if r.command is not None
        ]
        return commands_of(actions)

    def check_replacement(self, game_id: str, target: int, replacement: Any) -> tuple[AnyView, Recheck]:
        """What replacing entry ``target`` would record, and the first later entry that breaks."""
        view = self.view(game_id)
        return view, decide_replace(view.edition, view.timeline, target, replacement, self.commands(view))

    def replace(
        self,
        game_id: str,
        expected_seq: int,
        idempotency_key: str,
        target: int,
        replacement: Any,
        actor: str | None = None,
    ) -> Outcome:
        """Replace an earlier entry, if every later entry still holds; else a refusal naming it."""

        def produce(view: AnyView) -> list[Event]:
            recheck = decide_replace(view.edition, view.timeline, target, replacement, self.commands(view))
            if recheck.broken is not None and recheck.reason is not None:
                raise RuleViolation(
                    "later_entry_breaks",
                    {"entry": recheck.broken, "why": recheck.reason.code, **recheck.reason.params},
                    [Choice("choice.undo_to", {"action": recheck.broken})],
                )
            return list(recheck.events)

        return self.record(
            game_id, expected_seq, idempotency_key, produce, command_to_json(ReplaceEntry(target, replacement)), actor
        )

    def preview_undo(self, game_id: str, to_action: int | None = None) -> tuple[AnyView, tuple[int, ...], AnyState]:
        """What an undo would take back, and the state it would leave: nothing is recorded."""
        view = self.view(game_id)
        undos = decide_undo(view.timeline, to_action)
        reverted = tuple(u.action for u in undos)
        head = view.seq + 1
        undone = records_of(view.timeline.actions) + [Recorded(head + i, head, u) for i, u in enumerate(undos)]
        # the timeline the undo would leave: corrections still answer for what they replace
        return view, reverted, replay_any(view.edition, build_timeline(undone).effective_events())


def refusal_of(exc: RuleViolation) -> dict[str, Any]:
    """A refusal as plain data (for JSON answers and tests), with its English sentence template."""
    return {
        "code": exc.code,
        "key": exc.key,
        "sentence": exc.sentence,
        "params": exc.params,
        "rule": exc.rule,
        "alternatives": [{"key": c.key, "params": c.params} for c in exc.alternatives],
    }
