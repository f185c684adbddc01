"""blockdensity-collect's entry point, and `python -m worker.collect`.

The command (worker.collect.cli) is imported here behind a guard: without
the "worker" extra (aio-pika) the user is told what to install.
"""

from __future__ import annotations

import sys

from worker.extras import without_extra


def run() -> None:
    try:
        from worker.collect.cli import main  # noqa: PLC0415 - see above
    except ModuleNotFoundError as error:
        sys.exit(without_extra("blockdensity-collect", error))
    sys.exit(main())


if __name__ == "__main__":
    run()
