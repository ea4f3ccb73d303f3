"""Live updates: every open page learns of a new entry within a second, by Server-Sent Events.

The stream sends ``event: seq`` with the log's sequence number as its id, so a phone that lost
its connection (the browser resends ``Last-Event-ID``, or the page passes ``since``) is told at
once where the log stands and fetches the fresh state; a page without SSE polls ``/seq``. The
stream also sends who is connected (``event: presence``). Each stream reads with its own short
queries and never holds a write lock, so writes are never blocked by the phones listening.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator

from flask import Blueprint, Response, abort, current_app, jsonify, request
from flask_babel import gettext
from markupsafe import escape

from companion.web.presence import Presence
from companion.web.seats import seat_of
from companion.web.store import open_store, service

__all__ = ["bp", "stream_game"]

bp = Blueprint("live", __name__)

POLL_SECONDS = 0.25
HEARTBEAT_SECONDS = 15.0
STREAM_SECONDS = 600.0  # then the browser reconnects (with Last-Event-ID) and a fresh stream starts


def presence_words() -> dict[str, str]:
    """The words of the presence list, in the reader's language (read once, in the request)."""
    return {
        "here": gettext("here"),
        "away": gettext("away"),
        "shared": gettext("shared phones: %(n)s"),
        "viewer": gettext("big screens: %(n)s"),
    }


def presence_html(names: list[tuple[str, str]], seats: dict[str, int], words: dict[str, str]) -> str:
    """Who is connected, as a short list (names are escaped: they are players' own words)."""
    parts = []
    for index, (name, letter) in enumerate(names):
        here = seats.get(str(index), 0) > 0
        label = words["here"] if here else words["away"]
        parts.append(
            f'<li class="{"here" if here else "away"}"><span aria-hidden="true">{escape(letter)}</span> '
            f"{escape(name)}: {escape(label)}</li>"
        )
    for key in ("shared", "viewer"):
        if seats.get(key, 0):
            parts.append(f"<li>{escape(words[key] % {'n': seats[key]})}</li>")
    return f'<ul class="presence-list">{"".join(parts)}</ul>'


def stream_game(game_id: str, seat: str, since: int) -> Iterator[str]:
    """The event stream of one game for one connection."""
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    presence: Presence = app.extensions["companion.presence"]
    view = service().view(game_id)
    names = [(p.name, p.letter) for p in getattr(view.state, "players", ())]
    words = presence_words()
    cid = presence.join(game_id, seat)

    def events() -> Iterator[str]:
        store = open_store(app)
        known = since
        seen_presence = -1
        started = last_beat = time.monotonic()
        try:
            yield "retry: 1000\n\n"
            while time.monotonic() - started < STREAM_SECONDS:
                seq = store.last_seq(game_id)
                if seq != known:
                    known = seq
                    yield f"id: {seq}\nevent: seq\ndata: {seq}\n\n"
                version = presence.version(game_id)
                if version != seen_presence:
                    seen_presence = version
                    html = presence_html(names, dict(presence.seats(game_id)), words)
                    yield "event: presence\ndata: " + html.replace("\n", " ") + "\n\n"
                now = time.monotonic()
                if now - last_beat >= HEARTBEAT_SECONDS:
                    last_beat = now
                    yield ": keep-alive\n\n"
                time.sleep(POLL_SECONDS)
        finally:
            presence.leave(game_id, cid)
            store.close()

    return events()


def _since() -> int:
    raw = request.headers.get("Last-Event-ID") or request.args.get("since") or "-1"
    return int(raw) if raw.lstrip("-").isdigit() else -1


def _response(stream: Iterator[str]) -> Response:
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
