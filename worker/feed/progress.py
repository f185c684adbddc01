"""The feeder's progress: one line redrawn on a terminal, a log line now and then otherwise.

Records and pages read, megabytes of input read out of the total, pages per
second, and the time left, estimated from the bytes (the one measure known
in advance: a WARC's page count is not). No progress-bar library: one line
of five figures does not need one, and a log line is what a job's output
wants anyway.
"""

from __future__ import annotations

import logging
import sys
import time
from typing import Final, TextIO

__all__ = ["Progress"]

log = logging.getLogger(__name__)

_REDRAW: Final = 0.1  # seconds between redraws on a terminal
_MB: Final = 1_000_000


class Progress:
    def __init__(
        self,
        total_bytes: int,
        *,
        stream: TextIO | None = None,
        bar: bool | None = None,
        log_interval: float = 10.0,
    ) -> None:
        self._total = max(total_bytes, 1)
        self._stream = stream or sys.stderr
        self._bar = self._stream.isatty() if bar is None else bar
        self._interval = _REDRAW if self._bar else log_interval
        self._start = time.monotonic()
        self._shown = self._start
        self._first_bytes: int | None = None  # bytes already done at the start (a resume)
        self.records = self.pages = self.done_bytes = 0

    def update(self, records: int, pages: int, done_bytes: int) -> None:
        """Show the figures if it is time to (cheap to call for every record)."""
        self.records, self.pages, self.done_bytes = records, pages, done_bytes
        if self._first_bytes is None:
            self._first_bytes = done_bytes
        now = time.monotonic()
        if now - self._shown >= self._interval:
            self._shown = now
            self._show(now)

    def finish(self) -> None:
        self._show(time.monotonic())
        if self._bar:
            self._stream.write("\n")
            self._stream.flush()

    def line(self, now: float | None = None) -> str:
        elapsed = max((now or time.monotonic()) - self._start, 1e-9)
        rate = self.pages / elapsed
        # The bytes of this run only: a resumed feed's earlier part took no time here.
        read_here = self.done_bytes - (self._first_bytes or 0)
        left = self._total - self.done_bytes
        eta = "--:--" if read_here <= 0 else _clock(left * elapsed / read_here)
        share = 100 * self.done_bytes / self._total
        return (
            f"records {self.records:,}  pages {self.pages:,}  "
            f"{self.done_bytes / _MB:,.1f}/{self._total / _MB:,.1f} MB ({share:.0f}%)  "
            f"{rate:,.0f} pages/s  ETA {eta}"
        )

    def _show(self, now: float) -> None:
        if self._bar:
            self._stream.write("\r" + self.line(now) + "\x1b[K")
            self._stream.flush()
        else:
            log.info("%s", self.line(now))


def _clock(seconds: float) -> str:
    minutes, secs = divmod(int(seconds + 0.5), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"
