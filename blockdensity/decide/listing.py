"""The rules of a listing or a collection: its item cards are its content.

A listing (a blog's index, a course catalogue, a list of reviews) and a
collection (a shop's category page, a product grid) are lists of cards: a
linked title and a line or two each (a teaser, a price, a date). The
published tree rejects each as link-dense or short, and keeps the intro
paragraph. item_cards keeps, between the first and the last kept block and
outside any dropped element or region but the containers, every heading and
the short lines after it that are not link lists, on pages of those kinds
(decide.kinds).
"""

from __future__ import annotations

from typing import Final

from blockdensity.article import CONTAINER_SCOPES
from blockdensity.decide.board import Board
from blockdensity.decide.container import kept_span
from blockdensity.decide.outcome import KEPT_OUTCOMES, Outcome
from blockdensity.decide.tree import LINK_DENSE_LEAF
from blockdensity.elements import HEADINGS

__all__ = ["CARD_LINE_WORDS", "apply"]

# A line of a card is at most this long: a teaser, not an article's paragraph.
CARD_LINE_WORDS: Final = 60


def apply(board: Board, outcomes: list[Outcome]) -> None:
    """item_cards: headings between kept text, and the short lines after each."""
    first, last = kept_span(outcomes)
    words, leaves, labels, elements = board.words, board.leaves, board.labels, board.elements
    in_card = False
    for index in range(first, last + 1):
        scope = board.scopes[index]
        inside = scope < 0 or labels[scope] in CONTAINER_SCOPES
        if inside and elements[index] in HEADINGS:
            if outcomes[index] not in KEPT_OUTCOMES:
                outcomes[index] = Outcome.CARD
            in_card = True
        elif (
            inside
            and in_card
            and words[index] <= CARD_LINE_WORDS
            and leaves[index] != LINK_DENSE_LEAF
        ):
            if outcomes[index] not in KEPT_OUTCOMES:
                outcomes[index] = Outcome.CARD
        else:
            in_card = False
