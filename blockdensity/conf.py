"""Conf: the fit's thresholds and element sets, frozen, with the published defaults."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from enum import StrEnum
from functools import lru_cache
from typing import Final, NamedTuple

from blockdensity import tags
from blockdensity.elements import DEFAULT_BOUNDARIES, DEFAULT_DROP_ELEMENTS

__all__ = [
    "ARIA_DROP_ROLES",
    "ARTICLE_RULES",
    "CONTROL_ELEMENTS",
    "DEFAULT_CONF",
    "DIALOG_ROLES",
    "PPM",
    "PUBLISHED_CONF",
    "Comments",
    "Conf",
    "Profile",
    "Rule",
]

PPM: Final = 1_000_000

# The ARIA landmark roles that mark what nav, footer and aside mark.
ARIA_DROP_ROLES: Final = frozenset({"navigation", "contentinfo", "complementary"})
# What the form_controls rule drops, as the walk reads it: the elements whose text is a
# control's caption, and the roles of a pop-up window.
CONTROL_ELEMENTS: Final = frozenset({"button", "label", "legend"})
DIALOG_ROLES: Final = frozenset({"dialog", "alertdialog"})


class Profile(StrEnum):
    """Which fit runs: the published one (SPEC exactly), or it and the article rules after."""

    PUBLISHED = "published"
    ARTICLE = "article"


class Rule(StrEnum):
    """The rules after the published tree (blockdensity.decide), each switchable on its own;
    and TAB_PANELS, HIDDEN_TEXT and CLOSED_POPUPS, which change what the walk reads.

    Most run only on a page with article structure (an <article>, <main>,
    role=main or itemprop=articleBody element, or an article declared in
    OpenGraph or JSON-LD); on any other page only COMMENTS, CONTENT_CONTAINER,
    LIST_HEADINGS, BETWEEN_TEXT, TAB_PANELS, HIDDEN_TEXT, CLOSED_POPUPS, FORM_CONTROLS,
    COPYRIGHT_NOTICES and the other rules marked "on every page" act (and the rules by
    kind of page, blockdensity.decide.kinds), and the article profile is otherwise the
    published fit, block for block.
    """

    COMMENTS = "comments"  # user comments under the article
    BOXES = "boxes"  # share, newsletter, related-stories, cookie, byline, promotion boxes
    # on every page: a cookie-consent notice (a class or id word such as consent,
    # gdpr, onetrust, cookie-banner), which a page without article structure
    # leaves to the tree, is dropped; not guarded as boxes are (a consent
    # platform's notice may hold most of the words a listing keeps)
    CONSENT_NOTICES = "consent_notices"
    MAIN_CONTAINER = "main_container"  # what lies outside the page's declared main container
    # what lies inside the main container but outside a container declared in
    # it that holds most of its text (a <main> around the <article> and a sidebar)
    INNER_CONTAINER = "inner_container"
    # a block of prose the tree rejected for its links, kept inside the
    # container the other rules trust (an encyclopedia's or a blog's linked text)
    LINKED_PROSE = "linked_prose"
    # where no declared main container is trusted (or none is declared), what
    # lies outside the content container the page's CMS names (entry-content,
    # post-body, article-body, story-body, ...): on every page, declaring or not
    CONTENT_CONTAINER = "content_container"
    # on every page: a short kept block that leads a block the tree rejected
    # for its links, or stands between blocks not kept ("Most read", "More on
    # this topic:"): the heading of a link list
    LIST_HEADINGS = "list_headings"
    # on every page: a block the tree rejected as short and isolated (a
    # one-line paragraph, a date line) whose neighbours with words are both
    # kept is kept: it stands inside the text
    BETWEEN_TEXT = "between_text"
    # The rules by kind of page (blockdensity.decide.kinds says which kinds):
    # a footer kept because it held most of the kept words is dropped (a
    # product's or a listing's footer is never its content)
    FOOTER_MAJORITY = "footer_majority"
    # on every page: a data table with a kept cell is kept whole (its cells are
    # short blocks the tree rejects)
    DATA_TABLES = "data_tables"
    # on a forum, the posts the comments rule took are the thread's text
    FORUM_POSTS = "forum_posts"
    # on services, a box region (promo, banner...) that holds most of what the
    # tree kept is the content: its kept blocks stay
    BOX_MAJORITY = "box_majority"
    # on documentation, a short kept line about the page itself ("Last modified
    # ...", "Edit this page", "Was this page helpful?") is dropped
    PAGE_CHROME = "page_chrome"
    # on a forum, the blocks laid out as the thread's post bodies (one tag and
    # class path, prose) that the tree or the container rules dropped are kept
    POST_BODIES = "post_bodies"
    # on listings, collections, documentation and service pages, what the tree
    # rejected inside the trusted main or content container is kept: item cards,
    # reference lines, short feature sections
    CONTAINER_TEXT = "container_text"
    # on those and product pages, a short block with few links between kept
    # text is kept (labels, specifications, feature lines)
    SPAN_TEXT = "span_text"
    # on articles, a list item with few links that the tree rejected inside
    # the trusted main or content container, between the first and the last
    # kept block, is kept: the article's list of short items
    CONTAINER_ITEMS = "container_items"
    # on articles, a list that a line of the trusted container ending with a
    # colon introduces, before kept text, is kept whole with its lead (a
    # changelog's linked entries, a reading list)
    INTRODUCED_LISTS = "introduced_lists"
    # on listings and collections, item cards: a heading between kept text and
    # the short lines after it
    ITEM_CARDS = "item_cards"
    # on listings and collections, the page's item grid (repeated sibling
    # cards) when it holds as many words as the page keeps
    ITEM_GRID = "item_grid"
    # on products, listings, collections, services and documentation: with one
    # h1, what the tree kept outside the element around it that holds half
    # the kept words (reviews, shipping terms, a cookie notice)
    TITLE_REGION = "title_region"
    # on products: a grid of short cards with prices (related products, the
    # seller's other items) is the shop's
    RELATED_ITEMS = "related_items"
    # on products: a section headed as the customers' reviews or questions
    # ("Customer reviews", "Questions & Answers") is the shop's
    REVIEW_SECTIONS = "review_sections"
    # on products: a section headed as other products ("You may also like",
    # "Customers also bought", "Similar items") is the shop's
    RELATED_SECTIONS = "related_sections"
    # on shop, listing, service and forum pages, a kept block (or pair of
    # blocks) that repeats one kept before it: a carousel's clones
    DUPLICATE_TEXT = "duplicate_text"
    # on collections, a short link-dense block that container_text kept (a
    # filter's facet, a sort option, a "Quick view" button) goes again
    SHOP_LINKS = "shop_links"
    # on every page: an h2 to h6 the tree dropped as short (not for its links),
    # or list_headings did, whose next block with words is kept is kept: the
    # heading of a section the text keeps ("Pros" over its list)
    SECTION_HEADINGS = "section_headings"
    # on every page: a run of at least three kept blocks (list items, lines),
    # each a link end to end whose every link leads to a place in the page (href
    # "#name"), goes: a table of contents, which repeats the headings of the
    # sections the text holds
    TABLE_OF_CONTENTS = "table_of_contents"
    # on every page: a <pre> the tree rejected (a command short after links,
    # code after a highlighter's linked line numbers), with at most half its
    # words in links, between the first and the last kept block is kept: the
    # code sample of the text around it
    CODE_BLOCKS = "code_blocks"
    # on every page: a paragraph of prose (25 words or more, no link, ending a
    # sentence) that the tree rejected only for the link-dense block before it
    # (after_links_short: a linked title over its description), inside the
    # trusted main or content container and the kept text, is kept
    AFTER_LINKS_TEXT = "after_links_text"
    # on every page, as the walk reads it: a hidden element that is a tab panel
    # (role=tabpanel: the other languages of a code sample, a product's other
    # tabs) is read as shown, not as the <img> that replaces a hidden element. Its
    # text is in the page, a click away, and a crawler that runs no script
    # indexes every tab; the tree then judges its blocks as any others
    TAB_PANELS = "tab_panels"
    # on every page: a page whose hidden elements hold at least as many words
    # as the rest of it (its article in a hidden container a script reveals) is
    # read with every hidden element shown but a pop-up's (role dialog,
    # alertdialog, menu, listbox, tooltip): what such a page serves a crawler
    # is what it hides
    HIDDEN_TEXT = "hidden_text"
    # on every page, as the walk reads it: an element with a popover attribute,
    # and a <dialog> without open, are hidden as a browser hides them until a
    # script shows them (a glossary's definitions in dialogs, a sign-up form in a
    # popover): a crawler runs no script, and a pop-up is not the page's text
    CLOSED_POPUPS = "closed_popups"
    # on every page: a kept block whose first words are in a <button>, a
    # <label> or a <legend> (CONTROL_ELEMENTS), or in an element whose role is
    # dialog or alertdialog, is dropped, but a heading (an accordion's title in
    # its toggle): a control's caption ("Add to cart", "Show all", a filter's
    # checkbox) and a modal window's form are the page's interface, not its
    # text. The walk opens a scope for each such element
    # (blockdensity.decide.controls)
    FORM_CONTROLS = "form_controls"
    # on every page: a kept block of at most 15 words (not a heading) that holds
    # the copyright sign, says "All rights reserved" or begins with "Copyright" is
    # dropped: a page's legal line and a picture's credit are not its text
    # (blockdensity.decide.notices)
    COPYRIGHT_NOTICES = "copyright_notices"


ARTICLE_RULES: Final = frozenset(Rule)


class Comments(StrEnum):
    """Where the text of the user comments the comments rule finds goes (article profile)."""

    # In Fit.comments, apart from the article: an indexer indexes them apart, or not at all.
    SEPARATE = "separate"
    # In the text too, after the article (trafilatura's default): Fit.comments holds them as well.
    INCLUDE = "include"
    DROP = "drop"  # nowhere: Fit.comments is None


@dataclass(frozen=True, slots=True)
class Conf:
    """Configuration of the density fit.

    The thresholds are boilerpipe's NumWordsRulesClassifier values (Kohlschuetter
    et al., WSDM 2010, Algorithm 2) and are not tuned. Link-density thresholds
    are in parts per million so the decision is exact integer arithmetic.
    """

    ld_curr_max_ppm: int = 333_333
    ld_prev_max_ppm: int = 555_556
    words_curr_short: int = 16
    words_next_short: int = 15
    words_prev_short: int = 4
    words_curr_long: int = 40
    words_next_long: int = 17
    boundaries: frozenset[str] = field(default=DEFAULT_BOUNDARIES)
    drop_elements: frozenset[str] = field(default=DEFAULT_DROP_ELEMENTS)
    drop_roles: frozenset[str] = field(default=ARIA_DROP_ROLES)
    profile: Profile = Profile.ARTICLE
    # The article rules that run under the article profile (ignored under published).
    article_rules: frozenset[Rule] = field(default=ARTICLE_RULES)
    # Where the comments found by the COMMENTS rule go (ignored without it).
    comments: Comments = Comments.SEPARATE
    # What the fit reports besides the text (neither changes the text): the
    # page's declared metadata (blockdensity.metadata, about 5% of a fit) and
    # the language its text is in (blockdensity.language, about 6%). Off, the
    # record has no metadata and lang_detected null: for a pipeline that only
    # wants the text.
    read_metadata: bool = True
    detect_language: bool = True
    # Fit.markdown's links: the kept text's links as Markdown links, [text](href)
    # (resolved against the page's URL when given). Off, a link is its text, as
    # in `text`. On, the fit keeps the parsed page until the Markdown is read,
    # which then walks it again (blockdensity.mdlinks).
    markdown_links: bool = False
    # Fit.markdown's images: the images of the kept content as ![alt](src), each a
    # paragraph beside the block it belongs to (blockdensity.mdimages says which).
    # Off, no image (the text has none). On, as with links, the parsed page is kept
    # until the Markdown is read, which then walks it again.
    markdown_images: bool = False

    def __post_init__(self) -> None:
        for name in (
            "words_curr_short",
            "words_next_short",
            "words_prev_short",
            "words_curr_long",
            "words_next_long",
        ):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise ValueError(f"Conf.{name} must be a non-negative int, got {value!r}")
        for name in ("ld_curr_max_ppm", "ld_prev_max_ppm"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= PPM:
                raise ValueError(f"Conf.{name} must be an int in [0, {PPM}], got {value!r}")
        for name in ("boundaries", "drop_elements", "drop_roles"):
            value = getattr(self, name)
            if isinstance(value, str) or not all(isinstance(item, str) for item in value):
                raise ValueError(f"Conf.{name} must be a set of names, got {value!r}")
            object.__setattr__(self, name, frozenset(item.lower() for item in value))
        for name in ("read_metadata", "detect_language", "markdown_links", "markdown_images"):
            value = getattr(self, name)
            if not isinstance(value, bool):
                raise ValueError(f"Conf.{name} must be True or False, got {value!r}")  # noqa: TRY004 - Conf's errors are all ValueError
        self._check_profile()
        # Resolve the element names now, so a typo fails here and not mid-page.
        for name in ("boundaries", "drop_elements"):
            for element in sorted(getattr(self, name)):
                try:
                    tags.tag_id(element)
                except ValueError as exc:
                    raise ValueError(f"Conf.{name}: {exc}") from None

    def _check_profile(self) -> None:
        try:
            object.__setattr__(self, "profile", Profile(self.profile))
        except ValueError:
            names = ", ".join(Profile)
            raise ValueError(f"Conf.profile must be one of {names}, got {self.profile!r}") from None
        try:
            object.__setattr__(self, "comments", Comments(self.comments))
        except ValueError:
            names = ", ".join(Comments)
            raise ValueError(
                f"Conf.comments must be one of {names}, got {self.comments!r}"
            ) from None
        rules: object = self.article_rules
        if isinstance(rules, str) or not isinstance(rules, (set, frozenset, list, tuple)):
            raise ValueError(f"Conf.article_rules must be a set of rules, got {rules!r}")  # noqa: TRY004 - Conf's errors are all ValueError
        try:
            object.__setattr__(self, "article_rules", frozenset(map(Rule, rules)))
        except ValueError as exc:
            names = ", ".join(Rule)
            raise ValueError(f"Conf.article_rules: {exc}; the rules are {names}") from None

    def without_drops(self) -> Conf:
        """This configuration with no semantic drops (the CLI's --no-drop)."""
        return dataclasses.replace(self, drop_elements=frozenset(), drop_roles=frozenset())

    @property
    def rules(self) -> frozenset[Rule]:
        """The article rules this configuration runs (none under the published profile)."""
        return self.article_rules if self.profile is Profile.ARTICLE else frozenset()

    @property
    def table(self) -> tags.TagTable:
        """The walk's tag table: the boundaries, and the elements it opens a scope for (the
        dropped ones, and the form_controls rule's controls)."""
        return tags.flags_for(self.boundaries, self._scopes().elements)

    @property
    def walk_roles(self) -> frozenset[str]:
        """The ARIA roles the walk opens a scope for: the dropped ones, and the
        form_controls rule's pop-up windows."""
        return self._scopes().roles

    @property
    def control_labels(self) -> frozenset[str]:
        """The labels of the scopes the form_controls rule drops (Page.drop_scopes): its
        elements and roles that the semantic drop does not already drop."""
        return self._scopes().controls

    def _scopes(self) -> _WalkScopes:
        return _walk_scopes(Rule.FORM_CONTROLS in self.rules, self.drop_elements, self.drop_roles)


class _WalkScopes(NamedTuple):
    """What the walk opens a scope for under a configuration, and which of those scopes
    are the form_controls rule's (their labels)."""

    elements: frozenset[str]
    roles: frozenset[str]
    controls: frozenset[str]


@lru_cache(maxsize=32)
def _walk_scopes(
    form_controls: bool, drop_elements: frozenset[str], drop_roles: frozenset[str]
) -> _WalkScopes:
    """The walk's scopes for the dropped elements and roles, with the form_controls rule's
    controls when it runs: made once per configuration, not on every page (the walk and
    the decide stage ask for them on each)."""
    if not form_controls:
        return _WalkScopes(drop_elements, drop_roles, frozenset())
    elements = CONTROL_ELEMENTS - drop_elements
    roles = DIALOG_ROLES - drop_roles
    return _WalkScopes(
        drop_elements | elements,
        drop_roles | roles,
        elements | {f"role={role}" for role in roles},
    )


# The default runs the article profile: it wins on both sets of the
# development corpus (BENCHMARKS.md), and on a page without article structure
# it is the published fit.
DEFAULT_CONF: Final = Conf()
# SPEC exactly: the published decision tree and the semantic drops, nothing after.
PUBLISHED_CONF: Final = Conf(profile=Profile.PUBLISHED)
