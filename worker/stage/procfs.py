"""What /proc says of a process: its state, and its resident memory.

The pool's watchdog reads a fit process's state (a stopped one takes no
page, and nothing else would show it) and the forkserver's; memory recycling
reads a fit process's resident size after every page.
"""

from __future__ import annotations

import contextlib
import os
from typing import Final

__all__ = ["STOPPED_STATES", "ResidentMemory", "process_state"]

# /proc/<pid>/stat states: T stopped (a signal), t stopped by a tracer.
STOPPED_STATES: Final = frozenset("Tt")

_PAGE_SIZE: Final = os.sysconf("SC_PAGE_SIZE")


def process_state(pid: int) -> str:
    """The state letter of /proc/<pid>/stat, or "?" when there is no such process."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            data = stat.read()
    except OSError:
        return "?"
    # The command name is in parentheses and may hold anything: the state follows the last ')'.
    return data[data.rfind(b")") + 2 : data.rfind(b")") + 3].decode("ascii", "replace") or "?"


class ResidentMemory:
    """A process's resident set size, from its /proc/<pid>/statm kept open while it lives.

    Kept open, a read is one pread, not an open, a read and a close; and it
    stays the process's, whatever reuses the pid later. 0 when unknown (the
    file could not be opened, or is gone).
    """

    def __init__(self, pid: int) -> None:
        self._statm = -1
        with contextlib.suppress(OSError):
            self._statm = os.open(f"/proc/{pid}/statm", os.O_RDONLY | os.O_CLOEXEC)

    def bytes(self) -> int:
        if self._statm < 0:
            return 0
        try:
            return int(os.pread(self._statm, 128, 0).split()[1]) * _PAGE_SIZE
        except (OSError, IndexError, ValueError):
            return 0

    def close(self) -> None:
        if self._statm >= 0:
            os.close(self._statm)
            self._statm = -1
