"""What the feeder reads: WARC files, HTML files, JSONL of FetchedPage objects; each
item with the offset it starts at in its file (the checkpoint's unit) and the
message to publish, if it is a page.

The message_id of a page is derived from its URL and its fetch id (a WARC
record's WARC-Record-ID; for an HTML file or a JSONL line without one, the
SHA-256 of the body): the same page fed twice gets the same message_id, and
so does its output (worker.schemas.clean_message_id), which is what lets a
consumer drop a re-feed's duplicates.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Final
from urllib.parse import quote

from worker.feed.warc import is_warc, read_warc
from worker.schemas import (
    Encoding,
    FetchedPage,
    InvalidMessageError,
    decode_page,
    encode_fetched,
    is_html,
)

__all__ = [
    "DEFAULT_BASE_URL",
    "Item",
    "Message",
    "Source",
    "SourceError",
    "feed_message_id",
    "find_sources",
]

# Where the pages of HTML files are said to come from (RFC 2606's reserved .invalid).
DEFAULT_BASE_URL: Final = "https://local.invalid/"
MSGPACK: Final = "application/msgpack"
JSON: Final = "application/json"
_HTML_SUFFIXES: Final = (".html", ".htm")
_JSONL_SUFFIXES: Final = (".jsonl", ".ndjson")


class SourceError(ValueError):
    """An input that cannot be fed at all (missing, of an unknown kind); says which."""


@dataclass(frozen=True, slots=True)
class Message:
    """A FetchedPage, encoded, with the properties it is published with."""

    body: bytes
    content_type: str  # AMQP content_type
    message_id: str
    url: str  # the routing key when feeding an x-consistent-hash exchange


@dataclass(frozen=True, slots=True)
class Item:
    """One record (WARC), file (HTML) or line (JSONL), and the message if it is a page."""

    offset: int
    kind: str  # "page", or why not (see worker.warc.Entry)
    content_type: str | None = None
    status: int | None = None
    problem: str | None = None
    message: Message | None = None


def feed_message_id(url: str, fetch_id: str) -> str:
    digest = hashlib.sha256(f"blockdensity/feed/v1\0{url}\0{fetch_id}".encode())
    return digest.hexdigest()[:32]


@dataclass(frozen=True)
class Source:
    """One input file: how to read its items from an offset on."""

    path: Path
    kind: str  # "warc", "html" or "jsonl"
    base: Path  # for an HTML file, the folder its URL is relative to
    base_url: str = DEFAULT_BASE_URL

    @property
    def size(self) -> int:
        return self.path.stat().st_size

    def items(self, start: int, max_body: int) -> Iterator[Item]:
        if self.kind == "warc":
            return _warc_items(self.path, start, max_body)
        if self.kind == "jsonl":
            return _jsonl_items(self.path, start)
        return _html_items(self, start, max_body)


def find_sources(paths: list[Path], base_url: str = DEFAULT_BASE_URL) -> list[Source]:
    """The input files named by `paths`: files as they are, folders searched (sorted)."""
    sources: list[Source] = []
    for path in paths:
        if path.is_dir():
            found = sorted(p for p in path.rglob("*") if p.is_file() and _kind(p) is not None)
            if not found:
                raise SourceError(f"{path}: no .warc, .warc.gz, .html or .jsonl file in it")
            sources += [Source(p, _kind(p) or "html", path, base_url) for p in found]
        elif path.is_file():
            kind = _kind(path)
            if kind is None:
                raise SourceError(
                    f"{path}: not a WARC (.warc, .warc.gz), HTML (.html) or JSONL (.jsonl) file"
                )
            sources.append(Source(path, kind, path.parent, base_url))
        else:
            raise SourceError(f"{path}: no such file or folder")
    return sources


def _kind(path: Path) -> str | None:
    name = path.name.lower()
    if is_warc(path):
        return "warc"
    if name.endswith(_HTML_SUFFIXES):
        return "html"
    if name.endswith(_JSONL_SUFFIXES):
        return "jsonl"
    return None


def _warc_items(path: Path, start: int, max_body: int) -> Iterator[Item]:
    for entry in read_warc(path, start, max_body=max_body):
        page = entry.page
        message = None
        if page is not None:
            fetched = FetchedPage(
                url=page.url,
                body=page.body,
                charset=page.charset,
                content_type=page.content_type,
                status=page.status,
                fetched_at=page.fetched_at,
                fetch_id=page.record_id,
            )
            message = Message(
                encode_fetched(fetched, Encoding.MSGPACK),
                MSGPACK,
                feed_message_id(page.url, page.record_id),
                page.url,
            )
        yield Item(
            entry.offset, entry.kind, entry.content_type, entry.status, entry.problem, message
        )


def _html_items(source: Source, start: int, max_body: int) -> Iterator[Item]:
    if start > 0:  # the one item of the file was fed already
        return
    body = source.path.read_bytes()
    if len(body) > max_body:
        yield Item(0, "too_large", "text/html", problem=f"{len(body)} bytes, over {max_body}")
        return
    relative = source.path.relative_to(source.base).as_posix()
    url = source.base_url.rstrip("/") + "/" + quote(relative)
    fetch_id = "sha256:" + hashlib.sha256(body).hexdigest()
    page = FetchedPage(url=url, body=body, fetch_id=fetch_id)
    message = Message(
        encode_fetched(page, Encoding.MSGPACK), MSGPACK, feed_message_id(url, fetch_id), url
    )
    yield Item(0, "page", "text/html", 200, message=message)


def _jsonl_items(path: Path, start: int) -> Iterator[Item]:
    """Each line a FetchedPage in JSON, published as it is (the worker answers in JSON).

    Unknown fields are ignored, as the worker ignores them: the collector's
    dead-letter file (a FetchedPage and a "dead_letter" object a line) feeds
    back as it is.
    """
    with path.open("rb") as lines:
        lines.seek(start)
        offset = start
        for line in lines:
            here, offset = offset, offset + len(line)
            text = line.strip()
            if not text:
                continue
            try:
                page = decode_page(text, Encoding.JSON)
            except InvalidMessageError as error:
                yield Item(here, "bad", problem=str(error))
                continue
            media = (page.content_type or "").partition(";")[0].strip().lower() or None
            if not is_html(page.content_type):
                yield Item(here, "not_html", media, page.status)
                continue
            fetch_id = page.fetch_id or "sha256:" + hashlib.sha256(text).hexdigest()
            message = Message(text, JSON, feed_message_id(page.url, fetch_id), page.url)
            yield Item(here, "page", media, page.status, message=message)
