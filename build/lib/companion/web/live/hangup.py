"""Noticing that a live page closed its connection (a reload, a closed tab) while its stream waits.

A stream that only writes would learn of a closed page at its next write, up to a heartbeat
later, and the page would linger in the presence list as a ghost. The client sends nothing after
its request, so the socket turning readable with no data (a peek that returns ``b""``) means it
hung up. Under gevent one small greenlet per stream waits for that; under a threaded server the
stream checks without blocking each time it wakes (``PROBE_SECONDS`` at most apart). A server
that does not expose the socket (waitress) falls back to the next write failing.
"""

from __future__ import annotations

import select
import socket
import sys
from collections.abc import Callable
from typing import Any

__all__ = ["PROBE_SECONDS", "HangupWatch"]

PROBE_SECONDS = 0.5  # under a threaded server, how often a waiting stream checks its socket
_SOCKET_KEYS = ("gunicorn.socket", "werkzeug.socket")


def _gevent_patched() -> bool:
    monkey = sys.modules.get("gevent.monkey")
    return bool(monkey is not None and monkey.is_module_patched("socket"))


class HangupWatch:
    """Watches one request's client socket for the client closing it."""

    def __init__(self, environ: dict[str, Any]) -> None:
        self._socket: socket.socket | None = next(
            (environ[key] for key in _SOCKET_KEYS if isinstance(environ.get(key), socket.socket)), None
        )
        self._greenlet: Any = None
        self.peer_sent_data = False

    @property
    def needs_probing(self) -> bool:
        """True when the stream must call ``hung_up`` itself (no greenlet is waiting for it)."""
        return self._socket is not None and self._greenlet is None

    def start(self, on_hangup: Callable[[], None]) -> None:
        """Under gevent, wait in a greenlet for the client to hang up and then call ``on_hangup``."""
        if self._socket is None or not _gevent_patched():
            return
        import gevent

        self._greenlet = gevent.spawn(self._await_hangup, self._socket, on_hangup)

    def _await_hangup(self, sock: socket.socket, on_hangup: Callable[[], None]) -> None:
        try:
            data = sock.recv(1, socket.MSG_PEEK)  # cooperative under gevent: waits without a thread
        except OSError:
            data = b""
        if data:
            self.peer_sent_data = True  # the client spoke (unusual): leave it to the next write
            return
        on_hangup()

    def hung_up(self) -> bool:
        """Without blocking: has the client closed its side? (False when it cannot be known.)"""
        if self._socket is None or self.peer_sent_data or not hasattr(select, "poll"):
            return False
        try:
            poller = select.poll()
            poller.register(self._socket, select.POLLIN)
            if not poller.poll(0):
                return False
            data = self._socket.recv(1, socket.MSG_PEEK)  # readable: this returns at once
        except (BlockingIOError, InterruptedError):
            return False
        except (OSError, ValueError):
            return True
        if data:
            self.peer_sent_data = True
            return False
        return True

    def stop(self) -> None:
        """Stop watching (before the server reads the next request from this socket)."""
        if self._greenlet is not None:
            self._greenlet.kill(block=True, timeout=1)
            self._greenlet = None
