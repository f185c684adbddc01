"""The forkserver the fit processes start from: started without credentials, watched, replaced.

Children are started by a forkserver that has imported worker.stage.fitproc
(and so blockdensity) once: a new child costs a fork, not an interpreter start,
and it inherits none of the parent's sockets or threads. Each child asks the
kernel to kill it when its parent (the forkserver) goes, and the forkserver
asks the same of the worker (worker/stage/forkserver_preload.py), so a
SIGKILLed worker leaves no orphans behind, even with a fit stuck on a page.

Nothing waits on the forkserver: one that is stopped, gone or does not
start a child within a bound is killed and replaced (its children go with
it, each asked to die with its parent), once at a time.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing.context
import multiprocessing.forkserver
import os
from collections.abc import Callable, Iterator
from typing import Final

from worker.stage.child import sigkill
from worker.stage.outcome import RestartReason
from worker.stage.procfs import STOPPED_STATES, process_state

__all__ = ["Forkserver"]

log = logging.getLogger(__name__)

# Environment variables that may carry a secret (the URL's password).
_CREDENTIALS: Final = ("BLOCKDENSITY_AMQP_URL",)


class Forkserver:
    """multiprocessing's one forkserver, as the fit pool keeps it.

    `on_restart` is told of each replacement (RestartReason.FORKSERVER);
    `on_replaced` is called once a replacement's way is clear (the next
    start of a child starts the new forkserver).
    """

    def __init__(
        self,
        context: multiprocessing.context.ForkServerContext,
        *,
        on_restart: Callable[[RestartReason], None],
        on_replaced: Callable[[], None],
    ) -> None:
        # Children fork from a server that has imported the fit already,
        # and that dies with this process (see worker/stage/forkserver_preload.py).
        context.set_forkserver_preload(["worker.stage.fitproc", "worker.stage.forkserver_preload"])
        self._on_restart = on_restart
        self._on_replaced = on_replaced
        self._replacing: asyncio.Task[None] | None = None
        # Why the forkserver cannot start fit processes now (readiness), or None.
        self.problem: str | None = None

    def ensure_running(self) -> None:
        """Start the forkserver (or restart it, if it died); OSError if it cannot be.

        Called on the loop's thread: the forkserver asks to die with the
        thread that started it (PDEATHSIG), which must live as long as the
        pool. Without the broker URL in its environment: the children parse
        untrusted HTML with a C parser and need no credentials
        (/proc/<pid>/environ shows a process's own).
        """
        with _without(_CREDENTIALS):
            multiprocessing.forkserver.ensure_running()

    @property
    def state(self) -> str:
        """running, stopped, gone or none (not started): what /proc says of the forkserver."""
        pid = _pid()
        if pid is None:
            return "none"
        state = process_state(pid)
        if state in STOPPED_STATES:
            return "stopped"
        if state in ("?", "Z", "X"):
            return "gone"
        return "running"

    def failed(self, problem: str) -> None:
        """Kill the forkserver and start another (once at a time); unready meanwhile."""
        if self._replacing is not None and not self._replacing.done():
            return
        self.problem = problem
        log.warning("%s: replacing it (its fit processes go with it)", problem)
        self._on_restart(RestartReason.FORKSERVER)
        self._replacing = asyncio.get_running_loop().create_task(self._replace())

    async def replaced(self) -> None:
        """Wait until a replacement under way, if any, is done."""
        if self._replacing is not None:
            await asyncio.gather(self._replacing, return_exceptions=True)

    async def stop(self) -> None:
        """Stop a replacement under way (the pool is closing)."""
        if self._replacing is not None:
            self._replacing.cancel()
            await asyncio.gather(self._replacing, return_exceptions=True)

    async def _replace(self) -> None:
        pid = _pid()
        if pid is not None:
            # Our own child, not yet waited for: the pid is still its.
            sigkill(pid)
            # Close its end, reap it and forget its address: the next start
            # starts a new forkserver (blocking briefly on the reap: a thread).
            await asyncio.to_thread(_forget, multiprocessing.forkserver._forkserver)
        self._on_replaced()


def _pid() -> int | None:
    server = multiprocessing.forkserver._forkserver  # the module's one server
    pid: int | None = getattr(server, "_forkserver_pid", None)
    return pid


def _forget(server: multiprocessing.forkserver.ForkServer) -> None:
    """After its SIGKILL: reap the forkserver and clear its state, so that the next start
    runs a new one."""
    with contextlib.suppress(OSError, ChildProcessError):
        # ForkServer._stop (private, not in typeshed): closes its pipe, waits for it,
        # forgets its address.
        server._stop()  # type: ignore[attr-defined]


@contextlib.contextmanager
def _without(names: tuple[str, ...]) -> Iterator[None]:
    saved = {name: os.environ.pop(name) for name in names if name in os.environ}
    try:
        yield
    finally:
        os.environ.update(saved)
