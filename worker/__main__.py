"""python -m worker: run the queue stage. Configuration is by environment only."""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import sys
from typing import Final

from worker.config import (
    ConfigError,
    help_table,
    load_settings,
    unknown_variables,
    unverified_tls,
)

# The "worker" extra of pyproject.toml, module: distribution. The library
# (`pip install blockdensity`) installs none of them; config and --help need
# none either.
EXTRA_MODULES: Final = {
    "aio_pika": "aio-pika",
    "prometheus_client": "prometheus-client",
    "fastwarc": "fastwarc",  # blockdensity-feed's (worker.commands says the same)
}


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

    try:
        # The first import of the extra's modules (worker.app imports them all).
        from worker.stage.app import App, StartupError  # noqa: PLC0415
    except ModuleNotFoundError as error:
        missing = _missing_extra(error)
        if missing is None:
            raise
        print(
            'python -m worker: the worker needs the "worker" extra: '
            f'pip install "blockdensity[worker]" ({missing})',
            file=sys.stderr,
        )
        return 1
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


def _missing_extra(error: ModuleNotFoundError) -> str | None:
    """What is not installed, when a third-party module is why the worker cannot import.

    None for a module of this project itself: that is a bug, and its
    traceback is the report.
    """
    top = (error.name or "").partition(".")[0]
    if not top or top in ("worker", "blockdensity"):
        return None
    missing = [dist for module, dist in EXTRA_MODULES.items() if not _installed(module)]
    if not missing:  # a dependency of one of them
        missing = [top]
    verb = "is" if len(missing) == 1 else "are"
    return f"{', '.join(missing)} {verb} not installed"


def _installed(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):  # a broken or half-imported package
        return False


if __name__ == "__main__":
    sys.exit(main())
