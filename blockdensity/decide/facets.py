"""The rule of a collection's short links: a shop's controls are not its content.

A shop's category page declares its main container around everything it
shows: the product grid, and around it the shop's controls, each a short
link that the published tree rejects as link-dense: the facets of its
filters ("Brooks (71)", "Under $50"), its sort options, a "Quick view" or
"Add to cart" button, a colour swatch, "Skip to results". container_text
keeps whatever the tree rejected in that container, and so keeps the
controls with the items. shop_links drops again, on collections only
(decide.kinds), a block that container_text kept, that the tree rejected
as link-dense, and that has at most LINK_WORDS words. An item's linked
title that sits in the page's item grid comes back with it (item_grid runs
after); a longer linked title stays. A listing's items are linked titles of
a few words (a job, a course, a story) that no grid brings back where the
items are not siblings of one class: the rule does not run there. Measured
on the four development sets (BENCHMARKS.md, "Rules by kind of page").
"""

from __future__ import annotations

from typing import Final

from blockdensity.decide.board import Board
from blockdensity.decide.outcome import Outcome
from blockdensity.decide.tree import LINK_DENSE_LEAF

__all__ = ["LINK_WORDS", "apply"]

# A shop's control is a link of at most this many words: a facet with its
# count, a sort option, a button; an item's linked title is most often longer.
LINK_WORDS: Final = 8


def apply(board: Board, outcomes: list[Outcome]) -> None:
    """shop_links: the short link-dense blocks container_text kept go again."""
    words, leaves = board.words, board.leaves
    for index, outcome in enumerate(outcomes):
        if (
            outcome is Outcome.CONTAINER
            and leaves[index] == LINK_DENSE_LEAF
            and words[index] <= LINK_WORDS
        ):
            outcomes[index] = Outcome.SHOP_LINK
