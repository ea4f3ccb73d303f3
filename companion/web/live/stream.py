"""Live updates: every open page learns of a new entry, and of who joins or leaves, at once, by
Server-Sent Events.

The stream sends ``event: seq`` with the log's sequence number as its id, so a phone that lost
its connection (the browser resends ``Last-Event-ID``, or the page passes ``since``) is told at
once where the log stands and fetches the fresh state; a page without SSE polls ``/seq``. The
stream also sends who is connected (``event: presence``). A stream neither polls the database nor
holds a connection to it: it sleeps until the app's notifier wakes it (``notifier.py``), and it
leaves the presence list as soon as its page hangs up (``hangup.py``).
"""

from __future__ import annotations

import json
import os
import random
import threading
import time
from collections import Counter
from collections.abc import Callable, Generator, Iterator

from flask import Blueprint, Flask, Response, abort, jsonify, request
from markupsafe import escape

from companion.service import is_game
from companion.web.http.db import current_flask_app, service
from companion.web.http.phone import seat_of
from companion.web.live.hangup import PROBE_SECONDS, HangupWatch
from companion.web.live.notifier import CHECK_SECONDS, NOTIFIER_KEY, Listener, Notifier, notifier_of
from companion.web.words.bidi import bdi
from companion.web.words.catalogue import gettext
from companion.web.words.glossary import player_letter

__all__ = ["StreamSlots", "bp", "install_notifier", "stream_game", "stream_slots"]

bp = Blueprint("live", __name__)

# The streams one worker holds open: gunicorn's gevent worker accepts 4,000 connections
# (``companion.cli.serve.WORKER_CONNECTIONS``); streams take at most 3,000 of them, so page loads and
# writes are answered however many live pages are open. One client (address) and one game (its
# phones' link and its big-screen link together) may hold only a share of them: beyond, a 503 with
# ``Retry-After`` (the page then polls ``/seq``). ``LIVE_STREAMS_PER_*`` in the app's config change them.
STREAMS_PER_WORKER = 3000
STREAMS_PER_CLIENT = 64
STREAMS_PER_GAME = 256
STREAMS_RETRY_AFTER = 30
HEARTBEAT_SECONDS = 15.0
STREAM_SECONDS = 600.0  # then the browser reconnects (with Last-Event-ID) and a fresh stream starts
WRITE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def install_notifier(app: Flask) -> Notifier:
    """Give ``app`` its notifier, woken after every successful write request."""
    notifier = Notifier(app.config["DATABASE"], float(app.config.get("LIVE_CHECK_SECONDS", CHECK_SECONDS)))
    app.extensions[NOTIFIER_KEY] = notifier

    @app.after_request
    def wake_the_notifier(response: Response) -> Response:
        if request.method in WRITE_METHODS and response.status_code < 400:
            notifier.poke()
        return response

    return notifier


def presence_words() -> dict[str, str]:
    """The words of the presence list, in the reader's language (read once, in the request)."""
    return {
        "here": gettext("here"),
        "away": gettext("away"),
        "shared": gettext("shared phones: %(n)s"),
        "viewer": gettext("big screens: %(n)s"),
    }


def presence_html(names: list[tuple[str, str]], seats: dict[str, int], words: dict[str, str]) -> str:
    """Who is connected, as a short list (names are escaped, and isolated when they could turn the
    text around them: they are players' own words)."""
    parts = []
    for index, (name, letter) in enumerate(names):
        here = seats.get(str(index), 0) > 0
        label = words["here"] if here else words["away"]
        parts.append(
            f'<li class="{"here" if here else "away"}"><span aria-hidden="true">{escape(letter)}</span> '
            f"{bdi(name)}: {escape(label)}</li>"
        )
    for key in ("shared", "viewer"):
        if seats.get(key, 0):
            parts.append(f"<li>{escape(words[key] % {'n': seats[key]})}</li>")
    return f'<ul class="presence-list">{"".join(parts)}</ul>'


class StreamSlots:
    """How many streams this worker holds open, in all, per client and per game."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.total = 0
        self.clients: Counter[str] = Counter()
        self.games: Counter[str] = Counter()

    def take(self, client: str, game_id: str, limits: tuple[int, int, int]) -> bool:
        """Hold one slot for a stream of ``client`` on ``game_id``; False when a limit is reached."""
        per_worker, per_client, per_game = limits
        with self._lock:
            if self.total >= per_worker or self.clients[client] >= per_client or self.games[game_id] >= per_game:
                return False
            self.total += 1
            self.clients[client] += 1
            self.games[game_id] += 1
            return True

    def give(self, client: str, game_id: str) -> None:
        """Let go of a slot ``take`` held."""
        with self._lock:
            self.total -= 1
            self.clients[client] -= 1
            self.games[game_id] -= 1
            if self.clients[client] <= 0:
                del self.clients[client]
            if self.games[game_id] <= 0:
                del self.games[game_id]


def stream_slots(app: Flask) -> StreamSlots:
    """The stream slots of ``app`` in this worker."""
    slots: StreamSlots = app.extensions.setdefault("companion.stream_slots", StreamSlots())
    return slots


def _limit(app: Flask, name: str, default: int) -> int:
    """A stream limit: the app's config ``name``, else env ``COMPANION_<name>``, else ``default``."""
    return int(app.config.get(name) or os.environ.get(f"COMPANION_{name}") or default)


def _limits(app: Flask) -> tuple[int, int, int]:
    return (
        _limit(app, "LIVE_STREAMS_PER_WORKER", STREAMS_PER_WORKER),
        _limit(app, "LIVE_STREAMS_PER_CLIENT", STREAMS_PER_CLIENT),
        _limit(app, "LIVE_STREAMS_PER_GAME", STREAMS_PER_GAME),
    )


class LiveStream:
    """The body of one live response: leaves the presence list (and frees its slot) when closed, even
    if never read."""

    def __init__(
        self,
        notifier: Notifier,
        listener: Listener,
        hangup: HangupWatch,
        body: Generator[str, None, None],
        release: Callable[[], None] = lambda: None,
    ) -> None:
        self._notifier = notifier
        self._listener = listener
        self._hangup = hangup
        self._body = body
        self._release: Callable[[], None] | None = release

    def __iter__(self) -> Iterator[str]:
        return self._body

    def close(self) -> None:
        """Called by the server when the response ends (or the page hung up)."""
        self._body.close()
        self._hangup.stop()
        self._notifier.unsubscribe(self._listener)
        release, self._release = self._release, None
        if release is not None:
            release()


def stream_game(game_id: str, seat: str, since: int) -> LiveStream:
    """The event stream of one game for one connection."""
    app = current_flask_app()
    notifier = notifier_of(app)
    view = service().view(game_id)
    names = [(p.name, player_letter(p.colour, p.letter)) for p in view.state.players] if is_game(view) else []
    words = presence_words()
    slots, client = stream_slots(app), request.remote_addr or "?"
    if not slots.take(client, game_id, _limits(app)):
        busy = Response(
            gettext("Too many live pages are open: this page checks for news every few seconds instead."),
            status=503,
            mimetype="text/plain",
            headers={"Retry-After": str(STREAMS_RETRY_AFTER)},
        )
        abort(busy)
    hangup = HangupWatch(request.environ)
    try:
        listener = notifier.subscribe(game_id, seat)
    except BaseException:
        slots.give(client, game_id)
        raise
    try:
        notifier.note_seq(game_id, service().store.last_seq(game_id))  # read after subscribing: no write missed
        hangup.start(listener.hang_up)
    except BaseException:
        notifier.unsubscribe(listener)
        slots.give(client, game_id)
        raise
    heartbeat = float(app.config.get("LIVE_HEARTBEAT_SECONDS", HEARTBEAT_SECONDS))
    lifetime = float(app.config.get("LIVE_STREAM_SECONDS", STREAM_SECONDS)) * random.uniform(0.9, 1.1)  # spread

    def events() -> Generator[str, None, None]:
        sent_seq = since
        sent_presence = -1
        started = time.monotonic()
        next_beat = started + heartbeat
        yield "retry: 1000\n\n"
        while not listener.hung_up:
            seq = notifier.seq(game_id)
            if seq != sent_seq:
                sent_seq = seq
                yield f"id: {seq}\nevent: seq\ndata: {seq}\n\n"
            if notifier.presence.version(game_id) != sent_presence:
                sent_presence, seats = notifier.seats(game_id)
                html = presence_html(names, dict(seats), words)
                yield "event: presence\ndata: " + html.replace("\n", " ") + "\n\n"
            now = time.monotonic()
            if now - started >= lifetime:
                return
            if now >= next_beat:
                next_beat = now + heartbeat
                yield ": keep-alive\n\n"
            wait = min(next_beat, started + lifetime) - now
            if hangup.needs_probing:
                wait = min(wait, PROBE_SECONDS)
            listener.wait(wait)
            if hangup.needs_probing and hangup.hung_up():
                return

    return LiveStream(notifier, listener, hangup, events(), lambda: slots.give(client, game_id))


def _since() -> int:
    raw = request.headers.get("Last-Event-ID") or request.args.get("since") or "-1"
    return int(raw) if raw.lstrip("-").isdigit() else -1


def _response(stream: LiveStream) -> Response:
    return Response(
        stream, mimetype="text/event-stream", headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
    )


@bp.get("/g/<game_id>/events")
def game_events(game_id: str) -> Response:
    """The live stream of a game for a phone at the table (an unknown id is a 404 before it)."""
    seat = seat_of(game_id)
    return _response(stream_game(game_id, "shared" if seat is None else str(seat), _since()))


@bp.get("/v/<token>/events")
def viewer_events(token: str) -> Response:
    """The live stream of a game for a read-only big screen."""
    game_id = service().game_for_read_token(token)
    if game_id is None:
        abort(404)
    return _response(stream_game(game_id, "viewer", _since()))


@bp.get("/g/<game_id>/seq")
def game_seq(game_id: str) -> Response:
    """Where the log stands (the polling fallback when SSE is unavailable)."""
    return jsonify({"seq": service().view(game_id).seq})


@bp.get("/v/<token>/seq")
def viewer_seq(token: str) -> Response:
    """Where the log stands, for a viewer page without SSE."""
    game_id = service().game_for_read_token(token)
    if game_id is None:
        abort(404)
    return Response(json.dumps({"seq": service().store.last_seq(game_id)}), mimetype="application/json")
