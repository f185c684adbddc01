"""The rule of a table of contents: a list of links to the page's own sections is not its text.

A long article, a guide or a documentation page opens with its table of
contents: a list (or a column of lines) whose entries are links, end to
end, to the headings further down (`<a href="#section">`). The published
tree rejects such a list as link-dense, but the rules that keep a trusted
container's text (container_text) or a list a line ending with a colon
introduces ("In this guide you will find:", introduced_lists) bring it
back, and its words are then the headings' words a second time. The ground truth
leaves it out: of the 389 list items on WCXB's development pages whose
links all lead within the page (read from the Markdown with its links), its
Markdown holds 16 as list items.

table_of_contents drops, among the kept blocks in document order, a run of
at least ENTRIES blocks each of whose words are all link words and whose
every link leads to a place in the page (an href of "#" and a name: the
walk's Page.in_page_links); and the line that introduced the list, where
introduced_lists kept that line for the list's sake ("Jump to the section
you need:"). A list of links to other pages (a reading list, a changelog)
is not one, nor is a line with words besides its link (a footnote with its
back-link), nor a lone "Back to top". The entries need not be list items:
a table of contents laid out as lines of links is one too (four pages more
change on WCXB's development split than with list items only, each for the
better). It runs on every kind of page (decide.kinds); measured on the four
development sets in BENCHMARKS.md ("Rules by kind of page").
"""

from __future__ import annotations

from typing import Final

from blockdensity.decide.board import Board
from blockdensity.decide.outcome import KEPT_OUTCOMES, Outcome

__all__ = ["ENTRIES", "apply"]

# A table of contents has at least this many entries in a row.
ENTRIES: Final = 3


def apply(board: Board, outcomes: list[Outcome]) -> None:
    """table_of_contents: a run of kept blocks that are links within the page goes."""
    in_page = board.page.in_page_links
    if len(in_page) < ENTRIES:
        return
    marked = set(in_page)
    words = board.words
    links = board.links
    run: list[int] = []
    before = -1  # the kept block with words before the run
    for index, outcome in enumerate(outcomes):
        if not words[index] or outcome not in KEPT_OUTCOMES:
            continue
        if index in marked and links[index] == words[index]:
            run.append(index)
            continue
        _drop(run, before, outcomes)
        run = []
        before = index
    _drop(run, before, outcomes)


def _drop(run: list[int], before: int, outcomes: list[Outcome]) -> None:
    if len(run) < ENTRIES:
        return
    for index in run:
        outcomes[index] = Outcome.CONTENTS_ENTRY
    # The line introduced_lists kept for the list's sake ("Jump to:") goes with it.
    if before >= 0 and outcomes[before] is Outcome.INTRODUCED_LIST:
        outcomes[before] = Outcome.CONTENTS_ENTRY
