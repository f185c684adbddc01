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
from typing import Final, cast

from pebble import ProcessExpired, ProcessPool

from blockdensity import fit_text
from worker.outcome import Outcome
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


def fit_page(page: FetchedPage[bytes] | FetchedPage[str]) -> CleanPage:
    """Run the fit on one page (in a pool child) and build its output record."""
    start = time.perf_counter()
    fit = fit_text(page.body, charset=page.charset)
    return clean_page(page, fit, time.perf_counter() - start)


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


# --- the parent side ------------------------------------------------------------


class FitPool:
    """A pebble ProcessPool of `size` children, awaited from the event loop.

    `fit` raises FitTimeoutError or FitCrashedError for the page at fault
    only; the pool carries on with a fresh child. `on_restart` is called for
    every child replaced after a crash or timeout (and for a pool rebuilt
    after pebble declared it broken).
    """

    def __init__(
        self,
        *,
        size: int,
        timeout: float,
        max_tasks: int,
        function: FitFunction = fit_page,
        on_restart: Callable[[], None] = lambda: None,
    ) -> None:
        self._size = size
        self._timeout = timeout
        self._max_tasks = max_tasks
        self._function = function
        self._on_restart = on_restart
        self._context = multiprocessing.get_context("forkserver")
        # Children fork from a server that has imported the fit already.
        # ...and that dies with this process (see worker/forkserver_preload.py).
        self._context.set_forkserver_preload([__name__, "worker.forkserver_preload"])
        self._pool: ProcessPool | None = None

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
        return ProcessPool(
            max_workers=self._size,
            max_tasks=self._max_tasks,
            initializer=die_with_parent,  # no fit process outlives the forkserver
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
            self._replace(pool)
            raise FitCrashedError(f"fit pool was broken ({error}); started a new one") from None
        try:
            return await asyncio.wrap_future(future)
        except TimeoutError:
            self._on_restart()
            raise FitTimeoutError(
                f"fit ran past the {self._timeout:g} s timeout; its process was killed"
            ) from None
        except ProcessExpired as error:
            self._on_restart()
            raise FitCrashedError(
                f"fit process {error.pid} died: {_describe_exit(error.exitcode)}"
            ) from None
        except BrokenProcessPool as error:
            self._replace(pool)
            raise FitCrashedError(f"fit pool broke: {error}") from None
        except Exception as error:  # noqa: BLE001 - whatever the child raised, pickled back
            # Raised inside the fit (blockdensity promises it never does): a
            # bug, which a retry repeats until the delivery limit.
            raise FitCrashedError(f"fit raised {type(error).__name__}: {error}") from None

    def _replace(self, broken: ProcessPool) -> None:
        if self._pool is not broken:
            return  # another task replaced it already
        log.warning("fit pool broken; starting a new one")
        self._on_restart()
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


def _describe_exit(code: int | None) -> str:
    if code is not None and code < 0:
        try:
            return f"killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exit status {code}"
