"""What an HTTP body is: its media type, whether the fit is for it, its content coding undone.

Shared by the three programs: the stage checks a message's body with it
(worker.stage.intake), the feeder a WARC record's payload (worker.feed.warc),
the collector a dead letter's body; so what the feeder sends is what the stage
would have decoded.
"""

from __future__ import annotations

import zlib
from typing import Final

__all__ = [
    "CONTENT_CODINGS",
    "BodyTooLargeError",
    "ContentCodingError",
    "CorruptBodyError",
    "TruncatedBodyError",
    "UnsupportedCodingError",
    "decode_content_encoding",
    "is_html",
    "media_type",
]

# HTTP content types the fit is for. A page without one is assumed HTML.
_HTML_TYPES: Final = frozenset({"text/html", "application/xhtml+xml"})


def media_type(content_type: str | None) -> str | None:
    """The media type of a Content-Type, without its parameters, in lower case; None when
    there is none (`text/HTML; charset=utf-8` -> `text/html`)."""
    return (content_type or "").partition(";")[0].strip().lower() or None


def is_html(content_type: str | None) -> bool:
    """Whether an HTTP Content-Type is one the fit is for (absent counts as HTML)."""
    return content_type is None or media_type(content_type) in _HTML_TYPES


# --- content codings ----------------------------------------------------------

# The content codings decoded (HTTP's, and AMQP's content_encoding names the
# same). "identity" and none mean the body is as it is. Brotli is not here: no
# library for it is among the worker's dependencies.
CONTENT_CODINGS: Final = ("gzip", "x-gzip", "deflate")


class ContentCodingError(ValueError):
    """A body's content coding cannot be undone; the subclass says why."""


class UnsupportedCodingError(ContentCodingError):
    """The coding is none of CONTENT_CODINGS."""


class BodyTooLargeError(ContentCodingError):
    """The body decompresses to more than the limit (a decompression bomb, say)."""


class TruncatedBodyError(ContentCodingError):
    """The compressed data ends before its end of stream: the body was cut short."""


class CorruptBodyError(ContentCodingError):
    """The body is not data of the coding it is said to have."""


def decode_content_encoding(body: bytes, coding: str | None, limit: int) -> bytes:
    """`body` with its content coding undone; at most `limit` bytes come out. Decompression
    stops one byte past the limit, so a decompression bomb costs no more than that."""
    name = (coding or "").strip().lower()
    if name in ("", "identity"):
        return body
    if name not in CONTENT_CODINGS:
        raise UnsupportedCodingError(
            f"content_encoding {coding!r} is not supported "
            f"(decoded: {', '.join(CONTENT_CODINGS)}, or none)"
        )
    if name == "deflate":
        # HTTP's "deflate" is zlib-wrapped, though some servers send it raw.
        wbits = -zlib.MAX_WBITS if body[:1] and (body[0] & 0x0F) != 8 else zlib.MAX_WBITS
    else:
        wbits = 16 + zlib.MAX_WBITS
    decompressor = zlib.decompressobj(wbits)
    try:
        out = decompressor.decompress(body, limit + 1)
    except zlib.error as error:
        raise CorruptBodyError(f"body is not valid {name} data: {error}") from None
    if len(out) > limit or decompressor.unconsumed_tail:
        raise BodyTooLargeError(f"body decompresses ({name}) to over the limit of {limit} bytes")
    if not decompressor.eof:
        raise TruncatedBodyError(f"body is truncated {name} data (no end of stream)")
    return out
