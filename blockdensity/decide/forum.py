"""The rules of a forum thread: every post is its content.

The article profile's comments rule takes what a page names as comments
(class or id `comment`, blockdensity.article) out of the text into
Fit.comments: under an article, the readers' comments are not the article.
On a forum thread, a discussion board or a Q&A page the posts are the page's
text (WCXB's ground truth keeps every post), so forum_posts gives the blocks
the comments rule took back to the text, on pages of that kind
(decide.kinds).

A Q&A page (Stack Exchange's) names its short remarks under the question and
under each answer `comment` too, and there the posts are the question and the
answers the tree already keeps: WCXB's ground truth leaves the remarks out.
The remarks are fewer words than the posts they sit under; a thread's replies
outweigh the opening post the tree keeps (or come close to it). So the posts
come back only when the comments hold at least POSTS_SHARE of the words the
page keeps without them. Measured on WCXB's 113 forum pages (bench.kinds,
--types forum): the Q&A pages' comments are 0.10 to 0.69 of the kept words
(each lost 0.05 to 0.20 F1 to the rule), the threads' posts 0.91 and more
(each gained 0.2 to 0.9).
"""

from __future__ import annotations

from typing import Final

from blockdensity.decide.board import Board
from blockdensity.decide.outcome import KEPT_OUTCOMES, Outcome

__all__ = ["POSTS_SHARE", "apply"]

_COMMENTS: Final = Outcome.COMMENTS
# The comments are a thread's posts when they hold at least this share of the kept words.
POSTS_SHARE: Final = 0.8


def apply(board: Board, outcomes: list[Outcome]) -> None:
    """forum_posts: the posts the comments rule took are the thread's text."""
    words = board.words
    comments = kept = 0
    for index, outcome in enumerate(outcomes):
        if outcome is _COMMENTS:
            comments += words[index]
        elif outcome in KEPT_OUTCOMES:
            kept += words[index]
    if comments < POSTS_SHARE * kept:
        # Remarks under the posts the tree keeps (a Q&A page's), not the thread's posts.
        return
    for index, outcome in enumerate(outcomes):
        if outcome is _COMMENTS:
            outcomes[index] = Outcome.POST
