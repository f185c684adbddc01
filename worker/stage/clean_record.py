"""A fit as the stage's output record: blockdensity's Fit, converted to a CleanPage.

The record and its types are the message contract's (worker.clean_page),
declared apart from the library; this is the one place that reads a Fit to
fill one, field for field. A field added to the record is filled here.
"""

from __future__ import annotations

from blockdensity import Decision, Fit, Summary
from blockdensity import Metadata as FitMetadata
from worker.clean_page import (
    BlockKind,
    CleanPage,
    FallbackReason,
    KeptBlock,
    Metadata,
    Profile,
)
from worker.schemas import FetchedPage

__all__ = ["clean_page", "kept_blocks", "metadata_of"]


def clean_page(
    page: FetchedPage[bytes] | FetchedPage[str],
    fit: Summary,
    fit_seconds: float,
    *,
    blocks: bool = False,
    markdown: bool = False,
) -> CleanPage:
    """The output record of `page`, from its fit (a Fit, or any Summary); with `blocks`
    (and a Fit), the kept blocks too; with `markdown` (and a Fit), the text and the
    comments as Markdown."""
    reason = fit.fallback_reason
    return CleanPage(
        text=fit.text,
        title=fit.title,
        lang=fit.lang,
        fallback_reason=None if reason is None else FallbackReason(reason.value),
        blocks_total=fit.blocks_total,
        blocks_with_words=fit.blocks_with_words,
        blocks_kept=fit.blocks_kept,
        words_total=fit.words_total,
        words_kept=fit.words_kept,
        profile=Profile(fit.profile.value),
        lang_detected=fit.lang_detected,
        lang_confidence=fit.lang_confidence,
        text_sha256=fit.text_sha256,
        metadata=metadata_of(fit.metadata),
        comments=fit.comments,
        truncated=fit.truncated,
        confidence=fit.confidence,
        page_type=None if fit.page_type is None else fit.page_type.value,
        page_type_confidence=fit.page_type_confidence,
        url=page.url,
        fetch_id=page.fetch_id,
        status=page.status,
        fit_seconds=fit_seconds,
        blocks=kept_blocks(fit) if blocks and isinstance(fit, Fit) else None,
        markdown=fit.markdown if markdown and isinstance(fit, Fit) else None,
        comments_markdown=fit.comments_markdown if markdown and isinstance(fit, Fit) else None,
    )


def metadata_of(metadata: FitMetadata) -> Metadata:
    """The record's Metadata of the fit's."""
    return Metadata(
        canonical_url=metadata.canonical_url,
        title=metadata.title,
        description=metadata.description,
        site_name=metadata.site_name,
        type=metadata.type,
        image=metadata.image,
        published=metadata.published,
        modified=metadata.modified,
        authors=metadata.authors,
        keywords=metadata.keywords,
    )


def kept_blocks(fit: Fit) -> tuple[KeptBlock, ...]:
    """The blocks whose text is the page's text, in order (all of them on fallback)."""
    return tuple(
        KeptBlock(kind=BlockKind(block.kind.value), level=block.level, text=block.text)
        for block in fit.blocks
        if block.text and (fit.fallback or block.decision is Decision.CONTENT)
    )
