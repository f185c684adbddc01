"""What the long runs (bench.alarm, bench.cluster) share: a log folder and a figures table."""

from __future__ import annotations

import tempfile
from collections.abc import Sequence
from pathlib import Path

__all__ = ["figures", "log_folder"]


def log_folder(given: Path | None, prefix: str) -> Path:
    """`given` (created if missing), else a new temporary folder named after the run."""
    folder = given or Path(tempfile.mkdtemp(prefix=f"{prefix}-"))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def figures(title: str, rows: Sequence[tuple[str, str]], *, ok: bool) -> int:
    """Print the run's table (Markdown, for RELIABILITY.md); the exit status to end with."""
    print(title)
    print("| figure | value |\n|---|---:|")
    for name, value in rows:
        print(f"| {name} | {value} |")
    print("result:", "ok" if ok else "FAILED")
    return 0 if ok else 1
