"""What each program says when the "worker" extra is not installed.

`pip install blockdensity` gives the library alone; the three programs need
the extra's modules (aio-pika, prometheus-client, FastWARC, stamina). Each entry
point imports them behind a guard, and a missing one becomes one line
naming what to install, instead of the traceback of the first import that
failed.
"""

from __future__ import annotations

import importlib.util
import sys
from typing import Final

__all__ = ["EXTRA_MODULES", "missing_extra", "without_extra"]

# The "worker" extra of pyproject.toml, module: distribution.
EXTRA_MODULES: Final = {
    "aio_pika": "aio-pika",
    "prometheus_client": "prometheus-client",
    "fastwarc": "fastwarc",
    "stamina": "stamina",
}


def missing_extra(error: ModuleNotFoundError) -> str | None:
    """What is not installed, when a third-party module is why a program cannot import.

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


def without_extra(prog: str, error: ModuleNotFoundError) -> int:
    """Say on stderr what to install and return exit status 1; re-raise `error` when it is
    not the extra that is missing (a bug of ours)."""
    missing = missing_extra(error)
    if missing is None:
        raise error
    print(
        f'{prog}: needs the "worker" extra: pip install "blockdensity[worker]" ({missing})',
        file=sys.stderr,
    )
    return 1


def _installed(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):  # a broken or half-imported package
        return False
