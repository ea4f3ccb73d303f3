"""The COMMIT of an append run in the background: a job in an operating-system thread of its own while its caller
goes on (``events.sqlite``: ``append(background_commit=True)``, whose ``fsync`` waits on the disk while the web app
draws the
answer; the app does so with its setting ``BACKGROUND_COMMIT``, off by default: a handover between threads costs more
than a sync on a disk that syncs fast, ``bench/README.md`` has the figures).

The caller gets a ``wait`` that returns once the job is done, raising what the job raised. A thread is started once
and reused for the next job (one per job running at the same time: a process has one per database file at most, as
its writers queue on one lock per file).

Two things make this work in the app's server:

- gevent's ``monkey.patch_all`` turns ``threading`` into greenlets, which would run the job in the caller's own
  thread: the threads here are the interpreter's own (``gevent.monkey.get_original``), and the job touches nothing
  of gevent's (a COMMIT is SQLite's C code).
- CPython lets a thread waiting for the GIL in only after the holder gives it up, at most once every switch interval
  (``sys.getswitchinterval``): a job started while the caller draws its answer would begin only when the caller
  waits for it. So ``run_in_background`` gives the GIL up until the job has begun (the job's first step, SQLite's,
  runs without it). A shorter switch interval instead lets the job begin by itself, but late, and its forced
  handovers in the middle of drawing the answer cost each tap more than this wait.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

__all__ = ["MAX_IDLE_THREADS", "run_in_background"]

MAX_IDLE_THREADS = 8
"""Threads waiting for a next job at most; one more than that ends after its job."""


def _originals() -> tuple[Callable[..., Any], Callable[[], Any]]:
    """``_thread``'s ``start_new_thread`` and ``allocate_lock`` as the interpreter made them (not gevent's)."""
    try:
        from gevent import monkey
    except ImportError:  # pragma: no cover - gevent is installed with the app
        import _thread

        return _thread.start_new_thread, _thread.allocate_lock
    # the interpreter's own, whether gevent patched ``_thread`` or not
    return monkey.get_original("_thread", "start_new_thread"), monkey.get_original("_thread", "allocate_lock")


class _Worker:
    """One operating-system thread running one job at a time, handed over through three locks of its own."""

    def __init__(self) -> None:
        start, lock = _originals()
        self._lock = lock
        self.go, self.begun, self.done = lock(), lock(), lock()
        for held in (self.go, self.begun, self.done):
            held.acquire()
        self.job: Callable[[], Any] | None = None
        self.error: BaseException | None = None
        start(self._run, ())

    def _run(self) -> None:
        while True:
            self.go.acquire()
            job = self.job
            if job is None:  # told to end
                return
            self.begun.release()
            try:
                job()
                self.error = None
            except BaseException as exc:  # handed to the one who waits
                self.error = exc
            self.done.release()


_IDLE: list[_Worker] = []
_GUARD: list[Any] = []  # the guard of ``_IDLE``, made at the first job (after gevent may have patched ``_thread``)


def _guard() -> Any:
    if not _GUARD:
        _GUARD.append(_originals()[1]())
    return _GUARD[0]


def _forget_threads() -> None:
    """In a forked child: the parent's idle threads are not the child's (only the forking thread goes on in it)."""
    _IDLE.clear()
    _GUARD.clear()


os.register_at_fork(after_in_child=_forget_threads)


def run_in_background(job: Callable[[], Any]) -> Callable[[], None]:
    """Start ``job`` in a thread of its own and return ``wait``: it returns once ``job`` is done (at once the second
    time), raising what ``job`` raised. Returns once ``job`` has begun."""
    guard = _guard()
    with guard:
        thread = _IDLE.pop() if _IDLE else None
    if thread is None:
        thread = _Worker()
    thread.job = job
    thread.go.release()
    thread.begun.acquire()  # the GIL given up until the job runs (see above)
    waited: list[bool] = []

    def wait() -> None:
        if waited:
            return
        waited.append(True)
        thread.done.acquire()
        error, thread.error, thread.job = thread.error, None, None
        with guard:
            keep = len(_IDLE) < MAX_IDLE_THREADS
            if keep:
                _IDLE.append(thread)
        if not keep:
            thread.go.release()  # its job is None: it ends
        if error is not None:
            raise error

    return wait
