"""The word rule and the whitespace collapse written plainly in Python, a character at a time.

blockdensity._text (Cython) is what the fit runs: `count_ended` counts the
words of a batch of texts, `collapse` makes one line of each block.
This is docs/spec.md section 3 and section 1 read literally, for the tests to compare
the compiled passes with (tests/test_text_compiled.py) and to check the
fit's figures by (tests/test_properties.py). Only the script tests (Han,
Hiragana, Katakana; Thai, Lao, Khmer, Myanmar) are delegated to
blockdensity.words.char_class; the rest is read from the Unicode general
category here, and the words of a run of Thai, Lao, Khmer or Myanmar are
asked of ICU's word break directly (icu4py), one run at a time.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import Final

from icu4py.breakers import WordBreaker

from blockdensity.words import CJK_WORD, DENSE_LETTER, DENSE_MARK, END, char_class

__all__ = [
    "SPEC_GLUE",
    "collapse",
    "count_ended",
    "date_stretches",
    "occurrences",
    "parts_at",
    "reference_class",
    "reference_count",
    "starts_of",
]

SPEC_GLUE: Final = "\"'.,!@-:;$?()/"
# What ends each text of a batch (blockdensity.words.END is a space, then this).
END_MARK: Final = END[-1]


@lru_cache(maxsize=1 << 16)  # the same few hundred characters make most text
def reference_class(char: str) -> str:
    """docs/spec.md section 3 for one character: cjk, dense (a letter or number of Thai, Lao,
    Khmer, Myanmar), dense_mark, letter, mark (word character), glue, or sep."""
    if char in SPEC_GLUE:
        return "glue"
    if char_class(char) == CJK_WORD:
        return "cjk"
    if char_class(char) in (DENSE_LETTER, DENSE_MARK):
        return "dense" if unicodedata.category(char)[0] in "LN" else "dense_mark"
    category = unicodedata.category(char)
    if category[0] == "L" or category in ("Nd", "Nl", "No"):
        return "letter"
    if category[0] == "M" or char == "_":
        return "mark"
    return "sep"


def icu_run_starts(run: str, offset: int) -> list[int]:
    """Where ICU's word break iterator begins the segments of a run of the dense scripts
    (each holds a letter or number: a run begins with one and holds no other kind)."""
    return [offset + start for start, _ in WordBreaker(run, "root").segments()]


def reference_starts(text: str) -> list[int]:  # noqa: C901 - one branch per kind SPEC names
    """Offsets where words begin: runs of letters/marks/glue holding a letter, CJK chars,
    and ICU's segments of each run of the dense scripts (a letter, then letters and marks)."""
    starts: list[int] = []
    run_start = -1
    has_letter = False
    dense_start = -1
    for index, char in enumerate(text):
        kind = reference_class(char)
        if dense_start >= 0 and kind not in ("dense", "dense_mark"):
            starts += icu_run_starts(text[dense_start:index], dense_start)
            dense_start = -1
        if kind == "dense_mark" and dense_start < 0:
            kind = "mark"  # outside a run, a mark like any other
        if kind in ("dense", "dense_mark"):
            if dense_start < 0:
                if run_start >= 0 and has_letter:
                    starts.append(run_start)
                run_start = -1
                dense_start = index
            continue
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
    if dense_start >= 0:
        starts += icu_run_starts(text[dense_start:], dense_start)
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


def date_stretches(text: str, shortest: int, dated: bool = False) -> list[int]:
    """blockdensity._text.date_stretches: [start, end, ...] of the runs of characters a date
    is written with (\\d and \\s as a str pattern reads them, a-z and ".,/-") that hold a
    digit, each from the word (a dot, whitespace) before its first digit to the two words
    (each after whitespace) after its last, when at least `shortest` long."""
    found: list[int] = []
    for run in re.finditer(r"[\da-z\s.,/-]+", text):
        digits = [digit.start() for digit in re.finditer(r"\d", run[0])]
        if not digits:
            continue
        before = re.search(r"[a-z]*\.?\s*\Z", run[0][: digits[0]])
        after = re.match(r"\s*[a-z]*\s*[a-z]*", run[0][digits[-1] + 1 :])
        assert before is not None
        assert after is not None
        begin = run.start() + before.start()
        end = run.start() + digits[-1] + 1 + after.end()
        if end - begin >= shortest and (
            not dated or re.search(r"ago|\d{4}|\d[./]\d", text[begin:end])
        ):
            found += (begin, end)
    return found


def parts_at(text: str, separator: str, indexes: list[int]) -> list[str]:
    """blockdensity._text.parts_at: the parts of text.split(separator) at `indexes`."""
    parts = text.split(separator)
    return [parts[index] for index in indexes]


def occurrences(text: str, needle: str) -> list[int]:
    """blockdensity._text.occurrences: the starts str.find gives, from 0 and then from the
    needle's length after each start found."""
    found: list[int] = []
    start = text.find(needle)
    while start >= 0:
        found.append(start)
        start = text.find(needle, start + len(needle))
    return found


def starts_of(text: str, needles: tuple[str, ...]) -> list[int]:
    """blockdensity._text.starts_of: where any of `needles` begins, each place once, in order."""
    found: set[int] = set()
    for needle in needles:
        start = text.find(needle)
        while start >= 0:
            found.add(start)
            start = text.find(needle, start + 1)
    return sorted(found)
