"""The word rule (SPEC section 3): counting only, linear in the input.

A word is a maximal run of word characters (letters, numbers, underscore,
combining marks) and the glue characters ``" ' . , ! @ - : ; $ ? ( ) /`` that
holds at least one letter or number. Every Han, Hiragana or Katakana character
is a word by itself. Everything else separates words.

`char_class` is the rule for one character; everything else here is about
applying it fast. Where the package is compiled, `count_ended` is
blockdensity._text: one pass over the characters in C, each code point's
class asked of `char_class` once per process (a few ns a character in any
script). The reference below, which is also the counter of a build without a
compiler, gets near that from Python. Python's regular expressions and
`str.translate` cost 40 to 130 ns per character on non-ASCII text, so it uses
byte-level primitives instead (about 4 ns per character):

* ASCII text is encoded as is, then `bytes.translate` maps letters and digits
  to ``a``, deletes glue and underscore (joining what stands either side),
  and turns everything else into a space: the words are then the runs of
  ``a``, counted with `bytes.count`. A page's blocks go through this in one
  batch.
* A few non-ASCII characters among ASCII ones (curly quotes, accented
  letters) are mapped to an ASCII stand-in of their class by a codec error
  handler, called once per run of non-ASCII characters.
* Text that is mostly non-ASCII (Cyrillic, Greek, Arabic...) would call that
  handler once per word, so it is counted by whitespace tokens instead: a
  token that is all letters, bar glue at its ends, is one word (one C call
  to tell), and only the other tokens go through the handler.
"""

from __future__ import annotations

import codecs
import re
import unicodedata
from collections.abc import Callable
from typing import Final

__all__ = ["END", "GLUE", "char_class", "count_ended", "count_many", "count_words", "word_starts"]

GLUE: Final = "\"'.,!@-:;$?()/"

# The class of one character, as the ASCII text that stands for it.
LETTER: Final = "a"  # letters and numbers (L*, N*): word characters that make a run a word
JOINER: Final = "_"  # underscore and combining marks (M*): word characters, not letters
SEPARATOR: Final = " "
CJK_WORD: Final = " a "  # a word by itself, and a separator for its neighbours

# Han, Hiragana and Katakana (Unicode Scripts.txt), the half-width forms, and
# the prolonged sound marks and iteration mark SPEC names (U+30FC, U+FF70,
# U+3005; the first two are script Common, so listed on their own).
_CJK_RANGES: Final = (
    (0x2E80, 0x2E99), (0x2E9B, 0x2EF3), (0x2F00, 0x2FD5), (0x3005, 0x3005),
    (0x3007, 0x3007), (0x3021, 0x3029), (0x3038, 0x303B), (0x3041, 0x3096),
    (0x309D, 0x309F), (0x30A1, 0x30FA), (0x30FC, 0x30FF), (0x31F0, 0x31FF),
    (0x32D0, 0x32FE), (0x3300, 0x3357), (0x3400, 0x4DBF), (0x4E00, 0x9FFF),
    (0xF900, 0xFA6D), (0xFA70, 0xFAD9), (0xFF66, 0xFF9F), (0x16FE2, 0x16FE3),
    (0x16FF0, 0x16FF1), (0x1AFF0, 0x1B16F), (0x1F200, 0x1F200), (0x20000, 0x2FA1F),
    (0x30000, 0x323AF),
)  # fmt: skip
_CJK_CHAR: Final = re.compile(
    "[" + "".join(f"{re.escape(chr(lo))}-{re.escape(chr(hi))}" for lo, hi in _CJK_RANGES) + "]"
)


def is_cjk(code: int) -> bool:
    """True for a character that counts as one word by itself."""
    return any(lo <= code <= hi for lo, hi in _CJK_RANGES)


def char_class(char: str) -> str:
    """The class of one character: LETTER, JOINER, SEPARATOR, CJK_WORD, or itself if glue."""
    if char in GLUE:
        return char
    if is_cjk(ord(char)):
        return CJK_WORD
    category = unicodedata.category(char)
    if category[0] in "LN":
        return LETTER
    if category[0] == "M" or char == "_":
        return JOINER
    return SEPARATOR


class _ClassCache(dict[int, str]):
    """Code point -> class text for str.translate, filled on first sight.

    ASCII characters map to themselves (their class is applied later, by the
    byte table). Bounded, so a page of every Unicode character cannot grow it
    without limit.
    """

    limit: Final = 1 << 16

    def __missing__(self, code: int) -> str:
        value = self.compute(code)
        if len(self) < self.limit:
            self[code] = value
        return value

    @staticmethod
    def compute(code: int) -> str:
        return char_class(chr(code))


class _PositionCache(_ClassCache):
    """One character in, one out (offsets survive); CJK is located apart."""

    @staticmethod
    def compute(code: int) -> str:
        value = char_class(chr(code))
        return SEPARATOR if value == CJK_WORD else value


_COUNT_CLASSES: Final = _ClassCache((code, chr(code)) for code in range(128))
_POSITION_CLASSES: Final = _PositionCache((code, chr(code)) for code in range(128))


def _count_handler(error: UnicodeError) -> tuple[str, int]:
    if not isinstance(error, UnicodeEncodeError):
        raise error
    run = error.object[error.start : error.end]
    return run.translate(_COUNT_CLASSES), error.end


def _position_handler(error: UnicodeError) -> tuple[str, int]:
    if not isinstance(error, UnicodeEncodeError):
        raise error
    run = error.object[error.start : error.end]
    return run.translate(_POSITION_CLASSES), error.end


codecs.register_error("blockdensity.count", _count_handler)
codecs.register_error("blockdensity.position", _position_handler)

# ASCII (raw, or the stand-ins above) to classes: letters and digits become
# "a"; glue and underscore are deleted, which joins what stands either side
# of them into one run; NUL, the batch separator, stays; the rest separates.
_ASCII_TABLE: Final = bytes(
    ord(LETTER) if chr(byte).isascii() and chr(byte).isalnum() else byte if byte == 0 else 32
    for byte in range(256)
)
_DELETED: Final = (GLUE + JOINER).encode("ascii")


def _codepage_tables(codec: str) -> tuple[bytes, bytes]:
    """The translation for text encoded in a single-byte code page: byte -> class, and deletions."""
    table = bytearray(_ASCII_TABLE)
    deleted = bytearray(_DELETED)
    for byte in range(128, 256):
        try:
            value = char_class(bytes([byte]).decode(codec))
        except UnicodeDecodeError:  # a byte the code page leaves undefined
            continue
        if value == LETTER:
            table[byte] = ord(LETTER)
        elif value == JOINER:
            deleted.append(byte)
    return bytes(table), bytes(deleted)


# Single-byte code pages whose encoders (C tables) map most non-ASCII text
# straight to one byte a character, most used first: Western (curly quotes,
# dashes, accented letters), Central European, Cyrillic, Greek, Turkish,
# Baltic, Hebrew, Arabic, Thai. A character the chosen code page lacks goes
# through the error handler, a run at a time.
_CODEPAGES: Final = {
    codec: _codepage_tables(codec)
    for codec in (
        "cp1252", "cp1250", "cp1251", "cp1253", "cp1254", "cp1257", "cp1255", "cp1256",
        "cp874",
    )
}  # fmt: skip

# Separators in the CJK punctuation and full-width blocks, which dense CJK
# text is full of: mapped to a space up front along with the CJK characters.
_CJK_SEPARATOR: Final = re.compile(
    "["
    + "".join(
        re.escape(chr(code))
        for code in (*range(0x3000, 0x3040), *range(0xFF00, 0xFFF0))
        if char_class(chr(code)) == SEPARATOR
    )
    + "]"
)

_REPLACEMENT: Final = "\ufffd"

# Ends each text in a batch. The space ends the text's last word (the
# translation leaves runs of "a" followed by a space: one per word); the NUL,
# which the translation keeps, splits the batch back into one part per text.
END: Final = " \x00"
_END_BYTE: Final = b"\x00"
END_MARK: Final = "\x00"  # the character in END that splits a batch


def count_words(text: str) -> int:
    """The number of words in `text` under the SPEC section 3 rule."""
    return count_many([text])[0]


def count_many(texts: list[str]) -> list[int]:
    """The number of words in each of `texts`."""
    # NUL separates words like any control character; here it must not also
    # end a text, so it is spelled as the space it amounts to.
    return count_ended("".join([text.replace(END_MARK, " ") + END for text in texts]))


def count_ended(texts: str) -> list[int]:
    """The number of words in each part of `texts`, a run of texts each ended by END."""
    if _compiled_count_ended is not None:
        return _compiled_count_ended(texts)
    return _count_ended_python(texts)


def _count_ended_python(texts: str) -> list[int]:
    # The reference (blockdensity._text is the rule compiled, one pass over
    # the characters), and the counter of a package built without a compiler.
    # One encode, one translate and one split for all of them: a page's blocks
    # are counted at once, not at a few calls per block.
    if texts.isascii():
        return _count_encoded(texts.encode("ascii"), _ASCII_TABLE, _DELETED)
    if _REPLACEMENT in texts:
        # U+FFFD (undecodable bytes) is in no code page; it separates words.
        texts = texts.replace(_REPLACEMENT, SEPARATOR)
    try:  # most Western text: every character in Windows-1252
        data = texts.encode("cp1252")
    except UnicodeEncodeError:
        pass
    else:
        return _count_encoded(data, *_CODEPAGES["cp1252"])
    codec = _fitting_codepage(texts)
    if codec is None:
        # Dense CJK text: each CJK character becomes an ASCII word of its
        # own, the punctuation between them a space; what is left may fit.
        texts, cjk = _CJK_CHAR.subn(CJK_WORD, texts)
        if cjk:
            texts = _CJK_SEPARATOR.sub(SEPARATOR, texts)
            codec = _fitting_codepage(texts)
    if codec is not None:
        table, deleted = _CODEPAGES[codec]
        return _count_encoded(texts.encode(codec, "blockdensity.count"), table, deleted)
    # Dense text no code page covers (Devanagari, mixed scripts...): text by text.
    parts = texts.split(END_MARK)[:-1]
    counts = [0] * len(parts)
    batched: list[int] = []
    for index, text in enumerate(parts):
        if text.isascii() or _fits(text, "cp1252"):
            batched.append(index)
        else:
            counts[index] = _count_by_tokens(text)
    if batched:
        batch = "".join([parts[index] + END for index in batched])
        table, deleted = _CODEPAGES["cp1252"]
        data = batch.encode("cp1252", "blockdensity.count")
        for index, count in zip(batched, _count_encoded(data, table, deleted), strict=True):
            counts[index] = count
    return counts


def _count_encoded(data: bytes, table: bytes, deleted: bytes) -> list[int]:
    # After the translation only runs of "a" are left, each followed by a
    # space (every part ends with one): a part's words are its b"a " pairs.
    return [part.count(b"a ") for part in data.translate(table, deleted).split(_END_BYTE)[:-1]]


def _fitting_codepage(text: str) -> str | None:
    """A code page that encodes all but one character in 64 of `text`, if any.

    Few characters outside it means few error handler calls. Encoding with
    "ignore" counts them without a single Python call.
    """
    for codec in _CODEPAGES:
        if _fits(text, codec):
            return codec
    return None


def _fits(text: str, codec: str) -> bool:
    return (len(text) - len(text.encode(codec, "ignore"))) * 64 <= len(text)


def _count_by_tokens(text: str) -> int:
    text, count = _CJK_CHAR.subn(SEPARATOR, text)  # each CJK character is a word
    others: list[str] = []
    for token in text.split():
        # All letters and numbers, but for glue at the ends: one run, one word.
        if token.isalnum() or token.strip(GLUE).isalnum():
            count += 1
        else:
            others.append(token)
    if others:
        # Mapped a character at a time (no handler call per run): the rest of
        # dense text is mostly punctuation, one or two characters a token.
        classes = "".join([token + END for token in others]).translate(_COUNT_CLASSES)
        count += sum(_count_encoded(classes.encode("ascii"), _ASCII_TABLE, _DELETED))
    return count


# The counter compiled (blockdensity._text): the same rule, read from
# char_class once per code point, applied in one pass whatever the script.
_compiled_count_ended: Callable[[str], list[int]] | None
try:
    from blockdensity._text import configure
    from blockdensity._text import count_ended as _count_ended_c
except ImportError:  # built without a compiler
    _compiled_count_ended = None
else:
    configure(char_class, LETTER, JOINER, SEPARATOR, CJK_WORD, GLUE)
    _compiled_count_ended = _count_ended_c

compiled: Final = _compiled_count_ended is not None

_GLUE_CLASS: Final = re.escape(GLUE)
_RUN: Final = re.compile(rf"[_{_GLUE_CLASS}]*+([A-Za-z0-9])[\w{_GLUE_CLASS}]*+|[_{_GLUE_CLASS}]++")


def word_starts(text: str) -> list[int]:
    """The offset of the first character of every word in `text`, ascending.

    Slower than `count_words` (a regular expression over the class text); used
    only for the rare blocks where it matters where a word begins (sup, sub).
    """
    if text.isascii():
        classes = text
        cjk: list[int] = []
    else:
        classes = text.encode("ascii", "blockdensity.position").decode("ascii")
        cjk = [match.start() for match in _CJK_CHAR.finditer(text)]
    starts = [match.start() for match in _RUN.finditer(classes) if match.group(1)]
    return sorted(starts + cjk) if cjk else starts
