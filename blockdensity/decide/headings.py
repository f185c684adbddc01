"""The rule of section headings: a heading dropped right before kept text is that text's heading.

The published tree judges a heading as it judges any block, by its words and
those of its neighbours: a review's "Pros" and "Cons" over lists of short
lines are short and isolated, a product's name after the links of the review
above it is short after links (after_links_short). list_headings then takes
a short heading standing between blocks not kept for a link list's heading,
before the rules after it (container_items, data_tables, item_cards...) keep
the list as text. The text keeps the section and loses its heading, which
the Markdown needs (WCXB's Markdown writes every section's heading) and the
text's reader too: a "Cons" list read as the "Pros" list above it.

section_headings keeps an h2 to h6 whose next block with words is kept, when
the tree dropped it for being short (not for its links: a linked title over
a teaser is a listing's, a related post's) or list_headings did; what a rule
dropped for where it stands (a comment, a box, outside the main container, a
semantic drop, a shop's sections) stays dropped. A heading whose next block
is a kept heading is kept only when it outranks it (the h2 with a product's
name over the h3 "Pros" over the list): one that does not heads nothing, and
a run of headings over nothing kept stays out. An h1 is left as it is: the
page's title, which the article sets' truth does not hold. It runs on every
page, after every other rule but duplicate_text (it reads what they kept).
Measured on the four development sets (BENCHMARKS.md, "Rules by kind of
page").
"""

from __future__ import annotations

from typing import Final

from blockdensity.decide.board import Board
from blockdensity.decide.outcome import KEPT_OUTCOMES, Outcome
from blockdensity.decide.tree import LINK_DENSE_LEAF
from blockdensity.elements import HEADING_LEVELS

__all__ = ["apply"]

# The rule keeps h2 to h6 (elements.HEADING_LEVELS ranks them).
_FIRST_KEPT: Final = 2
# Below every heading: a block that is no heading.
_UNRANKED: Final = 7
# The outcomes it overrides: the tree's, and list_headings'.
_OVERRIDDEN: Final = frozenset((Outcome.BOILERPLATE, Outcome.LIST_HEADING))


def apply(board: Board, outcomes: list[Outcome]) -> None:
    """section_headings: a dropped h2-h6 before kept text is kept (read from the end)."""
    words, elements, leaves = board.words, board.elements, board.leaves
    next_kept = False  # whether the next block with words is kept
    next_rank = _UNRANKED  # its rank when it is a heading
    for index in range(len(words) - 1, -1, -1):
        if not words[index]:
            continue
        outcome = outcomes[index]
        kept = outcome in KEPT_OUTCOMES
        rank = HEADING_LEVELS.get(elements[index], _UNRANKED)
        if (
            next_kept
            and _FIRST_KEPT <= rank < next_rank
            and outcome in _OVERRIDDEN
            and leaves[index] != LINK_DENSE_LEAF
        ):
            outcomes[index] = Outcome.SECTION_HEADING
            kept = True
        next_kept, next_rank = kept, rank
