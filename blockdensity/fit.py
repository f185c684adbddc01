"""fit_text: the fit as a chain of stages, one module each.

    decode   bytes to markup as a browser would           blockdensity.decode
    parse    markup to lexbor's tree                       blockdensity.parse
    walk     the tree as text blocks                       blockdensity.segment
    measure  each block's words and link words             blockdensity.measure
    decide   each block's outcome, the kept blocks         blockdensity.decide
    render   the kept blocks as text                       blockdensity.render

then what the fit reports besides the text: the language of the text
(blockdensity.language), the page's metadata (blockdensity.metadata), the
kind of page (blockdensity.pagetype, from the evidence blockdensity.evidence
counts; read before decide, whose rules it chooses), how
likely the text is the page's main content (blockdensity.confidence), and
the record of it all (`record`; each block's record is built when first
read). A page whose first reading shows (almost) no text is read again
(blockdensity.read).
"""

from __future__ import annotations

import hashlib
from typing import Final, NamedTuple

from blockdensity.conf import DEFAULT_CONF, Comments, Conf, Profile
from blockdensity.confidence import confidence, figures
from blockdensity.decide import Verdict, decide
from blockdensity.decide.outcome import REPORTED
from blockdensity.decide.tree import LEAVES, link_density_permil
from blockdensity.decode import Source, decode
from blockdensity.evidence import gather
from blockdensity.language import detect_language
from blockdensity.markdown import render_markdown
from blockdensity.mdimages import Images, image_targets
from blockdensity.mdlinks import Links, link_targets, traced_walk
from blockdensity.measure import Measures, measure
from blockdensity.metadata import Declared, read_declared
from blockdensity.pagetype import PageType, ranked
from blockdensity.parse import Parsed, Reading, parse
from blockdensity.read import Read, needs_rereading, reread
from blockdensity.render import Rendered, block_lines, render
from blockdensity.result import NO_METADATA, Block, FallbackReason, Fit, Metadata
from blockdensity.segment import DROP, ELEMENT, Page, walk
from blockdensity.structure import Structure

__all__ = ["NO_LANGUAGE", "PageRead", "fit_text", "read_page", "record"]


def fit_text(
    html: str | bytes,
    conf: Conf | None = None,
    *,
    charset: str | None = None,
    url: str | None = None,
    page_type: PageType | None = None,
) -> Fit:
    """Keep a page's main text and drop the boilerplate around it.

    `html` may be bytes, decoded as a browser would (`charset` is the HTTP
    header's, if any). `url`, the page's, resolves the URLs of its metadata.
    `page_type`, when the caller knows what kind of page it is (a crawler's
    map of a site), chooses the rules by kind of page (blockdensity.decide.kinds)
    with confidence 1; otherwise the fit classifies the page (blockdensity.pagetype)
    and the rules follow its kind when it is sure enough, and read the page again
    as another kind where they keep next to nothing, or where it is an uncertain
    article that a listing's rules read as a far longer text (decide.kinds;
    Fit.rules_kind says whose rules ran). The published profile,
    which runs no such rules, does not classify (Fit.page_type None unless given).
    Never raises for any input: a page the fit cannot judge comes back
    whole, with `fallback` set (docs/spec.md section 6).
    """
    conf = conf or DEFAULT_CONF
    source, parsed, page, measures, metadata, declared = read_page(html, conf, charset, url)
    kind: tuple[PageType, float] | None = None
    runner_up: PageType | None = None
    if page_type is not None:
        kind = (page_type, 1.0)
    elif conf.profile is Profile.ARTICLE:
        # The classifier costs a fifth of a fit: not paid where no rule reads its answer.
        first, sure, runner_up = ranked(
            gather(page, measures, metadata, declared, source.markup, url)
        )
        kind = (first, sure)
    kind_type, kind_confidence = kind or _UNKNOWN
    verdict = decide(
        page,
        measures,
        conf,
        kind_type,
        kind_confidence,
        classified=page_type is None,
        runner_up=runner_up,
    )
    rendered = render(page, verdict, conf.comments)
    language = detect_language(rendered.text) if conf.detect_language else NO_LANGUAGE
    if not conf.read_metadata:
        metadata = NO_METADATA
    return record(
        source, parsed, page, measures, verdict, rendered, language, metadata, conf, kind, url
    )


class PageRead(NamedTuple):
    """What the stages before the decision make of a page (`read_page`)."""

    source: Source
    parsed: Parsed
    page: Page
    measures: Measures
    metadata: Metadata  # read whatever Conf.read_metadata says
    declared: Declared  # what the page declares of its kind


def read_page(
    html: str | bytes, conf: Conf, charset: str | None = None, url: str | None = None
) -> PageRead:
    """The stages before the decision, as fit_text runs them: decode, parse, walk,
    measure (and a second reading where the first shows almost no text), then the
    metadata. The metadata is read here, before the decision, because the page's
    declarations are evidence of its kind; and whatever Conf.read_metadata says, so that
    the text does not depend on whether the metadata is reported."""
    source = decode(html, charset)
    parsed = parse(source, conf)
    page = walk(parsed, conf)
    measures = measure(page)
    if needs_rereading(page, measures):
        parsed, page, measures = reread(Read(parsed, page, measures), conf)
    metadata, declared = read_declared(
        parsed.document, page.declarations, url, page.declared_ids, page.microdata
    )
    return PageRead(source, parsed, page, measures, metadata, declared)


NO_LANGUAGE: Final = (None, None)
# The kind decide is given for a page not classified: an article, no confidence.
_UNKNOWN: Final = (PageType.ARTICLE, 0.0)


_READING_REASONS: Final = {
    Reading.NOSCRIPT: FallbackReason.NOSCRIPT,
    Reading.DEFERRED: FallbackReason.DEFERRED_CONTENT,
}


def record(  # noqa: PLR0913, PLR0917 - every stage's result, and the configuration
    source: Source,
    parsed: Parsed,
    page: Page,
    measures: Measures,
    verdict: Verdict,
    rendered: Rendered,
    language: tuple[str | None, float | None],
    metadata: Metadata,
    conf: Conf,
    kind: tuple[PageType, float] | None = None,
    url: str | None = None,
) -> Fit:
    """The Fit the stages' results make (its block records built when first read)."""
    text = rendered.text
    words = measures.words
    words_total = sum(words)
    # A whole page's fallback says why the text is all of it; else the
    # reading taken, when it was not the browser's (blockdensity.read).
    fallback_reason = verdict.fallback or _READING_REASONS.get(parsed.reading)
    # The kind as Fit reports it (its probability rounded), which the confidence reads too.
    page_type, type_confidence = (None, None) if kind is None else (kind[0], round(kind[1], 4))
    # The parsed page, kept for Fit.markdown's links and images only when they are asked for.
    links = (parsed, url) if conf.markdown_links or conf.markdown_images else None
    return Fit(
        text=text,
        title=page.title,
        lang=page.lang,
        fallback_reason=fallback_reason,
        block_factory=lambda: _block_records(page, measures, verdict),
        markdown_factory=lambda: _markdowns(page, verdict, rendered, conf, links),
        blocks_total=len(page.blocks),
        blocks_with_words=len(words) - words.count(0),
        blocks_kept=len(verdict.kept),
        words_total=words_total,
        words_kept=verdict.words_kept,
        profile=conf.profile,
        lang_detected=language[0],
        lang_confidence=language[1],
        text_sha256=hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest(),
        metadata=metadata,
        encoding=source.encoding,
        rules_kind=verdict.kind,
        comments=rendered.comments,
        truncated=parsed.truncated,
        page_type=page_type,
        page_type_confidence=type_confidence,
        confidence=confidence(
            figures(
                words_total,
                measures.links,
                verdict,
                fallback_reason,
                metadata,
                page_type=page_type,
                type_confidence=type_confidence or 0.0,
            )
        ),
    )


def _markdowns(
    page: Page,
    verdict: Verdict,
    rendered: Rendered,
    conf: Conf,
    links: tuple[Parsed, str | None] | None,
) -> tuple[str, str | None]:
    """Fit.markdown and Fit.comments_markdown, rendered when first read: the blocks the
    text and the comments hold, as `render` puts them together (with their links and
    images, as Conf asks, when `links`, the parsed page and its URL, is given)."""
    targets: Links = {}
    images: Images | None = None
    if links is not None:
        parsed, url = links
        trace = traced_walk(page, parsed, conf)
        if conf.markdown_links:
            # Only the blocks the Markdown renders: the text's and the comments'.
            targets = link_targets(page, trace, url, {*verdict.kept, *verdict.comments})
        if conf.markdown_images:
            images = image_targets(parsed.document, trace, conf.boundaries, url)
    comments = conf.comments
    # The text's lines are the kept blocks' alone unless the comments follow them.
    included = bool(verdict.comments) and comments is Comments.INCLUDE
    kind = verdict.kind
    # One structure for both renders: the decide stage's where its rules built one.
    structure = verdict.structure if verdict.structure is not None else Structure(page)
    text = render_markdown(
        page,
        verdict.kept,
        targets,
        images,
        None if included else rendered.text,
        kind=kind,
        structure=structure,
    )
    if not verdict.comments or comments is Comments.DROP:
        return text, None
    comments_text = render_markdown(
        page, verdict.comments, targets, images, rendered.comments, kind=kind, structure=structure
    )
    if comments is Comments.INCLUDE:
        text = f"{text}\n\n{comments_text}" if text else comments_text
    return text, comments_text or None


def _block_records(page: Page, measures: Measures, verdict: Verdict) -> tuple[Block, ...]:
    """Every block with how it was judged: Fit.blocks, built when first read."""
    words, links = measures
    labels = page.drop_scopes
    texts = page.block_texts()
    records = []
    for index, raw in enumerate(page.blocks):
        leaf = LEAVES[verdict.leaves[index]]
        decision, reason = REPORTED[verdict.outcomes[index]]
        text = "\n".join(block_lines(raw, texts[index]))
        records.append(
            Block(
                index=index,
                element=raw[ELEMENT],
                text=text,
                text_bytes=len(text.encode()),
                words=words[index],
                link_words=links[index],
                link_density=link_density_permil(words[index], links[index]),
                decision=decision,
                reason=leaf if reason is None else reason,
                leaf=leaf,
                scope=labels[raw[DROP]] if raw[DROP] >= 0 else None,
            )
        )
    return tuple(records)
