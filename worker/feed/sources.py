"""The feeder's inputs: the formats it reads, and the files that the paths it is given name.

A format is an InputFormat (worker.feed.inputs) in a module of its own,
listed here; a file is of the first format whose suffix its name has.
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

from worker.feed.htmlfiles import HTML
from worker.feed.inputs import DEFAULT_BASE_URL, InputFormat, Source
from worker.feed.jsonl import JSONL
from worker.feed.warc import WARC

__all__ = ["FORMATS", "SourceError", "find_sources", "format_of"]

FORMATS: Final[tuple[InputFormat, ...]] = (WARC, HTML, JSONL)


class SourceError(ValueError):
    """An input that cannot be fed at all (missing, of an unknown kind); says which."""


def format_of(path: Path) -> InputFormat | None:
    """The format a file's name says it has, or None."""
    name = path.name.lower()
    return next((kind for kind in FORMATS if name.endswith(kind.suffixes)), None)


def find_sources(paths: list[Path], base_url: str = DEFAULT_BASE_URL) -> list[Source]:
    """The input files named by `paths`: files as they are, folders searched (sorted)."""
    sources: list[Source] = []
    for path in paths:
        if path.is_dir():
            found = [
                Source(file, kind, path, base_url)
                for file in sorted(path.rglob("*"))
                if file.is_file() and (kind := format_of(file)) is not None
            ]
            if not found:
                raise SourceError(f"{path}: no {_described()} file in it")
            sources += found
        elif path.is_file():
            kind = format_of(path)
            if kind is None:
                raise SourceError(f"{path}: not a {_described()} file")
            sources.append(Source(path, kind, path.parent, base_url))
        else:
            raise SourceError(f"{path}: no such file or folder")
    return sources


def _described() -> str:
    """The formats for a message: 'WARC (.warc, .warc.gz), HTML (.html, .htm) or ...'."""
    names = [f"{kind.name.upper()} ({', '.join(kind.suffixes)})" for kind in FORMATS]
    return ", ".join(names[:-1]) + " or " + names[-1]
