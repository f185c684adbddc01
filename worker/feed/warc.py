"""WARC files in (`.warc`, `.warc.gz`): each record as the feeder counts it, HTML responses
as pages (the only importer of fastwarc).

A record is read with FastWARC, its HTTP headers parsed and its chunked
transfer coding undone by FastWARC; its Content-Encoding (gzip, deflate)
is undone by the stage's own decoder (worker.content), with the same body
limit, so that what the feeder sends is what the stage would have decoded.

Every record comes out as an Entry with the offset it starts at in the file
(in the compressed file for a .warc.gz: FastWARC's stream position, which is
where a reader can seek to and start again: one gzip member per record, as
WARC writers do). What is not a page says why (`kind`); a record that is
broken (truncated, a wrong Content-Length, a payload that is not HTTP) has
kind "bad" and a `problem`; the caller names the file. After a record
whose length is wrong, FastWARC cannot find the next one; reading goes on
from the next place a record can start (a gzip member's header, or a
"WARC/1." line), so one bad record costs one record, not the rest of the file.
"""

from __future__ import annotations

import mmap
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import BinaryIO, Final

from fastwarc.warc import ArchiveIterator, WarcRecord, WarcRecordType

from worker.content import (
    ContentCodingError,
    TruncatedBodyError,
    decode_content_encoding,
    is_html,
    media_type,
)
from worker.feed.inputs import InputFormat, Item, Source, msgpack_message
from worker.schemas import FetchedPage

__all__ = ["WARC", "Entry", "WarcPage", "read_warc", "seekable_offset"]

_GZIP_MAGIC: Final = b"\x1f\x8b\x08"
_WARC_LINE: Final = b"WARC/1."
# The records whose payloads may be pages (a revisit has none of its own; the
# other types count under their names).
_PAGE_TYPES: Final = WarcRecordType.response


@dataclass(frozen=True, slots=True)
class WarcPage:
    """One HTML response, with what the FetchedPage needs."""

    url: str
    body: bytes  # the payload, transfer and content codings undone
    charset: str | None
    content_type: str | None
    status: int
    fetched_at: datetime
    record_id: str


@dataclass(frozen=True, slots=True)
class Entry:
    """One record: where it starts, what it is, and its page if it is one."""

    offset: int
    kind: str  # "page", the record type ("request", "metadata", ...), "not_html", "bad", ...
    page: WarcPage | None = None
    content_type: str | None = None  # the HTTP Content-Type's media type, if any
    status: int | None = None
    problem: str | None = None  # what was wrong, for kind "bad" and skipped pages


def _items(source: Source, start: int, max_body: int) -> Iterator[Item]:
    """The feeder's items of a WARC: a record each, a page for each HTML response."""
    for entry in read_warc(source.path, start, max_body=max_body):
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
            message = msgpack_message(fetched, page.record_id)
        yield Item(
            entry.offset, entry.kind, entry.content_type, entry.status, entry.problem, message
        )


def read_warc(path: Path, start: int = 0, *, max_body: int) -> Iterator[Entry]:
    """The records of the WARC at `path`, from byte `start` (a record's offset)."""
    gzipped = _is_gzip(path)
    position = start
    while True:
        last = None
        with path.open("rb") as stream:
            stream.seek(position)
            try:
                for record in _records(stream):
                    last = record.stream_pos
                    yield _entry(record, max_body)
            except OSError as error:
                reason = str(error)
            else:
                return
        # Where the unreadable record started is not known (FastWARC does not
        # say; most often the record before has a wrong Content-Length). Read
        # on from the next place a record can start after the last good one.
        failed_after = position if last is None else last
        resume = _next_record_start(path, failed_after + 1, gzipped=gzipped)
        then = "the end of the file" if resume is None else f"offset {resume}"
        problem = f"unreadable record after offset {failed_after} ({reason}); went on at {then}"
        yield Entry(failed_after, "bad", problem=problem)
        if resume is None:
            return
        position = resume


def seekable_offset(path: Path, offset: int) -> bool:
    """Whether reading can start at `offset`: a gzip member's start in a .warc.gz (a
    WARC compressed as one whole stream cannot be entered in the middle), a record's
    "WARC/1." line in a plain WARC."""
    with path.open("rb") as stream:
        stream.seek(offset)
        head = stream.read(len(_WARC_LINE))
    if offset == 0:
        return True
    return head.startswith(_GZIP_MAGIC) if _is_gzip(path) else head == _WARC_LINE


def _records(stream: BinaryIO) -> Iterator[WarcRecord]:
    return iter(
        ArchiveIterator(
            stream,
            record_types=WarcRecordType.any_type,
            parse_http=True,
            auto_decode="transfer",
            fsspec_args=False,
        )
    )


def _entry(record: WarcRecord, max_body: int) -> Entry:  # noqa: PLR0911 - one return per verdict
    offset = record.stream_pos
    kind = record.record_type
    if not kind & _PAGE_TYPES:
        return Entry(offset, str(kind))
    url = record.headers.get("WARC-Target-URI")
    record_id = record.record_id
    if not url or not record_id:
        return Entry(offset, "bad", problem="response record without WARC-Target-URI or ID")
    status = record.http_headers.status_code if record.is_http else None
    if status is None or not 100 <= status <= 599:  # HTTP's range
        return Entry(offset, "bad", problem=f"response record of {url} has no HTTP status line")
    content_type = record.http_content_type
    media = media_type(content_type)
    if not is_html(content_type):
        return Entry(offset, "not_html", content_type=media, status=status)
    body = record.reader.read(max_body + 1)
    if len(body) > max_body:
        return Entry(
            offset,
            "too_large",
            content_type=media,
            status=status,
            problem=f"payload of {url} is over {max_body} bytes",
        )
    coding = record.http_headers.get("Content-Encoding")
    try:
        body = decode_content_encoding(body, coding, max_body)
    except ContentCodingError as error:
        # Cut short is a broken record; a coding we cannot undo is the page's own.
        return Entry(
            offset,
            "bad" if isinstance(error, TruncatedBodyError) else "undecodable",
            content_type=media,
            status=status,
            problem=f"payload of {url}: {error}",
        )
    if not body and status == 200:  # a 200 with nothing: cut short
        return Entry(
            offset,
            "bad",
            content_type=media,
            status=status,
            problem=f"response record of {url} has an empty payload (truncated?)",
        )
    page = WarcPage(
        url=url,
        body=body,
        charset=record.http_charset,
        content_type=content_type,
        status=status,
        fetched_at=record.record_date,
        record_id=record_id,
    )
    return Entry(offset, "page", page=page, content_type=media, status=status)


def _is_gzip(path: Path) -> bool:
    with path.open("rb") as stream:
        return stream.read(3) == _GZIP_MAGIC


def _next_record_start(path: Path, after: int, *, gzipped: bool) -> int | None:
    """The first offset from `after` where a record may begin; None if there is none."""
    if path.stat().st_size <= after:
        return None
    with path.open("rb") as stream, mmap.mmap(stream.fileno(), 0, access=mmap.ACCESS_READ) as data:
        if gzipped:
            found = data.find(_GZIP_MAGIC, after)
            return None if found < 0 else found
        found = data.find(b"\n" + _WARC_LINE, after - 1)
        return None if found < 0 else found + 1


WARC: Final = InputFormat(
    "warc",
    (".warc", ".warc.gz"),
    _items,
    can_start_at=seekable_offset,
    why_not="a WARC gzipped as one stream?",
)
