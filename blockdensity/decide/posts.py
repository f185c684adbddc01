"""The rule of a thread's post bodies: blocks laid out as the posts are, are posts.

A forum thread repeats one template per post: the author's name, their post
count and join date, the post's number and date, its body, its buttons
(Reply, Quote, Like). The published tree judges each block on its own and
its neighbours' figures: a short reply after the link-dense "#3 · Mar 21"
line is `after_links_short`, and a thread whose posts lie outside the
container the article rules trust loses them all. On WCXB's development
forum pages those were the largest share of the words the fit missed.

post_bodies reads the template instead. A block's layout is the tag and
class signature of every element around it (blockdensity.structure), so the
bodies of one thread's posts share one layout, which the author lines, the
buttons and the navigation do not. A layout is a thread's post bodies when
at least LEAST_POSTS blocks with words have it, and they are prose: at
least POST_WORDS words a block on average and at most POSTS_LINKS of their
words in links (a list of teasers or a menu repeats a layout too, but short
or linked). Its blocks that the tree rejected, or that the article rules
dropped as outside their container, are kept when their own link density is
at most BODY_LINKS; what a semantic element (nav, aside, footer) or the
comments rule dropped stays dropped. It reads structure, never a site's
class names. Measured on the four development sets (BENCHMARKS.md, "Rules by
kind of page"); it runs on forum pages (decide.kinds).
"""

from __future__ import annotations

from typing import Final

from blockdensity.decide.board import Board
from blockdensity.decide.outcome import Outcome

__all__ = ["BODY_LINKS", "LEAST_POSTS", "POSTS_LINKS", "POST_WORDS", "apply"]

# A thread's bodies: at least this many blocks with words share their layout...
LEAST_POSTS: Final = 3
# ... with at least this many words a block on average (a thread's replies; measured
# on WCXB's forum pages with their true type: F1 0.789 at 4 and at 10, 0.792 at 6 and 8)...
POST_WORDS: Final = 8
# ... and at most this share of their words in links (0.1 to 0.3: the same figures).
POSTS_LINKS: Final = 0.2
# A body the rule keeps has at most this share of its own words in links.
BODY_LINKS: Final = 0.5
# The outcomes the rule overrides: the tree's rejection, and the article rules' drops
# of what lies outside their container (a thread's posts outside its <article>).
_OVERRIDDEN: Final = frozenset(
    (Outcome.BOILERPLATE, Outcome.OUTSIDE_MAIN, Outcome.OUTSIDE_INNER, Outcome.OUTSIDE_CONTENT)
)


def apply(board: Board, outcomes: list[Outcome]) -> None:
    """post_bodies: the blocks that share the layout of a thread's post bodies are kept."""
    words, links = board.words, board.links
    structure = board.structure()
    tags, signatures = structure.tags, structure.signatures
    layouts: dict[tuple[tuple[str, int], ...], list[int]] = {}
    for index, count in enumerate(words):
        if count:
            layout = tuple((tags[entry], signatures[entry]) for entry in structure.ancestors(index))
            layouts.setdefault(layout, []).append(index)
    for blocks in layouts.values():
        if len(blocks) < LEAST_POSTS:
            continue
        total = sum(words[index] for index in blocks)
        linked = sum(links[index] for index in blocks)
        if total < POST_WORDS * len(blocks) or linked > POSTS_LINKS * total:
            continue  # short lines (author lines, dates) or linked ones (teasers, menus)
        for index in blocks:
            if outcomes[index] in _OVERRIDDEN and links[index] <= BODY_LINKS * words[index]:
                outcomes[index] = Outcome.POST_BODY
