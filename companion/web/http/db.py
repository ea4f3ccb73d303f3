"""One store connection per request, held on ``g`` and given back at teardown; the rebuilt games
are shared by every request of the process through its ``ViewCache`` (``process().views``).

Connections are reused from a small per-app pool rather than opened and closed per request:
closing the last connection to a WAL database checkpoints and removes the WAL, an fsync paid
by every request that happened to be alone.
"""

from __future__ import annotations

import functools
import logging
import sqlite3
from collections.abc import Callable
from typing import cast

from flask import (
    Flask,
    abort,
    after_this_request,
    current_app,
    g,
    has_app_context,
    has_request_context,
    redirect,
    request,
    url_for,
)
from werkzeug.local import LocalProxy
from werkzeug.wrappers import Response

from companion.service import AnyView, GameService, GameView, TallyView, UnknownGame, is_game, is_tally
from companion.web.http.seats import actor_label
from companion.web.process import process
from events.sqlite import SqliteStore, make_wal_room
from events.store import Store

__all__ = [
    "check_address",
    "close_store",
    "current_flask_app",
    "make_log_room",
    "recorded",
    "recorded_tally",
    "service",
]

logger = logging.getLogger(__name__)


def make_log_room(app: Flask) -> int:
    """When a server starts: room made in the log's WAL file with a connection the pool keeps open
    (``events.sqlite.make_wal_room``), so no COMMIT waits for the file to grow; returns its length (0 on PostgreSQL).
    A server that cannot make it serves all the same."""
    pool = process(app).stores
    store = pool.take()
    try:
        return make_wal_room(store.conn) if isinstance(store, SqliteStore) else 0
    except sqlite3.Error:
        logger.warning("no room made in the log's WAL file", exc_info=True)
        return 0
    finally:
        pool.give(store)


def service() -> GameService:
    """The game service of this request (one per request; it records which seat sent each action).

    Its views come from the process's cache, so a request replays nothing the log already held, and
    it reads where a game's log stands once (``read_once``): the check of the address, the seat, the
    loans and the command's judgement all see that one read; the append checks the log under its lock.
    """
    found: GameService | None = g.get("service")
    if found is not None:
        return found
    store = g.get("store")
    if store is None:
        store = g.store = process().stores.take()
    this = process()
    svc = GameService(store, this.editions, cache=this.views, read_once=True)
    in_request = has_request_context()
    game_id = (request.view_args or {}).get("game_id") if in_request else None
    if game_id:
        svc.default_actor = actor_label(game_id)
    svc.later = after_answer if in_request else None  # a snapshot is written after the answer
    g.service = svc
    return svc


def current_flask_app() -> Flask:
    """The application itself behind the ``current_app`` proxy, for work that runs once the request is gone."""
    return cast("LocalProxy[Flask]", current_app)._get_current_object()


def after_answer(job: Callable[[Store], None]) -> None:
    """Run ``job`` once this request's answer is sent (a snapshot: no tap waits for it), with a connection of the
    pool. The WSGI server closes the answer after its last byte; the jobs run then (``call_on_close``). A job that
    fails is logged and dropped: what it writes is disposable."""
    if not has_request_context():  # a service held past its request (none does): the job now, or none at all
        if has_app_context():
            _run_jobs(current_flask_app(), [job])
        return
    jobs: list[Callable[[Store], None]] | None = g.get("after_answer")
    if jobs is None:
        jobs = g.after_answer = []
        app = current_flask_app()
        run = functools.partial(_run_jobs, app, jobs)

        def when_sent(response: Response) -> Response:
            response.call_on_close(run)
            return response

        after_this_request(when_sent)
    jobs.append(job)


def _run_jobs(app: Flask, jobs: list[Callable[[Store], None]]) -> None:
    pool = process(app).stores
    store = pool.take()
    try:
        for job in jobs:
            try:
                job(store)
            except Exception:  # disposable work: the log is written, the answer sent
                app.logger.warning("a job after an answer failed", exc_info=True)
    finally:
        pool.give(store)


def close_store(_exc: BaseException | None = None) -> None:
    """Give this request's connection back to the pool, if one was taken."""
    g.pop("service", None)
    store = g.pop("store", None)
    if store is not None:
        try:
            # an append's COMMIT running in the background is over before another request takes the connection
            store.settle()
        except Exception:  # already said by the request that recorded it (its answer was the error page)
            logger.warning("an entry's COMMIT failed", exc_info=True)
        process().stores.give(store)


# Pages under these prefixes show one kind of record; a link to the other kind is sent to its page.
PAGES_OF = {"/g/": "game", "/t/": "tally"}
HOME_OF = {"game": "play.game", "tally": "tally.page"}
ANY_KIND = frozenset({"data.export_json", "data.export_text", "data.clone"})


def _view(game_id: str) -> AnyView:
    try:
        return service().view(game_id)
    except UnknownGame:
        abort(404)


def recorded(game_id: str) -> GameView:
    """The recorded game at ``game_id``; a 404 page when there is none (or it is a quick tally)."""
    view = _view(game_id)
    if not is_game(view):
        abort(404)
    return view


def recorded_tally(game_id: str) -> TallyView:
    """The quick tally at ``game_id``; a 404 page when there is none (or it is a recorded game)."""
    view = _view(game_id)
    if not is_tally(view):
        abort(404)
    return view


def check_address() -> Response | None:
    """Before any page of one game (``/g/<id>/…``, ``/t/<id>/…``): a 404 page for an unknown id,
    and for a game opened at a tally's address (or the other way round) its own page on GET and
    a 404 on a form post, so no page is ever drawn for the wrong kind of record."""
    game_id = (request.view_args or {}).get("game_id")
    prefix = request.path[:3]
    if not game_id or prefix not in PAGES_OF:
        return None
    svc = service()
    try:
        # a form's post (a tap) takes the kind of the view the process keeps, unread: a game's kind never changes, and
        # the tap reads where the log stands itself (``perform``: under its append's lock); a page reads it here
        held = svc.cached_view(game_id) if request.method == "POST" else None
        view = held if held is not None else svc.view(game_id)
    except UnknownGame:
        abort(404)
    if view.kind == PAGES_OF[prefix] or request.endpoint in ANY_KIND:
        return None
    if request.method != "GET":
        abort(404)
    return redirect(url_for(HOME_OF[view.kind], game_id=game_id), 303)
