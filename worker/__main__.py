"""python -m worker: run the queue stage. Configuration is by environment only."""

from __future__ import annotations

import argparse
import asyncio
import sys

from worker.config import (
    ConfigError,
    help_table,
    load_settings,
    unknown_variables,
    unverified_tls,
)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m worker",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description=(
            "The blockdensity queue stage: consume fetched pages from RabbitMQ, run the "
            "density fit in a process pool, publish each page's main text.\n\n"
            "Configured by environment variables only. Exit status: 0 after a clean "
            "shutdown (SIGTERM, SIGINT), 1 when it cannot start, 2 for an invalid setting."
        ),
        epilog="environment variables:\n" + help_table(),
    )
    parser.parse_args(argv)
    try:
        settings = load_settings()
    except ConfigError as error:
        print(f"python -m worker: invalid configuration: {error}", file=sys.stderr)
        return 2

    # Imported after parsing, so that --help and a bad setting answer at once.
    import logging  # noqa: PLC0415

    from worker.app import App  # noqa: PLC0415
    from worker.health import StartupError  # noqa: PLC0415
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


if __name__ == "__main__":
    sys.exit(main())
