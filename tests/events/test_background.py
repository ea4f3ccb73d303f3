"""``events.background``: a job (an append's COMMIT) in an operating-system thread of its own while its caller goes on.

The caller waits until the job has begun, whatever the switch interval (with Python's default it would otherwise begin
only when the caller next gives up the GIL); ``wait`` returns once it is done, raising what it raised, and at once the
second time."""

from __future__ import annotations

import os
import signal
import sys
import time
from collections.abc import Iterator

import pytest

from events import background as module
from events.background import run_in_background


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
def test_the_job_has_begun_when_run_in_background_returns(short: bool, request: pytest.FixtureRequest) -> None:
    if short:
        request.getfixturevalue("short_switches")
    else:
        assert sys.getswitchinterval() == pytest.approx(0.005)  # Python's default, left as it is by the app's server
    for _ in range(20):  # and an idle thread's next job too
        began: list[float] = []

        def job(began: list[float] = began) -> None:
            began.append(time.perf_counter())

        wait = run_in_background(job)
        returned = time.perf_counter()
        _busy(0.002)  # the caller holds the GIL: a job not begun yet could not begin now (with the default interval)
        assert began and began[0] <= returned
        wait()


@pytest.mark.parametrize("short", [False, True])
def test_wait_returns_once_done_and_says_what_failed(short: bool, request: pytest.FixtureRequest) -> None:
    if short:
        request.getfixturevalue("short_switches")
    started = time.perf_counter()
    wait = run_in_background(lambda: time.sleep(0.1))
    assert time.perf_counter() - started < 0.05
    wait()
    assert time.perf_counter() - started >= 0.1

    def failing() -> None:
        raise ValueError("no room on the disk")

    wait = run_in_background(failing)
    with pytest.raises(ValueError, match="no room"):
        wait()
    wait()  # at once, the second time


def test_idle_threads_wait_for_the_next_jobs_and_are_bounded() -> None:
    waits = [
        run_in_background(lambda: time.sleep(0.05)) for _ in range(module.MAX_IDLE_THREADS + 3)
    ]  # all at once: one thread each
    for wait in waits:
        wait()
    assert len(module._IDLE) <= module.MAX_IDLE_THREADS
    idle = list(module._IDLE)
    run_in_background(lambda: None)()
    assert set(map(id, module._IDLE)) <= set(map(id, idle))  # the next job ran on an idle thread


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork on this system")
def test_a_forked_child_runs_its_jobs_on_threads_of_its_own() -> None:
    """The parent's idle threads do not exist in a forked child: a job there gets a thread of the child's."""
    run_in_background(lambda: None)()  # the parent has an idle thread
    assert module._IDLE
    reading, writing = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(reading)
        signal.alarm(5)  # a child that would wait for ever ends instead: the parent then reads nothing
        done: list[int] = []
        run_in_background(lambda: done.append(1))()  # with the parent's thread, this would wait for ever
        os.write(writing, str(len(done)).encode())
        os._exit(0)
    os.close(writing)
    got = os.read(reading, 8).decode()
    os.waitpid(pid, 0)
    os.close(reading)
    assert got == "1"
