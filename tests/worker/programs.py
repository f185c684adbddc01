"""What the tests of the three programs share: a program run as a subprocess, a condition
waited for, the files a feeder and a collector leave behind."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from devkit.paths import ROOT

__all__ = ["checkpointed_offset", "collected_lines", "start_program", "wait_until"]


def start_program(
    module: str, *args: str, env: dict[str, str], log: Path
) -> subprocess.Popen[bytes]:
    """`python -m module args...` with `env` added to this environment, its output to `log`."""
    with log.open("ab") as out:
        return subprocess.Popen(  # noqa: S603 - our own interpreter and modules
            [sys.executable, "-m", module, *args],
            env={**os.environ, **env},
            cwd=ROOT,
            stdout=out,
            stderr=subprocess.STDOUT,
        )


def wait_until(condition: Callable[[], bool], timeout: float, what: str) -> None:
    """Poll `condition` until true; the test fails, naming `what`, after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.05)
    pytest.fail(f"{what} within {timeout:g} s")


def checkpointed_offset(path: Path) -> int:
    """The highest offset a feed checkpoint records (0 while there is none)."""
    try:
        data = json.loads(path.read_text())
    except (FileNotFoundError, ValueError):
        return 0
    return max((mark["offset"] for mark in data["files"].values()), default=0)


def collected_lines(folder: Path, pattern: str) -> list[dict[str, Any]]:
    """Every JSON line of the collector's files matching `pattern`, in file order."""
    lines = []
    for path in sorted(folder.glob(pattern)):
        lines += [json.loads(line) for line in path.read_text().splitlines()]
    return lines
