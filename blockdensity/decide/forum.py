"""The rules of a forum thread: every post is its content.

The article profile's comments rule takes what a page names as comments
(class or id `comment`, blockdensity.article) out of the text into
Fit.comments: under an article, the readers' comments are not the article.
On a forum thread, a discussion board or a Q&A page the posts are the page's
text (WCXB's ground truth keeps every post), so forum_posts gives the blocks
the comments rule took back to the text, on pages of that kind
(decide.kinds).
"""

from __future__ import annotations

from typing import Final

from blockdensity.decide.board import Board
from blockdensity.decide.outcome import Outcome

__all__ = ["apply"]

_COMMENTS: Final = Outcome.COMMENTS


def apply(board: Board, outcomes: list[Outcome]) -> None:
    """forum_posts: the posts the comments rule took are the thread's text."""
    for index, outcome in enumerate(outcomes):
        if outcome is _COMMENTS:
            outcomes[index] = Outcome.POST
