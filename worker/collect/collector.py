"""blockdensity-collect (python -m worker.collect): the clean pages off the output queue, to files.

    blockdensity-collect OUT/                     JSONL, one CleanPage a line: OUT/clean-00001.jsonl
    blockdensity-collect --format wet OUT/        WET: OUT/clean-00001.warc.wet.gz (worker.wet)
    blockdensity-collect --idle-exit 5 OUT/       stop once nothing has come for 5 s

The broker and the queues are the worker's settings (BLOCKDENSITY_AMQP_URL,
BLOCKDENSITY_OUTPUT_QUEUE, BLOCKDENSITY_DEAD_LETTER_QUEUE; with the exchanges,
declared as the worker declares them, so either may start first).

Nothing acked is lost: messages are written in batches, each batch flushed
and fsynced, and only then acked (basic.ack multiple, per queue). A
collector killed before the ack leaves the batch to the broker, which
delivers it again: at least once, so a crash may leave a page in two files
(the same message_id; WET: the same WARC-Record-ID). Files rotate at
--max-bytes (worker.sinks).

The dead-letter queue is drained into OUT/dead-letters-00001.jsonl: each
line a FetchedPage in JSON (the body decoded to text as a browser would) and
a "dead_letter" object with the reason, the error and where it came from.
The worker ignores unknown fields, so after a fix the file feeds back as it
is: blockdensity-feed OUT/dead-letters-00001.jsonl. A dead letter that is no
FetchedPage at all keeps its bytes in "body_base64" instead.

Exit status: 0 after SIGTERM, SIGINT or --idle-exit; 1 when the broker is
lost (what was not acked is delivered again to the next run); 2 for a bad
option or setting.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import logging
import os
import signal
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from blockdensity.decode import decode_html
from worker.amqp import HEADER_ERROR, HEADER_QUEUE, HEADER_REASON, Incoming, QueueReader
from worker.amqp import PublishFailedError as BrokerError
from worker.collect.rotation import RotatingFile, repair_gzip_members, repair_lines
from worker.collect.wet import conversion_record, warcinfo_record
from worker.config import ConfigError, Settings, load_settings
from worker.logs import setup_command_logging
from worker.schemas import (
    InvalidMessageError,
    decode_page,
    decode_untyped,
    encode_json,
    encoding_for,
)
from worker.stage.intake import RefusedError, decode_content_encoding

__all__ = ["CollectOptions", "collect", "main"]

log = logging.getLogger("worker.collect")

_MIB: Final = 1 << 20


@dataclass
class CollectOptions:
    folder: Path
    fmt: str = "jsonl"  # or "wet"
    max_bytes: int = 100 * _MIB
    prefetch: int = 1000
    flush_interval: float = 0.25
    idle_exit: float | None = None
    dead_letters: bool = True


class _Lane:
    """One queue into one file series: batches written, synced, then acked."""

    def __init__(
        self, queue: str, sink: RotatingFile, render: Callable[[Incoming], bytes], batch: int
    ) -> None:
        self.queue = queue
        self.sink = sink
        self.render = render
        self.batch = batch
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
            self.sink.write(self.render(message))
        # fsync off the loop: the deliveries keep coming in meanwhile.
        await asyncio.to_thread(self.sink.sync)
        await batch[-1].ack_through()
        self.written += len(batch)


async def collect(settings: Settings, options: CollectOptions, stop: asyncio.Event) -> int:
    """Collect until `stop` (or idle); returns the messages written. BrokerError if lost."""
    folder = options.folder
    if options.fmt == "wet":
        clean = RotatingFile(
            folder,
            "clean",
            ".warc.wet.gz",
            options.max_bytes,
            repair=repair_gzip_members,
            header=warcinfo_record,
        )
        render = _wet_line
    else:
        clean = RotatingFile(folder, "clean", ".jsonl", options.max_bytes, repair=repair_lines)
        render = _jsonl_line
    batch = max(1, options.prefetch // 2)
    lanes = [_Lane(settings.output_queue, clean, render, batch)]
    if options.dead_letters:
        dead = RotatingFile(
            folder, "dead-letters", ".jsonl", options.max_bytes, repair=repair_lines
        )
        lanes.append(_Lane(settings.dead_letter_queue, dead, _dead_letter_line, batch))
    reader = QueueReader(settings)
    await reader.connect()
    try:
        for lane in lanes:
            await reader.consume(lane.queue, options.prefetch, lane.receive)
        log.info("collecting %s into %s", ", ".join(lane.queue for lane in lanes), folder)
        await _serve(lanes, options, stop, reader.closed)
        if reader.closed.is_set() and not stop.is_set():
            raise BrokerError("the connection to the broker was lost")
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


# --- what a line (a record) is ---------------------------------------------------------


def _decoded(message: Incoming) -> Any:
    return decode_untyped(message.body, encoding_for(message.content_type))


def _jsonl_line(message: Incoming) -> bytes:
    try:
        return encode_json(_decoded(message)) + b"\n"
    except InvalidMessageError as error:
        # Not a CleanPage: kept, as the dead letters keep what they cannot decode.
        return encode_json(_undecodable(message, str(error))) + b"\n"


def _wet_line(message: Incoming) -> bytes:
    try:
        clean = _decoded(message)
    except InvalidMessageError as error:
        clean = {"url": "", "title": "", "text": f"undecodable output: {error}"}
    if not isinstance(clean, dict):
        clean = {"url": "", "title": "", "text": "output is not a CleanPage object"}
    return conversion_record(clean, message.message_id)


def _dead_letter_line(message: Incoming) -> bytes:
    headers = message.headers
    why: dict[str, Any] = {
        "reason": headers.get(HEADER_REASON) or _death_reason(headers),
        "error": headers.get(HEADER_ERROR),
        "queue": headers.get(HEADER_QUEUE),
        "message_id": message.message_id,
        "content_type": message.content_type,
        "content_encoding": message.content_encoding,
    }
    try:
        body = decode_content_encoding(message.body, message.content_encoding, 1 << 30)
        page = decode_page(body, encoding_for(message.content_type))
    except (RefusedError, InvalidMessageError) as error:
        return encode_json(_undecodable(message, str(error), why)) + b"\n"
    text = page.body if isinstance(page.body, str) else decode_html(page.body, page.charset)[0]
    line = {
        "url": page.url,
        "body": text,
        "content_type": page.content_type,
        "status": page.status,
        "fetched_at": page.fetched_at,
        "fetch_id": page.fetch_id,
        "dead_letter": why,
    }
    return encode_json(line) + b"\n"


def _undecodable(
    message: Incoming, error: str, why: dict[str, Any] | None = None
) -> dict[str, Any]:
    return {
        "dead_letter": {**(why or {}), "collector_error": error},
        "body_base64": base64.b64encode(message.body).decode(),
    }


def _death_reason(headers: dict[str, Any]) -> str | None:
    """The broker's own reason (x-death), for a page dead-lettered by the delivery limit."""
    deaths = headers.get("x-death")
    if isinstance(deaths, list) and deaths and isinstance(deaths[0], dict):
        reason = deaths[0].get("reason")
        return str(reason) if reason is not None else None
    return None


# --- the command -----------------------------------------------------------------------


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="blockdensity-collect",
        description="Write the worker's clean pages to JSONL or WET files, acking only what "
        "is on disk; drain the dead-letter queue beside them.",
    )
    parser.add_argument("folder", type=Path, metavar="OUT")
    parser.add_argument("--format", choices=("jsonl", "wet"), default="jsonl")
    parser.add_argument(
        "--max-bytes",
        type=int,
        default=100 * _MIB,
        help="start a new file past this size (default 100 MiB)",
    )
    parser.add_argument("--prefetch", type=int, default=1000, help="unacked messages per queue")
    parser.add_argument(
        "--flush-interval", type=float, default=0.25, help="seconds between syncs, at most"
    )
    parser.add_argument(
        "--idle-exit", type=float, metavar="SECONDS", help="stop after this long with nothing"
    )
    parser.add_argument(
        "--no-dead-letters", action="store_true", help="leave the dead-letter queue alone"
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    setup_command_logging("blockdensity-collect")
    if args.max_bytes < 1 or args.prefetch < 1 or args.flush_interval <= 0:
        log.error("--max-bytes, --prefetch and --flush-interval must be positive")
        return 2
    try:
        settings = load_settings(os.environ)
    except ConfigError as error:
        log.error("%s", error)  # noqa: TRY400 - the message says it all
        return 2
    options = CollectOptions(
        folder=args.folder,
        fmt=args.format,
        max_bytes=args.max_bytes,
        prefetch=args.prefetch,
        flush_interval=args.flush_interval,
        idle_exit=args.idle_exit,
        dead_letters=not args.no_dead_letters,
    )

    async def run() -> int:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(signum, stop.set)
        written = await collect(settings, options, stop)
        log.info("%d messages written to %s", written, options.folder)
        return 0

    try:
        return asyncio.run(run())
    except BrokerError as error:
        log.error("%s; what was not acked goes to the next run", error)  # noqa: TRY400
        return 1


def run() -> None:
    """The console script's entry point."""
    sys.exit(main())
