"""The word rule (docs/spec.md section 3): counting only, linear in the input.

A word is a maximal run of word characters (letters, numbers, underscore,
combining marks) and the glue characters ``" ' . , ! @ - : ; $ ? ( ) /`` that
holds at least one letter or number. Every Han, Hiragana or Katakana character
is a word by itself. A run of the letters and marks of Thai, Lao, Khmer or
Myanmar, written without spaces between words, counts as the words ICU's
dictionary word break finds in it (blockdensity.wordbreak); such a run, like a
CJK character, also separates the words beside it. Everything else separates
words.

`char_class` is the rule for one character. The counting is
blockdensity._text (Cython): one pass over the characters, each code point's
class asked of `char_class` once per process and kept in a table (a few ns a
character in any script). `word_starts`, needed only for the rare blocks
where it matters where a word begins (sup, sub), maps the text to a string
of class stand-ins and finds the words with one regular expression (the
runs of the four scripts are located apart, their words asked of the
segmenter).
"""

from __future__ import annotations

import codecs
import re
import unicodedata
from typing import Final

from blockdensity import _text, wordbreak
from blockdensity.wordbreak import is_dense

__all__ = [
    "CJK_WORD",
    "DENSE_LETTER",
    "DENSE_MARK",
    "END",
    "GLUE",
    "JOINER",
    "LETTER",
    "SEPARATOR",
    "char_class",
    "count_ended",
    "count_many",
    "count_words",
    "is_cjk",
    "is_dense",
    "word_starts",
]

GLUE: Final = "\"'.,!@-:;$?()/"

# The class of one character, as the ASCII text that stands for it.
LETTER: Final = "a"  # letters and numbers (L*, N*): word characters that make a run a word
JOINER: Final = "_"  # underscore and combining marks (M*): word characters, not letters
SEPARATOR: Final = " "
CJK_WORD: Final = " a "  # a word by itself, and a separator for its neighbours
# Thai, Lao, Khmer and Myanmar (blockdensity.wordbreak): a letter or number
# begins a run, a mark continues one (outside a run it is a JOINER), and each
# run counts as the words the segmenter finds in it and separates its
# neighbours. No ASCII character stands for them: word_starts locates the
# runs apart, and reads a mark outside one as a JOINER.
DENSE_LETTER: Final = "<dense letter>"
DENSE_MARK: Final = "<dense mark>"

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


# A run of Thai, Lao, Khmer or Myanmar: a letter or number, then letters,
# numbers and marks (possessive: linear on any input).
_DENSE_LETTERS: Final = "".join(
    re.escape(chr(code))
    for lo, hi in wordbreak.DENSE_RANGES
    for code in range(lo, hi + 1)
    if unicodedata.category(chr(code))[0] in "LN"
)
_DENSE_MARKS: Final = "".join(
    re.escape(chr(code))
    for lo, hi in wordbreak.DENSE_RANGES
    for code in range(lo, hi + 1)
    if unicodedata.category(chr(code))[0] == "M"
)
_DENSE_LETTER_CHAR: Final = re.compile(f"[{_DENSE_LETTERS}]")
_DENSE_RUN: Final = re.compile(f"[{_DENSE_LETTERS}][{_DENSE_LETTERS}{_DENSE_MARKS}]*+")


def is_cjk(code: int) -> bool:
    """True for a character that counts as one word by itself."""
    return any(lo <= code <= hi for lo, hi in _CJK_RANGES)


def char_class(char: str) -> str:
    """The class of one character: LETTER, JOINER, SEPARATOR, CJK_WORD, DENSE_LETTER,
    DENSE_MARK, or itself if glue."""
    if char in GLUE:
        return char
    if is_cjk(ord(char)):
        return CJK_WORD
    category = unicodedata.category(char)
    if category[0] in "LN":
        return DENSE_LETTER if is_dense(ord(char)) else LETTER
    if category[0] == "M":
        return DENSE_MARK if is_dense(ord(char)) else JOINER
    if char == "_":
        return JOINER
    return SEPARATOR


class _PositionCache(dict[int, str]):
    """Code point -> the ASCII stand-in of its class, one character for one (offsets
    survive; CJK and the runs of the four scripts are located apart), filled on
    first sight.

    ASCII characters map to themselves: their class is what the regular
    expression of `word_starts` reads. Bounded, so a page of every Unicode
    character cannot grow it without limit.
    """

    limit: Final = 1 << 16

    def __missing__(self, code: int) -> str:
        value = char_class(chr(code))
        if value in (CJK_WORD, DENSE_LETTER):
            value = SEPARATOR
        elif value == DENSE_MARK:  # outside a run (a run is blanked whole)
            value = JOINER
        if len(self) < self.limit:
            self[code] = value
        return value


_POSITION_CLASSES: Final = _PositionCache((code, chr(code)) for code in range(128))


def _position_handler(error: UnicodeError) -> tuple[str, int]:
    if not isinstance(error, UnicodeEncodeError):
        raise error
    run = error.object[error.start : error.end]
    return run.translate(_POSITION_CLASSES), error.end


codecs.register_error("blockdensity.position", _position_handler)

# Ends each text in a batch: the space ends the text's last word, the NUL
# (which no text holds) ends the text.
END: Final = " \x00"
END_MARK: Final = "\x00"  # the character in END that splits a batch


def count_words(text: str) -> int:
    """The number of words in `text` under the docs/spec.md section 3 rule."""
    return count_many([text])[0]


def count_many(texts: list[str]) -> list[int]:
    """The number of words in each of `texts`."""
    # NUL separates words like any control character; here it must not also
    # end a text, so it is spelled as the space it amounts to.
    return count_ended("".join([text.replace(END_MARK, " ") + END for text in texts]))


def count_ended(texts: str) -> list[int]:
    """The number of words in each part of `texts`, a run of texts each ended by END."""
    return _text.count_ended(texts)


_text.configure(
    char_class,
    LETTER,
    JOINER,
    SEPARATOR,
    CJK_WORD,
    GLUE,
    DENSE_LETTER,
    DENSE_MARK,
    wordbreak.count_runs,
)

_GLUE_CLASS: Final = re.escape(GLUE)
_RUN: Final = re.compile(rf"[_{_GLUE_CLASS}]*+([A-Za-z0-9])[\w{_GLUE_CLASS}]*+|[_{_GLUE_CLASS}]++")


def word_starts(text: str) -> list[int]:
    """The offset of the first character of every word in `text`, ascending.

    Slower than `count_words` (a regular expression over the class text); used
    only for the rare blocks where it matters where a word begins (sup, sub).
    """
    if text.isascii():
        classes = text
        apart: list[int] = []  # the words located apart from the class text
    else:
        classes = text.encode("ascii", "blockdensity.position").decode("ascii")
        apart = [match.start() for match in _CJK_CHAR.finditer(text)]
        if _DENSE_LETTER_CHAR.search(text) is not None:
            # The runs' words are the segmenter's; in the class text a whole
            # run, marks included, is a separator.
            bounds: list[int] = []
            pieces: list[str] = []
            for run in _DENSE_RUN.finditer(text):
                pieces += (classes[bounds[-1] if bounds else 0 : run.start()], " " * len(run[0]))
                bounds += (run.start(), run.end())
            classes = "".join([*pieces, classes[bounds[-1] :]])
            apart += wordbreak.run_word_starts(text, bounds)
    starts = [match.start() for match in _RUN.finditer(classes) if match.group(1)]
    return sorted(starts + apart) if apart else starts
