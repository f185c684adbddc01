"""The fit pool's parts, each alone: /proc reads, the recycling bounds, the watchdog's rounds.

The pool as a whole (tests/worker/stage/test_pool.py) runs real fit
processes with timing bounds; these need no pool and no timing: a stopped
process is a `sleep` stopped by SIGSTOP, a child a Child record with a
channel that sends nowhere.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import signal
import subprocess
from collections.abc import Iterator

import pytest

from worker.stage.channel import Channel
from worker.stage.child import Child, Task
from worker.stage.forkserver import Forkserver
from worker.stage.ipc import Frame
from worker.stage.outcome import RestartReason
from worker.stage.procfs import ResidentMemory, process_state
from worker.stage.recycling import Recycling
from worker.stage.watchdog import Watchdog


@pytest.fixture
def stopped_pid() -> Iterator[int]:
    """A process stopped by SIGSTOP (killed after the test)."""
    process = subprocess.Popen(["sleep", "60"])  # noqa: S607 - the system's sleep
    try:
        os.kill(process.pid, signal.SIGSTOP)
        os.waitpid(process.pid, os.WUNTRACED)  # returns once it has stopped
        yield process.pid
    finally:
        process.kill()
        process.wait()


def _child(pid: int, **fields: object) -> Child:
    child = Child(process=multiprocessing.Process(), channel=Channel(), pid=pid)
    for name, value in fields.items():
        setattr(child, name, value)
    return child


# ------------------------------------------------------------------------- /proc


def test_process_state_reads_proc_and_says_so_of_no_process(stopped_pid: int) -> None:
    assert process_state(os.getpid()) == "R"  # reading its own stat: running
    assert process_state(stopped_pid) == "T"
    assert process_state(2**22 + 1) == "?"  # above the kernel's largest pid


def test_resident_memory_reads_the_open_statm_until_closed() -> None:
    memory = ResidentMemory(os.getpid())
    assert memory.bytes() > 1 << 20  # this interpreter holds more than a MiB
    memory.close()
    assert memory.bytes() == 0
    assert ResidentMemory(2**22 + 1).bytes() == 0  # no such process: unknown


# ------------------------------------------------------------------ recycling


def test_recycling_bounds_pages_and_resident_memory() -> None:
    unbounded = Recycling(max_tasks=0, recycle_memory=0)
    assert unbounded.watch(os.getpid()) is None
    assert not unbounded.worn(_child(os.getpid(), done=10**6))
    assert not unbounded.grown(_child(os.getpid()))
    bounded = Recycling(max_tasks=3, recycle_memory=1 << 20)
    child = _child(os.getpid(), done=2, memory=bounded.watch(os.getpid()))
    assert not bounded.worn(child)
    child.done = 3
    assert bounded.worn(child)
    assert bounded.grown(child)  # more than a MiB resident
    assert not Recycling(max_tasks=0, recycle_memory=1 << 50).grown(child)


# ------------------------------------------------------------------- watchdog


class _Forkserver(Forkserver):
    """A forkserver in a given state, whose failures are noted, not acted on."""

    def __init__(self, state: str = "running") -> None:
        super().__init__(
            multiprocessing.get_context("forkserver"),
            on_restart=lambda _reason: None,
            on_replaced=lambda: None,
        )
        self.given = state
        self.problems: list[str] = []

    @property
    def state(self) -> str:
        return self.given

    def failed(self, problem: str) -> None:
        self.problems.append(problem)


class _Kills:
    def __init__(self) -> None:
        self.done: list[tuple[Child, RestartReason]] = []

    def __call__(self, child: Child, reason: RestartReason) -> None:
        self.done.append((child, reason))


def test_an_idle_child_is_pinged_and_killed_after_its_misses() -> None:
    kills = _Kills()
    watchdog = Watchdog(_Forkserver(), kills, misses=3)
    child = _child(os.getpid(), ready=True)
    watchdog.look([child], closing=False)
    assert (child.pinged, child.misses, kills.done) == (True, 0, [])
    watchdog.look([child], closing=False)
    watchdog.look([child], closing=False)
    assert (child.misses, kills.done) == (2, [])
    watchdog.look([child], closing=False)
    assert kills.done == [(child, RestartReason.UNRESPONSIVE)]


async def test_a_busy_or_starting_child_is_not_pinged_and_its_misses_are_forgotten() -> None:
    kills = _Kills()
    watchdog = Watchdog(_Forkserver(), kills, misses=1)
    busy = _child(os.getpid(), ready=True, pinged=True, misses=5)
    busy.task = Task(Frame.FIT_MSGPACK, b"", asyncio.get_running_loop().create_future())
    starting = _child(os.getpid())
    watchdog.look([busy, starting], closing=False)
    assert (busy.pinged, busy.misses, starting.pinged, kills.done) == (False, 0, False, [])


def test_a_stopped_child_is_killed_at_the_first_look(stopped_pid: int) -> None:
    kills = _Kills()
    watchdog = Watchdog(_Forkserver(), kills)
    stopped, leaving = _child(stopped_pid), _child(stopped_pid, retiring=True)
    watchdog.look([stopped, leaving], closing=False)
    assert kills.done == [(stopped, RestartReason.STOPPED)]


@pytest.mark.parametrize("state", ["stopped", "gone"])
def test_a_stopped_or_gone_forkserver_is_replaced_unless_the_pool_closes(state: str) -> None:
    forkserver = _Forkserver(state)
    watchdog = Watchdog(forkserver, _Kills())
    watchdog.look([], closing=True)
    assert forkserver.problems == []
    watchdog.look([], closing=False)
    assert forkserver.problems == [f"the fit processes' forkserver is {state}"]
    running = _Forkserver("running")
    Watchdog(running, _Kills()).look([], closing=False)
    assert running.problems == []
