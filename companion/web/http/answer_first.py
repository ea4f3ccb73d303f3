"""A request's context popped once its answer is sent: ``AnswerFirst``, the app's Flask, and ``sent_first``.

Flask pops a request's context in ``wsgi_app``'s ``finally`` (the teardown functions: the store given back to the
pool; the contexts' signals and variables), before the server has written a byte of the answer: ~0.04 ms of every
tap, which the phone waits for. A WSGI server calls the answer's ``close()`` once its last byte is written (gunicorn,
waitress and werkzeug's, after the last write), so for a request whose server says so (``sent_first``: the
``POP_AFTER_SEND`` key in its environ; ``companion serve`` and the tests' live server wear it), the context is popped in
``close()`` instead, and the phone has its answer meanwhile. Any other caller (Flask's test client, which closes an
answer only when a test does) gets Flask's own ``wsgi_app``.

Popped at once, as Flask does, for an answer that is not a body in hand: a stream (a live page's events, held open for
minutes, must give its connection back to the pool at once) and a file the server sends itself (``sendfile``). An
error raised before the answer began pops at once too. Under gevent and in a thread alike, ``close()`` runs where the
app ran, so the context popped is the one pushed (``tests/web/http/test_answer_first.py``).
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from flask import Flask
from flask.ctx import RequestContext
from flask.globals import _cv_app, _cv_request

from companion.web.http.routing import KeptMap

__all__ = ["POP_AFTER_SEND", "AnswerFirst", "sent_first"]

POP_AFTER_SEND = "companion.pop_after_send"
"""The environ key by which a server says it closes each answer after its last byte (``sent_first``)."""


def sent_first(app: Any) -> Any:
    """``app`` as a WSGI server that closes each answer after its last byte serves it: each request says so."""

    def served(environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
        environ[POP_AFTER_SEND] = True
        return app(environ, start_response)  # type: ignore[no-any-return]

    return served


class AnswerFirst(Flask):
    """Flask whose request context is popped when the answer is closed (``POP_AFTER_SEND``), not before it is sent,
    and whose routes are found once per address (``routing.KeptMap``)."""

    url_map_class = KeptMap

    def wsgi_app(self, environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
        if POP_AFTER_SEND not in environ:
            return super().wsgi_app(environ, start_response)
        # ``Flask.wsgi_app``, but for where the context is popped
        ctx = self.request_context(environ)
        error: BaseException | None = None
        try:
            try:
                ctx.push()
                response = self.full_dispatch_request()
            except Exception as exc:
                error = exc
                response = self.handle_exception(exc)
            except:  # as Flask: anything else is raised, the context popped first
                error = sys.exc_info()[1]
                raise
            body = response(environ, start_response)
            held = not response.is_streamed and not response.direct_passthrough
        except BaseException:
            self._pop(ctx, environ, error)
            raise
        if not held:
            self._pop(ctx, environ, error)
            return body
        return _PoppedOnClose(body, functools.partial(self._pop, ctx, environ, error))

    def _pop(self, ctx: RequestContext, environ: dict[str, Any], error: BaseException | None) -> None:
        """What ``Flask.wsgi_app`` does in its ``finally``."""
        if "werkzeug.debug.preserve_context" in environ:
            environ["werkzeug.debug.preserve_context"](_cv_app.get())
            environ["werkzeug.debug.preserve_context"](_cv_request.get())
        if error is not None and self.should_ignore_error(error):
            error = None
        ctx.pop(error)


class _PoppedOnClose:
    """An answer's body whose ``close()`` pops the request's context, then closes the body itself (its
    ``call_on_close`` jobs, a snapshot: run with the context popped, as under Flask's own ``wsgi_app``)."""

    __slots__ = ("_body", "_pop")

    def __init__(self, body: Iterable[bytes], pop: Callable[[], None]) -> None:
        self._body = body
        self._pop = pop

    def __iter__(self) -> Iterator[bytes]:
        return iter(self._body)

    def close(self) -> None:
        try:
            self._pop()
        finally:
            close = getattr(self._body, "close", None)
            if close is not None:
                close()
