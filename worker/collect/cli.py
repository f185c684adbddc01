"""blockdensity-collect (python -m worker.collect): the clean pages off the output queue, to files.

    blockdensity-collect OUT/                     JSONL, one CleanPage a line: OUT/clean-00001.jsonl
    blockdensity-collect --format wet OUT/        WET: OUT/clean-00001.warc.wet.gz
    blockdensity-collect --idle-exit 5 OUT/       stop once nothing has come for 5 s

The broker and the queues are the stage's settings (CollectSettings: the
BLOCKDENSITY_* variables --help lists; the exchanges and queues are declared
as the stage declares them, so either may start first). The dead-letter
queue is drained into OUT/dead-letters-00001.jsonl, which feeds back as it
is (worker.collect.jsonl).

Exit status: 0 after SIGTERM, SIGINT or --idle-exit; 1 when the broker is
lost (what was not acked is delivered again to the next run); 2 for a bad
option or setting.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import signal
from collections.abc import Sequence
from pathlib import Path
from typing import Final

from worker.amqp.errors import BrokerError
from worker.collect.collector import FORMATS, MIB, CollectOptions, collect
from worker.config import CollectSettings, ConfigError
from worker.logs import setup_command_logging

__all__ = ["PROG", "main"]

log = logging.getLogger("worker.collect")

PROG: Final = "blockdensity-collect"


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=PROG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Write the stage's clean pages to JSONL or WET files, acking only what "
        "is on disk; drain the dead-letter queue beside them.",
        epilog="environment variables:\n" + CollectSettings.help_table(),
    )
    parser.add_argument("folder", type=Path, metavar="OUT")
    parser.add_argument("--format", choices=tuple(FORMATS), default=CollectOptions.fmt)
    parser.add_argument(
        "--max-bytes",
        type=int,
        default=100 * MIB,
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
    setup_command_logging(PROG)
    if args.max_bytes < 1 or args.prefetch < 1 or args.flush_interval <= 0:
        log.error("--max-bytes, --prefetch and --flush-interval must be positive")
        return 2
    try:
        settings = CollectSettings.from_env(os.environ)
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
