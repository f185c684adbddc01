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
where it matters where a word begins (sup, sub), is the same pass noting
where each word begins (the runs of the four scripts are asked of the
segmenter).
"""

from __future__ import annotations

import unicodedata
from bisect import bisect_right
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
# neighbours.
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
# The ranges' first and last code points, for a binary search (char_class asks once
# per code point and process, but a page in a script not met before asks for each of
# its characters). Made by a comprehension, not written out: mypyc builds a literal
# Final tuple again wherever it is read.
_CJK_FIRSTS: Final = tuple(lo for lo, _ in _CJK_RANGES)
_CJK_LASTS: Final = tuple(hi for _, hi in _CJK_RANGES)


def is_cjk(code: int) -> bool:
    """True for a character that counts as one word by itself."""
    index = bisect_right(_CJK_FIRSTS, code) - 1
    return index >= 0 and code <= _CJK_LASTS[index]


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


def word_starts(text: str) -> list[int]:
    """The offset of the first character of every word in `text`, ascending (the first
    character of its run: joiners and glue before its first letter included).

    Where count_ended counts, this locates: the same pass over the characters
    (blockdensity._text); the runs of the four scripts are then asked of the
    segmenter. Used only for the rare blocks where it matters where a word begins
    (sup, sub).
    """
    runs: list[int] = []
    starts = _text.word_starts(text, runs)
    if runs:
        return sorted(starts + wordbreak.run_word_starts(text, runs))
    return starts
