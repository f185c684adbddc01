"""The worker's labels, each in one place: Outcome and RestartReason.

Outcome: what became of one delivery.

Each value is a label of `blockdensity_pages_total`, and the dead-letter
reasons among them are also the `x-blockdensity-reason` header of a dead
letter. Everything that reports an outcome takes this enum, so a typo is a
type error rather than a new time series.
"""

from __future__ import annotations

from enum import StrEnum

__all__ = ["Outcome", "RestartReason"]


class Outcome(StrEnum):
    OK = "ok"  # published, acked
    FALLBACK = "fallback"  # published whole (the fit's fallback), acked
    INVALID = "invalid"  # dead-lettered: not a FetchedPage
    TOO_LARGE = "too_large"  # dead-lettered: body over the limit
    NOT_HTML = "not_html"  # dead-lettered: declared not HTML, or the body is binary
    STATUS = "status"  # dead-lettered: an HTTP status the worker does not fit
    TIMEOUT = "timeout"  # the fit ran past its timeout: requeued, or dead-lettered at the limit
    CRASHED = "crashed"  # the fit's process died or the fit raised: likewise
    MEMORY = "memory"  # dead-lettered: the fit needed more than BLOCKDENSITY_FIT_MEMORY_LIMIT
    PUBLISH_FAILED = "publish_failed"  # the broker confirmed no output: requeued


class RestartReason(StrEnum):
    """Why fit processes were replaced: the label of blockdensity_pool_restarts_total."""

    CRASHED = "crashed"  # died on a page (signal, exit)
    TIMEOUT = "timeout"  # killed at the fit timeout
    BROKEN = "broken"  # a fit process could not start, or died before it was ready; retried
    STOPPED = "stopped"  # found stopped (SIGSTOP, a debugger) by the watchdog
    UNRESPONSIVE = "unresponsive"  # idle, yet answered no ping for several rounds
    FORKSERVER = "forkserver"  # the forkserver was stopped, gone or stuck: replaced
    MEMORY = "memory"  # recycled: grew past BLOCKDENSITY_FIT_RECYCLE_MEMORY, or hit its limit
