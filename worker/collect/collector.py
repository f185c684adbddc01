"""The collection: each queue into its own rotated files, each batch synced before it is acked.

Nothing acked is lost: messages are written in batches, each batch flushed
and fsynced, and only then acked (basic.ack multiple, per queue). A
collector killed before the ack leaves the batch to the broker, which
delivers it again: at least once, so a crash may leave a page in two files
(the same message_id; WET: the same WARC-Record-ID). Files rotate at
--max-bytes (worker.collect.rotation). The clean pages go to a file series
of the chosen format (FORMATS), the dead letters to JSONL
(worker.collect.jsonl).
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from worker.amqp.errors import ConnectionLostError
from worker.amqp.reader import Incoming, QueueReader
from worker.collect.jsonl import DEAD_LETTERS, JSONL
from worker.collect.records import OutputFormat
from worker.collect.rotation import RotatingFile
from worker.collect.wet import WET
from worker.config import CollectSettings

__all__ = ["FORMATS", "CollectOptions", "collect"]

log = logging.getLogger("worker.collect")

# The formats of the clean pages' files, by name (--format).
FORMATS: Final = {kind.name: kind for kind in (JSONL, WET)}
MIB: Final = 1 << 20


@dataclass
class CollectOptions:
    folder: Path
    fmt: str = JSONL.name  # a name of FORMATS
    max_bytes: int = 100 * MIB
    prefetch: int = 1000
    flush_interval: float = 0.25
    idle_exit: float | None = None
    dead_letters: bool = True


class _Lane:
    """One queue into one file series: batches written, synced, then acked."""

    def __init__(
        self, queue: str, folder: Path, prefix: str, kind: OutputFormat, options: CollectOptions
    ) -> None:
        self.queue = queue
        self.sink = RotatingFile(
            folder, prefix, kind.suffix, options.max_bytes, repair=kind.whole, header=kind.header
        )
        self.record = kind.record
        self.batch = max(1, options.prefetch // 2)
        self.buffer: list[Incoming] = []
        self.full = asyncio.Event()
        self.written = 0
        self.last_seen = time.monotonic()

    def receive(self, message: Incoming) -> None:
        self.buffer.append(message)
        self.last_seen = time.monotonic()
        if len(self.buffer) >= self.batch:
            self.full.set()

    async def flush(self) -> None:
        batch, self.buffer = self.buffer, []
        self.full.clear()
        if not batch:
            return
        for message in batch:
            self.sink.write(self.record(message))
        # fsync off the loop: the deliveries keep coming in meanwhile.
        await asyncio.to_thread(self.sink.sync)
        await batch[-1].ack_through()
        self.written += len(batch)


async def collect(settings: CollectSettings, options: CollectOptions, stop: asyncio.Event) -> int:
    """Collect until `stop` (or idle); returns the messages written. ConnectionLostError when
    the broker is lost (ConnectFailedError when it cannot be reached, AckFailedError)."""
    folder = options.folder
    lanes = [_Lane(settings.output_queue, folder, "clean", FORMATS[options.fmt], options)]
    if options.dead_letters:
        lanes.append(
            _Lane(settings.dead_letter_queue, folder, "dead-letters", DEAD_LETTERS, options)
        )
    reader = QueueReader(settings)
    await reader.connect()
    try:
        for lane in lanes:
            await reader.consume(lane.queue, options.prefetch, lane.receive)
        log.info("collecting %s into %s", ", ".join(lane.queue for lane in lanes), folder)
        await _serve(lanes, options, stop, reader.closed)
        if reader.closed.is_set() and not stop.is_set():
            raise ConnectionLostError("the connection to the broker was lost")
    finally:
        for lane in lanes:
            lane.sink.close()
        await reader.close()
    return sum(lane.written for lane in lanes)


async def _serve(
    lanes: list[_Lane], options: CollectOptions, stop: asyncio.Event, closed: asyncio.Event
) -> None:
    while not stop.is_set() and not closed.is_set():
        waits = [asyncio.ensure_future(lane.full.wait()) for lane in lanes]
        waits += [asyncio.ensure_future(stop.wait()), asyncio.ensure_future(closed.wait())]
        await asyncio.wait(waits, timeout=options.flush_interval, return_when="FIRST_COMPLETED")
        for wait in waits:
            wait.cancel()
        if closed.is_set():
            return  # unacked messages go back to the queue; nothing to ack them on
        for lane in lanes:
            await lane.flush()
        idle = options.idle_exit
        if idle is not None and all(time.monotonic() - lane.last_seen > idle for lane in lanes):
            log.info("nothing for %g s: done", idle)
            return
    for lane in lanes:  # what arrived before the stop
        if not closed.is_set():
            await lane.flush()
