"""The rule of the title's region: a page's content lies around its one h1.

A shop's product page names its product in its one <h1>, and the element
around it that holds the product's description, price and specifications
is the page's content; what the tree kept outside it is the shop's: the
reviews, the questions and answers, the shipping terms, a newsletter
sign-up, the cookie notice. A listing's, a collection's, a service's and a
documentation page's <h1> heads their content the same way. title_region
finds, from the <h1> outwards (blockdensity.structure: a block's
ancestors), the first element that holds at least half of the words the
page keeps (REGION_SHARE), and drops the kept blocks outside it. A page
with no <h1>, or more than one (a blog's index, a page of several
articles), is left as it is. Measured on the four development sets
(BENCHMARKS.md, "Rules by kind of page"); it runs on the kinds of page
decide.kinds gives it.
"""

from __future__ import annotations

from typing import Final

from blockdensity.decide.board import Board
from blockdensity.decide.outcome import KEPT_OUTCOMES, Outcome

__all__ = ["REGION_SHARE_PERCENT", "apply"]

# The title's region holds at least this share of the kept words.
REGION_SHARE_PERCENT: Final = 50


def apply(board: Board, outcomes: list[Outcome]) -> None:
    """title_region: the kept blocks outside the element around the one h1 that holds
    half of the kept words go."""
    words = board.words
    titles = [
        index for index, element in enumerate(board.elements) if element == "h1" and words[index]
    ]
    if len(titles) != 1:
        return
    kept = [index for index, outcome in enumerate(outcomes) if outcome in KEPT_OUTCOMES]
    total = sum(words[index] for index in kept)
    if not total:
        return
    structure = board.structure()
    for entry in structure.ancestors(titles[0]):
        region = structure.blocks_of(entry)
        inside = sum(words[index] for index in kept if index in region)
        if 100 * inside >= REGION_SHARE_PERCENT * total:
            for index in kept:
                if index not in region:
                    outcomes[index] = Outcome.OUTSIDE_TITLE
            return
