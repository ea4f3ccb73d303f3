"""``events.beside``: a job in an operating-system thread of its own while its caller goes on.

The caller waits until the job has begun, whatever the switch interval (with Python's 5 ms it would otherwise begin
only when the caller next gives up the GIL); ``wait`` returns once it is done, raising what it raised, and at once the
second time."""

from __future__ import annotations

import os
import signal
import sys
import time
from collections.abc import Iterator

import pytest

from events import beside as module
from events.beside import beside


@pytest.fixture
def short_switches() -> Iterator[None]:
    before = sys.getswitchinterval()
    sys.setswitchinterval(0.0002)
    yield
    sys.setswitchinterval(before)


def _busy(seconds: float) -> None:
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        pass


@pytest.mark.parametrize("short", [False, True])
def test_the_job_has_begun_when_beside_returns(short: bool, request: pytest.FixtureRequest) -> None:
    if short:
        request.getfixturevalue("short_switches")
    else:
        assert sys.getswitchinterval() == pytest.approx(0.005)  # Python's, kept by the app's server
    for _ in range(20):  # and a kept thread's next job too
        began: list[float] = []

        def job(began: list[float] = began) -> None:
            began.append(time.perf_counter())

        wait = beside(job)
        returned = time.perf_counter()
        _busy(0.002)  # the caller holds the GIL: a job not begun yet could not begin now (with 5 ms)
        assert began and began[0] <= returned
        wait()


@pytest.mark.parametrize("short", [False, True])
def test_wait_returns_once_done_and_says_what_failed(short: bool, request: pytest.FixtureRequest) -> None:
    if short:
        request.getfixturevalue("short_switches")
    started = time.perf_counter()
    wait = beside(lambda: time.sleep(0.1))
    assert time.perf_counter() - started < 0.05
    wait()
    assert time.perf_counter() - started >= 0.1

    def failing() -> None:
        raise ValueError("no room on the disk")

    wait = beside(failing)
    with pytest.raises(ValueError, match="no room"):
        wait()
    wait()  # at once, the second time


def test_threads_are_kept_for_the_next_jobs_and_bounded() -> None:
    waits = [beside(lambda: time.sleep(0.05)) for _ in range(module.IDLE_KEPT + 3)]  # all at once: one thread each
    for wait in waits:
        wait()
    assert len(module._IDLE) <= module.IDLE_KEPT
    kept = list(module._IDLE)
    beside(lambda: None)()
    assert set(map(id, module._IDLE)) <= set(map(id, kept))  # the next job ran on a kept thread


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork on this system")
def test_a_forked_child_runs_its_jobs_on_threads_of_its_own() -> None:
    """The parent's kept threads do not exist in a forked child: a job there gets a thread of the child's."""
    beside(lambda: None)()  # the parent keeps a thread
    assert module._IDLE
    reading, writing = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(reading)
        signal.alarm(5)  # a child that would wait for ever ends instead: the parent then reads nothing
        done: list[int] = []
        beside(lambda: done.append(1))()  # with the parent's thread, this would wait for ever
        os.write(writing, str(len(done)).encode())
        os._exit(0)
    os.close(writing)
    got = os.read(reading, 8).decode()
    os.waitpid(pid, 0)
    os.close(reading)
    assert got == "1"
