"""The fit pool's watchdog: what no page shows.

A child that stops or hangs while idle takes no page, so nothing fails; the
pool just runs on fewer processes. Every round the watchdog reads each
child's state (/proc) and pings the idle ones: a stopped child is replaced
at the first look; an idle child that answers no ping for `misses` rounds
in a row, then (a busy child is bounded by the fit timeout instead). A
stopped or gone forkserver is replaced too.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable

from worker.stage.child import Child
from worker.stage.forkserver import Forkserver
from worker.stage.ipc import Frame
from worker.stage.outcome import RestartReason
from worker.stage.procfs import STOPPED_STATES, process_state

__all__ = ["Watchdog"]

log = logging.getLogger(__name__)


class Watchdog:
    """One look at a time (`look`); `kill` kills a child for a reason (the pool's)."""

    def __init__(
        self,
        forkserver: Forkserver,
        kill: Callable[[Child, RestartReason], None],
        *,
        misses: int = 3,
    ) -> None:
        self._forkserver = forkserver
        self._kill = kill
        self._misses = misses

    def look(self, children: Iterable[Child], *, closing: bool) -> None:
        """One round: the forkserver, then each child not on its way out."""
        state = self._forkserver.state
        if state in ("stopped", "gone") and not closing:
            self._forkserver.failed(f"the fit processes' forkserver is {state}")
        for child in children:
            if child.killed_for is not None or child.retiring:
                continue
            if process_state(child.pid) in STOPPED_STATES:
                self._replace(child, RestartReason.STOPPED)
                continue
            if child.task is not None or not child.ready:
                child.pinged, child.misses = False, 0  # busy: bounded by the timeout
                continue
            if child.pinged:
                child.misses += 1
                if child.misses >= self._misses:
                    self._replace(child, RestartReason.UNRESPONSIVE)
            else:
                child.pinged = True
                child.channel.send(Frame.PING)

    def _replace(self, child: Child, reason: RestartReason) -> None:
        log.warning(
            "fit process %d is %s; killed it and starting another",
            child.pid,
            reason.value,
            extra={"pid": child.pid, "reason": reason.value},
        )
        self._kill(child, reason)
