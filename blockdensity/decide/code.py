"""The rule of code blocks: a `<pre>` standing inside the kept text is kept.

The published tree judges a code block as it judges prose, by its words and
those of its neighbours, and code is neither: a shell command of a dozen
tokens after a paragraph that ends on a link is short after links
(after_links_short), and a syntax highlighter's line-number gutter, a column
of links ("1 2 3 4" each an anchor to its line), is link-dense right before
the code it numbers, so that every code block of such a page is dropped
after it. A tutorial keeps its prose and loses its commands.

code_blocks keeps a `<pre>` block the tree rejected, with at most half of
its words in links (the gutter stays out), that stands between the first and
the last kept block: inside the text, where a code sample belongs to what
the page explains. What a region or semantic rule dropped (a sidebar's
snippet, a comment's code) stays dropped: only the tree's own rejection is
overridden. It runs on every page, after the rules that keep text (so that
"inside the kept text" counts theirs) and before section_headings (so that a
heading over a code block it keeps is kept too). Measured on the four
development sets (BENCHMARKS.md, "Rules by kind of page").
"""

from __future__ import annotations

from typing import Final

from blockdensity.decide.board import Board
from blockdensity.decide.container import kept_span
from blockdensity.decide.outcome import Outcome

__all__ = ["apply"]

# The element of a code block (blockdensity.segment's block element names).
_CODE: Final = "pre"


def apply(board: Board, outcomes: list[Outcome]) -> None:
    """code_blocks: a `<pre>` the tree rejected, with few links, between kept text is kept."""
    words, links, elements = board.words, board.links, board.elements
    if _CODE not in elements:  # most pages: no code, and no kept span to look for
        return
    first, last = kept_span(outcomes)
    for index in range(first + 1, last):
        if (
            outcomes[index] is Outcome.BOILERPLATE
            and elements[index] == _CODE
            and words[index]
            and 2 * links[index] <= words[index]
        ):
            outcomes[index] = Outcome.CODE_BLOCK
