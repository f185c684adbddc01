"""The copyright_notices rule: a page's copyright line and a picture's credit are not its text.

A page prints its legal line ("© 2019 Science X Network", "Copyright © 2018.
All Rights Reserved.") after its article, and a picture's credit under the
picture ("© Getty Images", "Marco Odermatt. © AFP / Marco Bertorello").
Both are short, the tree keeps them (a short block after text is kept), and
the development sets' truths leave them out: four in five of their words on
WCXB's pages are not in the truth, and of those that trafilatura-eval's
marked passages hold, ten are in a passage marked not the page's text, one
in a passage marked its text (scrapinghub's truth keeps a news agency's line
under a few of its articles).

copyright_notices drops a kept block of at most NOTICE_WORDS words that
holds the copyright sign, says "All rights reserved", or begins with
"Copyright"; but a heading (a page about copyright may title a section
"Copyright and fair use"). A longer block that mentions a copyright is
prose. Measured on the four development sets (BENCHMARKS.md, "Rules by kind
of page"): every set gains a little, trafilatura-eval most. It runs on every
page, after every rule that keeps text.
"""

from __future__ import annotations

import re
from typing import Final

from blockdensity.decide.board import Board
from blockdensity.decide.outcome import KEPT_OUTCOMES, Outcome
from blockdensity.elements import HEADINGS

__all__ = ["NOTICE", "NOTICE_WORDS", "apply", "is_notice"]

# A copyright notice or credit: the sign, the formula, or a line that opens with the word
# (after any punctuation or mark: "| © MDV Sports", "Copyright © 2018").
NOTICE: Final = re.compile(r"©|\ball rights reserved\b|\A\W*copyright\b", re.IGNORECASE)
# A notice is short: a paragraph that mentions copyright is the text's. Measured (the
# kept blocks dropped afterwards): at most 10, 12, 15, 20 and 30 words, trafilatura-eval
# gains 0.0017, 0.0020, 0.0020, 0.0020 and 0.0023, and from 20 words scrapinghub loses
# (an agency's line, which its truth keeps, is 16 words long).
NOTICE_WORDS: Final = 15


def apply(board: Board, outcomes: list[Outcome]) -> None:
    """copyright_notices: a short kept block that is a copyright notice goes, but a
    heading."""
    words = board.words
    elements = board.elements
    candidates = [
        index
        for index, outcome in enumerate(outcomes)
        if outcome in KEPT_OUTCOMES
        and 0 < words[index] <= NOTICE_WORDS
        and elements[index] not in HEADINGS
    ]
    if not candidates:
        return
    for index, text in zip(candidates, board.page.texts_at(candidates), strict=True):
        if is_notice(text):
            outcomes[index] = Outcome.COPYRIGHT


def is_notice(text: str) -> bool:
    """Whether a block's text is a copyright notice (NOTICE finds one in it). NOTICE is
    tried only where a word it needs is in the text: tried on every short kept block,
    the pattern (no literal to skip to, three branches at every character) cost eight
    times these substring tests, and the rule 2% of the fit's instructions."""
    if "©" in text:
        return True
    lower = text.lower()
    if "copyright" not in lower and "rights reserved" not in lower:
        return False
    return NOTICE.search(text) is not None
