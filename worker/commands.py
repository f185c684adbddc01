"""The console scripts blockdensity-feed and blockdensity-collect.

A launcher rather than the modules themselves: without the "worker" extra
(FastWARC, aio-pika, msgspec, ...) they say what to install, as `python -m
worker` does, instead of a traceback of the first import that failed.
"""

from __future__ import annotations

import importlib
import sys

from worker.__main__ import _missing_extra

__all__ = ["collect", "feed"]


def feed() -> None:
    sys.exit(_launch("worker.feed", "blockdensity-feed"))


def collect() -> None:
    sys.exit(_launch("worker.collect", "blockdensity-collect"))


def _launch(module: str, prog: str) -> int:
    try:
        main = importlib.import_module(module).main
    except ModuleNotFoundError as error:
        missing = _missing_extra(error)
        if missing is None:
            raise
        print(
            f'{prog}: needs the "worker" extra: pip install "blockdensity[worker]" ({missing})',
            file=sys.stderr,
        )
        return 1
    status: int = main()
    return status
