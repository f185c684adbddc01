"""The word rule and the whitespace collapse written plainly in Python, a character at a time.

blockdensity._text (Cython) is what the fit runs: `count_ended` counts the
words of a batch of texts, `collapse` makes one line of each block.
This is SPEC section 3 and section 1 read literally, for the tests to compare
the compiled passes with (tests/test_text_compiled.py) and to check the
fit's figures by (tests/test_properties.py). Only the script test (Han,
Hiragana, Katakana) is delegated to blockdensity.words.char_class; the rest
is read from the Unicode general category here.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache
from typing import Final

from blockdensity.words import CJK_WORD, END, char_class

__all__ = ["SPEC_GLUE", "collapse", "count_ended", "reference_class", "reference_count"]

SPEC_GLUE: Final = "\"'.,!@-:;$?()/"
# What ends each text of a batch (blockdensity.words.END is a space, then this).
END_MARK: Final = END[-1]


@lru_cache(maxsize=1 << 16)  # the same few hundred characters make most text
def reference_class(char: str) -> str:
    """SPEC section 3 for one character: cjk, letter, mark (word character), glue, or sep."""
    if char in SPEC_GLUE:
        return "glue"
    if char_class(char) == CJK_WORD:
        return "cjk"
    category = unicodedata.category(char)
    if category[0] == "L" or category in ("Nd", "Nl", "No"):
        return "letter"
    if category[0] == "M" or char == "_":
        return "mark"
    return "sep"


def reference_starts(text: str) -> list[int]:
    """Offsets where words begin: runs of letters/marks/glue holding a letter, and CJK chars."""
    starts: list[int] = []
    run_start = -1
    has_letter = False
    for index, char in enumerate(text):
        kind = reference_class(char)
        if kind in ("letter", "mark", "glue"):
            if run_start < 0:
                run_start, has_letter = index, False
            has_letter = has_letter or kind == "letter"
            continue
        if run_start >= 0 and has_letter:
            starts.append(run_start)
        run_start = -1
        if kind == "cjk":
            starts.append(index)
    if run_start >= 0 and has_letter:
        starts.append(run_start)
    return starts


def reference_count(text: str) -> int:
    return len(reference_starts(text))


def count_ended(texts: str) -> list[int]:
    """blockdensity.words.count_ended: the words of each text of a batch, each text ended
    by END (what follows the last one is no text)."""
    return [reference_count(text) for text in texts.split(END_MARK)[:-1]]


def collapse(texts: list[str]) -> str:
    """blockdensity.render's collapse: each text's whitespace runs made one space and its
    ends stripped, one line per text; a text with nothing but whitespace makes no line."""
    lines = [" ".join(text.split()) for text in texts]
    return "\n".join(line for line in lines if line)
