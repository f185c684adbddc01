"""Starting fit processes: from the forkserver, one at a time, from a thread, within a bound.

Starting a process waits on the forkserver, so it is done from a thread of
its own, never the event loop's; a forkserver that does not start one
within _FORKSERVER_TIMEOUT is taken for stuck, and replaced.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import multiprocessing.context
import socket
from collections.abc import Callable
from multiprocessing.process import BaseProcess
from typing import Final

from blockdensity import Comments, Profile
from worker.stage.channel import SEND_BUFFER
from worker.stage.fitproc import FitFunction, MarkdownOutput, serve
from worker.stage.forkserver import Forkserver
from worker.stage.outcome import RestartReason

__all__ = ["RESPAWN_DELAY", "FitSettings", "Spawner"]

log = logging.getLogger(__name__)

# How long a fit process that could not start waits for its successor.
RESPAWN_DELAY: Final = 1.0

# How long the forkserver may take to start a fit process (it takes
# milliseconds) before it is taken for stuck and replaced.
_FORKSERVER_TIMEOUT: Final = 5.0

# What a fit process is started with, after its socket (fitproc.serve's
# arguments): profile, comments, output_blocks, function, memory_limit, markdown.
FitSettings = tuple[Profile, Comments, bool, FitFunction, int, MarkdownOutput | None]


class Spawner:
    """Starts fit processes that run fitproc.serve with `settings`."""

    def __init__(
        self,
        context: multiprocessing.context.ForkServerContext,
        forkserver: Forkserver,
        settings: FitSettings,
        *,
        on_restart: Callable[[RestartReason], None],
    ) -> None:
        self._context = context
        self._forkserver = forkserver
        self._settings = settings
        self._on_restart = on_restart
        self._starter = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="fit-start")

    async def start(self) -> tuple[BaseProcess, socket.socket] | None:
        """A fit process started, and the parent's end of its socket; None when none
        could be started (said in the log, and told to on_restart)."""
        loop = asyncio.get_running_loop()
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        process = self._context.Process(
            target=serve, args=(theirs, *self._settings), name="blockdensity-fit", daemon=True
        )
        try:
            # On the loop's thread: see Forkserver.ensure_running.
            self._forkserver.ensure_running()
        except OSError as error:
            ours.close()
            theirs.close()
            log.error(  # noqa: TRY400 - the error says it all
                "could not start the forkserver: %s; retrying in %g s", error, RESPAWN_DELAY
            )
            self._on_restart(RestartReason.BROKEN)
            return None
        started = loop.run_in_executor(self._starter, _start, process, theirs)
        try:
            await asyncio.wait_for(asyncio.shield(started), _FORKSERVER_TIMEOUT)
        except TimeoutError:
            ours.close()
            self._forkserver.failed(
                f"the forkserver started no fit process within {_FORKSERVER_TIMEOUT:g} s"
            )
            return None
        except (OSError, EOFError, ValueError) as error:
            ours.close()
            log.error(  # noqa: TRY400 - the error says it all
                "could not start a fit process: %s; retrying in %g s", error, RESPAWN_DELAY
            )
            self._on_restart(RestartReason.BROKEN)
            return None
        with contextlib.suppress(OSError):
            ours.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER)
        return process, ours

    def shutdown(self) -> None:
        """No more starts (the pool has closed)."""
        self._starter.shutdown(wait=False, cancel_futures=True)


def _start(process: BaseProcess, theirs: socket.socket) -> None:
    """Start `process` from the forkserver (in the starter thread: this waits on it)."""
    try:
        process.start()
    finally:
        theirs.close()  # the child has its own copy now
