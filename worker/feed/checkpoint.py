"""The feeder's checkpoint: per input file, the offset up to which every page is confirmed.

A small JSON file, rewritten atomically (a temporary file beside it,
fsynced, renamed over it, the folder fsynced), so that a feeder killed at
any moment leaves the previous checkpoint or the next, never half of one:

    {"format": "blockdensity-feed-checkpoint", "version": 1,
     "target": "amqp://127.0.0.1:5672/ pages.fetched",
     "files": {"/crawl/a.warc.gz": {"size": 104857600, "mtime_ns": 1717..., "offset": 52428800,
                                   "done": false, "pages": 2512}}}

`offset` is where a record (line, file) starts that was not yet confirmed
when the checkpoint was written: a restart reads from there, so what was
published after it is published again (at least once; the feeder's window
bounds how many). A file whose size or modification time changed is read
from the start again. `target` is where the pages went: a checkpoint is not
reused for another queue.
"""

from __future__ import annotations

import contextlib
import json
import os
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Final

__all__ = ["Checkpoint", "CheckpointError", "FileMark"]

FORMAT: Final = "blockdensity-feed-checkpoint"
VERSION: Final = 1


class CheckpointError(ValueError):
    """The checkpoint file cannot be used; the text says why and what to do."""


@dataclass(slots=True)
class FileMark:
    size: int
    mtime_ns: int
    offset: int = 0
    done: bool = False
    pages: int = 0  # pages confirmed before `offset`


class Checkpoint:
    def __init__(self, path: Path, target: str, files: dict[str, FileMark] | None = None) -> None:
        self.path = path
        self.target = target
        self.files = files or {}

    @classmethod
    def load(cls, path: Path, target: str) -> Checkpoint:
        """The checkpoint at `path`, or an empty one if there is none."""
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return cls(path, target)
        try:
            data = json.loads(text)
            if data.get("format") != FORMAT or data.get("version") != VERSION:
                raise CheckpointError(f"{path}: not a version {VERSION} feed checkpoint")
            files = {name: FileMark(**mark) for name, mark in data["files"].items()}
        except (ValueError, KeyError, TypeError, AttributeError) as error:
            if isinstance(error, CheckpointError):
                raise
            raise CheckpointError(f"{path}: unreadable checkpoint ({error})") from None
        if data.get("target") != target:
            raise CheckpointError(
                f"{path} is the checkpoint of a feed to {data.get('target')!r}, not {target!r}:"
                " use --checkpoint with another file, or --restart"
            )
        return cls(path, target, files)

    def mark(self, path: Path) -> FileMark:
        """The file's mark, started again if the file is not the one checkpointed."""
        stat = path.stat()
        key = str(path.resolve())
        mark = self.files.get(key)
        if mark is None or mark.size != stat.st_size or mark.mtime_ns != stat.st_mtime_ns:
            mark = self.files[key] = FileMark(stat.st_size, stat.st_mtime_ns)
        return mark

    def save(self) -> None:
        data: dict[str, Any] = {
            "format": FORMAT,
            "version": VERSION,
            "target": self.target,
            "files": {name: asdict(mark) for name, mark in self.files.items()},
        }
        temporary = self.path.with_name(f".{self.path.name}.{os.getpid()}.tmp")
        try:
            with temporary.open("w", encoding="utf-8") as out:
                json.dump(data, out, indent=1)
                out.flush()
                os.fsync(out.fileno())
            temporary.replace(self.path)
        finally:
            with contextlib.suppress(FileNotFoundError):
                temporary.unlink()
        _fsync_folder(self.path.parent)


def _fsync_folder(folder: Path) -> None:
    """Make the rename itself durable (the folder's entry), where the OS allows it."""
    try:
        descriptor = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(descriptor)
    except OSError:
        pass
    finally:
        os.close(descriptor)
