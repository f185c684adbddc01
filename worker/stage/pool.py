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

Children are started by a forkserver that has imported the fit once
(worker.stage.forkserver), from a thread, within a bound
(worker.stage.spawner). The parent reads a child's replies from its socket
(worker.stage.channel); the watchdog finds what no page shows
(worker.stage.watchdog); a child is let go after so many pages or past a
memory bound (worker.stage.recycling). The pool composes them: it hands
pages to idle children, times them out, and replaces the children that die.

The parent learns that a child has died from the child's own socket: its
end closes with the process (end of file), whatever killed it, and its page
is released at once. The forkserver's report of the exit status (the
process's sentinel) names the signal when it comes within a moment, but
nothing waits on the forkserver: a child is started from a thread, within a
bound, and a forkserver that is stopped, gone or does not start a child
within the bound is killed and replaced (its children go with it, each
asked to die with its parent: their pages are released too). A death is
handled once, whichever way it was seen first.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import functools
import logging
import multiprocessing
import os
from collections.abc import Callable
from typing import Final

from blockdensity import DEFAULT_CONF, Comments, Profile
from worker.schemas import Encoding
from worker.stage.channel import Channel
from worker.stage.child import Child, Task, describe_exit, kill_child, sigkill
from worker.stage.fitproc import FitFunction, MarkdownOutput, fit_page
from worker.stage.forkserver import Forkserver
from worker.stage.ipc import ENCODING_FRAMES, FitReply, Fitted, OutOfMemory, Pong, Raised, Ready
from worker.stage.outcome import Outcome, RestartReason
from worker.stage.recycling import Recycling
from worker.stage.spawner import RESPAWN_DELAY, Spawner
from worker.stage.watchdog import Watchdog

__all__ = [
    "FitCrashedError",
    "FitFailedError",
    "FitMemoryError",
    "FitPool",
    "FitPoolStartError",
    "FitTimeoutError",
]

log = logging.getLogger(__name__)


class FitFailedError(Exception):
    """The fit of one page did not produce a result. `reason` is its outcome; `final`, that
    another try would fail alike (the page is dead-lettered at once)."""

    reason = Outcome.CRASHED
    final = False


class FitTimeoutError(FitFailedError):
    """The fit ran past the hard timeout; its process was killed and replaced."""

    reason = Outcome.TIMEOUT


class FitCrashedError(FitFailedError):
    """The fit's process died (signal, exit) or the fit raised."""

    reason = Outcome.CRASHED


class FitMemoryError(FitFailedError):
    """The fit needed more memory than a fit process may take: the page fails for good
    (another try needs as much), and its process is recycled."""

    reason = Outcome.MEMORY
    final = True


class FitPoolStartError(RuntimeError):
    """No fit process could be started."""


class FitPool:
    """`size` fit processes, fed from the event loop.

    `fit` raises FitTimeoutError or FitCrashedError for the page at fault
    only; the pool carries on with a fresh child. `on_restart` is called with
    the reason for every child replaced after a crash or timeout, after it
    died while idle, and when the watchdog found it stopped or unresponsive.

    The watchdog (`watch`) covers what no page shows: a child that stops or
    hangs while idle (worker.stage.watchdog).
    """

    def __init__(  # noqa: PLR0913 - keyword-only settings of one pool
        self,
        *,
        size: int,
        timeout: float,
        max_tasks: int,
        function: FitFunction = fit_page,
        profile: Profile = DEFAULT_CONF.profile,
        comments: Comments = DEFAULT_CONF.comments,
        output_blocks: bool = False,
        markdown: MarkdownOutput | None = None,
        on_restart: Callable[[RestartReason], None] = lambda _: None,
        memory_limit: int = 0,
        recycle_memory: int = 0,
    ) -> None:
        self._size = size
        self._timeout = timeout
        self._on_restart = on_restart
        context = multiprocessing.get_context("forkserver")
        self._forkserver = Forkserver(context, on_restart=on_restart, on_replaced=self._respawn)
        # memory_limit: a fit process's growth limit (RLIMIT_DATA)
        settings = (profile, comments, output_blocks, function, memory_limit, markdown)
        self._spawner = Spawner(context, self._forkserver, settings, on_restart=on_restart)
        self._recycling = Recycling(max_tasks=max_tasks, recycle_memory=recycle_memory)
        self._children: list[Child] = []
        self._idle: collections.deque[Child] = collections.deque()
        self._waiting: collections.deque[Task] = collections.deque()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._closing = False
        self._connecting: set[asyncio.Task[object]] = set()  # held, so none is collected
        self._spawning: asyncio.Task[None] | None = None
        # Children whose exit the forkserver has yet to report, by sentinel.
        self._sentinels: dict[int, Child] = {}

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
    def forkserver_problem(self) -> str | None:
        """Why the forkserver cannot start fit processes now (readiness), or None."""
        return self._forkserver.problem

    @property
    def forkserver_state(self) -> str:
        """running, stopped, gone or none (not started): what /proc says of the forkserver."""
        return self._forkserver.state

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
        task = Task(ENCODING_FRAMES[encoding], body, loop.create_future())
        self._waiting.append(task)
        self._dispatch()
        # A cancelled caller leaves its page to finish in the child (the
        # answer is dropped): killing the child would cost a restart.
        return await task.future

    # --- children ----------------------------------------------------------------

    def _respawn(self) -> None:
        """Start children until `size` of them are not on their way out (in a task)."""
        if self._closing or self._loop is None:
            return
        if self._spawning is None or self._spawning.done():
            self._spawning = self._loop.create_task(self._spawn_missing())

    async def _spawn_missing(self) -> None:
        while not self._closing and self.live_processes < self._size:
            await self._forkserver.replaced()
            if not await self._spawn():
                await asyncio.sleep(RESPAWN_DELAY)

    async def _spawn(self) -> bool:
        """Start one child (it takes pages once it has said Ready); False if it could not."""
        loop = self._loop
        assert loop is not None  # noqa: S101 - start() ran
        started = await self._spawner.start()
        if started is None:
            return False
        process, ours = started
        if self._closing:
            ours.close()
            sigkill(process.pid or 0)
            return False
        child = Child(process=process, channel=Channel(ours), pid=process.pid or 0)
        with contextlib.suppress(OSError, AttributeError):
            child.pidfd = os.pidfd_open(child.pid)
        child.memory = self._recycling.watch(child.pid)
        child.channel.on_reply = functools.partial(self._on_reply, child)
        child.channel.on_lost = functools.partial(self._on_lost, child)
        self._children.append(child)
        loop.add_reader(process.sentinel, self._on_exit, child)
        self._sentinels[process.sentinel] = child
        # Its Ready waits in the socket until the transport reads it.
        connecting = loop.create_task(loop.connect_accepted_socket(lambda: child.channel, ours))
        self._connecting.add(connecting)
        connecting.add_done_callback(self._connecting.discard)
        self._forkserver.problem = None
        return True

    def _on_reply(self, child: Child, reply: FitReply) -> None:
        if isinstance(reply, Ready):
            child.ready = True
            self._make_idle(child)
        elif isinstance(reply, Pong):
            child.pinged = False
            child.misses = 0
        elif isinstance(reply, Fitted | Raised | OutOfMemory):
            task = self._take_task(child)
            if task is None:
                return
            child.done += 1
            if not task.future.done():
                if isinstance(reply, Fitted):
                    task.future.set_result(reply)
                elif isinstance(reply, OutOfMemory):
                    task.future.set_exception(
                        FitMemoryError(
                            f"the fit needed more memory than a fit process may take "
                            f"({(reply.limit or 0) >> 20} MiB of data, "
                            f"BLOCKDENSITY_FIT_MEMORY_LIMIT above its start): {reply.error}"
                        )
                    )
                else:
                    # Raised inside the fit (blockdensity promises it never
                    # does): a bug, which a retry repeats until the delivery limit.
                    task.future.set_exception(FitCrashedError(f"fit raised {reply.error}"))
            if isinstance(reply, OutOfMemory) or self._recycling.grown(child):
                self._on_restart(RestartReason.MEMORY)
                self._retire(child)  # its heap may keep what the page took
                self._respawn()
            elif self._recycling.worn(child):
                self._retire(child)  # recycling is not a restart
                self._respawn()
            else:
                self._make_idle(child)

    def _make_idle(self, child: Child) -> None:
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
            loop = self._loop
            assert loop is not None  # noqa: S101 - start() ran
            # One timer a child, not one a page: it is left running when a
            # page ends, and when it fires on a later page, set again for
            # that page's deadline (see _expire).
            child.deadline = loop.time() + self._timeout
            if child.timer is None:
                child.armed = child.deadline
                child.timer = loop.call_at(child.deadline, self._expire, child)

    def _expire(self, child: Child) -> None:
        """A child's timer is due: the page it was set for timed out, if still on; a later
        page has its timer set again for its own deadline."""
        child.timer = None
        if child.task is None or child.gone:
            return  # idle: the next page sets it again
        if child.deadline <= child.armed:
            self._kill(child, RestartReason.TIMEOUT)
            return
        loop = self._loop
        if loop is not None:
            child.armed = child.deadline
            child.timer = loop.call_at(child.deadline, self._expire, child)

    def _take_task(self, child: Child) -> Task | None:
        """The page a child was fitting, now off it (its timer is left to run: see _expire)."""
        task, child.task = child.task, None
        return task

    def _kill(self, child: Child, reason: RestartReason) -> None:
        """SIGKILL a child; its exit (the sentinel) fails its page and replaces it."""
        if child.killed_for is None:
            child.killed_for = reason
        # No page may reach it between the kill and its exit.
        with contextlib.suppress(ValueError):
            self._idle.remove(child)
        kill_child(child)

    def _retire(self, child: Child) -> None:
        """Let a child go: closing its socket ends its loop, and it exits."""
        child.retiring = True
        with contextlib.suppress(ValueError):
            self._idle.remove(child)
        child.channel.close()

    def _on_lost(self, child: Child) -> None:
        """The child's socket closed. Its exit status, if the forkserver reports it within
        a moment, names the cause; past that moment the death is handled without it."""
        if child.gone or self._loop is None:
            return
        if child.retiring and child.task is None:
            self._lose(child, None)  # our close, or its own exit after it: expected
            return
        self._loop.call_later(_EXIT_STATUS_WAIT, self._lose, child, None)

    def _on_exit(self, child: Child) -> None:
        """The forkserver reports the child's exit (its sentinel is readable)."""
        loop = self._loop
        assert loop is not None  # noqa: S101 - start() ran
        process = child.process
        loop.remove_reader(process.sentinel)
        self._sentinels.pop(process.sentinel, None)
        code = process.exitcode
        process.close()
        if child.pidfd >= 0:
            os.close(child.pidfd)
            child.pidfd = -1
        self._lose(child, code)

    def _lose(self, child: Child, code: int | None) -> None:
        """The child is gone: fail its page, if it had one, and start another (once)."""
        loop = self._loop
        if child.gone or loop is None:
            return
        child.channel.close()
        if code is None:
            kill_child(child)  # its socket closed: dead, dying or broken, it is done
        child.gone = True
        if child.timer is not None:
            child.timer.cancel()
            child.timer = None
        if child.memory is not None:
            child.memory.close()
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
                describe_exit(code),
                RESPAWN_DELAY,
            )
            self._on_restart(RestartReason.BROKEN)
            loop.call_later(RESPAWN_DELAY, self._respawn)
            return
        reason = child.killed_for or RestartReason.CRASHED
        if task is None and child.killed_for is None:
            log.warning(
                "fit process %d exited while idle (%s); starting another",
                child.pid,
                describe_exit(code),
            )
        self._on_restart(reason)
        self._respawn()

    def _failure(self, child: Child, code: int | None) -> FitFailedError:
        if child.killed_for is RestartReason.TIMEOUT:
            return FitTimeoutError(
                f"fit ran past the {self._timeout:g} s timeout; its process was killed"
            )
        return FitCrashedError(f"fit process {child.pid} died: {describe_exit(code)}")

    # --- the watchdog ---------------------------------------------------------------

    async def watch(self, interval: float, misses: int = 3) -> None:
        """Find stopped or stuck children and replace them, every `interval` seconds; runs
        until cancelled (worker.stage.watchdog: `misses` pings unanswered in a row)."""
        watchdog = Watchdog(self._forkserver, self._kill, misses=misses)
        while True:
            await asyncio.sleep(interval)
            watchdog.look(list(self._children), closing=self._closing)

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
                kill_child(child)  # still on a page nobody waits for
        deadline = loop.time() + _EXIT_WAIT
        while self._children and loop.time() < deadline:
            await asyncio.sleep(0.01)
        for child in list(self._children):
            kill_child(child)
        deadline = loop.time() + _EXIT_WAIT
        while self._children and loop.time() < deadline:  # SIGKILLed: each socket closes
            await asyncio.sleep(0.01)
        await self._stop_starting(loop, deadline + _EXIT_WAIT)
        self._loop = None

    async def _stop_starting(self, loop: asyncio.AbstractEventLoop, deadline: float) -> None:
        """Stop starting children, and stop waiting for the forkserver's reports by `deadline`."""
        if self._spawning is not None:
            self._spawning.cancel()
            await asyncio.gather(self._spawning, return_exceptions=True)
        await self._forkserver.stop()
        while self._sentinels and loop.time() < deadline:
            await asyncio.sleep(0.01)  # the forkserver's reports, to close each process
        for sentinel, child in list(self._sentinels.items()):
            loop.remove_reader(sentinel)  # no report (the forkserver is gone): let it be
            if child.pidfd >= 0:
                os.close(child.pidfd)
        self._sentinels.clear()
        self._spawner.shutdown()


# After a child's socket closes, how long its exit status (from the
# forkserver) is waited for, to name the cause in the page's error.
_EXIT_STATUS_WAIT: Final = 0.1

# How long closing waits for idle children to exit by themselves (they take
# milliseconds) before it kills them.
_EXIT_WAIT: Final = 2.0
