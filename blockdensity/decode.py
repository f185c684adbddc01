"""Bytes to text as a browser would (docs/spec.md section 7): never an exception.

The WHATWG Encoding Standard decides, step by step: a byte order mark; then
the charset the caller passes (from the HTTP Content-Type); then the page's
own declaration, found by the standard's prescan of the first 1024 bytes;
then UTF-8 when the bytes are valid UTF-8; then a detector; then
windows-1252. Bytes the chosen encoding cannot decode become U+FFFD.

Labels are resolved with the standard's label table (webencodings), so a
label browsers ignore ("rot13", "idna", "utf-32") is ignored here too and
"latin1" means windows-1252, as on the web. Detection is faust-cchardet
(uchardet, descended from Mozilla's detector). This module is the only
importer of both.
"""

from __future__ import annotations

import re
from typing import Final, NamedTuple

import cchardet
import webencodings

__all__ = ["Source", "decode", "decode_html", "prepare_html", "resolve_label"]

# The detector reads at most this much: enough text to be sure, bounded time
# on a hostile 20 MB page.
_DETECT_LIMIT: Final = 1 << 20
# What browsers fall back to when nothing else decides.
_LAST_RESORT: Final = "windows-1252"
# How far the prescan looks (WHATWG: "prescan a byte stream", 1024 bytes).
_PRESCAN_LIMIT: Final = 1024
_BOMS: Final = ((b"\xef\xbb\xbf", "utf-8"), (b"\xfe\xff", "utf-16be"), (b"\xff\xfe", "utf-16le"))
# The WHATWG decoders of these labels differ from Python's codec of the same
# name; these Python codecs decode as the standard says.
_CODECS: Final = {"gbk": "gb18030", "x-user-defined": "cp1252"}


class Source(NamedTuple):
    """The decode stage's result: the page's markup as the parser reads it."""

    markup: str | bytes  # text, or UTF-8 bytes (which the parser reads as they are)
    encoding: str | None  # what bytes were decoded as (WHATWG name); None when given text


def decode(html: str | bytes, charset: str | None = None) -> Source:
    """The page as the parser reads it: bytes decoded as a browser would (`charset` is the
    HTTP header's, if any), or the text as given."""
    if isinstance(html, bytes):
        markup, encoding = prepare_html(html, charset)
        return Source(markup, encoding)
    return Source(html, None)


def decode_html(data: bytes, charset: str | None = None) -> tuple[str, str]:
    """Decode a page's raw bytes; return the text and the encoding used (its WHATWG name)."""
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
    for bom, bom_encoding in _BOMS:
        if data.startswith(bom):
            return _decode(data[len(bom) :], bom_encoding)
    name = resolve_label(charset) if charset else None
    if name is None:
        name = _prescan(data[:_PRESCAN_LIMIT])
        # A page cannot declare itself UTF-16 from inside (its <meta> was
        # readable as ASCII), and x-user-defined is read as windows-1252.
        if name in ("utf-16be", "utf-16le"):
            name = "utf-8"
        elif name == "x-user-defined":
            name = "windows-1252"
    if name is None:
        if data.isascii():
            return data, "utf-8"
        try:
            data.decode("utf-8")
        except UnicodeDecodeError:
            name = _detect(data) or _LAST_RESORT
        else:
            return data, "utf-8"
    return _decode(data, name)


def resolve_label(label: str) -> str | None:
    """The WHATWG name of the encoding `label` stands for, or None if browsers ignore it."""
    encoding = webencodings.lookup(label.strip().strip("\"'"))
    return None if encoding is None else str(encoding.name)


def _decode(data: bytes, name: str) -> tuple[str | bytes, str]:
    if name == "utf-8":
        return data, name
    if name == "replacement":
        # Encodings that can smuggle markup past a filter (ISO-2022-KR, ...):
        # the standard decodes all of it to a single U+FFFD.
        return ("\ufffd" if data else ""), name
    encoding = webencodings.lookup(name)
    codec = _CODECS.get(name) or (encoding.codec_info.name if encoding is not None else "cp1252")
    if codec == "cp1252":
        return _decode_windows_1252(data), name
    try:
        return data.decode(codec, "replace"), name
    except (LookupError, UnicodeError):  # a codec that cannot take "replace"
        return _decode_windows_1252(data), _LAST_RESORT


# Python's cp1252 leaves five bytes undefined that the WHATWG index maps to
# the C1 controls of the same number; surrogateescape marks them, this maps.
_WHATWG_1252: Final = {0xDC00 + byte: byte for byte in (0x81, 0x8D, 0x8F, 0x90, 0x9D)}


def _decode_windows_1252(data: bytes) -> str:
    """windows-1252 as the WHATWG Encoding Standard defines it: every byte decodes."""
    try:
        return data.decode("cp1252")
    except UnicodeDecodeError:
        return data.decode("cp1252", "surrogateescape").translate(_WHATWG_1252)


def _detect(data: bytes) -> str | None:
    guess = cchardet.detect(data[:_DETECT_LIMIT]).get("encoding")
    name = resolve_label(guess) if isinstance(guess, str) and guess else None
    # A detector that says ASCII on bytes that are not means "mostly ASCII":
    # the browser default reads the rest best.
    return None if name in (None, "utf-8") else name


# The prescan (WHATWG HTML, "prescan a byte stream to determine its
# encoding"), on the first 1024 bytes read as Latin-1 so that every byte is
# one character: comments are skipped, other tags are stepped over, and the
# first <meta> that declares an encoding the standard knows wins.
_PRESCAN_TOKEN: Final = re.compile(
    r"""<!--.*?(?:-->|\Z)
      | <meta[\s/](?P<meta>(?:[^>"']|"[^"]*(?:"|\Z)|'[^']*(?:'|\Z))*)
      | </?[a-zA-Z](?:[^>"']|"[^"]*(?:"|\Z)|'[^']*(?:'|\Z))*
      | <[!/?][^>]*""",
    re.DOTALL | re.IGNORECASE | re.VERBOSE,
)
_ATTRIBUTE: Final = re.compile(
    r"""(?P<name>[^\s/>="'][^\s/>=]*)\s*(?:=\s*(?:"(?P<q1>[^"]*)"?|'(?P<q2>[^']*)'?|(?P<bare>[^\s>]*)))?""",
    re.VERBOSE,
)
_CONTENT_CHARSET: Final = re.compile(
    r"""charset\s*=\s*(?:"(?P<q1>[^"]*)"|'(?P<q2>[^']*)'|(?P<bare>[^\s;"']+))""", re.IGNORECASE
)


def _prescan(head: bytes) -> str | None:
    text = head.decode("latin-1")
    for token in _PRESCAN_TOKEN.finditer(text):
        attributes = token.group("meta")
        if attributes is None:
            continue
        name = _meta_encoding(attributes)
        if name is not None:
            return name
    return None


def _meta_encoding(attributes: str) -> str | None:
    """The encoding a <meta> element's attributes declare, per the prescan's rules."""
    seen: set[str] = set()
    pragma = False
    charset: str | None = None
    need_pragma: bool | None = None
    for match in _ATTRIBUTE.finditer(attributes):
        name = match.group("name").lower()
        if name in seen:
            continue
        seen.add(name)
        value = match.group("q1") or match.group("q2") or match.group("bare") or ""
        if name == "http-equiv":
            pragma = value.strip().lower() == "content-type"
        elif name == "content" and charset is None:
            found = _CONTENT_CHARSET.search(value)
            label = found and (found.group("q1") or found.group("q2") or found.group("bare"))
            if label and (charset := resolve_label(label)) is not None:
                need_pragma = True
        elif name == "charset" and charset is None:
            charset = resolve_label(value)
            if charset is None:  # a label browsers do not know: this <meta> says nothing
                return None
            need_pragma = False
    if need_pragma is None or (need_pragma and not pragma):
        return None
    return charset
