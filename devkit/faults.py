"""A fit that misbehaves on purpose, for the tests and the chaos run.

Put into a worker with BLOCKDENSITY_FIT_FUNCTION=devkit.faults:fit_page_with_markers
(MARKERS_FIT below). A page whose body contains one of the markers crashes its
fit process (as the OOM killer, a segfault or an exit would), hangs, or takes
0.2 s longer; every other page is fitted as usual. And a process that has
fitted a page with it hangs, idle, on SIGUSR1 (HANG_SIGNAL): a process stuck
between pages, which no page's timeout catches.
"""

from __future__ import annotations

import ctypes
import os
import signal
import time
from collections.abc import Callable
from typing import Final

from worker.schemas import CleanPage, FetchedPage
from worker.stage.fitproc import fit_page

__all__ = ["HANG_SIGNAL", "MARKERS", "MARKERS_FIT", "SLOW_MARKER", "fit_page_with_markers"]

# The value of BLOCKDENSITY_FIT_FUNCTION that puts this fit in.
MARKERS_FIT: Final = f"{__name__}:fit_page_with_markers"
SLOW_MARKER: Final = "BLOCKDENSITY-TEST-SLOW"
SLOW_SECONDS: Final = 0.2


def _crash_sigkill() -> None:
    os.kill(os.getpid(), signal.SIGKILL)  # as the OOM killer does


def _crash_segfault() -> None:
    ctypes.string_at(0)  # reads address 0: SIGSEGV


def _crash_exit() -> None:
    os._exit(70)


def _hang() -> None:
    while True:
        time.sleep(3600)


def _slow() -> None:
    time.sleep(SLOW_SECONDS)  # then the page is fitted as usual


MARKERS: Final[dict[bytes, Callable[[], None]]] = {
    b"BLOCKDENSITY-TEST-SIGKILL": _crash_sigkill,
    b"BLOCKDENSITY-TEST-SEGFAULT": _crash_segfault,
    b"BLOCKDENSITY-TEST-EXIT": _crash_exit,
    b"BLOCKDENSITY-TEST-HANG": _hang,
    SLOW_MARKER.encode(): _slow,
}


HANG_SIGNAL: Final = signal.SIGUSR1


def _hang_on_signal(_signum: int, _frame: object) -> None:
    _hang()


def fit_page_with_markers(page: FetchedPage[bytes] | FetchedPage[str]) -> CleanPage:
    """Crash, hang or dawdle on a marked page; fit every other page as usual."""
    if signal.getsignal(HANG_SIGNAL) is not _hang_on_signal:
        signal.signal(HANG_SIGNAL, _hang_on_signal)
    body = page.body
    data = body.encode("utf-8", "replace") if isinstance(body, str) else body
    for marker, action in MARKERS.items():
        if marker in data:
            action()
    return fit_page(page)


class _DiesOnArrival:
    """A fit function whose unpickling in a fit process ends that process (status 3):
    it stands for whatever kills a fit process before it is ready (an import that
    fails there, a library missing from the image)."""

    def __reduce__(self) -> tuple[Callable[[int], None], tuple[int]]:
        return os._exit, (3,)

    def __call__(self, page: FetchedPage[bytes] | FetchedPage[str]) -> CleanPage:
        raise AssertionError("never called: the process ends before it takes a page")


# BLOCKDENSITY_FIT_FUNCTION=devkit.faults:dies_on_arrival: no fit process ever starts.
dies_on_arrival: Final = _DiesOnArrival()
