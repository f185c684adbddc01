"""An input file, its format, and what the feeder reads of it: items, each with the offset it
starts at in its file (the checkpoint's unit) and the message to publish, if it is a page.

The message_id of a page is derived from its URL and its fetch id (a WARC
record's WARC-Record-ID; for an HTML file or a JSONL line without one, the
SHA-256 of the body): the same page fed twice gets the same message_id, and
so does its output (worker.schemas.clean_message_id), which is what lets a
consumer drop a re-feed's duplicates.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from worker.schemas import Encoding, FetchedPage, encode_message

__all__ = [
    "DEFAULT_BASE_URL",
    "JSON",
    "MSGPACK",
    "InputFormat",
    "Item",
    "Message",
    "Source",
    "body_fetch_id",
    "feed_message_id",
    "msgpack_message",
]

# Where the pages of HTML files are said to come from (RFC 2606's reserved .invalid).
DEFAULT_BASE_URL: Final = "https://local.invalid/"
MSGPACK: Final = "application/msgpack"
JSON: Final = "application/json"


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
    kind: str  # "page", or why not: "bad", "not_html", "too_large", a WARC record's type, ...
    content_type: str | None = None  # the HTTP media type, if known
    status: int | None = None
    problem: str | None = None  # what was wrong, for "bad" and skipped pages
    message: Message | None = None


def _anywhere(_path: Path, _offset: int) -> bool:
    return True


@dataclass(frozen=True, slots=True)
class InputFormat:
    """One kind of input file: the file names it has, how its items are read from an offset
    on, and whether reading can start at a given offset (a checkpoint's)."""

    name: str
    suffixes: tuple[str, ...]  # lower case, e.g. (".warc", ".warc.gz")
    read: Callable[[Source, int, int], Iterator[Item]]  # (source, start, max body bytes)
    can_start_at: Callable[[Path, int], bool] = _anywhere
    why_not: str = ""  # said when a checkpoint's offset cannot be entered


@dataclass(frozen=True)
class Source:
    """One input file of a known format."""

    path: Path
    format: InputFormat
    base: Path  # the folder given (or the file's own): an HTML file's URL is relative to it
    base_url: str = DEFAULT_BASE_URL

    @property
    def size(self) -> int:
        return self.path.stat().st_size

    def items(self, start: int, max_body: int) -> Iterator[Item]:
        """The file's items from `start` (an item's offset) on; a page over `max_body`
        bytes is an item that says so, not a message."""
        return self.format.read(self, start, max_body)

    def can_start_at(self, offset: int) -> bool:
        return offset == 0 or self.format.can_start_at(self.path, offset)


def feed_message_id(url: str, fetch_id: str) -> str:
    digest = hashlib.sha256(f"blockdensity/feed/v1\0{url}\0{fetch_id}".encode())
    return digest.hexdigest()[:32]


def body_fetch_id(body: bytes) -> str:
    """The fetch id of a page that came without one: the SHA-256 of its bytes."""
    return "sha256:" + hashlib.sha256(body).hexdigest()


def msgpack_message(page: FetchedPage[bytes], fetch_id: str) -> Message:
    """`page` as the feeder publishes what it builds itself: MessagePack, the raw bytes."""
    return Message(
        encode_message(page, Encoding.MSGPACK),
        MSGPACK,
        feed_message_id(page.url, fetch_id),
        page.url,
    )
