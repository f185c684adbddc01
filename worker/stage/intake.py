"""The checks at the door: what a message must be before its page reaches the fit.

Each check raises RefusedError with the outcome it earns (the dead letter's
reason) and a text saying what was wrong and where, as msgspec's errors do.
Cheap checks first, and nothing here parses HTML:

1. the body's size, before anything else reads it (`too_large`);
2. the AMQP content_encoding: gzip and deflate are decoded (worker.content),
   with the body limit applied to what comes out, so that a decompression
   bomb is `too_large` after at most the limit's worth of work; any other
   coding, or a body that is not what its coding says, is `invalid`, named;
3. the FetchedPage's fields (worker.schemas): `invalid`;
4. the URL: absolute http(s), no control characters, bounded (`invalid`);
5. the HTTP content type and the body's first bytes: a body that is not text
   (`not_html`), whatever it was declared as (rule below);
6. the HTTP status: only the configured statuses are fitted (`status`).
"""

from __future__ import annotations

import re
from typing import Any, Final, NamedTuple, Union
from urllib.parse import urlsplit

import msgspec

from blockdensity.decode import resolve_label
from worker.config import StageSettings, describe_statuses
from worker.content import (
    BodyTooLargeError,
    ContentCodingError,
    UnsupportedCodingError,
    decode_content_encoding,
    is_html,
)
from worker.schemas import Encoding, FetchedPage, InvalidMessageError, decode_page, encoding_for
from worker.stage.outcome import Outcome

__all__ = [
    "Admitted",
    "PageHead",
    "RefusedError",
    "admit",
    "binary_kind",
    "check_status",
    "check_url",
]


def admit(
    body: bytes,
    *,
    content_type: str | None,
    content_encoding: str | None,
    settings: StageSettings,
) -> Admitted:
    """The message's encoding, page and body, once every check has passed; else RefusedError."""
    limit = settings.max_body_bytes
    if len(body) > limit:
        raise RefusedError(
            Outcome.TOO_LARGE,
            f"message body of {len(body)} bytes is over the limit of {limit} "
            "(BLOCKDENSITY_MAX_BODY_BYTES)",
        )
    try:
        body = decode_content_encoding(body, content_encoding, limit)
    except BodyTooLargeError as error:
        raise RefusedError(
            Outcome.TOO_LARGE, f"message {error} (BLOCKDENSITY_MAX_BODY_BYTES)"
        ) from None
    except UnsupportedCodingError as error:
        raise RefusedError(Outcome.INVALID, f"AMQP {error}") from None
    except ContentCodingError as error:
        raise RefusedError(Outcome.INVALID, f"message {error}") from None
    try:
        encoding = encoding_for(content_type)
    except InvalidMessageError as error:
        raise RefusedError(Outcome.INVALID, str(error)) from None
    if encoding is Encoding.MSGPACK:
        head = _msgpack_head(body)
        if head is not None:
            return _admit_head(head, body, settings)
    try:
        page = decode_page(body, encoding)
    except InvalidMessageError as error:
        raise RefusedError(Outcome.INVALID, str(error)) from None
    _check_page(page.url, page.content_type, page.body, page.charset, page.status, settings)
    return Admitted(encoding, page, body)


def _check_page(  # noqa: PLR0913, PLR0917 - a page's fields, from a FetchedPage or a head
    url: str,
    content_type: str | None,
    html: bytes | str,
    charset: str | None,
    status: int,
    settings: StageSettings,
) -> None:
    """The checks after decoding, in this order, whichever decode gave the fields."""
    check_url(url, settings.max_url_bytes)
    if not is_html(content_type):
        raise RefusedError(
            Outcome.NOT_HTML, f"HTTP content type {content_type!r} of {url} is not HTML"
        )
    kind = binary_kind(html, charset)
    if kind is not None:
        raise RefusedError(Outcome.NOT_HTML, f"the body of {url} is {kind}, not HTML - at $.body")
    check_status(status, settings.fit_statuses)


class PageHead(NamedTuple):
    """What the stage reads of an admitted MessagePack page besides its body's checks."""

    url: str
    fetch_id: str | None
    body: memoryview  # the HTML's bytes, a view into the message body (not copied)


class Admitted(NamedTuple):
    """A message that passed every check."""

    encoding: Encoding
    page: FetchedPage[Any] | PageHead
    body: bytes  # the message body with its content coding undone: what the fit process decodes


# --- MessagePack pages without their body decoded ------------------------------------
#
# A FetchedPage decoded in full copies the HTML into a bytes object (most of
# admit's work: the page is 140 KB on average). The checks read only its
# first bytes, and the fit process decodes the message again anyway, so a
# MessagePack page is decoded first with its body left as msgspec.Raw, a
# view into the message: FetchedPage's own field types (so the same
# validation), each optional one UNSET when absent. Anything unusual goes to
# the full decode, whose result and errors are the ones every refusal is
# worded by: a decode or validation error of any kind; a body that is not a
# MessagePack bin; a map with more entries than the fields found (an unknown
# field, or one given twice, where a full decode may see what Raw does not).

_BIN_HEADERS: Final = {0xC4: 2, 0xC5: 3, 0xC6: 5}  # bin 8, 16, 32: header size


def _head_struct() -> type[msgspec.Struct]:
    fields: list[tuple[str, Any, Any]] = []
    for info in msgspec.structs.fields(FetchedPage[bytes]):
        if info.name == "body":
            fields.append((info.name, msgspec.Raw, msgspec.NODEFAULT))
        elif info.required:
            fields.append((info.name, info.type, msgspec.NODEFAULT))
        else:
            fields.append((info.name, Union[info.type, msgspec.UnsetType], msgspec.UNSET))  # noqa: UP007 - a type built at run time
    return msgspec.defstruct("FetchedPageHead", fields, kw_only=True, frozen=True)


_HEAD: Final = _head_struct()
_HEAD_DECODER: Final = msgspec.msgpack.Decoder(_HEAD)
_HEAD_FIELDS: Final = _HEAD.__struct_fields__
_HEAD_DEFAULTS: Final = {
    info.name: info.default
    for info in msgspec.structs.fields(FetchedPage[bytes])
    if not info.required
}


def _msgpack_head(body: bytes) -> Any | None:
    """The page's fields with its body undecoded, or None: decode it in full instead."""
    try:
        head: Any = _HEAD_DECODER.decode(body)
    except Exception:  # noqa: BLE001 - any doubt: the full decode says what is wrong
        return None
    first = body[0]
    if 0x80 <= first <= 0x8F:  # fixmap
        entries = first & 0x0F
    elif first == 0xDE:  # map 16
        entries = int.from_bytes(body[1:3], "big")
    elif first == 0xDF:  # map 32
        entries = int.from_bytes(body[1:5], "big")
    else:
        return None
    present = sum(getattr(head, name) is not msgspec.UNSET for name in _HEAD_FIELDS)
    if present != entries:
        return None
    raw = memoryview(head.body)
    header = _BIN_HEADERS.get(raw[0]) if raw.nbytes else None
    if header is None or raw.nbytes != header + int.from_bytes(raw[1:header], "big"):
        return None
    return head


def _field(head: Any, name: str) -> Any:
    value = getattr(head, name)
    return _HEAD_DEFAULTS[name] if value is msgspec.UNSET else value


def _admit_head(head: Any, body: bytes, settings: StageSettings) -> Admitted:
    """A page decoded by `_msgpack_head` through the same checks as a FetchedPage (its
    HTML's first bytes are all binary_kind reads)."""
    url: str = head.url
    raw = memoryview(head.body)
    html = raw[_BIN_HEADERS[raw[0]] :]
    sample = bytes(html[:_SAMPLE])
    _check_page(
        url,
        _field(head, "content_type"),
        sample,
        _field(head, "charset"),
        _field(head, "status"),
        settings,
    )
    return Admitted(Encoding.MSGPACK, PageHead(url, _field(head, "fetch_id"), html), body)


class RefusedError(ValueError):
    """The message is refused at the door; `outcome` is the dead letter's reason."""

    def __init__(self, outcome: Outcome, message: str) -> None:
        super().__init__(message)
        self.outcome = outcome


# --- the URL --------------------------------------------------------------------


def check_url(url: str, max_bytes: int) -> None:
    """An absolute http or https URL without control characters, of at most `max_bytes`."""
    size = len(url.encode("utf-8", "surrogatepass"))
    if size > max_bytes:
        raise RefusedError(
            Outcome.INVALID,
            f"url of {size} bytes is over the limit of {max_bytes} "
            f"(BLOCKDENSITY_MAX_URL_BYTES) - at $.url",
        )
    control = _URL_CONTROL.search(url)  # one C-level scan, not a loop per character
    if control is not None:
        raise RefusedError(
            Outcome.INVALID,
            f"url has the control character {control[0]!r} at position {control.start()} "
            "- at $.url",
        )
    try:
        parts = urlsplit(url)
    except ValueError as error:  # e.g. a malformed IPv6 host
        raise RefusedError(Outcome.INVALID, f"url cannot be parsed: {error} - at $.url") from None
    if parts.scheme.lower() not in ("http", "https") or not parts.netloc:
        raise RefusedError(
            Outcome.INVALID,
            f"url {_shown(url)} is not an absolute http or https URL - at $.url",
        )


_URL_CONTROL: Final = re.compile("[\x00-\x1f\x7f]")


def _shown(text: str, limit: int = 200) -> str:
    return repr(text if len(text) <= limit else text[:limit] + "...")


# --- binary bodies ----------------------------------------------------------------

# Signatures of what crawlers most often fetch that is not HTML, at the very
# start of the body (WHATWG MIME Sniffing's table, the common part).
_SIGNATURES: Final = (
    (b"%PDF-", "PDF"),
    (b"PK\x03\x04", "ZIP (or an Office document)"),
    (b"\x1f\x8b\x08", "gzip"),
    (b"\x89PNG\r\n\x1a\n", "PNG"),
    (b"\xff\xd8\xff", "JPEG"),
    (b"GIF87a", "GIF"),
    (b"GIF89a", "GIF"),
    (b"\x00\x00\x01\x00", "ICO"),
    (b"OggS\x00", "Ogg"),
    (b"ID3", "MP3"),
    (b"\x1aE\xdf\xa3", "WebM/Matroska"),
    (b"Rar!\x1a\x07", "RAR"),
    (b"7z\xbc\xaf\x27\x1c", "7-Zip"),
    (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "OLE (an old Office document)"),
    (b"wOFF", "WOFF font"),
    (b"wOF2", "WOFF2 font"),
    (b"\x00asm", "WebAssembly"),
)
_RIFF_KINDS: Final = {b"WEBP": "WebP", b"WAVE": "WAV", b"AVI ": "AVI"}
_SAMPLE: Final = 1024
# Bytes no text has: C0 controls but tab, LF, FF, CR and ESC (ISO-2022 uses
# ESC), and NUL. Text decoded as a browser would may hold a few; a binary
# file holds many. The share is over the first _SAMPLE bytes.
_CONTROL_BYTES: Final = bytes(b for b in range(32) if b not in (9, 10, 12, 13, 27))
_MAX_CONTROL_SHARE: Final = 0.05
_UTF16_BOMS: Final = (b"\xff\xfe", b"\xfe\xff")
# The codecs of the WHATWG encodings whose text is half NUL bytes (the labels
# utf-16, utf-16le, unicode, ucs-2, ... resolve to these two).
_UTF16_CODECS: Final = {"utf-16le": "utf-16-le", "utf-16be": "utf-16-be"}
_CONTROL_CHARACTERS: Final = dict.fromkeys(_CONTROL_BYTES)


def binary_kind(body: bytes | str, charset: str | None = None) -> str | None:
    """What kind of non-text `body` is (e.g. "PDF"), or None when it may be HTML.

    The rule: a known file signature at the start, or more than 5% of the
    first 1,024 bytes being NUL or C0 control characters other than tab,
    line feed, form feed, carriage return and escape. UTF-16 text is half
    NUL bytes: with a byte order mark it is text; declared UTF-16 by HTTP
    (`charset`, as the decoder reads it), its first 1,024 bytes are decoded
    as declared and the rule counts control characters instead.
    """
    if isinstance(body, str):
        head = body[:_SAMPLE].encode("utf-8", "surrogatepass")[:_SAMPLE]
    else:
        head = body[:_SAMPLE]
    for signature, kind in _SIGNATURES:
        if head.startswith(signature):
            return kind
    if head.startswith(b"RIFF") and head[8:12] in _RIFF_KINDS:
        return _RIFF_KINDS[head[8:12]]
    if not head or head.startswith(_UTF16_BOMS):
        return None
    codec = _UTF16_CODECS.get(resolve_label(charset) or "") if charset else None
    if codec is not None and isinstance(body, bytes):
        text = head.decode(codec, "replace")
        controls, length = len(text) - len(text.translate(_CONTROL_CHARACTERS)), len(text)
        units = f"characters, read as {charset}, are control characters"
    else:
        controls, length = len(head) - len(head.translate(None, _CONTROL_BYTES)), len(head)
        units = "bytes are control bytes"
    if controls > _MAX_CONTROL_SHARE * length:
        return f"binary data ({controls} of its first {length} {units})"
    return None


# --- the HTTP status ----------------------------------------------------------------


def check_status(status: int, fitted: frozenset[int]) -> None:
    if status not in fitted:
        raise RefusedError(
            Outcome.STATUS,
            f"HTTP status {status} is not one the worker fits "
            f"(BLOCKDENSITY_FIT_STATUSES={describe_statuses(fitted)}) - at $.status",
        )
