"""WARC files for the tests and the benchmark, written with warcio (the only importer of it).

Written by another library than the one the feeder reads with (FastWARC),
so that the tests check the feeder against WARC as others write it. Pages
go in as response records, with a request record before each (as crawlers
write them), optionally with the body gzip-compressed (Content-Encoding) or
chunked (Transfer-Encoding), or with a charset in the Content-Type.
"""

from __future__ import annotations

import gzip
import io
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from warcio.recordloader import ArcWarcRecord
from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

__all__ = ["WarcPageSpec", "write_warc"]


@dataclass(frozen=True)
class WarcPageSpec:
    url: str
    body: bytes  # as the page is, before any coding
    charset: str | None = None
    status: int = 200
    content_type: str = "text/html"
    content_encoding: str | None = None  # "gzip": the payload is stored compressed
    chunked: bool = False  # the payload is stored chunked


def write_warc(path: Path, pages: Iterable[WarcPageSpec], *, gzipped: bool = True) -> list[str]:
    """Write `pages` to `path`; returns the response records' WARC-Record-IDs, in order."""
    ids = []
    with path.open("wb") as out:
        writer = WARCWriter(out, gzip=gzipped)
        for page in pages:
            payload = page.body
            headers = [
                (
                    "Content-Type",
                    page.content_type + (f"; charset={page.charset}" if page.charset else ""),
                )
            ]
            if page.content_encoding == "gzip":
                payload = gzip.compress(payload)
                headers.append(("Content-Encoding", "gzip"))
            if page.chunked:
                payload = _chunked(payload)
                headers.append(("Transfer-Encoding", "chunked"))
            else:
                headers.append(("Content-Length", str(len(payload))))
            request = writer.create_warc_record(
                page.url,
                "request",
                payload=io.BytesIO(b""),
                http_headers=StatusAndHeaders(
                    f"GET {page.url} HTTP/1.1", [("Host", "example")], is_http_request=True
                ),
            )
            _write(writer, request)
            status = StatusAndHeaders(f"{page.status} Status", headers, protocol="HTTP/1.1")
            record = writer.create_warc_record(
                page.url, "response", payload=io.BytesIO(payload), http_headers=status
            )
            _write(writer, record)
            ids.append(str(record.rec_headers.get_header("WARC-Record-ID")))
    return ids


def _write(writer: WARCWriter, record: ArcWarcRecord) -> None:
    """Write `record`, then close its stream: warcio copies a payload of no stated length
    into a temporary file of its own to digest it, and leaves that file open."""
    writer.write_record(record)
    record.raw_stream.close()


def _chunked(data: bytes, size: int = 4096) -> bytes:
    parts = [
        b"%x\r\n%s\r\n" % (len(data[i : i + size]), data[i : i + size])
        for i in range(0, len(data), size)
    ]
    return b"".join(parts) + b"0\r\n\r\n"
