"""blockdensity-feed (python -m worker.feed): publish a crawl's pages to the worker's queue.

    blockdensity-feed CRAWL/*.warc.gz            WARC files (gzip or not)
    blockdensity-feed pages/                      a folder: its .warc(.gz), .html and .jsonl files
    blockdensity-feed dead-letters-00001.jsonl    JSONL of FetchedPage objects (the collector's
                                                  dead letters feed back as they are)
    blockdensity-feed --dry-run CRAWL.warc.gz     counts by content type and status, no publish

The broker and the queue are the worker's settings (BLOCKDENSITY_AMQP_URL,
BLOCKDENSITY_INPUT_QUEUE, BLOCKDENSITY_INPUT_EXCHANGE; --queue overrides).
Each page is one FetchedPage in MessagePack (a JSONL line: as it is, in
JSON), published with confirms, at most --window pages not yet
checkpointed at once. The checkpoint (worker.checkpoint) records per file
the offset up to which every page is confirmed; run again after a crash or
a kill, the feeder goes on from there, and what it publishes twice (at most
the window) has the same message_id both times (worker.sources).

Exit status: 0 when every input was read to its end (broken records are
counted, named with file and offset, and skipped), 1 when the broker
failed or an input cannot be read, 2 for a bad option or setting, 130
when interrupted (the checkpoint is saved).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import signal
import sys
import time
from collections import Counter, deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final, TextIO

from worker.amqp import FeedPublisher, PublishFailedError
from worker.config import ConfigError, Settings, load_settings, redact_url
from worker.feed.checkpoint import Checkpoint, CheckpointError, FileMark
from worker.feed.progress import Progress
from worker.feed.sources import DEFAULT_BASE_URL, Item, Source, SourceError, find_sources
from worker.feed.warc import seekable_offset
from worker.logs import setup_command_logging

__all__ = ["FeedOptions", "Tally", "feed", "main"]

log = logging.getLogger("worker.feed")

DEFAULT_CHECKPOINT: Final = Path("blockdensity-feed.checkpoint.json")
DEFAULT_WINDOW: Final = 1000
_SAVE_INTERVAL: Final = 1.0  # seconds: the checkpoint is saved at least this often while feeding
_EXIT_INTERRUPTED: Final = 130
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
        if start and source.kind == "warc" and not seekable_offset(source.path, start):
            log.warning(
                "%s: cannot resume at offset %d (a WARC gzipped as one stream?); from the start",
                source.path,
                start,
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


# --- the command ---------------------------------------------------------------------


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="blockdensity-feed",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description=(
            "Publish the pages of WARC files, HTML files or JSONL of FetchedPage objects to "
            "the worker's input queue, with publisher confirms; resumable (--checkpoint). "
            "The broker and queue are the worker's BLOCKDENSITY_* settings."
        ),
    )
    parser.add_argument("inputs", nargs="+", type=Path, metavar="INPUT")
    parser.add_argument("--queue", help="input queue (default: BLOCKDENSITY_INPUT_QUEUE)")
    parser.add_argument(
        "--checkpoint",
        type=Path,
        default=DEFAULT_CHECKPOINT,
        help=f"checkpoint file (default: ./{DEFAULT_CHECKPOINT})",
    )
    parser.add_argument(
        "--restart", action="store_true", help="ignore the checkpoint: feed everything again"
    )
    parser.add_argument(
        "--window",
        type=_positive_int,
        default=DEFAULT_WINDOW,
        help="pages published and not yet checkpointed, at most; also the most a restart "
        f"publishes twice (default {DEFAULT_WINDOW})",
    )
    parser.add_argument("--rate", type=_positive_float, help="pages per second, at most")
    parser.add_argument("--limit", type=_positive_int, help="stop after this many pages")
    parser.add_argument(
        "--dry-run",
        action="store_true",
        help="read everything, publish nothing: counts by content type and status",
    )
    parser.add_argument(
        "--base-url",
        default=DEFAULT_BASE_URL,
        help=f"URL prefix of HTML files' pages (default {DEFAULT_BASE_URL})",
    )
    parser.add_argument(
        "--progress",
        choices=("auto", "bar", "log"),
        default="auto",
        help="a progress bar, log lines every --log-interval, or auto (bar on a terminal)",
    )
    parser.add_argument("--log-interval", type=_positive_float, default=10.0, metavar="SECONDS")
    return parser


def _positive_int(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def _positive_float(text: str) -> float:
    value = float(text)
    if not value > 0:
        raise argparse.ArgumentTypeError("must be more than 0")
    return value


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    setup_command_logging("blockdensity-feed")
    try:
        env = None if args.queue is None else _with_queue(args.queue)
        settings = load_settings(env)
        sources = find_sources(args.inputs, args.base_url)
    except (ConfigError, SourceError) as error:
        log.error("%s", error)  # noqa: TRY400 - the message says it all
        return 2
    options = FeedOptions(
        window=args.window,
        rate=args.rate,
        limit=args.limit,
        dry_run=args.dry_run,
        max_body=settings.max_body_bytes,
        publish_timeout=max(settings.publish_timeout, 30.0),
    )
    bar = {"auto": None, "bar": True, "log": False}[args.progress]
    progress = Progress(
        sum(source.size for source in sources), bar=bar, log_interval=args.log_interval
    )
    try:
        return asyncio.run(_run(settings, sources, options, args, progress))
    except CheckpointError as error:
        log.error("%s", error)  # noqa: TRY400
        return 2


async def _run(
    settings: Settings,
    sources: list[Source],
    options: FeedOptions,
    args: argparse.Namespace,
    progress: Progress,
) -> int:
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stop.set)
    target = (
        f"{redact_url(settings.amqp_urls[0])} {settings.input_exchange or settings.input_queue}"
    )
    checkpoint = None
    if not options.dry_run:
        checkpoint = Checkpoint(args.checkpoint, target)
        if not args.restart:
            checkpoint = Checkpoint.load(args.checkpoint, target)
    publisher = None
    if not options.dry_run:
        publisher = FeedPublisher(settings, options.publish_timeout)
    started = time.monotonic()
    try:
        if publisher is not None:
            await publisher.connect()
        tally = await feed(
            sources,
            options,
            publisher=publisher,
            checkpoint=checkpoint,
            progress=progress,
            stop=stop,
        )
    except PublishFailedError as error:
        log.error(  # noqa: TRY400 - the message says it all
            "%s; the checkpoint %s has every page confirmed: run again to go on",
            error,
            args.checkpoint,
        )
        return 1
    except OSError as error:
        log.error("cannot read an input: %s", error)  # noqa: TRY400
        return 1
    finally:
        if publisher is not None:
            await publisher.close()
    seconds = time.monotonic() - started
    _summary(sys.stdout, tally, seconds, dry_run=options.dry_run)
    return _EXIT_INTERRUPTED if stop.is_set() else 0


def _with_queue(queue: str) -> dict[str, str]:
    return {**os.environ, "BLOCKDENSITY_INPUT_QUEUE": queue}


def _summary(out: TextIO, tally: Tally, seconds: float, *, dry_run: bool) -> None:
    verb = "read (dry run: nothing published)" if dry_run else "published"
    rate = tally.pages / seconds if seconds > 0 else 0.0
    out.write(
        f"{tally.records:,} records, {tally.pages:,} pages {verb}"
        + ("" if dry_run else f", {tally.confirmed:,} confirmed")
        + f", {tally.bad:,} bad records; {seconds:.1f} s, {rate:,.0f} pages/s\n"
    )
    if dry_run or tally.bad:
        out.write("\nrecords by kind\n")
        for kind, count in tally.kinds.most_common():
            out.write(f"  {kind:<16} {count:>10,}\n")
        out.write("\ncontent type and status\n")
        for (media, status), count in sorted(tally.types.items(), key=lambda kv: -kv[1]):
            out.write(f"  {media:<32} {status if status is not None else '-':>4} {count:>10,}\n")
    with contextlib.suppress(BrokenPipeError):
        out.flush()


def run() -> None:
    """The console script's entry point."""
    sys.exit(main())
