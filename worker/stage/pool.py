"""The fit's process pool: fit processes driven from the event loop, one socket each.

Why our own pool, not pebble's or concurrent.futures': the parent's share of
a page's CPU was more than half a fit (BENCHMARKS.md, "Where the parent's
time goes"): pebble's polling thread, its locks and condition variables, and
the page pickled down a pipe. Here the event loop itself writes each page to
an idle child's socket and reads the answer when the socket is readable: no
thread, no pickle, no copy of the body on the way out. What the standard
executor lacks we keep: a child that dies (segfault, OOM kill) fails only the
page it was running and is replaced; a page past the hard timeout has its
child killed and replaced; children are recycled every `max_tasks` pages.

Children are started by a forkserver that has imported worker.stage.fitproc
(and so blockdensity) once: a new child costs a fork, not an interpreter start,
and it inherits none of the parent's sockets or threads. Each child asks the
kernel to kill it when its parent (the forkserver) goes, and the forkserver
asks the same of the worker, so a SIGKILLed worker leaves no orphans behind,
even with a fit stuck on a page.

The parent learns that a child has exited from the process's sentinel (the
forkserver writes its exit status there), and only then replaces it: an
exit is never missed, and never counted twice.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import functools
import logging
import multiprocessing
import multiprocessing.forkserver
import os
import signal
import socket
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from multiprocessing.process import BaseProcess
from typing import Final

from blockdensity import DEFAULT_CONF, Profile
from worker.schemas import Encoding
from worker.stage.fitproc import FitFunction, fit_page, serve
from worker.stage.ipc import (
    ENCODING_FRAMES,
    HEADER,
    FitReply,
    Fitted,
    Frame,
    Pong,
    Raised,
    Ready,
    decode_reply,
)
from worker.stage.outcome import Outcome, RestartReason

__all__ = [
    "FitCrashedError",
    "FitFailedError",
    "FitPool",
    "FitPoolStartError",
    "FitTimeoutError",
]

log = logging.getLogger(__name__)


class FitFailedError(Exception):
    """The fit of one page did not produce a result. `reason` is its outcome."""

    reason = Outcome.CRASHED


class FitTimeoutError(FitFailedError):
    """The fit ran past the hard timeout; its process was killed and replaced."""

    reason = Outcome.TIMEOUT


class FitCrashedError(FitFailedError):
    """The fit's process died (signal, exit) or the fit raised."""

    reason = Outcome.CRASHED


class FitPoolStartError(RuntimeError):
    """No fit process could be started."""


@dataclass(eq=False)
class _Task:
    """One page on its way through a child."""

    frame: Frame
    body: bytes
    future: asyncio.Future[Fitted]
    timer: asyncio.TimerHandle | None = None


@dataclass(eq=False)
class _Child:
    """One fit process, as the parent sees it."""

    process: BaseProcess
    channel: _Channel
    pid: int = 0
    ready: bool = False  # said Ready; takes pages
    task: _Task | None = None  # the page it is fitting
    pinged: bool = False  # a ping unanswered
    misses: int = 0  # watchdog rounds in a row with a ping unanswered
    done: int = 0  # pages fitted
    retiring: bool = False  # recycled or closing: its exit is no failure
    killed_for: RestartReason | None = None  # why the parent killed it, if it did


class _Channel(asyncio.Protocol):
    """The parent's end of one child's socket: frames out, replies in."""

    def __init__(self) -> None:
        self.on_reply: Callable[[FitReply], None] = lambda _reply: None
        self.transport: asyncio.Transport | None = None
        self._buffer = bytearray()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)  # noqa: S101 - a stream socket's
        self.transport = transport

    def send(self, frame: Frame, body: bytes = b"") -> None:
        transport = self.transport
        if transport is not None and not transport.is_closing():
            # Two writes, no concatenation: with the socket's buffer empty,
            # each goes straight to the kernel from the bytes it is given.
            transport.write(HEADER.pack(len(body), frame))
            if body:
                transport.write(body)

    def data_received(self, data: bytes) -> None:
        buffer = self._buffer
        buffer += data
        start = 0
        with memoryview(buffer) as view:
            while len(buffer) - start >= HEADER.size:
                size, _kind = HEADER.unpack_from(view, start)
                end = start + HEADER.size + size
                if len(buffer) < end:
                    break
                self.on_reply(decode_reply(view[start + HEADER.size : end]))
                start = end
        if start:
            del buffer[:start]

    def close(self) -> None:
        if self.transport is not None:
            self.transport.close()


class FitPool:
    """`size` fit processes, fed from the event loop.

    `fit` raises FitTimeoutError or FitCrashedError for the page at fault
    only; the pool carries on with a fresh child. `on_restart` is called with
    the reason for every child replaced after a crash or timeout, after it
    died while idle, and when the watchdog found it stopped or unresponsive.

    The watchdog (`watch`) covers what no page shows: a child that stops or
    hangs while idle takes no page, so nothing fails; the pool just runs on
    fewer processes. Every interval it reads each child's state (/proc) and
    pings the idle ones.
    """

    def __init__(  # noqa: PLR0913 - keyword-only settings of one pool
        self,
        *,
        size: int,
        timeout: float,
        max_tasks: int,
        function: FitFunction = fit_page,
        profile: Profile = DEFAULT_CONF.profile,
        output_blocks: bool = False,
        on_restart: Callable[[RestartReason], None] = lambda _: None,
    ) -> None:
        self._size = size
        self._profile = profile
        self._output_blocks = output_blocks
        self._timeout = timeout
        self._max_tasks = max_tasks
        self._function = function
        self._on_restart = on_restart
        self._context = multiprocessing.get_context("forkserver")
        # Children fork from a server that has imported the fit already,
        # and that dies with this process (see worker/stage/forkserver_preload.py).
        self._context.set_forkserver_preload(
            ["worker.stage.fitproc", "worker.stage.forkserver_preload"]
        )
        self._children: list[_Child] = []
        self._idle: collections.deque[_Child] = collections.deque()
        self._waiting: collections.deque[_Task] = collections.deque()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._closing = False
        self._connecting: set[asyncio.Task[object]] = set()  # held, so none is collected

    def start(self) -> None:
        """Start the forkserver and the children (from the event loop's thread)."""
        self._loop = asyncio.get_running_loop()
        self._closing = False
        self._respawn()

    async def warm_up(self, timeout: float = 30.0) -> None:
        """Wait until every child has said it is ready (each has imported the fit).

        FitPoolStartError when none is after `timeout` seconds: a worker whose
        fit processes cannot start (the log says why) must not take pages.
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while self.ready_processes < self._size:
            if loop.time() >= deadline:
                if self.ready_processes:
                    log.warning(
                        "%d of %d fit processes ready after %g s; going on with them",
                        self.ready_processes,
                        self._size,
                        timeout,
                    )
                    return
                raise FitPoolStartError(
                    f"no fit process was ready after {timeout:g} s (the log above says why)"
                )
            await asyncio.sleep(0.01)

    @property
    def ready_processes(self) -> int:
        """Fit processes that take pages now (started, not on their way out)."""
        return sum(
            child.ready and not child.retiring and child.killed_for is None
            for child in self._children
        )

    @property
    def live_processes(self) -> int:
        """Fit processes ready or starting, not on their way out: none means no page
        can be fitted until a start succeeds (a recycled one's successor counts)."""
        return sum(not child.retiring and child.killed_for is None for child in self._children)

    async def fit(self, body: bytes, encoding: Encoding) -> Fitted:
        """Fit the page of one admitted message body in a child. Raises FitFailedError."""
        loop = self._loop
        if loop is None or self._closing:
            raise RuntimeError("FitPool.fit called before start() or after close()")
        task = _Task(ENCODING_FRAMES[encoding], body, loop.create_future())
        self._waiting.append(task)
        self._dispatch()
        # A cancelled caller leaves its page to finish in the child (the
        # answer is dropped): killing the child would cost a restart.
        return await task.future

    # --- children ----------------------------------------------------------------

    def _spawn(self) -> bool:
        """Start one child (it takes pages once it has said Ready); False if it could not."""
        loop = self._loop
        assert loop is not None  # noqa: S101 - start() ran
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        process = self._context.Process(
            target=serve,
            args=(theirs, self._profile, self._output_blocks, self._function),
            name="blockdensity-fit",
            daemon=True,
        )
        try:
            # The forkserver starts (or restarts, if it died) here, without
            # the broker URL in its environment: the children parse untrusted
            # HTML with a C parser and need no credentials (a process's
            # /proc/<pid>/environ shows the environment it was started with).
            with _without(_CREDENTIALS):
                multiprocessing.forkserver.ensure_running()
                process.start()
        except OSError as error:
            ours.close()
            log.error(  # noqa: TRY400 - the error says it all
                "could not start a fit process: %s; retrying in %g s", error, _RESPAWN_DELAY
            )
            self._on_restart(RestartReason.BROKEN)
            loop.call_later(_RESPAWN_DELAY, self._respawn)
            return False
        finally:
            theirs.close()  # the child has its own copy now
        child = _Child(process=process, channel=_Channel(), pid=process.pid or 0)
        child.channel.on_reply = functools.partial(self._on_reply, child)
        self._children.append(child)
        loop.add_reader(process.sentinel, self._on_exit, child)
        # Its Ready waits in the socket until the transport reads it.
        connecting = loop.create_task(loop.connect_accepted_socket(lambda: child.channel, ours))
        self._connecting.add(connecting)
        connecting.add_done_callback(self._connecting.discard)
        return True

    def _respawn(self) -> None:
        """Start children until `size` of them are not on their way out."""
        while not self._closing and self.live_processes < self._size:
            if not self._spawn():
                return  # _spawn tries again later

    def _on_reply(self, child: _Child, reply: FitReply) -> None:
        if isinstance(reply, Ready):
            child.ready = True
            self._make_idle(child)
        elif isinstance(reply, Pong):
            child.pinged = False
            child.misses = 0
        elif isinstance(reply, Fitted | Raised):
            task = self._take_task(child)
            if task is None:
                return
            child.done += 1
            if not task.future.done():
                if isinstance(reply, Fitted):
                    task.future.set_result(reply)
                else:
                    # Raised inside the fit (blockdensity promises it never
                    # does): a bug, which a retry repeats until the delivery limit.
                    task.future.set_exception(FitCrashedError(f"fit raised {reply.error}"))
            if self._max_tasks and child.done >= self._max_tasks:
                self._retire(child)  # recycling is not a restart
                self._respawn()
            else:
                self._make_idle(child)

    def _make_idle(self, child: _Child) -> None:
        if self._closing:
            self._retire(child)
            return
        self._idle.append(child)
        self._dispatch()

    def _dispatch(self) -> None:
        """Hand waiting pages to idle children."""
        waiting, idle = self._waiting, self._idle
        while waiting and idle:
            task = waiting.popleft()
            if task.future.done():  # its caller was cancelled while it waited
                continue
            child = idle.popleft()
            child.task = task
            child.channel.send(task.frame, task.body)
            assert self._loop is not None  # noqa: S101 - start() ran
            # The timer names the page by the child's count, not by the task:
            # a cancelled timer stays in the loop's heap for a while, and must
            # not hold the page's body and answer there.
            task.timer = self._loop.call_later(self._timeout, self._expire, child, child.done)

    def _expire(self, child: _Child, done: int) -> None:
        if child.task is not None and child.done == done:
            self._kill(child, RestartReason.TIMEOUT)

    def _take_task(self, child: _Child) -> _Task | None:
        """The page a child was fitting, now off it, with its timer stopped."""
        task, child.task = child.task, None
        if task is not None and task.timer is not None:
            task.timer.cancel()
        return task

    def _kill(self, child: _Child, reason: RestartReason) -> None:
        """SIGKILL a child; its exit (the sentinel) fails its page and replaces it."""
        if child.killed_for is None:
            child.killed_for = reason
        # No page may reach it between the kill and its exit.
        with contextlib.suppress(ValueError):
            self._idle.remove(child)
        _sigkill(child.pid)

    def _retire(self, child: _Child) -> None:
        """Let a child go: closing its socket ends its loop, and it exits."""
        child.retiring = True
        with contextlib.suppress(ValueError):
            self._idle.remove(child)
        child.channel.close()

    def _on_exit(self, child: _Child) -> None:
        """The child has exited: fail its page, if it had one, and start another."""
        loop = self._loop
        assert loop is not None  # noqa: S101 - start() ran
        process = child.process
        loop.remove_reader(process.sentinel)
        code = process.exitcode
        process.close()
        child.channel.close()
        with contextlib.suppress(ValueError):
            self._children.remove(child)
        with contextlib.suppress(ValueError):
            self._idle.remove(child)
        task = self._take_task(child)
        if task is not None and not task.future.done():
            task.future.set_exception(self._failure(child, code))
        if self._closing or (child.retiring and child.killed_for is None):
            return  # recycled, or the pool is closing: no failure
        if not child.ready and child.killed_for is None:
            # It died on its way up (an import failing, say): starting the
            # next one at once would only repeat it, as fast as fork allows.
            log.error(
                "fit process %d exited before it was ready (%s); starting another in %g s",
                child.pid,
                _describe_exit(code),
                _RESPAWN_DELAY,
            )
            self._on_restart(RestartReason.BROKEN)
            loop.call_later(_RESPAWN_DELAY, self._respawn)
            return
        reason = child.killed_for or RestartReason.CRASHED
        if task is None and child.killed_for is None:
            log.warning(
                "fit process %d exited while idle (%s); starting another",
                child.pid,
                _describe_exit(code),
            )
        self._on_restart(reason)
        self._respawn()

    def _failure(self, child: _Child, code: int | None) -> FitFailedError:
        if child.killed_for is RestartReason.TIMEOUT:
            return FitTimeoutError(
                f"fit ran past the {self._timeout:g} s timeout; its process was killed"
            )
        return FitCrashedError(f"fit process {child.pid} died: {_describe_exit(code)}")

    # --- the watchdog ---------------------------------------------------------------

    async def watch(self, interval: float, misses: int = 3) -> None:
        """Find stopped or stuck children and replace them; runs until cancelled.

        A stopped child is replaced at the first look; an idle child that
        answers no ping for `misses` rounds in a row, then (a busy child is
        bounded by the fit timeout instead).
        """
        while True:
            await asyncio.sleep(interval)
            for child in list(self._children):
                if child.killed_for is not None or child.retiring:
                    continue
                if _process_state(child.pid) in _STOPPED_STATES:
                    self._warn(child, RestartReason.STOPPED)
                    self._kill(child, RestartReason.STOPPED)
                    continue
                if child.task is not None or not child.ready:
                    child.pinged, child.misses = False, 0  # busy: bounded by the timeout
                    continue
                if child.pinged:
                    child.misses += 1
                    if child.misses >= misses:
                        self._warn(child, RestartReason.UNRESPONSIVE)
                        self._kill(child, RestartReason.UNRESPONSIVE)
                        continue
                else:
                    child.pinged = True
                    child.channel.send(Frame.PING)

    @staticmethod
    def _warn(child: _Child, reason: RestartReason) -> None:
        log.warning(
            "fit process %d is %s; killed it and starting another",
            child.pid,
            reason.value,
            extra={"pid": child.pid, "reason": reason.value},
        )

    async def close(self, timeout: float = 5.0) -> None:
        """Let running fits finish (up to `timeout`), then stop every child.

        A fit whose caller has gone (cancelled at the end of the grace
        period) is not waited for: its child is killed at once.
        """
        loop = self._loop
        if loop is None:
            return
        self._closing = True
        for task in self._waiting:
            if not task.future.done():
                task.future.set_exception(FitCrashedError("the fit pool closed"))
        self._waiting.clear()
        wanted = [
            child.task.future
            for child in self._children
            if child.task is not None and not child.task.future.done()
        ]
        if wanted:
            await asyncio.wait(wanted, timeout=timeout)
        for child in list(self._children):
            if child.task is None:
                self._retire(child)  # an idle child exits when its socket closes
            else:
                _sigkill(child.pid)  # still on a page nobody waits for
        deadline = loop.time() + _EXIT_WAIT
        while self._children and loop.time() < deadline:
            await asyncio.sleep(0.01)
        for child in list(self._children):
            _sigkill(child.pid)
        while self._children:  # SIGKILLed: each sentinel fires at once
            await asyncio.sleep(0.01)
        self._loop = None


# How long a fit process that could not start waits for its successor.
_RESPAWN_DELAY: Final = 1.0

# How long closing waits for idle children to exit by themselves (they take
# milliseconds) before it kills them.
_EXIT_WAIT: Final = 2.0


def _sigkill(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)


# Environment variables that may carry a secret (the URL's password).
_CREDENTIALS: Final = ("BLOCKDENSITY_AMQP_URL",)


@contextlib.contextmanager
def _without(names: tuple[str, ...]) -> Iterator[None]:
    saved = {name: os.environ.pop(name) for name in names if name in os.environ}
    try:
        yield
    finally:
        os.environ.update(saved)


# /proc/<pid>/stat states: T stopped (a signal), t stopped by a tracer.
_STOPPED_STATES: Final = frozenset("Tt")


def _process_state(pid: int) -> str:
    """The state letter of /proc/<pid>/stat, or "?" when there is no such process."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            data = stat.read()
    except OSError:
        return "?"
    # The command name is in parentheses and may hold anything: the state follows the last ')'.
    return data[data.rfind(b")") + 2 : data.rfind(b")") + 3].decode("ascii", "replace") or "?"


def _describe_exit(code: int | None) -> str:
    if code is not None and code < 0:
        try:
            return f"killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exit status {code}"
