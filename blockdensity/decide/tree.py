"""The published decision tree (docs/spec.md section 4), in integer parts per million."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from blockdensity.conf import PPM, Conf
from blockdensity.result import Reason

__all__ = [
    "AFTER_LINKS_SHORT_LEAF",
    "CONTENT_LEAVES",
    "LEAVES",
    "LINK_DENSE_LEAF",
    "classify",
    "link_density_permil",
]

# The leaves as small ints (the loop below returns these; an enum per block
# would cost more than the decision). Codes below CONTENT_LEAVES are CONTENT.
LEAVES: Final = (
    Reason.LONG,
    Reason.SHORT_BEFORE_TEXT,
    Reason.SHORT_AFTER_TEXT,
    Reason.AFTER_LINKS_LONG,
    Reason.AFTER_LINKS_BEFORE_TEXT,
    Reason.LINK_DENSE,
    Reason.SHORT_ISOLATED,
    Reason.AFTER_LINKS_SHORT,
)
CONTENT_LEAVES: Final = 5
_LONG, _SHORT_BEFORE_TEXT, _SHORT_AFTER_TEXT, _AFTER_LINKS_LONG = 0, 1, 2, 3
_AFTER_LINKS_BEFORE_TEXT, _LINK_DENSE, _SHORT_ISOLATED, _AFTER_LINKS_SHORT = 4, 5, 6, 7
# The leaf of a block rejected for its links, which the rules after the tree read.
LINK_DENSE_LEAF: Final = _LINK_DENSE
AFTER_LINKS_SHORT_LEAF: Final = _AFTER_LINKS_SHORT


def link_density_permil(words: int, link_words: int) -> int:
    """Link density for reporting only: floored permil, 0 for a block without words."""
    return link_words * 1000 // words if words else 0


def classify(  # noqa: PLR0912 - the published tree, leaf by leaf
    words: Sequence[int], link_words: Sequence[int], conf: Conf
) -> list[int]:
    """The deciding leaf (an index into LEAVES) for every block.

    prev and next are the nearest blocks with at least one word; a missing
    neighbour has 0 words and link density 0. `ld <= T` is decided as
    `link_words * 1_000_000 <= T_ppm * words`, which agrees with the
    reference's float arithmetic for every block under 234,655 words. Each
    decision reads its neighbours' figures, never their decisions.
    """
    # Read as lists: mypyc indexes a list in place, a Sequence through a generic call
    # per item (half the loop's cost).
    counts: list[int] = words if isinstance(words, list) else list(words)
    links: list[int] = link_words if isinstance(link_words, list) else list(link_words)
    count = len(counts)
    # The word count of the nearest block with words after each block.
    next_words = [0] * count
    following = 0
    for index in range(count - 1, -1, -1):
        next_words[index] = following
        if counts[index]:
            following = counts[index]

    curr_max = conf.ld_curr_max_ppm
    prev_max = conf.ld_prev_max_ppm
    curr_short = conf.words_curr_short
    next_short = conf.words_next_short
    prev_short = conf.words_prev_short
    curr_long = conf.words_curr_long
    next_long = conf.words_next_long

    leaves: list[int] = []
    prev_words = prev_links = 0
    for index in range(count):
        curr_words = counts[index]
        curr_links = links[index]
        if curr_links * PPM > curr_max * curr_words:
            leaf = _LINK_DENSE
        elif prev_links * PPM <= prev_max * prev_words:
            if curr_words > curr_short:
                leaf = _LONG
            elif next_words[index] > next_short:
                leaf = _SHORT_BEFORE_TEXT
            elif prev_words > prev_short:
                leaf = _SHORT_AFTER_TEXT
            else:
                leaf = _SHORT_ISOLATED
        elif curr_words > curr_long:
            leaf = _AFTER_LINKS_LONG
        elif next_words[index] > next_long:
            leaf = _AFTER_LINKS_BEFORE_TEXT
        else:
            leaf = _AFTER_LINKS_SHORT
        leaves.append(leaf)
        if curr_words:
            prev_words = curr_words
            prev_links = curr_links
    return leaves
