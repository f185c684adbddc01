"""WET out: a clean page as a WARC conversion record, as Common Crawl writes its text.

Each file begins with a warcinfo record; each page is one `conversion`
record, gzip-compressed on its own (so that a reader may seek to any
record), with:

- WARC-Target-URI: the page's URL; WARC-Refers-To: the fetch's id when it
  is a WARC record id (`<urn:...>`, what the feeder sets from WARC-Record-ID);
- WARC-Record-ID: a version 5 urn:uuid of the output's message_id, so that
  a page collected twice (at least once) has the same id both times;
- WARC-Date: the fetch's date when the record carries one, else the time
  of collection (CleanPage version 1 has no fetch date);
- WARC-Identified-Content-Language: the detected language, as the fit
  names it (BCP 47, e.g. "en"; Common Crawl writes ISO 639-3, "eng");
- the block, text/plain in UTF-8: the page's title on the first line and its
  main text after it, as in Common Crawl's WET (its text being the whole
  page's, ours the fit's).
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import uuid
from datetime import UTC, datetime
from typing import Any, Final

from worker.amqp.reader import Incoming
from worker.collect.records import OutputFormat, decoded
from worker.collect.rotation import repair_gzip_members
from worker.schemas import InvalidMessageError

__all__ = ["WET", "conversion_record", "record_uuid", "warcinfo_record"]

_SOFTWARE: Final = "blockdensity-collect"


def record_uuid(message_id: str | None, url: str) -> str:
    """A name-based (version 5) UUID of the output's message_id: the same for every
    delivery of one output, so that a duplicate record is recognisable as one."""
    key = f"blockdensity:message_id:{message_id}" if message_id else f"blockdensity:url:{url}"
    return f"<urn:uuid:{uuid.uuid5(uuid.NAMESPACE_URL, key)}>"


def conversion_record(clean: dict[str, Any], message_id: str | None) -> bytes:
    url = str(clean.get("url", ""))
    block = f"{clean.get('title') or ''}\n{clean.get('text') or ''}".encode()
    headers = [
        ("WARC-Type", "conversion"),
        ("WARC-Target-URI", url),
        ("WARC-Date", _date(clean.get("fetched_at"))),
        ("WARC-Record-ID", record_uuid(message_id, url)),
    ]
    fetch_id = clean.get("fetch_id")
    if isinstance(fetch_id, str) and fetch_id.startswith("<urn:"):
        headers.append(("WARC-Refers-To", fetch_id))
    headers.append(("WARC-Block-Digest", _sha1(block)))
    lang = clean.get("lang_detected") or clean.get("lang")
    if lang:
        headers.append(("WARC-Identified-Content-Language", str(lang)))
    headers.append(("Content-Type", "text/plain"))
    return _record(headers, block)


def warcinfo_record(filename: str) -> bytes:
    block = (
        f"software: {_SOFTWARE}\r\nformat: WARC File Format 1.0\r\n"
        "description: main text of each page (blockdensity density fit)\r\n"
    ).encode()
    headers = [
        ("WARC-Type", "warcinfo"),
        ("WARC-Date", _date(None)),
        ("WARC-Filename", filename),
        ("WARC-Record-ID", f"<urn:uuid:{uuid.uuid4()}>"),
        ("Content-Type", "application/warc-fields"),
    ]
    return _record(headers, block)


def _record(headers: list[tuple[str, str]], block: bytes) -> bytes:
    head = "WARC/1.0\r\n" + "".join(f"{name}: {_one_line(value)}\r\n" for name, value in headers)
    head += f"Content-Length: {len(block)}\r\n\r\n"
    return gzip.compress(head.encode() + block + b"\r\n\r\n", compresslevel=6)


def _one_line(value: str) -> str:
    return value.replace("\r", " ").replace("\n", " ")


def _sha1(block: bytes) -> str:
    return "sha1:" + base64.b32encode(hashlib.sha1(block).digest()).decode()  # noqa: S324 - WARC's digest


def _date(value: object) -> str:
    if isinstance(value, datetime):
        moment = value
    elif isinstance(value, str):
        try:
            moment = datetime.fromisoformat(value)
        except ValueError:
            moment = datetime.now(UTC)
    else:
        moment = datetime.now(UTC)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _wet_record(message: Incoming) -> bytes:
    try:
        clean = decoded(message)
    except InvalidMessageError as error:
        clean = {"url": "", "title": "", "text": f"undecodable output: {error}"}
    if not isinstance(clean, dict):
        clean = {"url": "", "title": "", "text": "output is not a CleanPage object"}
    return conversion_record(clean, message.message_id)


WET: Final = OutputFormat(
    "wet", ".warc.wet.gz", _wet_record, repair_gzip_members, header=warcinfo_record
)
