"""blockdensity-feed (python -m worker.feed): publish a crawl's pages to the stage's queue.

    blockdensity-feed CRAWL/*.warc.gz            WARC files (gzip or not)
    blockdensity-feed pages/                      a folder: its .warc(.gz), .html and .jsonl files
    blockdensity-feed dead-letters-00001.jsonl    JSONL of FetchedPage objects (the collector's
                                                  dead letters feed back as they are)
    blockdensity-feed --dry-run CRAWL.warc.gz     counts by content type and status, no publish

The broker and the queue are the stage's settings (FeedSettings: the
BLOCKDENSITY_* variables --help lists; --queue overrides the input queue).
Each page is one FetchedPage in MessagePack (a JSONL line: as it is, in
JSON), published with confirms, at most --window pages not yet
checkpointed at once (worker.feed.feeder); run again after a crash or a
kill, the feeder goes on from its checkpoint.

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
from collections.abc import Sequence
from pathlib import Path
from typing import Final, TextIO

from worker.amqp.errors import BrokerError
from worker.amqp.publisher import FeedPublisher
from worker.config import ConfigError, FeedSettings, redact_url
from worker.feed.checkpoint import Checkpoint, CheckpointError
from worker.feed.feeder import DEFAULT_WINDOW, FeedOptions, Tally, feed
from worker.feed.inputs import DEFAULT_BASE_URL, Source
from worker.feed.progress import Progress
from worker.feed.sources import SourceError, find_sources
from worker.logs import setup_command_logging

__all__ = ["PROG", "main"]

log = logging.getLogger("worker.feed")

PROG: Final = "blockdensity-feed"
DEFAULT_CHECKPOINT: Final = Path("blockdensity-feed.checkpoint.json")
_EXIT_INTERRUPTED: Final = 130


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=PROG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description=(
            "Publish the pages of WARC files, HTML files or JSONL of FetchedPage objects to "
            "the stage's input queue, with publisher confirms; resumable (--checkpoint). "
            "The broker and queue are the BLOCKDENSITY_* settings below."
        ),
        epilog="environment variables:\n" + FeedSettings.help_table(),
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
    setup_command_logging(PROG)
    try:
        env = None if args.queue is None else _with_queue(args.queue)
        settings = FeedSettings.from_env(env)
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
    settings: FeedSettings,
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
    except BrokerError as error:
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
