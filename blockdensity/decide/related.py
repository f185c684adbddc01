"""The rule of a product page's related items: cards with prices are the shop's.

A product page names one product; a grid of other products under it ("you
may also like", "the seller's other items", sponsored items), each card a
title and a price, is the shop's chrome, which the tree keeps where its
lines stand between the description's. related_items finds such grids by
structure (blockdensity.structure: repeated siblings): at least three
sibling elements with one tag and one class signature, each a short card
(at most CARD_WORDS words), at least two thirds of them showing a price (a
currency sign or code next to a figure); and drops what the page kept of
them. A product's own variants listed with their prices are such a grid too,
and go with it: WCXB's ground truth keeps the product, not its offers.
Measured on the four development sets (BENCHMARKS.md, "Rules by kind of
page"); it runs on product pages (decide.kinds).
"""

from __future__ import annotations

import re
from typing import Final

from blockdensity.decide.board import Board
from blockdensity.decide.outcome import KEPT_OUTCOMES, Outcome

__all__ = ["CARD_WORDS", "PRICE", "apply"]

# A price: a currency sign before or after a figure, or a currency code after one.
PRICE: Final = re.compile(r"[$€£¥₹]\s?\d|\d(?:[.,]\d\d)?\s?(?:[$€£¥₹]|(?:EUR|USD|GBP|CHF|kr|zł)\b)")
# A related item's card is at most this many words: a title, a price, a line.
CARD_WORDS: Final = 80
_LEAST_CARDS: Final = 3
_PRICED_NUM: Final = 2  # at least two thirds of the cards show a price
_PRICED_DEN: Final = 3


def apply(board: Board, outcomes: list[Outcome]) -> None:
    """related_items: the kept blocks of a grid of short cards with prices go."""
    words = board.words
    if not any(outcome in KEPT_OUTCOMES for outcome in outcomes):
        return
    texts = board.page.block_texts()
    structure = board.structure()
    for repeat in structure.repeated(_LEAST_CARDS):
        cards = [
            [index for index in structure.blocks_of(entry) if words[index]]
            for entry in repeat.entries
        ]
        cards = [blocks for blocks in cards if blocks]
        if len(cards) < _LEAST_CARDS:
            continue
        if any(sum(words[index] for index in blocks) > CARD_WORDS for blocks in cards):
            continue
        priced = sum(any(PRICE.search(texts[index]) for index in blocks) for blocks in cards)
        if _PRICED_DEN * priced < _PRICED_NUM * len(cards):
            continue
        for blocks in cards:
            for index in blocks:
                if outcomes[index] in KEPT_OUTCOMES:
                    outcomes[index] = Outcome.RELATED
