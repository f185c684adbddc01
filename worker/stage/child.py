"""One fit process as the pool sees it, and the page it is fitting."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
from dataclasses import dataclass
from multiprocessing.process import BaseProcess

from worker.stage.channel import Channel
from worker.stage.ipc import Fitted, Frame
from worker.stage.outcome import RestartReason
from worker.stage.procfs import ResidentMemory

__all__ = ["Child", "Task", "describe_exit", "kill_child", "sigkill"]


@dataclass(eq=False)
class Task:
    """One page on its way through a child."""

    frame: Frame
    body: bytes
    future: asyncio.Future[Fitted]


@dataclass(eq=False)
class Child:
    """One fit process, as the parent sees it."""

    process: BaseProcess
    channel: Channel
    pid: int = 0
    ready: bool = False  # said Ready; takes pages
    task: Task | None = None  # the page it is fitting
    pinged: bool = False  # a ping unanswered
    misses: int = 0  # watchdog rounds in a row with a ping unanswered
    done: int = 0  # pages fitted
    retiring: bool = False  # recycled or closing: its exit is no failure
    killed_for: RestartReason | None = None  # why the parent killed it, if it did
    pidfd: int = -1  # a handle on the process that no reused pid can mistake
    memory: ResidentMemory | None = None  # read after each page (the recycling bound's)
    gone: bool = False  # its death has been handled (from its socket or its sentinel)
    deadline: float = 0.0  # the loop's time at which its page's fit times out
    timer: asyncio.TimerHandle | None = None  # its fit timeout's timer, while one is set
    armed: float = 0.0  # the time that timer was set for


def sigkill(pid: int) -> None:
    if pid > 0:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)


def kill_child(child: Child) -> None:
    """SIGKILL a fit process through its pidfd (the forkserver, not us, reaps it: its pid
    may be another process's by now), else by pid while its exit is not yet seen."""
    if child.pidfd >= 0:
        with contextlib.suppress(ProcessLookupError, OSError):
            signal.pidfd_send_signal(child.pidfd, signal.SIGKILL)
    elif not child.gone:
        sigkill(child.pid)


def describe_exit(code: int | None) -> str:
    if code is not None and code < 0:
        try:
            return f"killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exit status {code}"
