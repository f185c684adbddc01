"""The collector's files: numbered, rotated by size, synced before anything is acked.

`<folder>/<prefix>-<n>.<suffix>`, n counting up from the highest already
there; a file is closed (and the next one begun) at the first sync after it
reaches its size limit, so every file ends with a whole record. The
collector acks a message only after `sync` (flush and fsync) has returned
for the file it went to: what was acked is on disk.

A collector killed in the middle of a write leaves a torn last record in its
current file; that record was never acked (the broker delivers it again), so
on start the newest file's tail is cut back to its last whole record
(`repair`): a line for JSONL, a gzip member for WET.
"""

from __future__ import annotations

import logging
import os
import re
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO

__all__ = ["RotatingFile", "repair_gzip_members", "repair_lines"]

log = logging.getLogger(__name__)


class RotatingFile:
    def __init__(  # noqa: PLR0913 - the series' parts, by keyword
        self,
        folder: Path,
        prefix: str,
        suffix: str,
        max_bytes: int,
        *,
        repair: Callable[[bytes], int],
        header: Callable[[str], bytes] | None = None,
    ) -> None:
        self._folder = folder
        self._prefix = prefix
        self._suffix = suffix
        self._max_bytes = max_bytes
        self._header = header  # the first record of each file (WET: its warcinfo)
        self._file: BinaryIO | None = None
        self._size = 0
        folder.mkdir(parents=True, exist_ok=True)
        numbers = self._existing()
        if numbers:
            _repair(self._path(max(numbers)), repair)
        self._next = max(numbers, default=0) + 1
        self.files: list[Path] = []  # written by this run

    def write(self, data: bytes) -> None:
        if self._file is None:
            path = self._path(self._next)
            self._next += 1
            self._file = path.open("xb")  # never overwrite
            self.files.append(path)
            self._size = 0
            if self._header is not None:
                self._write(self._header(path.name))
        self._write(data)

    def sync(self) -> None:
        """Flush and fsync; past the size limit, close the file (the next write opens one)."""
        if self._file is None:
            return
        self._file.flush()
        os.fsync(self._file.fileno())
        if self._size >= self._max_bytes:
            self.close()

    def close(self) -> None:
        if self._file is not None:
            self._file.flush()
            os.fsync(self._file.fileno())
            self._file.close()
            self._file = None

    def _write(self, data: bytes) -> None:
        assert self._file is not None  # noqa: S101 - write opens it
        self._file.write(data)
        self._size += len(data)

    def _path(self, number: int) -> Path:
        return self._folder / f"{self._prefix}-{number:05d}{self._suffix}"

    def _existing(self) -> list[int]:
        pattern = re.compile(rf"{re.escape(self._prefix)}-(\d+){re.escape(self._suffix)}")
        return [
            int(match[1])
            for path in self._folder.iterdir()
            if (match := pattern.fullmatch(path.name)) is not None
        ]


def _repair(path: Path, whole: Callable[[bytes], int]) -> None:
    data = path.read_bytes()
    keep = whole(data)
    if keep < len(data):
        log.warning(
            "%s: cut a torn last record at offset %d (%d bytes; never acked, so the broker "
            "delivers it again)",
            path,
            keep,
            len(data) - keep,
        )
        with path.open("r+b") as out:
            out.truncate(keep)
            os.fsync(out.fileno())


def repair_lines(data: bytes) -> int:
    """How much of `data` is whole lines."""
    return data.rfind(b"\n") + 1


def repair_gzip_members(data: bytes) -> int:
    """How much of `data` is whole gzip members."""
    position = 0
    while position < len(data):
        member = zlib.decompressobj(16 + zlib.MAX_WBITS)
        try:
            member.decompress(data[position:])
        except zlib.error:
            break
        if not member.eof:
            break
        position = len(data) - len(member.unused_data)
    return position
