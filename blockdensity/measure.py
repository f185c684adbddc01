"""The figures of every block of a page: words and link words (docs/spec.md section 3).

Words that begin inside sup or sub are not counted; link words are those that
begin inside an <a>; anchor edges separate words, so a word lies wholly inside
or wholly outside an anchor. The whole page is counted in one batch, sup and
sub text included; then, for the blocks with sup or sub, the words that begin
inside are taken off.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from typing import Final, NamedTuple

from blockdensity.segment import ANCHOR_MARK, BLOCK_END, BREAK_MARK, SUB_CLOSE, SUB_OPEN, Page
from blockdensity.words import (
    DENSE_LETTER,
    DENSE_MARK,
    GLUE,
    JOINER,
    LETTER,
    char_class,
    count_ended,
    count_many,
    word_starts,
)

__all__ = ["Measures", "measure"]

_SPACE: Final = " "


class Measures(NamedTuple):
    """The measure stage's figures: a column per figure, an entry per block in order."""

    words: list[int]  # words (docs/spec.md section 3)
    links: list[int]  # words that begin inside a link


def measure(page: Page) -> Measures:
    """Every block's word count and link word count, in block order."""
    text = page.text
    with_subs = SUB_OPEN in text
    if ANCHOR_MARK in text:
        text = text.replace(ANCHOR_MARK, _SPACE)
    if BREAK_MARK in text:
        text = text.replace(BREAK_MARK, _SPACE)
    if with_subs:
        text = text.replace(SUB_OPEN, "").replace(SUB_CLOSE, "")
    words = count_ended(text)
    links = count_ended(page.linked)
    if with_subs:
        _take_off_subs(page.text.split(BLOCK_END)[:-1], words, links)
    return Measures(words, links)


def _take_off_subs(texts: list[str], words: list[int], links: list[int]) -> None:
    """Subtract the words (and link words) that begin inside sup or sub."""
    # Most sup/sub text stands apart from its neighbours ("word<sup>[1]</sup>"),
    # so the words beginning inside it are just its own words: those pieces of
    # text are counted in one batch. A block where one touches a word outside
    # ("1<sup>st</sup>", "<sup>a</sup>b") is redone word by word.
    pieces: list[str] = []
    owners: list[tuple[int, bool]] = []  # (block index, the piece is link text)
    for index, text in enumerate(texts):
        if SUB_OPEN not in text:
            continue
        found = _apart_pieces(text)
        if found is None:
            words[index], links[index] = _measure_with_subs(text)
            continue
        for piece, linked in found:
            pieces.append(piece)
            owners.append((index, linked))
    if not pieces:
        return
    for (index, linked), count in zip(owners, count_many(pieces), strict=True):
        words[index] -= count
        if linked:
            links[index] -= count


def _is_word_character(char: str) -> bool:
    # Markers separate words, except sup/sub edges, which vanish from the
    # counted text: next to one, the neighbour is unknown, so say "joins".
    if char in (SUB_OPEN, SUB_CLOSE):
        return True
    if char in (ANCHOR_MARK, BREAK_MARK):
        return False
    cls = char_class(char)
    return cls in (LETTER, JOINER, DENSE_LETTER, DENSE_MARK) or cls in GLUE


def _apart_pieces(text: str) -> list[tuple[str, bool]] | None:
    """The sup/sub text of one block cut at link edges, with whether each piece is
    link text; None when some sup/sub text joins a word outside it."""
    pieces: list[tuple[str, bool]] = []
    position = 0
    linked = False  # inside a link at `position`; carried along, so the scan stays linear
    while (start := text.find(SUB_OPEN, position)) >= 0:
        end = text.find(SUB_CLOSE, start)
        if end < 0:
            end = len(text)
        inner = text[start + 1 : end]
        before = text[start - 1] if start else " "
        after = text[end + 1] if end + 1 < len(text) else " "
        if inner and (
            (_is_word_character(before) and _is_word_character(inner[0]))
            or (_is_word_character(inner[-1]) and _is_word_character(after))
        ):
            return None
        if text.count(ANCHOR_MARK, position, start) & 1:
            linked = not linked
        for part in inner.replace(BREAK_MARK, _SPACE).split(ANCHOR_MARK):
            if part:
                pieces.append((part, linked))
            linked = not linked
        linked = not linked  # one flip too many: a link edge follows each part but the last
        position = end + 1
    return pieces


def _measure_with_subs(text: str) -> tuple[int, int]:
    """Words and link words of one block whose text holds sup/sub (and anchor) marks."""
    # Cut the text at every marker, noting where each span of sup/sub and of
    # links begins and ends, in characters of the text without markers.
    clean: list[str] = []
    length = 0
    sub_spans: list[int] = []
    link_spans: list[int] = []
    for part in re.split(f"([{ANCHOR_MARK}{BREAK_MARK}{SUB_OPEN}{SUB_CLOSE}])", text):
        if part == ANCHOR_MARK:
            link_spans.append(length)
            clean.append(_SPACE)
            length += 1
        elif part == BREAK_MARK:
            clean.append(_SPACE)
            length += 1
        elif part in (SUB_OPEN, SUB_CLOSE):
            sub_spans.append(length)
        else:
            clean.append(part)
            length += len(part)
    # bisect_right over flattened [start, end) spans is odd exactly inside one.
    starts = [s for s in word_starts("".join(clean)) if not bisect_right(sub_spans, s) & 1]
    return len(starts), sum(1 for s in starts if bisect_right(link_spans, s) & 1)
