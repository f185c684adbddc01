"""Outcome: what became of one delivery, in one place.

Each value is a label of `blockdensity_pages_total`, and the dead-letter
reasons among them are also the `x-blockdensity-reason` header of a dead
letter. Everything that reports an outcome takes this enum, so a typo is a
type error rather than a new time series.
"""

from __future__ import annotations

from enum import StrEnum

__all__ = ["Outcome"]


class Outcome(StrEnum):
    OK = "ok"  # published, acked
    FALLBACK = "fallback"  # published whole (the fit's fallback), acked
    INVALID = "invalid"  # dead-lettered: not a FetchedPage
    TOO_LARGE = "too_large"  # dead-lettered: body over the limit
    NOT_HTML = "not_html"  # dead-lettered: the HTTP content type is not HTML
    TIMEOUT = "timeout"  # the fit ran past its timeout: requeued, or dead-lettered at the limit
    CRASHED = "crashed"  # the fit's process died or the fit raised: likewise
    PUBLISH_FAILED = "publish_failed"  # the broker confirmed no output: requeued
