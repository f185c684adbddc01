"""Words of the scripts written without spaces (Thai, Lao, Khmer, Myanmar): ICU's word break.

docs/spec.md section 3: a run of these scripts' letters and marks counts as the
number of words that ICU's dictionary-based word break iterator finds in it.
This module is the one importer of icu4py (ICU4C's bindings, ICU and its
dictionaries in the wheel). It is asked only about such runs, which the word
counter finds on its pass over the text (blockdensity.words): a page without
them never gets here.

A lighter method was measured and rejected (BENCHMARKS.md, "Every page,
every script"): a letters-per-word ratio per script, even fitted to
the text it is scored on, is more than 10% off ICU's count for a third to a
half of the paragraphs, and its ratio moves by up to 20% between kinds of
text.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Iterator
from functools import cache
from operator import itemgetter
from typing import Final, Protocol

__all__ = ["DENSE_RANGES", "count_runs", "is_dense", "run_word_starts"]

# The blocks of the four scripts (Unicode Blocks.txt): Thai, Lao, Myanmar and
# its Extended-A, -B and -C, Khmer and Khmer Symbols. Of these, letters,
# numbers and marks make the runs; their punctuation separates words as any
# other does.
DENSE_RANGES: Final = (
    (0x0E00, 0x0E7F),  # Thai
    (0x0E80, 0x0EFF),  # Lao
    (0x1000, 0x109F),  # Myanmar
    (0x1780, 0x17FF),  # Khmer
    (0x19E0, 0x19FF),  # Khmer Symbols
    (0xA9E0, 0xA9FF),  # Myanmar Extended-B
    (0xAA60, 0xAA7F),  # Myanmar Extended-A
    (0x116D0, 0x116FF),  # Myanmar Extended-C
)

# Between the runs of one call, which are segmented together: a line break is
# always a word boundary in ICU's rules (UAX #29 WB3a, WB3b), so no segment
# spans two runs.
_BETWEEN: Final = "\n"
# ICU's root locale: the dictionary is chosen by the characters' script, not
# by the locale.
_LOCALE: Final = "root"


def is_dense(code: int) -> bool:
    """True for a code point of Thai, Lao, Khmer or Myanmar (the blocks above)."""
    return any(lo <= code <= hi for lo, hi in DENSE_RANGES)


def run_word_starts(text: str, bounds: list[int]) -> list[int]:
    """Where each word of the runs of `text` begins, ascending.

    `bounds` holds each run's start and end offsets in `text`, flattened and
    ascending: [start, end, start, end, ...]. A run begins with a letter or
    number and holds only letters, numbers and marks of the four scripts (the
    word counter's runs), so each of ICU's segments in it holds a letter or a
    number: each is one word. All the runs are segmented in one call.
    """
    runs = [text[bounds[index] : bounds[index + 1]] for index in range(0, len(bounds), 2)]
    segments = _segment_starts(_BETWEEN.join(runs))
    starts: list[int] = []
    offset = low = 0  # where the run begins in the joined text; its first segment
    for run, start in zip(runs, bounds[::2], strict=True):
        end = offset + len(run)
        high = bisect_left(segments, end, low)
        shift = start - offset
        starts += [position + shift for position in segments[low:high]]
        offset = end + len(_BETWEEN)
        low = bisect_left(segments, offset, high)
    return starts


def count_runs(text: str, bounds: list[int]) -> list[int]:
    """The number of words in each run of `text` (`bounds` as for `run_word_starts`).

    The word counter's call, once per page that has runs: one pass of ICU
    over all of them, then a binary search per run.
    """
    runs = [text[bounds[index] : bounds[index + 1]] for index in range(0, len(bounds), 2)]
    segments = _segment_starts(_BETWEEN.join(runs))
    counts: list[int] = []
    offset = low = 0  # where the run begins in the joined text; its first segment
    for run in runs:
        end = offset + len(run)
        high = bisect_left(segments, end, low)
        counts.append(high - low)
        offset = end + len(_BETWEEN)
        low = high + 1  # past the separator's own segment
    return counts


def _segment_starts(text: str) -> list[int]:
    """The offsets where ICU's word break iterator begins a segment in `text`."""
    return list(map(itemgetter(0), _word_breaker()(text, _LOCALE).segments()))


class _Breaker(Protocol):
    def segments(self) -> Iterator[tuple[int, int]]: ...


@cache
def _word_breaker() -> Callable[[str, str], _Breaker]:
    # Imported on first use: a process that never meets these scripts does
    # not load ICU (about 15 ms).
    from icu4py.breakers import WordBreaker  # noqa: PLC0415

    breaker: Callable[[str, str], _Breaker] = WordBreaker
    return breaker
