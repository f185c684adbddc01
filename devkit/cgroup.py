"""A memory cgroup of our own, for running a worker inside a pod's memory limit.

`MemoryCgroup(512 * MiB)` makes a cgroup under this process's own (cgroup v2
where its memory controller is, else v1's memory hierarchy), with that limit
and no swap: what a Kubernetes memory limit is. `preexec` puts a process
started with `subprocess.Popen(..., preexec_fn=group.preexec)` into it before
it runs anything, so that everything it starts is inside too. `oom_kills()`
counts the kernel's OOM kills inside; `stop()` kills whatever is left and
removes the cgroup (also at interpreter exit).

Needs root (the tests run as root here and in CI).
"""

from __future__ import annotations

import atexit
import contextlib
import os
import secrets
import signal
import time
from pathlib import Path

from devkit.rabbitnode import Started

__all__ = ["MemoryCgroup", "MemoryCgroupUnavailableError"]

_ROOT = Path("/sys/fs/cgroup")


class MemoryCgroupUnavailableError(RuntimeError):
    """No memory controller this process may use (not root, or no cgroup file system)."""


def _own(hierarchy: str) -> str:
    """This process's cgroup path in `hierarchy` ("" for v2's, "memory" for v1's)."""
    for line in Path("/proc/self/cgroup").read_text().splitlines():
        _, controllers, path = line.split(":", 2)
        if controllers.split(",") == [hierarchy] or (hierarchy == "" and controllers == ""):
            return path.lstrip("/")
    return ""


class MemoryCgroup(Started):
    """See the module's docstring."""

    def __init__(self, limit_bytes: int) -> None:
        self.limit = limit_bytes
        self.name = f"blockdensity-{secrets.token_hex(4)}"
        self.path: Path | None = None
        self.version = 0

    def start(self) -> None:
        if os.geteuid() != 0:
            raise MemoryCgroupUnavailableError("a memory cgroup needs root")
        unified = _ROOT / "cgroup.controllers"
        if unified.exists() and "memory" in unified.read_text().split():
            self.version = 2
            parent = _ROOT / _own("")
            # A v2 cgroup's controllers are enabled from its parent.
            with contextlib.suppress(OSError):
                (parent / "cgroup.subtree_control").write_text("+memory")
        elif (_ROOT / "memory").is_dir():
            self.version = 1
            parent = _ROOT / "memory" / _own("memory")
        else:
            raise MemoryCgroupUnavailableError("no memory controller under /sys/fs/cgroup")
        atexit.register(self.stop)
        self.path = parent / self.name
        self.path.mkdir()
        if self.version == 2:
            (self.path / "memory.max").write_text(str(self.limit))
            (self.path / "memory.swap.max").write_text("0")
        else:
            (self.path / "memory.limit_in_bytes").write_text(str(self.limit))
            swap = self.path / "memory.memsw.limit_in_bytes"
            if swap.exists():
                swap.write_text(str(self.limit))
            (self.path / "memory.swappiness").write_text("0")

    def preexec(self) -> None:
        """For Popen's preexec_fn: move the new process in before it execs."""
        assert self.path is not None  # noqa: S101 - started
        (self.path / "cgroup.procs").write_text(str(os.getpid()))

    def pids(self) -> list[int]:
        if self.path is None:
            return []
        try:
            return [int(pid) for pid in (self.path / "cgroup.procs").read_text().split()]
        except OSError:
            return []

    def oom_kills(self) -> int:
        """How many processes the kernel's OOM killer has killed inside."""
        if self.path is None:
            return 0
        if self.version == 2:
            events = (self.path / "memory.events").read_text()
        else:
            events = (self.path / "memory.oom_control").read_text()
        for line in events.splitlines():
            key, _, value = line.partition(" ")
            if key == "oom_kill":
                return int(value)
        return 0

    def peak_bytes(self) -> int:
        """The most memory the cgroup has used (v1's max_usage, v2's memory.peak where kept)."""
        if self.path is None:
            return 0
        name = "memory.peak" if self.version == 2 else "memory.max_usage_in_bytes"
        try:
            return int((self.path / name).read_text())
        except OSError:
            return 0

    def stop(self) -> None:
        path, self.path = self.path, None
        if path is None:
            return
        for _ in range(50):
            try:
                pids = [int(pid) for pid in (path / "cgroup.procs").read_text().split()]
            except OSError:
                break
            if not pids:
                break
            for pid in pids:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
            time.sleep(0.1)
        with contextlib.suppress(OSError):
            path.rmdir()
        atexit.unregister(self.stop)
