"""A live refresh drawn once: the answer to the phones of one game fetching after the same event.

After an event every open phone of the game fetches its refreshed parts (``HX-Trigger: live-trigger``,
``HX-Game-Parts``). Most hold the same parts and differ only by their session (its CSRF token, the
seat it took): the answer is worked out once per game, seq, language, held parts, query and seat
variant, and held marked (``screens.parts``: the marks for a form's fresh key and the session's CSRF
token are filled per request, in what is sent). Phones that ask while the first one draws wait for it
(``caches.Shared``) instead of drawing the same answer again.

Nothing here is the truth: an answer is only looked up once the store's last seq for the game was read
(the view's seq is part of the key), and dropping every held answer is always safe.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from flask import Flask, current_app, g, request

from companion.service import GameView
from companion.service.caches import Shared
from companion.web.http.htmx import Answer, htmx
from companion.web.http.phone import seat_of, seat_prompt
from companion.web.live.notifier import held_elsewhere
from companion.web.screens.parts.marking import fill
from companion.web.words.catalogue import language as request_language

__all__ = ["ANSWERS_KEY", "AnswerKey", "SharedAnswer", "answer_key", "install", "keep_marked", "shared_answer"]

AnswerKey = tuple[str, int, str, str, bytes, int | None, frozenset[int] | None]


@dataclass(frozen=True)
class SharedAnswer:
    """One live refresh's answer as drawn with marks, its status and headers."""

    marked: str
    status: int
    headers: tuple[tuple[str, str], ...]


def answer_key(view: GameView, block: str, extra: dict[str, Any]) -> AnswerKey | None:
    """The key of this request's answer if it is a plain live refresh of the game, else None.

    (game, seq, language, the parts the phone holds, the query, the seat variant: the phone's seat and,
    when it must still pick one, the seats other phones hold)."""
    if request.method != "GET" or block != "game" or extra.get("readonly") or not _sharing():
        return None
    if not htmx or htmx.trigger != "live-trigger":
        return None
    held = request.headers.get("HX-Game-Parts")
    if not held:
        return None
    game_id = view.game_id
    seat = seat_of(game_id)
    others = held_elsewhere(game_id) if seat_prompt(view.state, game_id) else None
    language = request_language()
    return (game_id, view.seq, language, held, request.query_string, seat, others)


def _sharing() -> bool:
    """Whether live answers are shared: the app's ``LIVE_ANSWERS``, else env ``COMPANION_LIVE_ANSWERS``
    ("0" draws each phone's answer apart, as before: what the benchmark compares with)."""
    told = current_app.config.get("LIVE_ANSWERS")
    if told is None:
        return os.environ.get("COMPANION_LIVE_ANSWERS", "1") != "0"
    return bool(told)


def keep_marked(marked: str) -> None:
    """Called where an answer of parts is put together: its body as drawn with marks, before filling."""
    g.live_marked = marked


def shared_answer(key: AnswerKey | None, render: Callable[[], Answer]) -> Answer:
    """``render()``'s answer, drawn once per ``key`` for every phone asking the same (None: not shared);
    the marks of what is sent filled for this request."""
    if key is None:
        return render()

    def draw() -> SharedAnswer:
        g.pop("live_marked", None)
        answer = render()
        marked = g.pop("live_marked", None)
        if not isinstance(answer, tuple) or len(answer) != 3 or marked is None:
            raise _NotShared(answer)
        _body, status, headers = answer
        return SharedAnswer(marked, status, tuple(headers.items()))

    try:
        held = _answers().get_or_make(key, draw)
    except _NotShared as apart:
        return apart.answer
    return fill(held.marked, key[1], csrf=False), held.status, dict(held.headers)  # htmx: the token is a header


class _NotShared(Exception):
    """The answer was not one of parts (a whole block): sent as it is, not held."""

    def __init__(self, answer: Answer) -> None:
        super().__init__("not an answer of parts")
        self.answer = answer


ANSWERS_KEY = "companion.live_answers"
"""Where ``app.extensions`` keeps the live answers drawn once (``install``)."""


def install(app: Flask) -> None:
    """Give ``app`` its live answers drawn once, shared by the phones of a game asking the same."""
    app.extensions[ANSWERS_KEY] = Shared()


def _answers() -> Shared[AnswerKey, SharedAnswer]:
    found: Shared[AnswerKey, SharedAnswer] = current_app.extensions[ANSWERS_KEY]
    return found
