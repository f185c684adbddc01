"""The rule of a documentation page's own chrome: the lines about the page, not its subject.

A documentation site prints, inside the container that holds the page's
text, a few short lines about the page itself: when it was last modified
or updated, an invitation to edit it or view it on GitHub, to report a
problem, whether it was helpful, "Help improve MDN", a wiki's "Jump to
navigation" and "Retrieved from ...". The container rules keep them with
the text (container_text keeps what the tree rejected inside the trusted
container), and WCXB's ground truth leaves them out.

page_chrome drops a kept block of at most CHROME_WORDS words whose text
says one of these things (CHROME_LINE, English wording, as the development
pages are). It reads the words, not a site's markup: on WCXB's development
documentation pages the lines come from MDN, Kubernetes, the Arch and
PostgreSQL wikis, React, Microsoft Learn, GitBook and others. Measured on
the four development sets (BENCHMARKS.md, "Rules by kind of page"); it runs
on documentation pages (decide.kinds).
"""

from __future__ import annotations

import re
from typing import Final

from blockdensity.decide.board import Board
from blockdensity.decide.outcome import KEPT_OUTCOMES, Outcome

__all__ = ["CHROME_LINE", "CHROME_WORDS", "apply"]

# A line about the page: its date, its source, the reader's feedback on it, a wiki's
# skip links.
CHROME_LINE: Final = re.compile(
    r"\b(?:last (?:modified|updated|edited)|page was last"
    r"|edit (?:this page|on github|this article)|view (?:this page )?on github"
    r"|report a problem|was this (?:page|article|content) helpful|improve this (?:page|doc)"
    r"|help improve|learn how to contribute"
    r"|jump to (?:navigation|search|content)|skip to (?:main )?content|retrieved from)",
    re.IGNORECASE,
)
# A chrome line is short: a paragraph that mentions an edit or a date is the text's.
CHROME_WORDS: Final = 20


def apply(board: Board, outcomes: list[Outcome]) -> None:
    """page_chrome: a short kept line about the page itself goes."""
    words = board.words
    candidates = [
        index
        for index, outcome in enumerate(outcomes)
        if outcome in KEPT_OUTCOMES and 0 < words[index] <= CHROME_WORDS
    ]
    for index, text in zip(candidates, board.page.texts_at(candidates), strict=True):
        if CHROME_LINE.search(text):
            outcomes[index] = Outcome.PAGE_CHROME
