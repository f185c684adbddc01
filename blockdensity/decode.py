"""Bytes to text as a browser would (SPEC section 7): never an exception.

Order: byte order mark, then the charset the caller passes (from the HTTP
Content-Type), then the page's own <meta charset> / http-equiv declaration,
then UTF-8 when the bytes are valid UTF-8, then a detector. Bytes the chosen
encoding cannot decode become U+FFFD.

w3lib (Scrapy's) owns the WHATWG label handling and the meta prescan;
faust-cchardet (uchardet, descended from Mozilla's detector) owns detection.
This module is the only importer of both.
"""

from __future__ import annotations

from typing import Final

import cchardet
from w3lib.encoding import (
    html_body_declared_encoding,
    read_bom,
    resolve_encoding,
    to_unicode,
)

__all__ = ["decode_html", "prepare_html"]

# The detector reads at most this much: enough text to be sure, bounded time
# on a hostile 20 MB page.
_DETECT_LIMIT: Final = 1 << 20
# Windows-1252 is what browsers fall back to when nothing else decides.
_LAST_RESORT: Final = "cp1252"


def decode_html(data: bytes, charset: str | None = None) -> tuple[str, str]:
    """Decode a page's raw bytes; return the text and the encoding used."""
    html, encoding = prepare_html(data, charset)
    if isinstance(html, bytes):
        html = html.decode("utf-8", "replace")
    return html, encoding


def prepare_html(data: bytes, charset: str | None = None) -> tuple[str | bytes, str]:
    """Like `decode_html`, but a UTF-8 page stays bytes (without its BOM).

    The parser reads UTF-8 bytes directly (replacing invalid sequences as a
    browser does), so decoding them to str, which the parser would only
    encode back, is skipped.
    """
    bom_encoding, bom = read_bom(data)
    if bom_encoding == "utf-8" and bom is not None:
        return data[len(bom) :], "utf-8"
    if bom_encoding is not None and bom is not None:
        return to_unicode(data[len(bom) :], bom_encoding), bom_encoding
    encoding = _resolve(charset) if charset else None
    if encoding is None:
        encoding = html_body_declared_encoding(data)
        # WHATWG: a page cannot declare itself UTF-16 from inside; a <meta>
        # that says so is read as UTF-8.
        if encoding is not None and encoding.startswith("utf-16"):
            encoding = "utf-8"
    if encoding is None:
        if data.isascii():
            return data, "utf-8"
        try:
            data.decode("utf-8")
        except UnicodeDecodeError:
            encoding = _detect(data) or _LAST_RESORT
        else:
            return data, "utf-8"
    if encoding == "utf-8":
        return data, encoding
    return to_unicode(data, encoding), encoding


def _resolve(label: str) -> str | None:
    try:
        return resolve_encoding(label.strip().strip("\"'"))
    except (LookupError, ValueError, TypeError):
        return None


def _detect(data: bytes) -> str | None:
    guess = cchardet.detect(data[:_DETECT_LIMIT]).get("encoding")
    if not guess:
        return None
    encoding = _resolve(guess)
    # A detector that says ASCII on undecodable bytes means "mostly ASCII":
    # the browser default reads the rest best.
    if encoding in (None, "ascii"):
        return None
    return encoding
