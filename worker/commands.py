"""The console scripts blockdensity-feed and blockdensity-collect.

A launcher rather than the modules themselves: without the "worker" extra
(FastWARC, aio-pika, ...) they say what to install, as `python -m
worker` does, instead of a traceback of the first import that failed.
"""

from __future__ import annotations

import sys
from types import ModuleType

from worker.__main__ import _missing_extra

__all__ = ["collect", "feed"]


# Each imports its module only when run (it needs the extra), by a plain
# import statement: the worker never imports a module by a computed name.
def feed() -> None:
    try:
        from worker.feed import feeder as command  # noqa: PLC0415 - see above
    except ModuleNotFoundError as error:
        sys.exit(_without_extra("blockdensity-feed", error))
    sys.exit(_run(command))


def collect() -> None:
    try:
        from worker.collect import collector as command  # noqa: PLC0415 - see above
    except ModuleNotFoundError as error:
        sys.exit(_without_extra("blockdensity-collect", error))
    sys.exit(_run(command))


def _without_extra(prog: str, error: ModuleNotFoundError) -> int:
    missing = _missing_extra(error)
    if missing is None:
        raise error
    print(
        f'{prog}: needs the "worker" extra: pip install "blockdensity[worker]" ({missing})',
        file=sys.stderr,
    )
    return 1


def _run(command: ModuleType) -> int:
    status: int = command.main()
    return status
