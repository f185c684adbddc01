"""The rules of the content area of a page that is not an article.

On an article the published tree's verdict is right most of the time: the
text is long prose, and what it rejects (short lines, link lists) is mostly
chrome. On a listing, a collection, a documentation or a service page the
content itself is short lines and links: item titles, specifications, API
names, feature sections. Five rules, each switchable (blockdensity.conf.Rule),
run on the kinds of page decide.kinds gives them:

- footer_majority: a footer that holds most of the kept words was kept by the
  semantic drop's guard (docs/spec.md section 5: an unclosed element
  stretched over the text); on a product or a listing page it is the
  shop's footer, the rest of the page being short lines.
- container_text: inside the main or content container the page declares
  and the article rules trust (blockdensity.article), what the tree rejected
  as short or link-dense is kept.
- span_text: between the first and the last kept block, a short block with
  few links, in no dropped element or region, is kept.
- box_majority: a region the article rules drop as a box (a class word such
  as promo, banner or share, blockdensity.article) that holds more than
  BOX_SHARE of what the tree kept is the page's content, not a box: its
  blocks the tree kept stay. The article rules guard a box the same way
  from 0.85 of the kept words up (an article's photo gallery may hold 0.79);
  a service page's body may be one promotional region beside a few kept
  lines (a Drupal body marked `node--promoted`), which the guard at 0.85
  misses.
- container_items, on articles: inside the kept text (after its first kept
  block, before its last), a list item (li, dt, dd) in the trusted container
  that the tree rejected is kept, unless links hold more than half its
  words or the comments rule took it. The tree judges a block by its
  neighbours, so the items of an article's list of short lines (steps,
  ingredients, features) are rejected as short and isolated; inside the
  container the article rules trust, between kept text, they are the
  article's. List items only: short paragraphs too gain twice as much on
  WCXB but bring trafilatura-eval's boilerplate passages back (its
  precision 0.894 -> 0.887, under the gate's floor); headings and divs
  cost it more (BENCHMARKS.md, "Rules by kind of page").
- introduced_lists, on articles: a list that a line of the trusted container
  ending with a colon introduces ("Many patches were sent for review:"),
  with kept text after it, is kept whole, its lead too, links and all. A
  changelog's or a reading list's items are links end to end, which
  container_items leaves out; a sentence that announces them says they
  are the article's. A label ("Related:", "See also:") is no sentence: the
  lead holds at least LEAD_WORDS words.

Measured on the four development sets (BENCHMARKS.md, "Rules by kind of
page").
"""

from __future__ import annotations

from typing import Final

from blockdensity.article import BOXES_SCOPE, CONTAINER_SCOPES
from blockdensity.decide.board import Board
from blockdensity.decide.outcome import KEPT_OUTCOMES, Outcome
from blockdensity.decide.tree import CONTENT_LEAVES, LEAVES, LINK_DENSE_LEAF
from blockdensity.result import Reason
from blockdensity.structure import item_blocks

__all__ = [
    "BOX_SHARE",
    "FOOTERS",
    "LEAD_WORDS",
    "LIST_ITEMS",
    "apply_boxes",
    "apply_container",
    "apply_footer",
    "apply_introduced",
    "apply_items",
    "apply_span",
    "kept_span",
]

# The scopes of a page's footer: the element and its ARIA role.
FOOTERS: Final = frozenset(("footer", "role=contentinfo"))
# The tree's leaves that reject a block for being short or after links (all
# but the kept ones and those that reject it as short after links: a line
# after a link list is the list's).
_REJECTED: Final = frozenset(
    LEAVES.index(reason)
    for reason in (
        Reason.LINK_DENSE,
        Reason.SHORT_ISOLATED,
        Reason.AFTER_LINKS_SHORT,
        Reason.SHORT_BEFORE_TEXT,
        Reason.AFTER_LINKS_BEFORE_TEXT,
    )
)
_MAJORITY: Final = Outcome.MAJORITY
# A box region holding more than this share of the words the tree kept is the page's
# content. Measured on WCXB's service pages (bench.kinds --types service): 0.6 and 0.7
# give 0.8265 (0.8215 without the rule), 0.3 to 0.5 0.825 (pages whose text is a small
# box beside a larger one lose the larger).
BOX_SHARE: Final = 0.6


def apply_footer(board: Board, outcomes: list[Outcome]) -> None:
    """footer_majority: the blocks of a footer kept for holding most of the text go."""
    labels = board.labels
    for index, scope in enumerate(board.scopes):
        if outcomes[index] is _MAJORITY and scope >= 0 and labels[scope] in FOOTERS:
            outcomes[index] = Outcome.FOOTER


def apply_boxes(board: Board, outcomes: list[Outcome]) -> None:
    """box_majority: the blocks the tree kept in a box region that holds more than
    BOX_SHARE of the tree's kept words stay."""
    words, leaves, scopes, labels, parents = (
        board.words,
        board.leaves,
        board.scopes,
        board.labels,
        board.parents,
    )
    # Per scope, the outermost box region it is in (-1: none); a scope comes after
    # the scope around it.
    outermost: list[int] = []
    for scope, label in enumerate(labels):
        above = outermost[parents[scope]] if parents[scope] >= 0 else -1
        outermost.append(above if above >= 0 else scope if label == BOXES_SCOPE else -1)
    kept_words = 0
    held: dict[int, int] = {}
    for index, scope in enumerate(scopes):
        if leaves[index] < CONTENT_LEAVES:
            kept_words += words[index]
            region = outermost[scope] if scope >= 0 else -1
            if region >= 0:
                held[region] = held.get(region, 0) + words[index]
    content = {region for region, count in held.items() if count > BOX_SHARE * kept_words}
    if not content:
        return
    for index, scope in enumerate(scopes):
        if (
            outcomes[index] is Outcome.BOX
            and leaves[index] < CONTENT_LEAVES
            and scope >= 0
            and outermost[scope] in content
        ):
            outcomes[index] = Outcome.BOX_CONTENT


def apply_container(board: Board, outcomes: list[Outcome]) -> None:
    """container_text: what the tree rejected inside the trusted container is kept."""
    leaves = board.leaves
    for index, leaf in enumerate(leaves):
        if leaf in _REJECTED and outcomes[index] not in KEPT_OUTCOMES and board.in_container(index):
            outcomes[index] = Outcome.CONTAINER


def apply_span(board: Board, outcomes: list[Outcome]) -> None:
    """span_text: a short block with few links between kept text, outside any dropped
    element or region but the containers, is kept."""
    first, last = kept_span(outcomes)
    words, links, leaves, labels = board.words, board.links, board.leaves, board.labels
    for index in range(first, last + 1):
        scope = board.scopes[index]
        if (
            outcomes[index] not in KEPT_OUTCOMES
            and (scope < 0 or labels[scope] in CONTAINER_SCOPES)
            and 3 * links[index] < words[index]
            and leaves[index] != LINK_DENSE_LEAF
        ):
            outcomes[index] = Outcome.SPAN


# The elements of list items: what container_items keeps.
_ITEMS: Final = frozenset(("li", "dt", "dd"))


def apply_items(board: Board, outcomes: list[Outcome]) -> None:
    """container_items: a list item with few links that the tree rejected inside the
    trusted container, between kept text, is kept."""
    first, last = kept_span(outcomes)
    words, links, elements = board.words, board.links, board.elements
    for index in range(first + 1, last):
        if (
            outcomes[index] not in KEPT_OUTCOMES
            and outcomes[index] is not Outcome.COMMENTS
            and elements[index] in _ITEMS
            and board.in_container(index)
            and words[index]
            and 2 * links[index] <= words[index]
        ):
            outcomes[index] = Outcome.CONTAINER_ITEM


# introduced_lists: the least words of a list's lead, and the least items of the list.
# Measured on the four development sets (with the URL): wcxb-dev 0.8628 -> 0.8633,
# scrapinghub 0.9556 -> 0.9557, readability and trafilatura-eval unchanged; the
# same from 1 to 6 words and from 2 to 5 items, but at 1 word trafilatura-eval's
# passage precision falls 0.8903 -> 0.8898 (its "Read more:" lists). Without the
# colon, wcxb-dev gains 0.0007 more but scrapinghub loses 0.0007 and
# trafilatura-eval 0.0009: a list under any line is as often a link list.
LEAD_WORDS: Final = 4
LIST_ITEMS: Final = 3
# A lead is a paragraph, in no list item: a heading ("More on this school:") labels
# a link list, and an entry of a table of contents ("3.2 What to pack:") leads its
# sub-entries.
_LEADS: Final = frozenset(("p", "div"))


def apply_introduced(board: Board, outcomes: list[Outcome]) -> None:
    """introduced_lists: the list items (at least LIST_ITEMS blocks with words, in a row,
    each in a list item) right after a paragraph of at least LEAD_WORDS words in no list
    item, ending with a colon, all in the trusted container, before the last kept block,
    are kept with their lead."""
    first, last = kept_span(outcomes)
    words = board.words
    # The paragraphs that may lead a list, whose texts are read together (not the
    # page's every block's).
    candidates = [
        index
        for index in range(first, last)
        if words[index] >= LEAD_WORDS
        and board.elements[index] in _LEADS
        and board.in_container(index)
    ]
    if not candidates:
        return
    leads = {
        index
        for index, text in zip(candidates, board.page.texts_at(candidates), strict=True)
        if text.rstrip().endswith(":")
    }
    in_items: set[int] | None = None
    lead = first
    while lead < last:
        if lead not in leads:
            lead += 1
            continue
        if in_items is None:
            # Read off the element table in C: no Structure built for a rule that a
            # tenth of the pages ask.
            in_items = set(item_blocks(board.page))
        items = [] if lead in in_items else _items_after(words, in_items, lead)
        end = items[-1] if items else lead
        if (
            len(items) >= LIST_ITEMS
            and end < last
            and all(board.in_container(item) for item in items)
            and not any(outcomes[item] is Outcome.COMMENTS for item in items)
        ):
            for index in (lead, *items):
                if outcomes[index] not in KEPT_OUTCOMES:
                    outcomes[index] = Outcome.INTRODUCED_LIST
        lead = end + 1


def _items_after(words: list[int], in_items: set[int], lead: int) -> list[int]:
    """The blocks with words right after `lead` that sit in list items, in a row."""
    found: list[int] = []
    for index in range(lead + 1, len(words)):
        if not words[index]:
            continue
        if index not in in_items:
            break
        found.append(index)
    return found


def kept_span(outcomes: list[Outcome]) -> tuple[int, int]:
    """The first and the last kept block; (0, -1) when none is kept."""
    kept = [index for index, outcome in enumerate(outcomes) if outcome in KEPT_OUTCOMES]
    return (kept[0], kept[-1]) if kept else (0, -1)
