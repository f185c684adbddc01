"""Which rules run on which kind of page: one table.

What a page keeps as its main content depends on its kind (WCXB's page
types, blockdensity.pagetype): every post of a forum thread, the item cards
of a listing, the reference lines of a documentation page, the short feature
sections of a service page. The article profile's rules run on every page;
the rules of KIND_RULES run on the kinds the table gives them, and on a page
whose kind the classifier is not sure of (its confidence under
TYPE_CONFIDENCE) as on an article. A page that its kind's rules leave with
under SCANT_WORDS words is read again (second_looks): by its likeliest kind
where it was judged an article for want of certainty, then as a page of items;
the reading that keeps the most stands. A page the classifier calls an article
without being sure of it, and a listing next likeliest, is read as a listing
too (listing_look): a list of linked entries (a category's articles, a
Wikipedia list) that the article's rules cut to its introduction. Each rule
is measured on all four development sets (BENCHMARKS.md, "Rules by kind of
page"): a rule that gains on one kind of page and costs on the articles of
the other sets runs on that kind only.
"""

from __future__ import annotations

from typing import Final

from blockdensity.conf import Rule
from blockdensity.pagetype import PageType

__all__ = [
    "KIND_ONLY",
    "KIND_RULES",
    "LISTING_DOUBT",
    "LISTING_GAIN",
    "SCANT_WORDS",
    "TYPE_CONFIDENCE",
    "judged_kind",
    "listing_look",
    "rules_for",
    "rules_of_kind",
    "second_looks",
]

# The rules that the content area of a page other than an article needs.
_NOT_AN_ARTICLE: Final = frozenset((Rule.FOOTER_MAJORITY, Rule.CONTAINER_TEXT, Rule.SPAN_TEXT))
# The rules of a page of items: its cards, its grid, its title's region, no text twice.
_ITEMS: Final = frozenset((Rule.ITEM_CARDS, Rule.ITEM_GRID, Rule.TITLE_REGION, Rule.DUPLICATE_TEXT))
KIND_RULES: Final[dict[PageType, frozenset[Rule]]] = {
    # container_items only on articles: on the other kinds container_text keeps
    # more. duplicate_text on articles only drops a copy of the text (decide.duplicates).
    PageType.ARTICLE: frozenset((Rule.CONTAINER_ITEMS, Rule.INTRODUCED_LISTS, Rule.DUPLICATE_TEXT)),
    PageType.FORUM: frozenset(
        (Rule.FOOTER_MAJORITY, Rule.FORUM_POSTS, Rule.POST_BODIES, Rule.DUPLICATE_TEXT)
    ),
    PageType.PRODUCT: frozenset(
        (
            Rule.FOOTER_MAJORITY,
            Rule.SPAN_TEXT,
            Rule.TITLE_REGION,
            Rule.RELATED_ITEMS,
            Rule.REVIEW_SECTIONS,
            Rule.RELATED_SECTIONS,
            Rule.DUPLICATE_TEXT,
        )
    ),
    # A shop's short links (its facets, sort options, buttons) are not its content;
    # a listing's are its items' titles (decide.facets).
    PageType.COLLECTION: _NOT_AN_ARTICLE | _ITEMS | {Rule.SHOP_LINKS},
    PageType.LISTING: _NOT_AN_ARTICLE | _ITEMS,
    PageType.DOCUMENTATION: _NOT_AN_ARTICLE | {Rule.TITLE_REGION, Rule.PAGE_CHROME},
    PageType.SERVICE: _NOT_AN_ARTICLE | {Rule.TITLE_REGION, Rule.DUPLICATE_TEXT, Rule.BOX_MAJORITY},
}
# The rules that run only on the kinds the table gives them.
KIND_ONLY: Final = frozenset().union(*KIND_RULES.values())
# Below this confidence in its kind, a page is judged as an article. Measured on the
# four development sets with the classifier's cross-validated calls (each page judged by
# a model fitted without it): WCXB's mean F1 is 0.820 at 0.6, 0.833 at 0.4, 0.836 at 0
# (a correct call under 0.6 lost its kind's rules), and the three article sets hold
# (their pages called another kind below 0.6 lose nothing to its rules); 0.4 keeps a
# margin for the pages the classifier knows least.
TYPE_CONFIDENCE: Final = 0.4
# A page judged an article only because the classifier was unsure of its kind, on
# which the article's rules keep fewer words than this, is read by its likeliest
# kind's rules too, and keeps what they keep where that is more (decide.stage): a
# shop's grid of cards that are links end to end, which the tree rejects whole, is
# the page's text if the classifier's call was right; if it was wrong, little is
# lost, as the article's rules kept next to nothing.
# 50 words: the least a page's text holds where an empty text is a defect (issue
# 34's measure, BENCHMARKS.md's summary table). Measured on the four development
# sets: WCXB's listings 0.685 -> 0.698, collections 0.679 -> 0.680 (four pages gain:
# 0.00 -> 0.80, 0.05 -> 0.47, 0.59 -> 0.71, and 0.08 -> 0.12, a page the article's
# rules left empty, kept whole); none loses; the article sets unchanged. At 20 words
# two of them gain, at 100 the same four; at 300 trafilatura-eval loses 0.0005.
SCANT_WORDS: Final = 50
# Then a page still scant that is neither a product nor a page of items already is
# read as a page of items (a collection): what the tree rejected of it is link-dense
# or short, as an item grid's cards and a declared container's lines are (a forum
# thread laid out as linked cards, a service page of linked feature tiles, a page
# that is a short list of linked entries). Not on a product: its own text is short,
# and a grid there is other products (decide.related). Measured on the four
# development sets (with the URL): wcxb-dev 0.8604 -> 0.8626 (forum 0.788 -> 0.796,
# collection 0.680 -> 0.687, listing 0.698 -> 0.707, service 0.837 -> 0.841),
# trafilatura-eval 0.9083 -> 0.9110, scrapinghub and readability unchanged; twelve
# pages gain, two of trafilatura-eval lose (1.00 -> 0.67 and 0.86). With products
# too, three product pages lose 0.4-0.55 (their related products kept). At 30 words
# wcxb-dev gains 0.0007 less; at 100 scrapinghub loses 0.007.
_ITEM_KINDS: Final = frozenset((PageType.PRODUCT, PageType.COLLECTION, PageType.LISTING))
# A page called an article with a probability under LISTING_DOUBT, whose next likeliest
# kind is a listing, is read by a listing's rules too (listing_look); their reading
# stands where it keeps at least LISTING_GAIN times the words the page's rules kept: a
# section's index, a list of linked entries, whose entries the article's rules reject
# as link-dense and whose introduction they keep. Where the page is an article after
# all, a listing's rules keep little more than the article's (its navigation and
# related links stay out either way), far from three times. Measured on the four
# development sets (with the URL): wcxb-dev 0.8680 -> 0.8691 (listing 0.721 -> 0.734,
# forum 0.797 -> 0.801; three pages gain: a Wikipedia list 0.11 -> 0.93, a news
# section's index 0.33 -> 0.80, a Lemmy thread 0.19 -> 0.62), trafilatura-eval 0.9131 ->
# 0.9134 (one page: a `with` passage found), scrapinghub and readability unchanged; no
# page loses. The same at a doubt of 0.6 and at four times the words; at 0.9 three more
# trafilatura-eval pages are read as listings (0.9133: one gains a `with` passage, two
# keep a `without`); at twice the words a scrapinghub page loses 1.00 -> 0.54 and a
# service page 0.45 -> 0.19. Without the runner-up condition (any uncertain article
# read as a listing) scrapinghub loses 0.0072; a forum's rules for a forum runner-up
# cost a scrapinghub page, a collection's for a collection runner-up a WCXB article.
LISTING_DOUBT: Final = 0.7
LISTING_GAIN: Final = 3


def judged_kind(page_type: PageType, confidence: float) -> PageType:
    """The kind whose rules a page of `page_type`, as sure of it as `confidence`, meets."""
    return page_type if confidence >= TYPE_CONFIDENCE else PageType.ARTICLE


def second_looks(page_type: PageType, confidence: float) -> tuple[PageType, ...]:
    """The kinds whose rules read again, in this order, a page of `page_type` (as sure of
    it as `confidence`) that the rules of its judged kind leave with under SCANT_WORDS
    words: its likeliest kind where it was judged an article for want of certainty; then
    a page of items (a collection), unless it is one or a product already."""
    looks = []
    if judged_kind(page_type, confidence) is not page_type:
        looks.append(page_type)
    if page_type not in _ITEM_KINDS:
        looks.append(PageType.COLLECTION)
    return tuple(looks)


def listing_look(page_type: PageType, confidence: float, runner_up: PageType | None) -> bool:
    """Whether a page the classifier calls `page_type` (as sure of it as `confidence`,
    and `runner_up` the next likeliest kind) is read by a listing's rules too."""
    return (
        page_type is PageType.ARTICLE
        and confidence < LISTING_DOUBT
        and runner_up is PageType.LISTING
    )


def rules_of_kind(rules: frozenset[Rule], kind: PageType) -> frozenset[Rule]:
    """`rules` without the rules of other kinds of page than `kind`."""
    return rules - (KIND_ONLY - KIND_RULES[kind])


def rules_for(rules: frozenset[Rule], page_type: PageType, confidence: float) -> frozenset[Rule]:
    """`rules` without the rules of other kinds of page than the one a page of `page_type`,
    as sure of it as `confidence`, is judged (judged_kind)."""
    return rules_of_kind(rules, judged_kind(page_type, confidence))
