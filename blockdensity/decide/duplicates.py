"""The rule of repeated text: a block the page already showed is not shown again.

Shop, listing, service and forum pages repeat themselves: a carousel's
slides cloned for its loop, a product's feature section rendered once for
the desktop and once for the phone, a banner above and below the grid, a
quoted post. The published tree keeps each copy, and every copy of a text
the ground truth holds once counts against the fit's precision.
duplicate_text drops, among the kept blocks in document order, a block of
at least LONG_WORDS words whose text (whitespace collapsed) a kept block
before it had, and two consecutive kept blocks that repeat two consecutive
kept blocks before them (a cloned slide's heading and line), when the copy
sits in another element than the first (its parent: another slide, the
phone's version of the section). A short block repeated alone is left (a
table's "Yes", a recipe's "Eat every 2-3 hours" are the text's own), and so
is a paragraph repeated within one element: a text that says a thing twice
(a test page's filler) says it so.

An article repeats itself less, and when it does it is most often the
text's own (a disclaimer under each coupon, a credit under each webcam, a
pull quote) or a carousel of testimonials the truth may hold; but some pages
render their whole article two or three times (for the desktop and the
phone, in a print view, in a hidden tab), and the tree keeps every copy.
On an article, and on a page judged as one (decide.kinds), the repeats go
only when they are such a copy: at least 3 in 10 of the kept words, in at
least three different texts. Measured on the four development sets
(BENCHMARKS.md, "Rules by kind of page"); it runs on the kinds of page
decide.kinds gives it.
"""

from __future__ import annotations

from typing import Final

from blockdensity.decide.board import Board
from blockdensity.decide.outcome import KEPT_OUTCOMES, Outcome
from blockdensity.pagetype import PageType

__all__ = ["COPY_SHARE_PARTS", "COPY_TEXTS", "LONG_WORDS", "apply"]

# A kept block of at least this many words is dropped when its text was kept before.
LONG_WORDS: Final = 10
# On an article, repeats go only when they are a copy of the text: at least this share
# of the kept words (3 in 10, as a fraction of ints), in at least this many texts.
COPY_SHARE_PARTS: Final = (3, 10)
COPY_TEXTS: Final = 3
_PAIR: Final = 2  # a repeat needs two kept blocks


def apply(board: Board, outcomes: list[Outcome]) -> None:
    """duplicate_text: a kept block, or a kept pair, that repeats an earlier one goes."""
    words = board.words
    kept = [
        index for index, outcome in enumerate(outcomes) if outcome in KEPT_OUTCOMES and words[index]
    ]
    if len(kept) < _PAIR:
        return
    copies_only = board.kind is PageType.ARTICLE
    # On an article, first a bound that costs no text: a copy's blocks have the word
    # counts of the blocks they copy (but where a link splits a word), so where the
    # blocks whose count a block before them had cannot make a copy of the text, no
    # text is compared (on the article sets' long texts, most of the rule's cost).
    if copies_only and not _copy_sized(_seen_before([words[index] for index in kept]), kept, words):
        return
    keys = [" ".join(text.split()) for text in board.page.texts_at(kept)]
    structure = board.structure()
    parents = [structure.parents[structure.entry(index)] for index in kept]
    # Each text, and each pair of consecutive texts, with the parent of its first copy.
    seen: dict[str, int] = {}
    pairs: dict[tuple[str, str], int] = {}
    repeated: set[int] = set()  # places in `kept`
    for place, index in enumerate(kept):
        key, parent = keys[place], parents[place]
        if words[index] >= LONG_WORDS and seen.get(key, parent) != parent:
            repeated.add(place)
        seen.setdefault(key, parent)
        if place + 1 < len(kept):
            pair = (key, keys[place + 1])
            if pairs.get(pair, parent) != parent:
                repeated.update((place, place + 1))
            pairs.setdefault(pair, parent)
    if copies_only and not (
        _copy_sized(repeated, kept, words)
        and len({keys[place] for place in repeated}) >= COPY_TEXTS
    ):
        return
    for place in repeated:
        outcomes[kept[place]] = Outcome.DUPLICATE


def _seen_before(values: list[int]) -> set[int]:
    """The places in `values` whose value an earlier place had."""
    seen: set[int] = set()
    places: set[int] = set()
    for place, value in enumerate(values):
        if value in seen:
            places.add(place)
        else:
            seen.add(value)
    return places


def _copy_sized(places: set[int], kept: list[int], words: list[int]) -> bool:
    """Whether the kept blocks at `places` hold at least COPY_SHARE_PARTS of the kept words."""
    share, whole = COPY_SHARE_PARTS
    copied = sum(words[kept[place]] for place in places)
    return copied * whole >= sum(words[index] for index in kept) * share
