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
import concurrent.futures
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

from blockdensity import DEFAULT_CONF, Comments, Profile
from worker.schemas import Encoding
from worker.stage.fitproc import FitFunction, fit_page, serve
from worker.stage.ipc import (
    ENCODING_FRAMES,
    HEADER,
    FitReply,
    Fitted,
    Frame,
    OutOfMemory,
    Pong,
    Raised,
    Ready,
    decode_reply,
    unsent,
)
from worker.stage.outcome import Outcome, RestartReason

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


@dataclass(eq=False)
class _Task:
    """One page on its way through a child."""

    frame: Frame
    body: bytes
    future: asyncio.Future[Fitted]


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
    pidfd: int = -1  # a handle on the process that no reused pid can mistake
    statm: int = -1  # its /proc/<pid>/statm, open while it lives (the recycling bound's)
    gone: bool = False  # its death has been handled (from its socket or its sentinel)
    deadline: float = 0.0  # the loop's time at which its page's fit times out
    timer: asyncio.TimerHandle | None = None  # its fit timeout's timer, while one is set
    armed: float = 0.0  # the time that timer was set for


# A channel's read buffer: replies (an output record, 5-8 KB typically) are
# read into it; one larger grows it, and it is put back to this size after.
_READ_BUFFER: Final = 64 * 1024
_READ_BUFFER_KEPT: Final = 1024 * 1024

# The parent's send buffer on a child's socket (the kernel's default is about
# 200 KB): a page of up to this size (a little less) goes out in one call.
_SEND_BUFFER: Final = 1024 * 1024


class _Channel(asyncio.BufferedProtocol):
    """The parent's end of one child's socket: frames out, replies in.

    Out: a frame's header and body go to the kernel in one sendmsg, from the
    bytes they are (no concatenation, no second write); what the socket does
    not take at once goes through the transport's buffer. In: the transport
    reads into this channel's own buffer (recv_into), where replies are
    decoded in place: no bytes object a read, no concatenation.
    """

    def __init__(self, sock: socket.socket | None = None) -> None:
        self.on_reply: Callable[[FitReply], None] = lambda _reply: None
        self.on_lost: Callable[[], None] = lambda: None
        self.transport: asyncio.Transport | None = None
        # The socket the transport drives (the parent's end): written to
        # directly while the transport has nothing buffered.
        self._socket = sock
        self._buffer = bytearray(_READ_BUFFER)
        self._view = memoryview(self._buffer)
        self._start = 0  # the first byte of the frame not yet decoded
        self._end = 0  # the end of the bytes read

    def connection_lost(self, exc: Exception | None) -> None:
        # The child's end closed: it exited or died (or the parent closed ours).
        self.transport = None
        self.on_lost()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)  # noqa: S101 - a stream socket's
        self.transport = transport

    def send(self, frame: Frame, body: bytes = b"") -> None:
        transport = self.transport
        if transport is None or transport.is_closing():
            return
        header = HEADER.pack(len(body), frame)
        sock = self._socket
        if sock is None or transport.get_write_buffer_size():
            # Behind what is buffered already: in order, through the transport.
            transport.write(header)
            if body:
                transport.write(body)
            return
        try:
            sent = sock.sendmsg((header, body) if body else (header,))
        except (BlockingIOError, InterruptedError):
            sent = 0
        except OSError:
            sent = 0  # the transport's own write meets the error and reports it
        # What the socket did not take waits in the transport's buffer, which
        # writes it when the socket can take more.
        for rest in unsent(header, body, sent):
            transport.write(rest)

    def get_buffer(self, sizehint: int) -> memoryview:
        view, start, end = self._view, self._start, self._end
        if end - start >= HEADER.size:
            wanted = HEADER.size + HEADER.unpack_from(view, start)[0]  # the frame being read
        else:
            wanted = HEADER.size
        if start + wanted > len(view):
            if wanted > len(view):
                # A reply larger than the buffer: a larger one, this frame's bytes moved over.
                grown = bytearray(max(wanted, 2 * len(view)))
                grown[: end - start] = view[start:end]
                self._buffer, self._view = grown, memoryview(grown)
            else:
                view[: end - start] = view[start:end]  # the frame's start to the front
            self._start, self._end = 0, end - start
        return self._view[self._end :]

    def buffer_updated(self, nbytes: int) -> None:
        view = self._view
        start, end = self._start, self._end + nbytes
        self._end = end
        while end - start >= HEADER.size:
            size, _kind = HEADER.unpack_from(view, start)
            frame_end = start + HEADER.size + size
            if frame_end > end:
                break
            self._start = frame_end
            self.on_reply(decode_reply(view[start + HEADER.size : frame_end]))
            start = frame_end
        if start == end:
            self._start = self._end = 0  # all decoded: the next read starts at the front
            if len(view) > _READ_BUFFER_KEPT:
                # A rare large reply grew it: not kept for the child's whole life.
                self._buffer = bytearray(_READ_BUFFER)
                self._view = memoryview(self._buffer)

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
        comments: Comments = DEFAULT_CONF.comments,
        output_blocks: bool = False,
        on_restart: Callable[[RestartReason], None] = lambda _: None,
        memory_limit: int = 0,
        recycle_memory: int = 0,
    ) -> None:
        self._size = size
        self._memory_limit = memory_limit  # a fit process's growth limit (RLIMIT_DATA)
        self._recycle_memory = recycle_memory  # resident size past which one is recycled
        self._profile = profile
        self._comments = comments
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
        # Children start from this thread: starting one waits on the forkserver.
        self._starter = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="fit-start")
        self._spawner: asyncio.Task[None] | None = None
        self._replacing: asyncio.Task[None] | None = None
        # Why the forkserver cannot start fit processes now (readiness), or None.
        self.forkserver_problem: str | None = None
        # Children whose exit the forkserver has yet to report, by sentinel.
        self._sentinels: dict[int, _Child] = {}

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

    def _respawn(self) -> None:
        """Start children until `size` of them are not on their way out (in a task)."""
        if self._closing or self._loop is None:
            return
        if self._spawner is None or self._spawner.done():
            self._spawner = self._loop.create_task(self._spawn_missing())

    async def _spawn_missing(self) -> None:
        while not self._closing and self.live_processes < self._size:
            if self._replacing is not None:
                await asyncio.gather(self._replacing, return_exceptions=True)
            if not await self._spawn():
                await asyncio.sleep(_RESPAWN_DELAY)

    async def _spawn(self) -> bool:
        """Start one child (it takes pages once it has said Ready); False if it could not."""
        loop = self._loop
        assert loop is not None  # noqa: S101 - start() ran
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        process = self._context.Process(
            target=serve,
            args=(
                theirs,
                self._profile,
                self._comments,
                self._output_blocks,
                self._function,
                self._memory_limit,
            ),
            name="blockdensity-fit",
            daemon=True,
        )
        try:
            # The forkserver starts (or restarts, if it died) here, on the loop's
            # thread: it asks to die with the thread that started it (PDEATHSIG),
            # which must live as long as the pool. Without the broker URL in its
            # environment: the children parse untrusted HTML with a C parser and
            # need no credentials (/proc/<pid>/environ shows a process's own).
            with _without(_CREDENTIALS):
                multiprocessing.forkserver.ensure_running()
        except OSError as error:
            ours.close()
            theirs.close()
            log.error(  # noqa: TRY400 - the error says it all
                "could not start the forkserver: %s; retrying in %g s", error, _RESPAWN_DELAY
            )
            self._on_restart(RestartReason.BROKEN)
            return False
        started = loop.run_in_executor(self._starter, _start, process, theirs)
        try:
            await asyncio.wait_for(asyncio.shield(started), _FORKSERVER_TIMEOUT)
        except TimeoutError:
            ours.close()
            self._forkserver_failed(
                f"the forkserver started no fit process within {_FORKSERVER_TIMEOUT:g} s"
            )
            return False
        except (OSError, EOFError, ValueError) as error:
            ours.close()
            log.error(  # noqa: TRY400 - the error says it all
                "could not start a fit process: %s; retrying in %g s", error, _RESPAWN_DELAY
            )
            self._on_restart(RestartReason.BROKEN)
            return False
        if self._closing:
            ours.close()
            _sigkill(process.pid or 0)
            return False
        with contextlib.suppress(OSError):
            ours.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, _SEND_BUFFER)
        child = _Child(process=process, channel=_Channel(ours), pid=process.pid or 0)
        with contextlib.suppress(OSError, AttributeError):
            child.pidfd = os.pidfd_open(child.pid)
        if self._recycle_memory:
            # Read after every page: kept open, a read is one pread, not an
            # open, a read and a close (and it stays the process's, whatever
            # reuses the pid later).
            with contextlib.suppress(OSError):
                child.statm = os.open(f"/proc/{child.pid}/statm", os.O_RDONLY | os.O_CLOEXEC)
        child.channel.on_reply = functools.partial(self._on_reply, child)
        child.channel.on_lost = functools.partial(self._on_lost, child)
        self._children.append(child)
        loop.add_reader(process.sentinel, self._on_exit, child)
        self._sentinels[process.sentinel] = child
        # Its Ready waits in the socket until the transport reads it.
        connecting = loop.create_task(loop.connect_accepted_socket(lambda: child.channel, ours))
        self._connecting.add(connecting)
        connecting.add_done_callback(self._connecting.discard)
        self.forkserver_problem = None
        return True

    # --- the forkserver ---------------------------------------------------------------

    def _forkserver_failed(self, problem: str) -> None:
        """Kill the forkserver and start another (once at a time); unready meanwhile."""
        if self._replacing is not None and not self._replacing.done():
            return
        assert self._loop is not None  # noqa: S101 - start() ran
        self.forkserver_problem = problem
        log.warning("%s: replacing it (its fit processes go with it)", problem)
        self._on_restart(RestartReason.FORKSERVER)
        self._replacing = self._loop.create_task(self._replace_forkserver())

    async def _replace_forkserver(self) -> None:
        server = multiprocessing.forkserver._forkserver  # the module's one server
        pid = getattr(server, "_forkserver_pid", None)
        if pid is not None:
            # Our own child, not yet waited for: the pid is still its.
            _sigkill(pid)
            # Close its end, reap it and forget its address: the next start
            # starts a new forkserver (blocking briefly on the reap: a thread).
            await asyncio.to_thread(_forget_forkserver, server)
        self._respawn()

    @property
    def forkserver_state(self) -> str:
        """running, stopped, gone or none (not started): what /proc says of the forkserver."""
        server = multiprocessing.forkserver._forkserver  # the module's one server
        pid = getattr(server, "_forkserver_pid", None)
        if pid is None:
            return "none"
        state = _process_state(pid)
        if state in _STOPPED_STATES:
            return "stopped"
        if state in ("?", "Z", "X"):
            return "gone"
        return "running"

    def _on_reply(self, child: _Child, reply: FitReply) -> None:
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
            if isinstance(reply, OutOfMemory) or self._grown(child):
                self._on_restart(RestartReason.MEMORY)
                self._retire(child)  # its heap may keep what the page took
                self._respawn()
            elif self._max_tasks and child.done >= self._max_tasks:
                self._retire(child)  # recycling is not a restart
                self._respawn()
            else:
                self._make_idle(child)

    def _grown(self, child: _Child) -> bool:
        """Whether the child's resident memory is past the recycling bound (a large page
        leaves the allocator holding memory it seldom gives back)."""
        return bool(self._recycle_memory) and _resident_bytes(child.statm) > self._recycle_memory

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
            loop = self._loop
            assert loop is not None  # noqa: S101 - start() ran
            # One timer a child, not one a page: it is left running when a
            # page ends, and when it fires on a later page, set again for
            # that page's deadline (see _expire).
            child.deadline = loop.time() + self._timeout
            if child.timer is None:
                child.armed = child.deadline
                child.timer = loop.call_at(child.deadline, self._expire, child)

    def _expire(self, child: _Child) -> None:
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

    def _take_task(self, child: _Child) -> _Task | None:
        """The page a child was fitting, now off it (its timer is left to run: see _expire)."""
        task, child.task = child.task, None
        return task

    def _kill(self, child: _Child, reason: RestartReason) -> None:
        """SIGKILL a child; its exit (the sentinel) fails its page and replaces it."""
        if child.killed_for is None:
            child.killed_for = reason
        # No page may reach it between the kill and its exit.
        with contextlib.suppress(ValueError):
            self._idle.remove(child)
        _kill_child(child)

    def _retire(self, child: _Child) -> None:
        """Let a child go: closing its socket ends its loop, and it exits."""
        child.retiring = True
        with contextlib.suppress(ValueError):
            self._idle.remove(child)
        child.channel.close()

    def _on_lost(self, child: _Child) -> None:
        """The child's socket closed. Its exit status, if the forkserver reports it within
        a moment, names the cause; past that moment the death is handled without it."""
        if child.gone or self._loop is None:
            return
        if child.retiring and child.task is None:
            self._lose(child, None)  # our close, or its own exit after it: expected
            return
        self._loop.call_later(_EXIT_STATUS_WAIT, self._lose, child, None)

    def _on_exit(self, child: _Child) -> None:
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

    def _lose(self, child: _Child, code: int | None) -> None:
        """The child is gone: fail its page, if it had one, and start another (once)."""
        loop = self._loop
        if child.gone or loop is None:
            return
        child.channel.close()
        if code is None:
            _kill_child(child)  # its socket closed: dead, dying or broken, it is done
        child.gone = True
        if child.timer is not None:
            child.timer.cancel()
            child.timer = None
        if child.statm >= 0:
            os.close(child.statm)
            child.statm = -1
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
            state = self.forkserver_state
            if state in ("stopped", "gone") and not self._closing:
                self._forkserver_failed(f"the fit processes' forkserver is {state}")
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
                _kill_child(child)  # still on a page nobody waits for
        deadline = loop.time() + _EXIT_WAIT
        while self._children and loop.time() < deadline:
            await asyncio.sleep(0.01)
        for child in list(self._children):
            _kill_child(child)
        deadline = loop.time() + _EXIT_WAIT
        while self._children and loop.time() < deadline:  # SIGKILLed: each socket closes
            await asyncio.sleep(0.01)
        await self._stop_starting(loop, deadline + _EXIT_WAIT)
        self._loop = None

    async def _stop_starting(self, loop: asyncio.AbstractEventLoop, deadline: float) -> None:
        """Stop starting children, and stop waiting for the forkserver's reports by `deadline`."""
        for task in (self._spawner, self._replacing):
            if task is not None:
                task.cancel()
                await asyncio.gather(task, return_exceptions=True)
        while self._sentinels and loop.time() < deadline:
            await asyncio.sleep(0.01)  # the forkserver's reports, to close each process
        for sentinel, child in list(self._sentinels.items()):
            loop.remove_reader(sentinel)  # no report (the forkserver is gone): let it be
            if child.pidfd >= 0:
                os.close(child.pidfd)
        self._sentinels.clear()
        self._starter.shutdown(wait=False, cancel_futures=True)


# How long a fit process that could not start waits for its successor.
_RESPAWN_DELAY: Final = 1.0

# How long the forkserver may take to start a fit process (it takes
# milliseconds) before it is taken for stuck and replaced.
_FORKSERVER_TIMEOUT: Final = 5.0

# After a child's socket closes, how long its exit status (from the
# forkserver) is waited for, to name the cause in the page's error.
_EXIT_STATUS_WAIT: Final = 0.1

# How long closing waits for idle children to exit by themselves (they take
# milliseconds) before it kills them.
_EXIT_WAIT: Final = 2.0


def _sigkill(pid: int) -> None:
    if pid > 0:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)


def _kill_child(child: _Child) -> None:
    """SIGKILL a fit process through its pidfd (the forkserver, not us, reaps it: its pid
    may be another process's by now), else by pid while its exit is not yet seen."""
    if child.pidfd >= 0:
        with contextlib.suppress(ProcessLookupError, OSError):
            signal.pidfd_send_signal(child.pidfd, signal.SIGKILL)
    elif not child.gone:
        _sigkill(child.pid)


def _start(process: BaseProcess, theirs: socket.socket) -> None:
    """Start `process` from the forkserver (in the starter thread: this waits on it)."""
    try:
        process.start()
    finally:
        theirs.close()  # the child has its own copy now


def _forget_forkserver(server: multiprocessing.forkserver.ForkServer) -> None:
    """After its SIGKILL: reap the forkserver and clear its state, so that the next start
    runs a new one."""
    with contextlib.suppress(OSError, ChildProcessError):
        # ForkServer._stop (private, not in typeshed): closes its pipe, waits for it,
        # forgets its address.
        server._stop()  # type: ignore[attr-defined]


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


_PAGE_SIZE: Final = os.sysconf("SC_PAGE_SIZE")


def _resident_bytes(statm: int) -> int:
    """A process's resident set size from its open /proc/<pid>/statm, 0 if unknown."""
    if statm < 0:
        return 0
    try:
        return int(os.pread(statm, 128, 0).split()[1]) * _PAGE_SIZE
    except (OSError, IndexError, ValueError):
        return 0


def _describe_exit(code: int | None) -> str:
    if code is not None and code < 0:
        try:
            return f"killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exit status {code}"
