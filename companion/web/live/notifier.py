"""One notifier per app (so per server process) tells every open live page when its game's log moves
or someone joins or leaves, so that no page polls the database and no stream holds a thread.

Writes made by this process wake the notifier at once (``poke``, called after every successful
write request); writes from other processes (``companion import``, a second server) are found by
one cheap query for the whole process, ``SELECT MAX(rowid) FROM events``, every ``check_seconds``
(on PostgreSQL, by ``LISTEN``: every committed append is announced to every process).
The events table only ever grows and SQLite lets one writer commit at a time, so a larger rowid
always means new rows, and the rows past the last one seen say which games moved.

Each open page is a ``Listener`` with its own wake-up flag: the notifier sets the flags of a game's
listeners, and each listener reads the newest state when it wakes, so a burst of changes costs one
wake-up, never a queue. Under gevent the locks, flags and the watcher thread are greenlet-aware
(monkey-patched), so thousands of listeners cost memory, not threads.

Presence is shared the same way: each process records its open pages in the store's ``presence``
table (at once on a join or a leave, renewed every ``BEAT_SECONDS``; a row not renewed for
``PRESENCE_TTL`` seconds, such as one left by a killed process, no longer counts) and reads the
other processes' rows every ``PRESENCE_SECONDS``, so several workers show one table.
"""

from __future__ import annotations

import itertools
import logging
import sqlite3
import threading
import time
import uuid
from collections import Counter

from flask import Flask, current_app

from companion.web.http.seats import seat_of
from companion.web.live.presence import Presence
from events.factory import connect_store, is_postgres, sqlite_path
from events.presence import SharedPresence

__all__ = [
    "BEAT_SECONDS",
    "CHECK_SECONDS",
    "NOTIFIER_KEY",
    "PRESENCE_SECONDS",
    "PRESENCE_TTL",
    "Listener",
    "Notifier",
    "held_elsewhere",
    "notifier_of",
]

CHECK_SECONDS = 0.075  # how often the whole process looks for writes from other processes
PRESENCE_SECONDS = 0.25  # how often the other processes' open pages are read
BEAT_SECONDS = 5.0  # how often this process renews its open pages in the shared table
PRESENCE_TTL = 20.0  # a page not renewed for this long (its process died) no longer counts
_LOG = logging.getLogger(__name__)


class Listener:
    """One open live page: its game, its seat label, and a flag the notifier sets to wake it."""

    def __init__(self, game_id: str, seat: str, cid: int) -> None:
        self.game_id = game_id
        self.seat = seat
        self.cid = cid
        self.hung_up = False
        self._wake = threading.Event()

    def wake(self) -> None:
        """Something changed for this page (or it hung up): let it look."""
        self._wake.set()

    def hang_up(self) -> None:
        """The page closed its connection: its stream ends at its next wake-up."""
        self.hung_up = True
        self._wake.set()

    def wait(self, timeout: float) -> bool:
        """Sleep until woken or ``timeout`` seconds pass; True when woken."""
        woken = self._wake.wait(max(timeout, 0.0))
        self._wake.clear()  # cleared before the caller reads the state, so no change is missed
        return woken


class Notifier:
    """The live hub of one app: listeners by game, the last seq of each game listened to, presence."""

    def __init__(self, database: str, check_seconds: float = CHECK_SECONDS) -> None:
        self.database = database
        self.check_seconds = check_seconds
        self.presence = Presence()
        self.process = uuid.uuid4().hex  # this notifier's name in the shared presence table
        self._joined: dict[str, tuple[str, str]] = {}  # holder -> (game, seat), not yet shared
        self._left: list[str] = []  # holders gone, not yet shared
        self._beaten = 0.0
        self._looked = 0.0
        self._lock = threading.Lock()
        self._listeners: dict[str, dict[int, Listener]] = {}
        self._seq: dict[str, int] = {}
        self._ids = itertools.count(1)
        self._poked = threading.Event()
        self._watcher: threading.Thread | None = None
        self.checks = 0  # how many times the database was looked at (tests and the benchmark read it)

    # ------------------------------------------------------------------ listeners

    def subscribe(self, game_id: str, seat: str) -> Listener:
        """Register an open page of ``game_id`` (it joins the presence list) and wake the others.

        Call ``note_seq`` with the log's seq read *after* this, so that no write falls between.
        """
        with self._lock:
            cid = next(self._ids)
            listener = Listener(game_id, seat, cid)
            self._listeners.setdefault(game_id, {})[cid] = listener
            self.presence.join_as(game_id, cid, seat)
            self._joined[self._holder(cid)] = (game_id, seat)
            watcher = None
            if self._watcher is None:
                watcher = self._watcher = threading.Thread(
                    target=self._watch, name="companion-live-notifier", daemon=True
                )
            others = list(self._listeners[game_id].values())
        if watcher is not None:
            watcher.start()
        self._poked.set()  # share the join now
        for other in others:
            other.wake()
        return listener

    def unsubscribe(self, listener: Listener) -> None:
        """Forget a page whose stream ended (it leaves the presence list) and wake the others."""
        with self._lock:
            game = self._listeners.get(listener.game_id, {})
            if game.pop(listener.cid, None) is None:
                return
            self.presence.leave(listener.game_id, listener.cid)
            holder = self._holder(listener.cid)
            if self._joined.pop(holder, None) is None:
                self._left.append(holder)
            if not game:
                del self._listeners[listener.game_id]
                self._seq.pop(listener.game_id, None)
            others = list(game.values())
        self._poked.set()  # share the leave now
        for other in others:
            other.wake()

    def listeners(self, game_id: str | None = None) -> int:
        """How many pages are listening (to ``game_id``, or to any game)."""
        with self._lock:
            if game_id is not None:
                return len(self._listeners.get(game_id, {}))
            return sum(len(game) for game in self._listeners.values())

    # ------------------------------------------------------------------ the log

    def note_seq(self, game_id: str, seq: int) -> None:
        """Record that the log of ``game_id`` reached ``seq``; wakes its listeners if that is news."""
        with self._lock:
            if game_id not in self._listeners or seq <= self._seq.get(game_id, -1):
                return
            self._seq[game_id] = seq
            listening = list(self._listeners[game_id].values())
        for listener in listening:
            listener.wake()

    def seq(self, game_id: str) -> int:
        """The newest seq known for ``game_id`` (-1 when nobody listens to it)."""
        with self._lock:
            return self._seq.get(game_id, -1)

    def seats(self, game_id: str) -> tuple[int, Counter[str]]:
        """The presence version of ``game_id`` and how many connections each seat label has."""
        return self.presence.snapshot(game_id)

    def poke(self) -> None:
        """This process just wrote: look at the database now rather than at the next check."""
        self._poked.set()

    # ------------------------------------------------------------------ presence across processes

    def _holder(self, cid: int) -> str:
        return f"{self.process}:{cid}"

    def _share_presence(self, store: SharedPresence, final: bool = False) -> None:
        """Write this process's joins and leaves (all its pages, every ``BEAT_SECONDS``) and read the
        other processes' pages every ``PRESENCE_SECONDS``; wake the pages of every game whose count moved."""
        now = time.time()
        with self._lock:
            beat = now - self._beaten >= BEAT_SECONDS and not final
            if beat:
                held = [
                    (self._holder(cid), game_id, listener.seat)
                    for game_id, game in self._listeners.items()
                    for cid, listener in game.items()
                ]
                self._beaten = now
            else:
                held = [(holder, game, seat) for holder, (game, seat) in self._joined.items()]
            left, self._left = self._left, []
            self._joined.clear()
        try:
            store.hold_presence(self.process, held, now)
            if left or beat:
                store.drop_presence(left, now - PRESENCE_TTL)
            if final or (not held and not left and now - self._looked < PRESENCE_SECONDS):
                return
            self._looked = now
            found = store.presence_elsewhere(self.process, now - PRESENCE_TTL)
        except Exception:
            _LOG.warning("the live notifier could not share presence", exc_info=True)
            return
        with self._lock:
            games = list(self._listeners)
        for game_id in self.presence.merge_elsewhere(found, games):
            with self._lock:
                listening = list(self._listeners.get(game_id, {}).values())
            for listener in listening:
                listener.wake()

    def _stopped(self) -> bool:
        """True (and the watcher forgotten) when nobody listens any more."""
        with self._lock:
            if self._listeners:
                return False
            self._watcher = None
            return True

    # ------------------------------------------------------------------ the watcher

    def _watch(self) -> None:
        """The one loop of this process that looks at the database; it ends when nobody listens."""
        if is_postgres(self.database):
            self._watch_postgres()
            return
        path = str(sqlite_path(self.database))  # a plain path or a sqlite:/// URL
        conn = sqlite3.connect(path, timeout=10, isolation_level=None, check_same_thread=False)
        store = connect_store(self.database)
        last_rowid: int | None = None
        try:
            while True:
                if self._stopped():
                    self._share_presence(store, final=True)
                    return
                self._share_presence(store)
                try:
                    last_rowid = self._check(conn, last_rowid)
                except sqlite3.Error:
                    _LOG.warning("the live notifier could not read the log", exc_info=True)
                self._poked.wait(self.check_seconds)
                self._poked.clear()
        finally:
            conn.close()
            store.close()

    def _watch_postgres(self) -> None:
        """On PostgreSQL every committed append is announced (``LISTEN``/``NOTIFY``, from any process):
        listen, note where each game listened to stands, then wake pages as announcements arrive."""
        from events.postgres import PostgresStore
        from events.postgres_notify import Notifications

        try:
            with Notifications(self.database) as feed:
                store = PostgresStore.connect(self.database)
                try:
                    with self._lock:
                        games = list(self._listeners)
                    for game_id in games:
                        self.note_seq(game_id, store.last_seq(game_id))
                    while True:
                        if self._stopped():
                            self._share_presence(store, final=True)
                            return
                        self._share_presence(store)
                        self.checks += 1
                        for appended in feed.poll(self.check_seconds):
                            self.note_seq(appended.game_id, appended.last_seq)
                finally:
                    store.close()
        except Exception:
            _LOG.warning("the live notifier lost its PostgreSQL connection", exc_info=True)
            with self._lock:
                self._watcher = None

    def _check(self, conn: sqlite3.Connection, last_rowid: int | None) -> int:
        """One look at the log; returns the newest rowid seen."""
        self.checks += 1
        newest = int(conn.execute("SELECT COALESCE(MAX(rowid), 0) FROM events").fetchone()[0])
        if last_rowid is not None and newest == last_rowid:
            return newest
        with self._lock:
            games = list(self._listeners)
        if last_rowid is None:  # the first look: where every game listened to stands
            marks = [(g, self._last_seq(conn, g)) for g in games]
        else:
            rows = conn.execute(
                "SELECT game_id, MAX(seq) FROM events WHERE rowid > ? AND rowid <= ? GROUP BY game_id",
                (last_rowid, newest),
            )
            marks = [(str(g), int(s)) for g, s in rows]
        for game_id, seq in marks:
            self.note_seq(game_id, seq)
        return newest

    @staticmethod
    def _last_seq(conn: sqlite3.Connection, game_id: str) -> int:
        row = conn.execute("SELECT COALESCE(MAX(seq), 0) FROM events WHERE game_id = ?", (game_id,)).fetchone()
        return int(row[0])


NOTIFIER_KEY = "companion.notifier"
"""Where ``app.extensions`` keeps the app's notifier (``live.stream.install_notifier``)."""


def notifier_of(app: Flask | None = None) -> Notifier:
    """The notifier of ``app`` (the current app by default)."""
    found: Notifier = (app or current_app).extensions[NOTIFIER_KEY]
    return found


def held_elsewhere(game_id: str) -> frozenset[int]:
    """The seats another phone holds now: a page of this game is open live at that seat (this phone's own
    seat is its own, never held elsewhere)."""
    _version, seats = notifier_of().seats(game_id)
    mine = seat_of(game_id)
    return frozenset(int(label) for label, n in seats.items() if n > 0 and label.isdigit() and int(label) != mine)
