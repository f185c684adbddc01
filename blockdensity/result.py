"""What the fit returns: Fit, its per-block records, and the labels they carry."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, fields
from enum import StrEnum
from typing import Any, Final

from blockdensity.conf import Profile
from blockdensity.pagetype import PageType

__all__ = [
    "NO_METADATA",
    "WHOLE_PAGE",
    "Block",
    "BlockKind",
    "Decision",
    "FallbackReason",
    "Fit",
    "Metadata",
    "Reason",
    "Summary",
    "kind_of",
    "summary_fields",
]


class BlockKind(StrEnum):
    """What a block is, from the boundary element its text sits in (an indexer weights a
    heading, shows a list item as one): the kinds HTML names."""

    HEADING = "heading"  # h1-h6, with its level
    PARAGRAPH = "paragraph"  # p
    LIST_ITEM = "list_item"  # li, dt, dd
    QUOTE = "quote"  # blockquote
    PREFORMATTED = "preformatted"  # pre
    TABLE_CELL = "table_cell"  # td, th
    CAPTION = "caption"  # figcaption, caption
    OTHER = "other"  # div, section, body, ...


_KINDS: Final = {
    "p": BlockKind.PARAGRAPH,
    "li": BlockKind.LIST_ITEM,
    "dt": BlockKind.LIST_ITEM,
    "dd": BlockKind.LIST_ITEM,
    "blockquote": BlockKind.QUOTE,
    "pre": BlockKind.PREFORMATTED,
    "td": BlockKind.TABLE_CELL,
    "th": BlockKind.TABLE_CELL,
    "figcaption": BlockKind.CAPTION,
    "caption": BlockKind.CAPTION,
    **{f"h{level}": BlockKind.HEADING for level in range(1, 7)},
}


def kind_of(element: str) -> tuple[BlockKind, int | None]:
    """The kind of a block whose text sits in `element`, and a heading's level (else None)."""
    kind = _KINDS.get(element, BlockKind.OTHER)
    return kind, int(element[1]) if kind is BlockKind.HEADING else None


class Decision(StrEnum):
    """What happened to a block."""

    CONTENT = "content"  # kept
    BOILERPLATE = "boilerplate"  # the decision tree rejected it
    DROPPED = "dropped"  # inside a semantic element the configuration drops


class Reason(StrEnum):
    """Which leaf of the decision tree decided a block, or which rule overrode it.

    The tree is boilerpipe's NumWordsRulesClassifier (docs/spec.md section 4); its
    thresholds are the configuration's (blockdensity.conf.Conf).
    """

    LINK_DENSE = "link_dense"
    LONG = "long"
    SHORT_BEFORE_TEXT = "short_before_text"
    SHORT_AFTER_TEXT = "short_after_text"
    SHORT_ISOLATED = "short_isolated"
    AFTER_LINKS_LONG = "after_links_long"
    AFTER_LINKS_BEFORE_TEXT = "after_links_before_text"
    AFTER_LINKS_SHORT = "after_links_short"
    SEMANTIC_DROP = "semantic_drop"
    SEMANTIC_MAJORITY = "semantic_majority"
    # The article profile's rules (blockdensity.article), overriding the tree.
    ARTICLE_COMMENTS = "article_comments"
    ARTICLE_BOX = "article_box"
    OUTSIDE_MAIN_CONTAINER = "outside_main_container"
    OUTSIDE_INNER_CONTAINER = "outside_inner_container"
    OUTSIDE_CONTENT_CONTAINER = "outside_content_container"
    LIST_HEADING = "list_heading"  # a short block heading a link list (list_headings)
    BETWEEN_TEXT = "between_text"  # kept: a short isolated block between kept ones
    LINKED_PROSE = "linked_prose"  # kept: the article rule that overrides a boilerplate verdict
    # The rules by kind of page (blockdensity.decide.kinds).
    FOOTER_MAJORITY = "footer_majority"  # dropped: a footer kept for holding most of the text
    FORUM_POST = "forum_post"  # kept: a post of a forum thread the comments rule took
    POST_BODY = "post_body"  # kept: laid out as a forum thread's post bodies (post_bodies)
    BOX_MAJORITY = "box_majority"  # kept: in a box region holding most of what the tree kept
    PAGE_CHROME = "page_chrome"  # dropped: a short line about the page itself (documentation)
    CONTAINER_TEXT = "container_text"  # kept: rejected by the tree inside the trusted container
    SPAN_TEXT = "span_text"  # kept: a short block with few links between kept text
    ITEM_CARD = "item_card"  # kept: an item card's heading or line (listings, collections)
    DATA_TABLE = "data_table"  # kept: a cell of a data table with a kept cell (every page)
    ITEM_GRID = "item_grid"  # kept: a block of the page's item grid (listings, collections)
    DUPLICATE_TEXT = "duplicate_text"  # dropped: repeats text kept before it
    # dropped: outside the element around the page's one h1 that holds half the kept words
    OUTSIDE_TITLE_REGION = "outside_title_region"
    RELATED_ITEMS = "related_items"  # dropped: a card of a grid of priced items (products)
    REVIEW_SECTION = "review_section"  # dropped: in a section of reviews or questions (products)
    RELATED_SECTION = "related_section"  # dropped: in a section of other products (products)
    SHOP_LINK = "shop_link"  # dropped: a short link in a collection's container (a facet, a button)
    CONTAINER_ITEM = "container_item"  # kept: an article's list item inside its text
    # kept: a list a line ending with a colon introduces, and that line (articles)
    INTRODUCED_LIST = "introduced_list"
    SECTION_HEADING = "section_heading"  # kept: a heading dropped right before kept text
    CODE_BLOCK = "code_block"  # kept: a <pre> the tree rejected inside the kept text
    # kept: a paragraph of prose the tree rejected for the links before it
    AFTER_LINKS_TEXT = "after_links_text"
    CONSENT_NOTICE = "consent_notice"  # dropped: in a cookie-consent notice
    # dropped: an entry of a table of contents, a line that links within the page
    TABLE_OF_CONTENTS = "table_of_contents"
    # dropped: in a button or a label, or in a dialog (form_controls)
    FORM_CONTROL = "form_control"
    # dropped: a short copyright notice or a picture's credit (copyright_notices)
    COPYRIGHT_NOTICE = "copyright_notice"


class FallbackReason(StrEnum):
    """Why the fit returned the page's full text (docs/spec.md section 6), or read the page
    another way than a browser with scripting on (blockdensity.parse)."""

    SINGLE_BLOCK = "single_block"  # at most one block with words
    NOTHING_KEPT = "nothing_kept"  # no block with words survived
    NO_TEXT = "no_text"  # the page has no words at all
    # The page shows (almost) no text with scripting on: the fit read the
    # content of its <noscript> elements as the page (Discourse's crawler view).
    NOSCRIPT = "noscript"
    # ... and read the content a streaming renderer sent hidden (React's
    # <div hidden id="S:n">) where it is.
    DEFERRED_CONTENT = "deferred_content"


# The reasons of docs/spec.md section 6: the fit returned the whole text (Summary.fallback).
WHOLE_PAGE: Final = frozenset(
    (FallbackReason.SINGLE_BLOCK, FallbackReason.NOTHING_KEPT, FallbackReason.NO_TEXT)
)


def _doc(text: str) -> dict[str, str]:
    """A field's meaning, kept in its metadata (JSON Schemas made from the record show it)."""
    return {"description": text}


def _plain(value: object) -> object:
    return value.value if isinstance(value, StrEnum) else value


@dataclass(frozen=True, slots=True, kw_only=True)
class Block:
    """One text block of the page and how the fit judged it."""

    index: int = field(metadata=_doc("Position among the page's blocks with visible text."))
    element: str = field(metadata=_doc("The boundary element the block's text sits in."))
    text: str = field(metadata=_doc("The block's text as the renderer renders it."))
    text_bytes: int = field(metadata=_doc("UTF-8 length of text."))
    words: int
    link_words: int
    link_density: int = field(
        metadata=_doc("Permil, floored; 0 when words is 0 (for reports only).")
    )
    decision: Decision
    reason: Reason = field(metadata=_doc("The tree's leaf, or the rule that overrode it."))
    leaf: Reason = field(metadata=_doc("The tree's leaf, always."))
    scope: str | None = field(
        metadata=_doc('The dropped element in effect at the block, e.g. "nav".')
    )
    kind: BlockKind = field(init=False, metadata=_doc("What the block is, from its element."))
    level: int | None = field(init=False, metadata=_doc("A heading's level, 1-6; else null."))

    def __post_init__(self) -> None:
        kind, level = kind_of(self.element)
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "level", level)

    def to_dict(self) -> dict[str, Any]:
        """The block as JSON-ready data (enums as their string values)."""
        return {name: _plain(getattr(self, name)) for name in _field_names(Block)}


@dataclass(frozen=True, slots=True, kw_only=True)
class Metadata:
    """What the page says about itself, in its <head>, its microdata and its JSON-LD
    (blockdensity.metadata says where each field comes from). Absent fields are
    null or empty: a page declares some of these, rarely all."""

    canonical_url: str | None = field(
        default=None,
        metadata=_doc("<link rel=canonical> (else og:url), resolved against the page's URL."),
    )
    title: str | None = field(
        default=None,
        metadata=_doc("The title the page declares for sharing: og:title, JSON-LD headline, ..."),
    )
    description: str | None = field(
        default=None, metadata=_doc("og:description, <meta name=description>, JSON-LD, ...")
    )
    site_name: str | None = field(
        default=None, metadata=_doc("og:site_name, else the JSON-LD publisher's or site's name.")
    )
    type: str | None = field(
        default=None, metadata=_doc("og:type, else the JSON-LD entity's @type (article, ...).")
    )
    image: str | None = field(
        default=None, metadata=_doc("og:image, twitter:image or JSON-LD image, resolved.")
    )
    published: str | None = field(
        default=None,
        metadata=_doc(
            "When the page says it was published (JSON-LD datePublished, article:published_time,"
            " ...), RFC 3339: a date-time (-00:00 when the page gave no offset) or a date."
        ),
    )
    modified: str | None = field(
        default=None, metadata=_doc("When the page says it was last modified, as published.")
    )
    authors: tuple[str, ...] = field(
        default=(), metadata=_doc("Author names: JSON-LD author, <meta name=author>, ...")
    )
    keywords: tuple[str, ...] = field(
        default=(), metadata=_doc("<meta name=keywords>, news_keywords, article:tag, JSON-LD.")
    )

    def to_dict(self) -> dict[str, Any]:
        """The metadata as JSON-ready data (tuples as lists)."""
        return {
            name: list(value) if isinstance(value, tuple) else value
            for name in _field_names(Metadata)
            for value in (getattr(self, name),)
        }


NO_METADATA: Final = Metadata()


@dataclass(frozen=True, slots=True, kw_only=True)
class Summary:
    """What the fit found on one page, as plain data: the record a pipeline keeps.

    Every field here is a field of the worker's output record too
    (worker.clean_page.CleanPage declares them again, without the library; a
    test holds the two alike). Plain data throughout: a Summary pickles, and
    msgspec encodes it as it is.
    """

    text: str = field(metadata=_doc("Main text; the whole text on fallback."))
    title: str = field(metadata=_doc("The page's <title>, whitespace collapsed."))
    lang: str | None = field(
        metadata=_doc("The language the page declares (<html lang>), if it does.")
    )
    fallback: bool = field(
        init=False,
        metadata=_doc(
            "Whether the whole text was returned: fallback_reason is single_block,"
            " nothing_kept or no_text."
        ),
    )
    fallback_reason: FallbackReason | None = field(
        metadata=_doc(
            "Why the whole text was returned (docs/spec.md section 6), or how the page was read"
            " when a browser with scripting on shows (almost) none of it (noscript,"
            " deferred_content);"
            " null otherwise."
        )
    )
    blocks_total: int = field(metadata=_doc("Blocks with visible text."))
    blocks_with_words: int
    blocks_kept: int = field(metadata=_doc("Blocks whose text is in text."))
    words_total: int
    words_kept: int = field(metadata=_doc("Words in text."))
    profile: Profile = field(
        metadata=_doc("Which fit ran: published (SPEC exactly) or article (its rules after).")
    )
    # Fields added in schema version 2 of the worker's record have defaults,
    # so that a record of version 1 still decodes as this class.
    lang_detected: str | None = field(
        default=None,
        metadata=_doc(
            "The language the text is in, as CLD2 detects it (BCP 47: en, de, zh-Hant, ...);"
            " null when it cannot tell reliably."
        ),
    )
    lang_confidence: float | None = field(
        default=None,
        metadata=_doc("The share of the sampled text in lang_detected, 0 to 1; null with it."),
    )
    text_sha256: str | None = field(
        default=None,
        metadata=_doc(
            "SHA-256 of text's UTF-8 bytes, hex: equal texts, equal digests"
            " (always set by the fit; null only in records of schema version 1)."
        ),
    )
    metadata: Metadata = field(
        default=NO_METADATA, metadata=_doc("What the page says about itself.")
    )
    # Added in schema version 3 of the worker's record, with a default for the same reason.
    comments: str | None = field(
        default=None,
        metadata=_doc(
            "The text of the page's user comments (the article profile's comments rule), apart"
            " from text; null when there are none, on fallback, or with Conf.comments drop."
        ),
    )
    # Added in schema version 4 of the worker's record, with a default for the same reason.
    truncated: bool = field(
        default=False,
        metadata=_doc(
            "Whether the page was longer than the fit's element budget (200,000 elements):"
            " its end was not read, and text is of the part before."
        ),
    )
    confidence: float | None = field(
        default=None,
        metadata=_doc(
            "How likely text is the page's main content, 0 to 1: the fit's estimate of its own"
            " F1 from its evidence (blockdensity.confidence); pages rank by it, and 0.8 means"
            " about 0.8 F1 on average (always set by the fit; null only in older records)."
        ),
    )
    page_type: PageType | None = field(
        default=None,
        metadata=_doc(
            "What kind of page this is (WCXB's kinds: article, forum, product, collection,"
            " listing, documentation, service): the caller's, else the fit's classifier's"
            " (blockdensity.pagetype); the rules by kind of page follow it when"
            " page_type_confidence is high enough. Null under the published profile (which"
            " runs no such rules and does not classify) unless the caller gave it, and in"
            " older records."
        ),
    )
    page_type_confidence: float | None = field(
        default=None,
        metadata=_doc(
            "The classifier's probability of page_type, 0 to 1; 1 when the caller gave the"
            " type; null with page_type."
        ),
    )

    def __post_init__(self) -> None:
        object.__setattr__(self, "fallback", self.fallback_reason in WHOLE_PAGE)

    def summary(self) -> Summary:
        """These fields alone, without anything a subclass adds (e.g. to pickle them)."""
        return Summary(**summary_fields(self))


def summary_fields(record: Summary) -> dict[str, Any]:
    """The constructor arguments of `record`'s Summary fields, for building a subclass."""
    return {name: getattr(record, name) for name in _SUMMARY_INIT}


@dataclass(frozen=True, slots=True, kw_only=True)
class Fit(Summary):
    """The result of fitting one page. Immutable.

    `blocks` is built on first access: the per-block records cost more than
    the rest of the result, and a pipeline that needs only the text and the
    counts never pays for them. So are `markdown` and `comments_markdown`.
    """

    encoding: str | None = field(
        metadata=_doc("What the bytes were decoded as; None when given str.")
    )
    rules_kind: PageType | None = field(
        default=None,
        metadata=_doc(
            "The kind of page whose rules ran (blockdensity.decide.kinds): page_type where"
            " page_type_confidence is at least 0.4, article where it is under; or, where those"
            " rules kept under 50 words, the kind whose rules kept more on a second look"
            " (page_type, then collection: decide.kinds.second_looks); or listing, where"
            " page_type is an article under 0.7 with a listing next likeliest and a listing's"
            " rules kept three times the words (decide.kinds.listing_look). None where no"
            " rules ran (the published profile)."
        ),
    )
    block_factory: Callable[[], tuple[Block, ...]] = field(repr=False, compare=False)
    # (the text's Markdown, the comments' Markdown or None), rendered when first read.
    markdown_factory: Callable[[], tuple[str, str | None]] = field(
        default=lambda: ("", None), repr=False, compare=False
    )
    _blocks: tuple[Block, ...] | None = field(default=None, init=False, repr=False, compare=False)
    _markdown: tuple[str, str | None] | None = field(
        default=None, init=False, repr=False, compare=False
    )

    @property
    def blocks(self) -> tuple[Block, ...]:
        """Every block with visible text, in document order, with how it was judged."""
        blocks = self._blocks
        if blocks is None:
            blocks = self.block_factory()
            object.__setattr__(self, "_blocks", blocks)
        return blocks

    @property
    def markdown(self) -> str:
        """The text as Markdown (CommonMark with pipe tables, blockdensity.markdown): the
        same kept blocks, each as its element says (headings, lists, tables, code,
        quotes), the same words. Rendered on first access."""
        return self._markdowns()[0]

    @property
    def comments_markdown(self) -> str | None:
        """The comments as Markdown, as `markdown` renders the text; None with `comments`."""
        return self._markdowns()[1]

    def _markdowns(self) -> tuple[str, str | None]:
        rendered = self._markdown
        if rendered is None:
            rendered = self.markdown_factory()
            object.__setattr__(self, "_markdown", rendered)
        return rendered

    def __repr__(self) -> str:
        return (
            f"Fit(title={self.title!r}, lang={self.lang!r}, fallback_reason="
            f"{self.fallback_reason!r}, blocks_kept={self.blocks_kept}/{self.blocks_total}, "
            f"words_kept={self.words_kept}/{self.words_total}, text={self.text[:60]!r})"
        )

    def to_dict(self, *, blocks: bool = True) -> dict[str, Any]:
        """The result as JSON-ready data (enums as their string values)."""
        data = {name: _plain(getattr(self, name)) for name in _FIT_DATA}
        data["metadata"] = self.metadata.to_dict()
        if blocks:
            data["blocks"] = [block.to_dict() for block in self.blocks]
        return data


def _field_names(cls: type[object]) -> tuple[str, ...]:
    return tuple(f.name for f in fields(cls))  # type: ignore[arg-type]  # a dataclass


_SUMMARY_INIT: Final = tuple(f.name for f in fields(Summary) if f.init)
# What Fit.to_dict reports: the page-level data, not the block factory.
_FIT_DATA: Final = tuple(
    name
    for name in _field_names(Fit)
    if name not in {"block_factory", "_blocks", "markdown_factory", "_markdown"}
)
