"""The stage's output record, CleanPage, and every type it holds: the wire's own.

blockdensity's fit returns a Fit (blockdensity.result); what goes on the
wire is this record, declared here without the library, so that a program
that only reads or writes messages (the feeder, the collector, a consumer)
imports neither the fit nor its parser. The stage fills it from a Fit
(worker.stage.clean_record). Its fields, their types, their order and their
descriptions are the contract: msgspec encodes the record as a map in this
order, and `python -m worker.schemas` writes its JSON Schema from it.

The fit's fields mirror blockdensity.Summary's (and Metadata, Profile,
FallbackReason, BlockKind theirs): tests/worker/test_schemas.py holds the
two alike, field for field, so a field the library adds fails there until
it is added here and in the stage's conversion.

To change the record: add the field with a default (a record of an older
version must still decode as the new class), give it a description, bump
SCHEMA_VERSION and say what the version added below, fill it in
worker.stage.clean_record, and run `python -m worker.schemas`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Final

__all__ = [
    "PAGE_TYPES",
    "SCHEMA_VERSION",
    "WHOLE_PAGE",
    "BlockKind",
    "CleanPage",
    "FallbackReason",
    "KeptBlock",
    "Metadata",
    "Profile",
]

# Bumped when CleanPage changes; it is also part of the output's message_id,
# so outputs of different versions never de-duplicate each other. Version 2
# added lang_detected, lang_confidence, text_sha256, metadata and blocks, all
# optional: a consumer of version 1 ignores them, and a record of version 1
# still decodes as a CleanPage of version 2 (README, "Message contract").
# Version 3 added comments (the page's user comments apart from its text),
# optional and null when there are none, the same way. Version 4 added
# truncated (the page went past the element budget), false by default,
# confidence (how likely text is the page's main content), page_type and
# page_type_confidence (what kind of page it is, and how sure the fit is), null
# in older records, and markdown and comments_markdown (the text and the
# comments as Markdown, when the stage is asked for it), null. Version 4 has
# not been released beyond this repository, so the two Markdown fields joined
# it rather than a version 5: both optional, and null in a record without them.
SCHEMA_VERSION: Final = 4

# The kinds of page the fit reports in page_type at this version (blockdensity.PageType's
# values; a test holds the two alike). A later fit may add one: the field is a string.
PAGE_TYPES: Final = (
    "article", "forum", "product", "collection", "listing", "documentation", "service",
)  # fmt: skip


def _doc(text: str) -> dict[str, str]:
    """A field's description, in its metadata (worker.schemas puts it in the JSON Schema)."""
    return {"description": text}


class Profile(StrEnum):
    """Which fit runs: the published one (SPEC exactly), or it and the article rules after."""

    PUBLISHED = "published"
    ARTICLE = "article"


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


NO_METADATA: Final = Metadata()


@dataclass(frozen=True, slots=True, kw_only=True)
class KeptBlock:
    """One block of the page's text: what it is, and its text (its lines in `text`)."""

    kind: BlockKind = field(
        metadata={"description": "heading, paragraph, list_item, quote, preformatted, ..."}
    )
    level: int | None = field(metadata={"description": "A heading's level, 1-6; else null."})
    text: str = field(metadata={"description": "The block's lines, as in the page's text."})


@dataclass(frozen=True, slots=True, kw_only=True)
class CleanPage:
    """A page's main text, as the indexer receives it."""

    # -- what the fit found (blockdensity.Summary's fields, in its order) ----------
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
            " deferred_content); null otherwise."
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
    # Added in schema version 2, with defaults, so that a record of version 1
    # still decodes as this class.
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
    # Added in schema version 3, with a default for the same reason.
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
    # A string, not an enum: a reader of this version decodes a kind a later fit adds.
    page_type: str | None = field(
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
    # -- the fetch, and the stage's own -------------------------------------------
    url: str = field(metadata={"description": "The page's URL, as fetched."})
    fetch_id: str | None = field(metadata={"description": "The crawler's id of the fetch."})
    status: int = field(metadata={"description": "The HTTP status of the fetch."})
    fit_seconds: float = field(metadata={"description": "Time of the fit in its process."})
    blocks: tuple[KeptBlock, ...] | None = field(
        default=None,
        metadata={
            "description": "The blocks of text, in order (BLOCKDENSITY_OUTPUT_BLOCKS=true;"
            " else null): text is their texts joined by newlines."
        },
    )
    # Added in schema version 4, with a default for the same reason.
    markdown: str | None = field(
        default=None,
        metadata={
            "description": "The text as Markdown (BLOCKDENSITY_FORMAT=markdown; else null):"
            " the same kept blocks, as headings, lists, pipe tables, fenced code and quotes"
            " (CommonMark with GitHub's tables), the same words."
        },
    )
    # Added in schema version 4 with markdown, with a default for the same reason.
    comments_markdown: str | None = field(
        default=None,
        metadata={
            "description": "The comments as Markdown, as markdown renders the text"
            " (BLOCKDENSITY_FORMAT=markdown and comments found; else null)."
        },
    )
    schema_version: int = SCHEMA_VERSION

    def __post_init__(self) -> None:
        object.__setattr__(self, "fallback", self.fallback_reason in WHOLE_PAGE)
