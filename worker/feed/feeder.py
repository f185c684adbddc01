"""The feed: each input's pages published with confirms, at most a window of them not yet
checkpointed.

The checkpoint (worker.feed.checkpoint) records per file the offset up to
which every page is confirmed; run again after a crash or a kill, the feed
goes on from there, and what it publishes twice (at most the window) has the
same message_id both times (worker.feed.inputs.feed_message_id).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import Counter, deque
from dataclasses import dataclass, field
from typing import Final

from worker.amqp.publisher import FeedPublisher
from worker.feed.checkpoint import Checkpoint, FileMark
from worker.feed.inputs import Item, Source
from worker.feed.progress import Progress

__all__ = ["DEFAULT_WINDOW", "FeedOptions", "Tally", "feed"]

log = logging.getLogger("worker.feed")

DEFAULT_WINDOW: Final = 1000
_SAVE_INTERVAL: Final = 1.0  # seconds: the checkpoint is saved at least this often while feeding
_YIELD_EVERY: Final = 64  # pages published between turns of the event loop, at most


@dataclass
class FeedOptions:
    window: int = DEFAULT_WINDOW
    rate: float | None = None  # pages per second
    limit: int | None = None  # pages published, then stop
    dry_run: bool = False
    max_body: int = 8 << 20
    publish_timeout: float = 30.0


@dataclass
class Tally:
    """What the feed counted."""

    records: int = 0
    pages: int = 0  # pages read (and, unless a dry run, published)
    confirmed: int = 0
    bad: int = 0
    kinds: Counter[str] = field(default_factory=Counter)
    types: Counter[tuple[str, int | None]] = field(default_factory=Counter)  # pages+skips

    def add(self, item: Item) -> None:
        self.records += 1
        self.kinds[item.kind] += 1
        if item.kind == "bad":
            self.bad += 1
        if item.content_type is not None or item.status is not None:
            self.types[(item.content_type or "-", item.status)] += 1


class _Window:
    """The pages of one file published and not yet checkpointed; at most `size` of them.

    The checkpoint's offset is where the oldest unconfirmed page starts, or,
    with none in flight, where the last item read starts (read again after a
    restart: hence `size - 1` in flight at most, and a restart publishes at
    most `size` pages twice).
    """

    def __init__(self, size: int, mark: FileMark, checkpoint: Checkpoint | None) -> None:
        self._size = size
        self._mark = mark
        self._checkpoint = checkpoint
        self._pending: deque[tuple[int, asyncio.Task[None]]] = deque()
        self._unsaved = 0  # confirmed pages after the saved offset
        self._last_read = mark.offset
        self._saved_at = time.monotonic()
        self.confirmed = 0

    def read(self, offset: int) -> None:
        self._last_read = offset

    def add(self, offset: int, confirm: asyncio.Task[None]) -> None:
        self._last_read = offset
        self._pending.append((offset, confirm))

    async def room(self) -> None:
        """Return once one more page may be published (saving the checkpoint as it goes).

        A full window waits for about half of it to be confirmed and then
        saves once: a save (an fsync) per page would cost more than the page.
        """
        self._advance()
        while len(self._pending) + self._unsaved + 1 > self._size:
            if self._pending:
                half = max(0, self._size // 2 - self._unsaved - 1)
                await asyncio.wait({self._pending[min(half, len(self._pending) - 1)][1]})
                self._advance()
            self.save()
        if time.monotonic() - self._saved_at > _SAVE_INTERVAL:
            self.save()

    async def drain(self) -> None:
        """Wait for every confirm (PublishFailedError on the first that failed)."""
        while self._pending:
            await asyncio.wait({self._pending[0][1]})
            self._advance()

    def save(self, *, done: bool = False) -> None:
        self._advance(raise_failed=False)
        mark = self._mark
        if done:
            mark.offset, mark.done = mark.size, True
        else:
            mark.offset = self._pending[0][0] if self._pending else self._last_read
        mark.pages += self._unsaved
        self._unsaved = 0
        self._saved_at = time.monotonic()
        if self._checkpoint is not None:
            self._checkpoint.save()

    def cancel(self) -> None:
        for _, confirm in self._pending:
            confirm.cancel()

    def _advance(self, *, raise_failed: bool = True) -> None:
        while self._pending and self._pending[0][1].done():
            confirm = self._pending[0][1]
            error = None if confirm.cancelled() else confirm.exception()
            if confirm.cancelled() or error is not None:
                if raise_failed and error is not None:
                    raise error
                return  # the checkpoint stays before it
            self._pending.popleft()
            self._unsaved += 1
            self.confirmed += 1


async def feed(  # noqa: PLR0913 - the feed's parts, by keyword
    sources: list[Source],
    options: FeedOptions,
    *,
    publisher: FeedPublisher | None = None,
    checkpoint: Checkpoint | None = None,
    progress: Progress | None = None,
    stop: asyncio.Event | None = None,
) -> Tally:
    """Read `sources` in order and publish their pages through `publisher` (None: a
    dry run). PublishFailedError when the broker fails; the checkpoint then holds
    every page confirmed."""
    run = _Feed(options, publisher, checkpoint, progress, stop or asyncio.Event())
    for source in sources:
        if run.stop.is_set() or not await run.file(source):
            break
    if progress is not None:
        progress.update(run.tally.records, run.tally.pages, run.done_bytes)
        progress.finish()
    return run.tally


class _Feed:
    def __init__(
        self,
        options: FeedOptions,
        publisher: FeedPublisher | None,
        checkpoint: Checkpoint | None,
        progress: Progress | None,
        stop: asyncio.Event,
    ) -> None:
        self.options = options
        self.publisher = publisher
        self.checkpoint = checkpoint
        self.progress = progress
        self.stop = stop
        self.tally = Tally()
        self.done_bytes = 0  # of the files before the current one
        self.published = 0
        self.started = time.monotonic()

    async def file(self, source: Source) -> bool:
        """Feed one file from its checkpoint on; False when the feed should stop."""
        size = source.size
        mark = self.checkpoint.mark(source.path) if self.checkpoint else FileMark(size, 0)
        if mark.done:
            log.info("%s: fed completely before (checkpoint); skipped", source.path)
            self.done_bytes += size
            return True
        start = mark.offset
        if start and not source.can_start_at(start):
            log.warning(
                "%s: cannot resume at offset %d (%s); from the start",
                source.path,
                start,
                source.format.why_not,
            )
            start = mark.offset = 0
        if start:
            log.info("%s: resuming at offset %d of %d", source.path, start, size)
        window = _Window(self.options.window, mark, self.checkpoint)
        try:
            finished = await self._items(source, start, window)
            await window.drain()
        except BaseException:
            window.save()  # what was confirmed stays confirmed
            window.cancel()
            raise
        finally:
            self.tally.confirmed += window.confirmed
        window.save(done=finished)
        self.done_bytes += size
        return finished

    async def _items(self, source: Source, start: int, window: _Window) -> bool:
        """Publish the file's pages; False when stopped before its end (limit, signal)."""
        options, tally, publisher = self.options, self.tally, self.publisher
        for item in source.items(start, options.max_body):
            tally.add(item)
            if item.problem is not None:
                log.warning("%s: offset %d: %s", source.path, item.offset, item.problem)
            message = item.message
            if message is None or publisher is None:
                window.read(item.offset)
                tally.pages += message is not None
            else:
                await window.room()
                if options.rate:
                    ahead = self.started + self.published / options.rate - time.monotonic()
                    if ahead > 0:
                        await asyncio.sleep(ahead)
                confirm = publisher.publish(
                    message.body,
                    content_type=message.content_type,
                    message_id=message.message_id,
                    url=message.url,
                )
                window.add(item.offset, confirm)
                self.published += 1
                tally.pages += 1
                if self.published % _YIELD_EVERY == 0:
                    # Let the frames go out and the confirms in (a full window waits anyway).
                    await asyncio.sleep(0)
            if self.progress is not None:
                self.progress.update(tally.records, tally.pages, self.done_bytes + item.offset)
            if (options.limit is not None and tally.pages >= options.limit) or self.stop.is_set():
                return False
        return True
