"""The rule of a listing's or a collection's item grid: its cards are its content.

A shop's category page or a blog's index is a grid of cards: sibling
elements of one tag and one first class token, each a linked title and a
line or two (a price, a teaser, a date). The published tree rejects a
card's title as link-dense and its lines as short, so that such a page
keeps its intro and its footer's prose and loses its items; where the
page declares no main container (container_text) and its cards have no
headings (item_cards), nothing else brings them back.

item_grid finds the page's grid by structure alone (blockdensity.structure:
repeated siblings): the group of at least three sibling elements with one
tag and one class signature, most of them cards (two blocks with words or
more, or one block of at least ENTRY_WORDS words, a catalogue's or a
bibliography's entry that holds a linked title and its line in one list
item; a median card of at most CARD_WORDS words), none of its blocks in a
dropped element or region but the containers the article rules trust and
the boxes (GRID_SCOPES), that holds the most words. When that grid holds at
least as many words as the page keeps (the other rules may have left
nothing: a page whose only prose is a cookie notice), it is the page's
content and every block of it is kept, with those of every other grid of
at least a quarter of its words (OTHER_GRID_SHARE: featured items over all
of them); a smaller grid (related products, a few teasers beside an
article) is left to the other rules. Measured on the four development sets
(BENCHMARKS.md, "Rules by kind of page"); it runs on listings and
collections (decide.kinds).
"""

from __future__ import annotations

from typing import Final

from blockdensity.article import BOXES_SCOPE, CONTAINER_SCOPES
from blockdensity.decide.board import Board
from blockdensity.decide.outcome import KEPT_OUTCOMES, Outcome

__all__ = [
    "CARD_WORDS",
    "ENTRY_WORDS",
    "GRID_SCOPES",
    "LEAST_CARDS",
    "OTHER_GRID_SHARE",
    "apply",
    "grid",
]

# A grid has at least this many cards, siblings of one tag and one first class token.
LEAST_CARDS: Final = 3
# A card is two blocks with words or more (a title and a line), or one block
# of at least ENTRY_WORDS words (a list item holding both; a menu's items are
# a few words each)...
_CARD_BLOCKS: Final = 2
ENTRY_WORDS: Final = 20
# ... and at least two thirds of a grid's siblings are cards (the rest: a
# banner, an empty placeholder).
_CARD_SHARE_NUM: Final = 2
_CARD_SHARE_DEN: Final = 3
# A grid's median card has at most this many words: a card, not an article's section.
CARD_WORDS: Final = 80
# The regions a grid may lie in: the containers the article rules trust, and the
# boxes. The box words name what surrounds an article ("gallery", "promo",
# "author", "related"); on a page of items they name the items themselves (a
# shop's product gallery, a card's author line). Navigation, footers, comments
# and consent notices are still no grid's. Measured on the four development
# sets: WCXB's listings 0.677 -> 0.684, collections 0.671 -> 0.674 (five pages
# gain, three lose at most 0.05); the article sets unchanged (the rule runs on
# listings and collections only).
GRID_SCOPES: Final = CONTAINER_SCOPES | {BOXES_SCOPE}
# A page of items may show more than one grid (its featured items over all of
# them, a shelf per category): each other grid that holds at least a quarter
# of the largest one's words is kept with it. Measured on the four development
# sets: WCXB's collections 0.674 -> 0.679, listings 0.684 -> 0.685 (five pages
# gain, two lose at most 0.11); no share from a tenth to a quarter moves a
# page more; at a half none moves.
OTHER_GRID_SHARE: Final = 4  # the largest grid's words over this


def apply(board: Board, outcomes: list[Outcome]) -> None:
    """item_grid: the page's item grid, when it holds as many words as the page keeps."""
    blocks, grid_words = grid(board)
    kept_words = sum(
        words
        for words, outcome in zip(board.words, outcomes, strict=True)
        if outcome in KEPT_OUTCOMES
    )
    if not blocks or grid_words < kept_words:
        return
    for index in blocks:
        if outcomes[index] not in KEPT_OUTCOMES:
            outcomes[index] = Outcome.GRID


def grid(board: Board) -> tuple[list[int], int]:
    """The blocks with words of the page's item grid, in order, and the words of its
    largest grid; ([], 0): none. The grid is the largest group of cards with every
    other that holds at least 1/OTHER_GRID_SHARE of its words."""
    structure = board.structure()
    words, scopes, labels = board.words, board.scopes, board.labels
    grids: list[tuple[int, list[int]]] = []  # each group of cards: its words, its blocks
    for repeat in structure.repeated(LEAST_CARDS):
        siblings = [
            [index for index in structure.blocks_of(entry) if words[index]]
            for entry in repeat.entries
        ]
        cards = [
            blocks
            for blocks in siblings
            if len(blocks) >= _CARD_BLOCKS or (len(blocks) == 1 and words[blocks[0]] >= ENTRY_WORDS)
        ]
        if len(cards) < LEAST_CARDS or _CARD_SHARE_DEN * len(cards) < _CARD_SHARE_NUM * len(
            siblings
        ):
            continue
        if any(
            scopes[index] >= 0 and labels[scopes[index]] not in GRID_SCOPES
            for blocks in siblings
            for index in blocks
        ):
            continue  # in navigation, a footer, comments or a notice: not the content
        card_words = sorted(sum(words[index] for index in blocks) for blocks in cards)
        if card_words[len(card_words) // 2] > CARD_WORDS:
            continue
        grids.append((sum(card_words), [index for blocks in siblings for index in blocks]))
    if not grids:
        return [], 0
    largest = max(total for total, _ in grids)
    kept: set[int] = set()
    for total, blocks in grids:
        if OTHER_GRID_SHARE * total >= largest:
            kept.update(blocks)
    return sorted(kept), largest
