"""The rule of prose after links: a paragraph the tree dropped for the links before it.

The published tree judges a block that follows a link-dense one by a stricter
test: up to 40 words, it is boilerplate (after_links_short), whatever it
says. Where a page lays out its text as linked titles, each with a paragraph
under it (a list of projects, a webcam page's cameras, a guide's products),
every paragraph after a title is such a block, and the page keeps its intro
and loses its body.

after_links_text keeps a block the tree dropped that way when it reads as a
paragraph of prose: at least MIN_WORDS words, none of them in a link, ending
a sentence (a teaser cut short with an ellipsis does not), inside the main or
content container the article rules trust, between the first and the last
kept block. What a region or semantic rule dropped stays dropped: only the
tree's own rejection is overridden. It runs on every page. Measured on the
four development sets (BENCHMARKS.md, "Rules by kind of page").
"""

from __future__ import annotations

from typing import Final

from blockdensity.decide.board import Board
from blockdensity.decide.container import kept_span
from blockdensity.decide.outcome import Outcome
from blockdensity.decide.tree import AFTER_LINKS_SHORT_LEAF

__all__ = ["MIN_WORDS", "apply"]

# The words of a paragraph, not a title or a label. Measured: 20 brings back
# two related-post teasers of one trafilatura-eval page (0.9083 -> 0.9081),
# 30 loses a paragraph the set marks as text (0.9080); 25 holds every set.
MIN_WORDS: Final = 25
# What ends a sentence, in the scripts whose punctuation differs; and what may
# close one after it (a quotation mark, a parenthesis).
_SENTENCE_ENDS: Final = frozenset(".!?\u3002\uff01\uff1f\u061f\u0964")
_CLOSERS: Final = "\"')\u201d\u2019\u00bb\u300d\u300f\uff09"


def _ends_a_sentence(text: str) -> bool:
    """Whether the block's text ends a sentence: its last character, but for white space
    (a no-break space too) and the quotation marks or parentheses closing it."""
    closed = text.rstrip().rstrip(_CLOSERS).rstrip()
    return bool(closed) and closed[-1] in _SENTENCE_ENDS


def apply(board: Board, outcomes: list[Outcome]) -> None:
    """after_links_text: a paragraph of prose without links, dropped by the tree only for
    the links before it, inside the trusted container and the kept text, is kept."""
    first, last = kept_span(outcomes)
    words, links, leaves = board.words, board.links, board.leaves
    candidates = [
        index
        for index in range(first + 1, last)
        if outcomes[index] is Outcome.BOILERPLATE
        and leaves[index] == AFTER_LINKS_SHORT_LEAF
        and words[index] >= MIN_WORDS
        and not links[index]
        and board.in_container(index)
    ]
    for index, text in zip(candidates, board.page.texts_at(candidates), strict=True):
        if _ends_a_sentence(text):
            outcomes[index] = Outcome.AFTER_LINKS_TEXT
