"""python -m worker: the queue stage's command. Configuration is by environment only.

Reads its settings before it imports anything of the "worker" extra, so that
--help and an invalid setting answer without it (and at once).
"""

from __future__ import annotations

import argparse
import asyncio
import sys

from worker.config import ConfigError, StageSettings, unknown_variables, unverified_tls
from worker.extras import without_extra

__all__ = ["main", "run"]

PROG = "python -m worker"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog=PROG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description=(
            "The blockdensity queue stage: consume fetched pages from RabbitMQ, run the "
            "density fit in a process pool, publish each page's main text.\n\n"
            "Configured by environment variables only. Exit status: 0 after a clean "
            "shutdown (SIGTERM, SIGINT), 1 when it cannot start, 2 for an invalid setting."
        ),
        epilog="environment variables:\n" + StageSettings.help_table(),
    )
    parser.parse_args(argv)
    try:
        settings = StageSettings.from_env()
    except ConfigError as error:
        print(f"{PROG}: invalid configuration: {error}", file=sys.stderr)
        return 2

    # Imported after parsing, so that --help and a bad setting answer at once.
    import logging  # noqa: PLC0415

    try:
        # The first import of the extra's modules (worker.stage.app imports them all).
        from worker.stage.app import App, StartupError  # noqa: PLC0415
    except ModuleNotFoundError as error:
        return without_extra(PROG, error)
    from worker.logs import setup_logging  # noqa: PLC0415

    setup_logging(settings.log_level, settings.log_format)
    log = logging.getLogger("worker")
    for name in unknown_variables():
        log.warning("%s is not a setting of the worker (ignored; a typo?)", name)
    if unverified_tls(settings):
        log.warning(
            "BLOCKDENSITY_AMQP_URL has no_verify_ssl: the broker's certificate goes unchecked"
        )
    log.info("starting with %s", settings)

    async def serve() -> None:
        app = App(settings)
        app.install_signal_handlers()
        await app.run()

    try:
        asyncio.run(serve())
    except StartupError as error:
        log.error("%s", error)  # noqa: TRY400 - the message says it all
        return 1
    return 0


def run() -> None:
    """The entry point of `python -m worker`."""
    sys.exit(main())
