"""The fit's process pool: pebble's ProcessPool, awaited from asyncio.

Why pebble rather than concurrent.futures.ProcessPoolExecutor: when a child
dies (segfault, OOM kill) the standard executor marks the whole pool broken
and fails every pending task; pebble replaces the child and fails only the
task it was running. pebble also enforces a per-task hard timeout by killing
the child, and recycles children every `max_tasks` tasks.

Children are started by a forkserver that has imported this module (and so
blockdensity) once: a new child costs a fork, not an interpreter start, and
it inherits none of the parent's sockets or threads. Each child asks the
kernel to kill it when its parent (the forkserver) goes, and the forkserver
asks the same of the worker, so a SIGKILLed worker leaves no orphans behind,
even with a fit stuck on a page.

What crosses the process boundary is plain data: the FetchedPage in, its
CleanPage out (the child builds the output record; blockdensity's Fit holds
a closure for its lazy blocks and is never pickled).
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import logging
import multiprocessing
import multiprocessing.forkserver
import os
import pkgutil
import signal
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures.process import BrokenProcessPool
from dataclasses import replace
from multiprocessing.queues import SimpleQueue
from typing import Final, cast

from pebble import ProcessExpired, ProcessPool

from blockdensity import DEFAULT_CONF, Conf, Profile, fit_text
from worker.outcome import Outcome, RestartReason
from worker.schemas import CleanPage, FetchedPage, clean_page

__all__ = [
    "FitCrashedError",
    "FitFailedError",
    "FitFunction",
    "FitPool",
    "FitTimeoutError",
    "die_with_parent",
    "fit_page",
    "resolve_fit_function",
]

log = logging.getLogger(__name__)

# What a pool child runs on each page; worker.pool.fit_page unless configured.
FitFunction = Callable[[FetchedPage[bytes] | FetchedPage[str]], CleanPage]


class FitFailedError(Exception):
    """The fit of one page did not produce a result. `reason` is its outcome."""

    reason = Outcome.CRASHED


class FitTimeoutError(FitFailedError):
    """The fit ran past the hard timeout; its process was killed and replaced."""

    reason = Outcome.TIMEOUT


class FitCrashedError(FitFailedError):
    """The fit's process died (signal, exit) or the fit raised."""

    reason = Outcome.CRASHED


# --- the child side -------------------------------------------------------------


# The fit's configuration in a pool child: the profile the worker runs, and
# whether the output carries the kept blocks; set by the child's initializer
# (_child_start).
_conf: Conf = DEFAULT_CONF
_blocks = False


def fit_page(page: FetchedPage[bytes] | FetchedPage[str]) -> CleanPage:
    """Run the fit on one page (in a pool child) and build its output record."""
    start = time.perf_counter()
    fit = fit_text(page.body, _conf, charset=page.charset, url=page.url)
    return clean_page(page, fit, time.perf_counter() - start, blocks=_blocks)


def resolve_fit_function(path: str) -> FitFunction:
    """The function a `module:function` path names; `fit_page` for an empty path.

    A seam for tests and experiments (BLOCKDENSITY_FIT_FUNCTION, checked by
    worker.config): the test suite puts in a fit that crashes or hangs on
    marked pages. Inert unless set.
    """
    return cast("FitFunction", pkgutil.resolve_name(path)) if path else fit_page


_PR_SET_PDEATHSIG: Final = 1


def die_with_parent() -> None:
    """Ask the kernel (Linux) for SIGKILL when this process's parent goes."""
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)


def _child_start(pids: SimpleQueue[int], profile: Profile, blocks: bool) -> None:
    """Each child's initializer: die with the forkserver, take the settings, tell its pid."""
    global _conf, _blocks  # noqa: PLW0603 - one per process, set once before any page
    die_with_parent()  # no fit process outlives the forkserver
    _conf = replace(DEFAULT_CONF, profile=profile)
    _blocks = blocks
    pids.put(os.getpid())


# How long a ping holds its child: long enough that an idle sibling, not the
# child that answered first, takes the next ping (so each child gets one).
_PING_HOLD: Final = 0.05


def _ping() -> int:
    time.sleep(_PING_HOLD)
    return os.getpid()


# --- the parent side ------------------------------------------------------------


class FitPool:
    """A pebble ProcessPool of `size` children, awaited from the event loop.

    `fit` raises FitTimeoutError or FitCrashedError for the page at fault
    only; the pool carries on with a fresh child. `on_restart` is called with
    the reason for every child replaced after a crash or timeout, and for
    every pool rebuilt (pebble declared it broken, or the watchdog found a
    stopped or unresponsive child).

    The watchdog (`watch`) covers what no task shows: a child that stops or
    hangs while idle takes no work, so nothing fails; the pool just runs on
    fewer processes. Each child reports its pid when it starts; every
    interval the watchdog reads each child's state (/proc) and, while no
    page is in flight, pings the children through the pool.
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
        # Children fork from a server that has imported the fit already.
        # ...and that dies with this process (see worker/forkserver_preload.py).
        self._context.set_forkserver_preload([__name__, "worker.forkserver_preload"])
        self._pool: ProcessPool | None = None
        self._pids: SimpleQueue[int] | None = None
        self._children: dict[int, int] = {}  # pid -> consecutive pings unanswered
        self._in_flight = 0  # fits scheduled and not yet done

    def start(self) -> None:
        # The forkserver starts here, from the event loop's thread (its death
        # signal follows the thread that started it: forkserver_preload.py),
        # and without the broker URL in its environment: the children parse
        # untrusted HTML with a C parser and need no credentials (a process's
        # /proc/<pid>/environ shows the environment it was started with).
        with _without(_CREDENTIALS):
            multiprocessing.forkserver.ensure_running()
        self._pool = self._new_pool()

    def _new_pool(self) -> ProcessPool:
        # A fresh pid queue per pool: the old pool's children are not ours to watch.
        self._pids = pids = self._context.SimpleQueue()
        self._children = {}
        return ProcessPool(
            max_workers=self._size,
            max_tasks=self._max_tasks,
            initializer=_child_start,
            initargs=(pids, self._profile, self._output_blocks),
            context=self._context,
        )

    async def warm_up(self) -> None:
        """Run one tiny fit per child, so the first pages do not pay for the start."""
        page = FetchedPage(url="about:warm-up", body=b"<p>warm up</p>")
        await asyncio.gather(*(self.fit(page) for _ in range(self._size)))

    async def fit(self, page: FetchedPage[bytes] | FetchedPage[str]) -> CleanPage:
        """The fit of one page, run in a child: its output record. Raises FitFailedError."""
        pool = self._pool
        if pool is None:
            raise RuntimeError("FitPool.fit called before start()")
        try:
            future = pool.schedule(self._function, args=(page,), timeout=self._timeout)
        except RuntimeError as error:
            # pebble marks a pool broken when, say, a child dies while no task
            # runs; it then refuses work. Replace it; this page is requeued.
            self._replace(pool, RestartReason.BROKEN)
            raise FitCrashedError(f"fit pool was broken ({error}); started a new one") from None
        self._in_flight += 1
        try:
            return await asyncio.wrap_future(future)
        except TimeoutError:
            self._on_restart(RestartReason.TIMEOUT)
            raise FitTimeoutError(
                f"fit ran past the {self._timeout:g} s timeout; its process was killed"
            ) from None
        except ProcessExpired as error:
            self._on_restart(RestartReason.CRASHED)
            raise FitCrashedError(
                f"fit process {error.pid} died: {_describe_exit(error.exitcode)}"
            ) from None
        except BrokenProcessPool as error:
            self._replace(pool, RestartReason.BROKEN)
            raise FitCrashedError(f"fit pool broke: {error}") from None
        except Exception as error:  # noqa: BLE001 - whatever the child raised, pickled back
            # Raised inside the fit (blockdensity promises it never does): a
            # bug, which a retry repeats until the delivery limit.
            raise FitCrashedError(f"fit raised {type(error).__name__}: {error}") from None
        finally:
            self._in_flight -= 1

    # --- the watchdog ---------------------------------------------------------------

    async def watch(self, interval: float, misses: int = 3) -> None:
        """Find stopped or stuck children and replace them; runs until cancelled.

        A stopped child is replaced at the first look; an idle child that
        answers no ping for `misses` rounds in a row, then (a busy child is
        bounded by the fit timeout instead).
        """
        while True:
            await asyncio.sleep(interval)
            pool = self._pool
            if pool is None:
                continue
            self._learn_children()
            stopped = [pid for pid in self._children if _process_state(pid) in _STOPPED_STATES]
            if stopped:
                self._kill_and_replace(pool, stopped, RestartReason.STOPPED)
                continue
            if self._in_flight or not self._children:
                continue  # busy: pings would wait behind pages and prove nothing
            answered = await self._ping_round(pool)
            silent = []
            for pid in list(self._children):
                self._children[pid] = 0 if pid in answered else self._children[pid] + 1
                if self._children[pid] >= misses:
                    silent.append(pid)
            if silent and self._pool is pool:
                self._kill_and_replace(pool, silent, RestartReason.UNRESPONSIVE)

    def _learn_children(self) -> None:
        """Take the pids the children reported; forget those that have exited."""
        pids = self._pids
        while pids is not None and not pids.empty():
            self._children.setdefault(pids.get(), 0)
        for pid in [pid for pid in self._children if _process_state(pid) in _GONE_STATES]:
            del self._children[pid]

    async def _ping_round(self, pool: ProcessPool) -> set[int]:
        """The pids of the children that answered a ping (one ping per child)."""
        futures = [
            asyncio.wrap_future(pool.schedule(_ping, timeout=self._timeout))
            for _ in range(self._size)
        ]
        answers = await asyncio.gather(*futures, return_exceptions=True)
        return {answer for answer in answers if isinstance(answer, int)}

    def _kill_and_replace(self, pool: ProcessPool, pids: list[int], reason: RestartReason) -> None:
        for pid in pids:
            log.warning(
                "fit process %d is %s; killed it and starting a new pool",
                pid,
                reason.value,
                extra={"pid": pid, "reason": reason.value},
            )
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        # pebble declares a pool broken once an idle child dies: replace it now,
        # before a page finds it so.
        self._replace(pool, reason)

    def _replace(self, broken: ProcessPool, reason: RestartReason) -> None:
        if self._pool is not broken:
            return  # another task replaced it already
        log.warning("fit pool replaced (%s); starting a new one", reason.value)
        self._on_restart(reason)
        self._pool = self._new_pool()
        # Stopping joins pebble's threads and children: not on the event loop.
        threading.Thread(target=_stop, args=(broken,), daemon=True).start()

    async def close(self, timeout: float = 5.0) -> None:
        """Let running fits finish (up to `timeout`), then stop every child."""
        pool, self._pool = self._pool, None
        if pool is not None:
            await asyncio.to_thread(_close, pool, timeout)


# Environment variables that may carry a secret (the URL's password).
_CREDENTIALS: Final = ("BLOCKDENSITY_AMQP_URL",)


@contextlib.contextmanager
def _without(names: tuple[str, ...]) -> Iterator[None]:
    saved = {name: os.environ.pop(name) for name in names if name in os.environ}
    try:
        yield
    finally:
        os.environ.update(saved)


def _stop(pool: ProcessPool) -> None:
    pool.stop()  # type: ignore[no-untyped-call]  # pebble leaves stop() unannotated
    pool.join()


def _close(pool: ProcessPool, timeout: float) -> None:
    pool.close()  # type: ignore[no-untyped-call]  # pebble leaves close() unannotated
    try:
        pool.join(timeout)
    except TimeoutError:
        _stop(pool)


# /proc/<pid>/stat states: T stopped (a signal), t stopped by a tracer;
# Z and X, or no such file, gone.
_STOPPED_STATES: Final = frozenset("Tt")
_GONE_STATES: Final = frozenset("ZX?")


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
