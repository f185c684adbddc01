"""What happens to a block: the decide stage's outcomes, and how each is reported.

An outcome is what the decide stage settled for a block: kept by the
published tree, rejected by it, dropped by a semantic element, kept although
a semantic element would drop it, or overridden by a rule after the tree.
The fit keeps the blocks whose outcome is a keeping one (KEPT_OUTCOMES);
the per-block records (blockdensity.result.Block) show each outcome as a
Decision and a Reason (REPORTED).
"""

from __future__ import annotations

from enum import IntEnum
from typing import Final

from blockdensity.conf import Rule
from blockdensity.result import Decision, Reason

__all__ = ["KEPT_OUTCOMES", "REPORTED", "RULE_OUTCOMES", "Outcome"]


class Outcome(IntEnum):
    """A block's outcome. An IntEnum, so that the stage's lists compare and hash as ints."""

    KEPT = 0  # the tree kept it
    BOILERPLATE = 1  # the tree rejected it
    DROPPED = 2  # inside a semantic element the configuration drops
    MAJORITY = 3  # kept although in a dropped element: that element holds most of the text
    COMMENTS = 4  # in the page's user comments (rendered apart, into Fit.comments)
    BOX = 5  # in a share, newsletter, related, cookie, byline, promotion or gallery box
    OUTSIDE_MAIN = 6  # outside the page's declared main container
    OUTSIDE_INNER = 7  # inside it, but outside the container in it that holds most text
    PROSE = 8  # rejected for its links, kept as prose inside the trusted container
    OUTSIDE_CONTENT = 9  # outside the content container the page's CMS names
    LIST_HEADING = 10  # a short heading of a link list
    BETWEEN = 11  # rejected as short and isolated, kept between kept text
    FOOTER = 12  # a footer kept for holding most of the text, dropped on a kind of page
    POST = 13  # kept: a forum post the comments rule took
    CONTAINER = 14  # kept: rejected by the tree inside the trusted container
    SPAN = 15  # kept: a short block with few links between kept text
    CARD = 16  # kept: an item card's heading or line
    TABLE = 17  # kept: a cell of a data table with a kept cell
    GRID = 18  # kept: a block of the page's item grid
    DUPLICATE = 19  # repeats text kept before it
    OUTSIDE_TITLE = 20  # outside the region of the page's one h1
    RELATED = 21  # in a grid of short cards with prices, on a product page
    REVIEWS = 22  # in a section headed as reviews or questions, on a product page
    RELATED_SECTION = 23  # in a section headed as other products, on a product page
    POST_BODY = 24  # kept: laid out as a forum thread's post bodies
    BOX_CONTENT = 25  # kept: in a box region holding most of what the tree kept
    PAGE_CHROME = 26  # a short line about the page itself, on a documentation page
    SHOP_LINK = 27  # a short link container_text kept on a collection: a facet, a button
    CONTAINER_ITEM = 28  # kept: an article's list item inside its container's text
    SECTION_HEADING = 29  # kept: a heading dropped right before kept text
    CODE_BLOCK = 30  # kept: a code block rejected by the tree inside the kept text
    AFTER_LINKS_TEXT = 31  # kept: a paragraph the tree rejected for the links before it
    CONSENT = 32  # in a cookie-consent notice
    INTRODUCED_LIST = 33  # kept: a list a line ending with a colon introduces, its lead too
    CONTENTS_ENTRY = 34  # an entry of a table of contents: links within the page
    CONTROL = 35  # in a button, a label or a dialog: the page's interface
    COPYRIGHT = 36  # a copyright notice or a picture's credit


KEPT_OUTCOMES: Final = frozenset(
    (
        Outcome.KEPT,
        Outcome.MAJORITY,
        Outcome.PROSE,
        Outcome.BETWEEN,
        Outcome.POST,
        Outcome.POST_BODY,
        Outcome.BOX_CONTENT,
        Outcome.CONTAINER,
        Outcome.SPAN,
        Outcome.CONTAINER_ITEM,
        Outcome.INTRODUCED_LIST,
        Outcome.SECTION_HEADING,
        Outcome.CODE_BLOCK,
        Outcome.AFTER_LINKS_TEXT,
        Outcome.CARD,
        Outcome.TABLE,
        Outcome.GRID,
    )
)

# The outcome a rule gives the blocks it overrides.
RULE_OUTCOMES: Final = {
    Rule.COMMENTS: Outcome.COMMENTS,
    Rule.BOXES: Outcome.BOX,
    Rule.MAIN_CONTAINER: Outcome.OUTSIDE_MAIN,
    Rule.INNER_CONTAINER: Outcome.OUTSIDE_INNER,
    Rule.LINKED_PROSE: Outcome.PROSE,
    Rule.CONTENT_CONTAINER: Outcome.OUTSIDE_CONTENT,
    Rule.LIST_HEADINGS: Outcome.LIST_HEADING,
    Rule.BETWEEN_TEXT: Outcome.BETWEEN,
    Rule.FOOTER_MAJORITY: Outcome.FOOTER,
    Rule.FORUM_POSTS: Outcome.POST,
    Rule.POST_BODIES: Outcome.POST_BODY,
    Rule.BOX_MAJORITY: Outcome.BOX_CONTENT,
    Rule.PAGE_CHROME: Outcome.PAGE_CHROME,
    Rule.CONTAINER_TEXT: Outcome.CONTAINER,
    Rule.SPAN_TEXT: Outcome.SPAN,
    Rule.CONTAINER_ITEMS: Outcome.CONTAINER_ITEM,
    Rule.INTRODUCED_LISTS: Outcome.INTRODUCED_LIST,
    Rule.ITEM_CARDS: Outcome.CARD,
    Rule.DATA_TABLES: Outcome.TABLE,
    Rule.ITEM_GRID: Outcome.GRID,
    Rule.DUPLICATE_TEXT: Outcome.DUPLICATE,
    Rule.TITLE_REGION: Outcome.OUTSIDE_TITLE,
    Rule.RELATED_ITEMS: Outcome.RELATED,
    Rule.REVIEW_SECTIONS: Outcome.REVIEWS,
    Rule.RELATED_SECTIONS: Outcome.RELATED_SECTION,
    Rule.SHOP_LINKS: Outcome.SHOP_LINK,
    Rule.SECTION_HEADINGS: Outcome.SECTION_HEADING,
    Rule.CODE_BLOCKS: Outcome.CODE_BLOCK,
    Rule.AFTER_LINKS_TEXT: Outcome.AFTER_LINKS_TEXT,
    Rule.CONSENT_NOTICES: Outcome.CONSENT,
    Rule.TABLE_OF_CONTENTS: Outcome.CONTENTS_ENTRY,
    Rule.FORM_CONTROLS: Outcome.CONTROL,
    Rule.COPYRIGHT_NOTICES: Outcome.COPYRIGHT,
}

# How each outcome is reported: its Decision, and its Reason (None: the
# tree's leaf is the reason).
REPORTED: Final[dict[Outcome, tuple[Decision, Reason | None]]] = {
    Outcome.KEPT: (Decision.CONTENT, None),
    Outcome.BOILERPLATE: (Decision.BOILERPLATE, None),
    Outcome.DROPPED: (Decision.DROPPED, Reason.SEMANTIC_DROP),
    Outcome.MAJORITY: (Decision.CONTENT, Reason.SEMANTIC_MAJORITY),
    Outcome.COMMENTS: (Decision.DROPPED, Reason.ARTICLE_COMMENTS),
    Outcome.BOX: (Decision.DROPPED, Reason.ARTICLE_BOX),
    Outcome.OUTSIDE_MAIN: (Decision.DROPPED, Reason.OUTSIDE_MAIN_CONTAINER),
    Outcome.OUTSIDE_INNER: (Decision.DROPPED, Reason.OUTSIDE_INNER_CONTAINER),
    Outcome.PROSE: (Decision.CONTENT, Reason.LINKED_PROSE),
    Outcome.OUTSIDE_CONTENT: (Decision.DROPPED, Reason.OUTSIDE_CONTENT_CONTAINER),
    Outcome.LIST_HEADING: (Decision.DROPPED, Reason.LIST_HEADING),
    Outcome.BETWEEN: (Decision.CONTENT, Reason.BETWEEN_TEXT),
    Outcome.FOOTER: (Decision.DROPPED, Reason.FOOTER_MAJORITY),
    Outcome.POST: (Decision.CONTENT, Reason.FORUM_POST),
    Outcome.POST_BODY: (Decision.CONTENT, Reason.POST_BODY),
    Outcome.BOX_CONTENT: (Decision.CONTENT, Reason.BOX_MAJORITY),
    Outcome.PAGE_CHROME: (Decision.DROPPED, Reason.PAGE_CHROME),
    Outcome.CONTAINER: (Decision.CONTENT, Reason.CONTAINER_TEXT),
    Outcome.SPAN: (Decision.CONTENT, Reason.SPAN_TEXT),
    Outcome.CONTAINER_ITEM: (Decision.CONTENT, Reason.CONTAINER_ITEM),
    Outcome.INTRODUCED_LIST: (Decision.CONTENT, Reason.INTRODUCED_LIST),
    Outcome.CARD: (Decision.CONTENT, Reason.ITEM_CARD),
    Outcome.TABLE: (Decision.CONTENT, Reason.DATA_TABLE),
    Outcome.GRID: (Decision.CONTENT, Reason.ITEM_GRID),
    Outcome.DUPLICATE: (Decision.DROPPED, Reason.DUPLICATE_TEXT),
    Outcome.OUTSIDE_TITLE: (Decision.DROPPED, Reason.OUTSIDE_TITLE_REGION),
    Outcome.RELATED: (Decision.DROPPED, Reason.RELATED_ITEMS),
    Outcome.REVIEWS: (Decision.DROPPED, Reason.REVIEW_SECTION),
    Outcome.RELATED_SECTION: (Decision.DROPPED, Reason.RELATED_SECTION),
    Outcome.SHOP_LINK: (Decision.DROPPED, Reason.SHOP_LINK),
    Outcome.SECTION_HEADING: (Decision.CONTENT, Reason.SECTION_HEADING),
    Outcome.CODE_BLOCK: (Decision.CONTENT, Reason.CODE_BLOCK),
    Outcome.AFTER_LINKS_TEXT: (Decision.CONTENT, Reason.AFTER_LINKS_TEXT),
    Outcome.CONSENT: (Decision.DROPPED, Reason.CONSENT_NOTICE),
    Outcome.CONTENTS_ENTRY: (Decision.DROPPED, Reason.TABLE_OF_CONTENTS),
    Outcome.CONTROL: (Decision.DROPPED, Reason.FORM_CONTROL),
    Outcome.COPYRIGHT: (Decision.DROPPED, Reason.COPYRIGHT_NOTICE),
}
