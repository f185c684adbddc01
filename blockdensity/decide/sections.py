"""The rules of a shop's sections: a product page's reviews and its other products.

A product page's content is the product: its name, price, description and
specifications. Below them a shop puts sections of its own, each under a
heading that says what it is: the customers' reviews ("Customer reviews",
"Ratings & Reviews", "Reviews for this item (76)", "1,113 reviews"), their
questions ("Questions & Answers", "People are asking"), and other products
("You may also like", "Customers also bought", "Similar items",
"Frequently bought together", "Products related to this item"). Their
lines are long and without links (a review is a paragraph), so the tree
keeps them, and WCXB's ground truth does not: the reviews were the largest
share of the words the fit kept wrong on its development product pages.

A section is its heading (an h1 to h6 whose whole text names it) and the
blocks after it up to the next heading of the same or a higher rank that
does not name such a section (a review's own title, an h5 under the h3
"Customer reviews", is inside it), and no further than the end of the
innermost element around the heading that holds SECTION_WORDS words after
it (a shop's review widget, after which the description may go on without
a heading); review_sections and related_sections drop what the page kept
of it. They read the words of the heading, not a
site's markup: English wording only, as the development pages are. A
store's FAQ is not such a section (the ground truth keeps it), nor is a
section of specifications or system requirements. Measured on the four
development sets (BENCHMARKS.md, "Rules by kind of page"); they run on
product pages (decide.kinds).
"""

from __future__ import annotations

import re
from typing import Final

from blockdensity.decide.board import Board
from blockdensity.decide.outcome import KEPT_OUTCOMES, Outcome
from blockdensity.elements import HEADING_LEVELS

__all__ = ["RELATED_HEADING", "REVIEW_HEADING", "SECTION_WORDS", "apply_related", "apply_reviews"]

# A heading of the customers' reviews or questions: the whole heading, or its start.
REVIEW_HEADING: Final = re.compile(
    r"(?:[\d.,]+\s+)?(?:customer |user |product |verified |google )?(?:reviews?|ratings?)"
    r"(?:\s*(?:&|and|/)\s*(?:reviews?|ratings?|q\s?&\s?a|questions?))?\s*(?:\(\d[\d,]*\))?"
    r"|(?:customer |user )?reviews? (?:for|of|from)\b.*"
    r"|(?:customer )?questions?\s*(?:&|and)\s*answers?"
    r"|people are asking"
    r"|customer questions\b.*",
    re.IGNORECASE,
)
# A heading of other products than the page's.
RELATED_HEADING: Final = re.compile(
    r"(?:you (?:may|might) (?:also )?(?:like|love|enjoy)"
    r"|related (?:products|items)|similar (?:products|items)"
    r"|(?:customers|people) (?:who (?:bought|viewed) this (?:item )?)?also (?:bought|viewed|like)"
    r"|frequently bought together|recently viewed|complete the look|shop the look"
    r"|more (?:items )?from (?:this|the) (?:seller|shop|brand)"
    r"|products related to this item|compare with similar items|pairs well with|explore more"
    r")\b.*",
    re.IGNORECASE,
)
# The element of a section holds at least this many words after its heading: several
# reviews, not the rating's summary beside the heading (measured: 150 loses Amazon's
# reviews, held apart from their summary; 400 runs past a shop's review widget into the
# description after it; 200 to 300 give the same figures).
SECTION_WORDS: Final = 250
_TRIM: Final = " :.!?\u2026"  # around a heading's words: "Reviews:", "You may also like…"


def apply_reviews(board: Board, outcomes: list[Outcome]) -> None:
    """review_sections: the kept blocks of a section headed as customer reviews or
    questions go."""
    _drop_sections(board, outcomes, REVIEW_HEADING, Outcome.REVIEWS)


def apply_related(board: Board, outcomes: list[Outcome]) -> None:
    """related_sections: the kept blocks of a section headed as other products go."""
    _drop_sections(board, outcomes, RELATED_HEADING, Outcome.RELATED_SECTION)


def _drop_sections(
    board: Board, outcomes: list[Outcome], heading: re.Pattern[str], outcome: Outcome
) -> None:
    words, elements = board.words, board.elements
    if not any(element in HEADING_LEVELS for element in elements):
        return
    texts = board.page.block_texts()
    rank = 0  # the open section's heading level (0: none open)
    end = 0  # the first block after the open section's element
    for index, element in enumerate(elements):
        if rank and index >= end:
            rank = 0  # the section's element ends: what follows is the page's again
        level = HEADING_LEVELS.get(element, 0)
        if level and words[index]:
            if heading.fullmatch(" ".join(texts[index].split()).strip(_TRIM)):
                # A section opens; one of a higher rank inside it widens it.
                if not rank:
                    end = _section_end(board, index)
                rank = level if not rank else min(rank, level)
            elif level <= rank:
                rank = 0  # the next heading of its rank closes it
        if rank and outcomes[index] in KEPT_OUTCOMES:
            outcomes[index] = outcome


def _section_end(board: Board, heading: int) -> int:
    """The first block after the element of the section `heading` opens: the innermost
    element around the heading that holds SECTION_WORDS words after it (the page's end
    where none does)."""
    words = board.words
    structure = board.structure()
    for entry in structure.ancestors(heading)[1:]:
        blocks = structure.blocks_of(entry)
        if sum(words[heading + 1 : blocks.stop]) >= SECTION_WORDS:
            return blocks.stop
    return len(words)
