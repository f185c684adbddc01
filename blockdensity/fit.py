"""fit_text: decode -> segment -> measure -> classify -> drop -> render, with the fallback."""

from __future__ import annotations

import hashlib
from typing import Final

from blockdensity import article
from blockdensity.classify import CONTENT_LEAVES, LEAVES, classify, link_density_permil
from blockdensity.conf import DEFAULT_CONF, Comments, Conf, Rule
from blockdensity.decode import prepare_html
from blockdensity.language import detect_language
from blockdensity.measure import measure
from blockdensity.metadata import read_metadata
from blockdensity.render import block_lines, render_blocks
from blockdensity.result import NO_METADATA, Block, Decision, FallbackReason, Fit, Reason
from blockdensity.segment import DROP, ELEMENT, BlockInfo, trace_segment

__all__ = ["fit_text"]

# A block's fate. Final: mypyc inlines the literals and keeps the others in C
# statics; plain module names cost a dict lookup at every use, in every loop.
_KEPT: Final = 0
_BOILERPLATE: Final = 1
_DROPPED: Final = 2
_MAJORITY: Final = 3
_COMMENTS: Final = 4
_BOX: Final = 5
_OUTSIDE_MAIN: Final = 6
_OUTSIDE_INNER: Final = 7
_PROSE: Final = 8  # kept by the linked_prose rule
_OUTSIDE_CONTENT: Final = 9
_LIST_HEADING: Final = 10
_BETWEEN: Final = 11  # kept by the between_text rule
_KEPT_FATES: Final = (_KEPT, _MAJORITY, _PROSE, _BETWEEN)
_LINK_DENSE: Final = LEAVES.index(Reason.LINK_DENSE)
_SHORT_ISOLATED: Final = LEAVES.index(Reason.SHORT_ISOLATED)
_RULE_FATES: Final = {
    Rule.COMMENTS: _COMMENTS,
    Rule.BOXES: _BOX,
    Rule.MAIN_CONTAINER: _OUTSIDE_MAIN,
    Rule.INNER_CONTAINER: _OUTSIDE_INNER,
    Rule.LINKED_PROSE: _PROSE,
    Rule.CONTENT_CONTAINER: _OUTSIDE_CONTENT,
    Rule.LIST_HEADINGS: _LIST_HEADING,
    Rule.BETWEEN_TEXT: _BETWEEN,
}
_RULE_REASONS: Final = {
    _COMMENTS: Reason.ARTICLE_COMMENTS,
    _BOX: Reason.ARTICLE_BOX,
    _OUTSIDE_MAIN: Reason.OUTSIDE_MAIN_CONTAINER,
    _OUTSIDE_INNER: Reason.OUTSIDE_INNER_CONTAINER,
    _OUTSIDE_CONTENT: Reason.OUTSIDE_CONTENT_CONTAINER,
    _LIST_HEADING: Reason.LIST_HEADING,
}


def fit_text(
    html: str | bytes,
    conf: Conf | None = None,
    *,
    charset: str | None = None,
    url: str | None = None,
) -> Fit:
    """Keep a page's main text and drop the boilerplate around it.

    `html` may be bytes, decoded as a browser would (`charset` is the HTTP
    header's, if any). `url`, the page's, resolves the URLs of its metadata.
    Never raises for any input: a page the fit cannot judge comes back
    whole, with `fallback` set (docs/spec.md section 6).
    """
    conf = conf or DEFAULT_CONF
    encoding = None
    if isinstance(html, bytes):
        html, encoding = prepare_html(html, charset)
    page, doc = trace_segment(html, conf, None)
    raw_blocks = page.blocks

    words, links = measure(page)
    texts = page.block_texts()
    leaves = classify(words, links, conf)
    fates = _fates(
        raw_blocks, words, links, leaves, page.drop_scopes, page.scope_parents, conf.rules
    )
    kept = [index for index, fate in enumerate(fates) if fate in _KEPT_FATES]
    kept_words = [words[index] for index in kept]
    if conf.rules and not any(kept_words):
        # The article rules took all the tree kept (a page whose whole text
        # sits in a region named like comments, or is only short headings):
        # the published verdict stands, rather than the whole page.
        published = _fates(
            raw_blocks, words, links, leaves, page.drop_scopes, page.scope_parents, frozenset()
        )
        verdict = [index for index, fate in enumerate(published) if fate in _KEPT_FATES]
        if any(words[index] for index in verdict):
            fates, kept = published, verdict
            kept_words = [words[index] for index in kept]

    words_total = sum(words)
    blocks_with_words = len(words) - words.count(0)

    fallback: FallbackReason | None = None
    if words_total == 0:
        fallback = FallbackReason.NO_TEXT
    elif blocks_with_words <= 1:
        fallback = FallbackReason.SINGLE_BLOCK
    elif not any(kept_words):
        fallback = FallbackReason.NOTHING_KEPT
    if fallback is not None:
        # A filter that can return an empty page is worse than no filter.
        kept = list(range(len(raw_blocks)))
        kept_words = words

    text = render_blocks([raw_blocks[index] for index in kept], [texts[index] for index in kept])
    comments = None
    if fallback is None and conf.comments is not Comments.DROP:
        # What the comments rule took from the article, rendered apart (the
        # blocks the tree kept in comments regions); with INCLUDE, after it too.
        found = [index for index, fate in enumerate(fates) if fate == _COMMENTS]
        if found:
            comments = render_blocks(
                [raw_blocks[index] for index in found], [texts[index] for index in found]
            )
            if conf.comments is Comments.INCLUDE:
                text = f"{text}\n{comments}" if text else comments

    lang_detected, lang_confidence = detect_language(text) if conf.detect_language else (None, None)

    def blocks() -> tuple[Block, ...]:
        return _block_records(page.drop_scopes, raw_blocks, texts, words, links, leaves, fates)

    return Fit(
        text=text,
        title=page.title,
        lang=page.lang,
        fallback_reason=fallback,
        block_factory=blocks,
        blocks_total=len(raw_blocks),
        blocks_with_words=blocks_with_words,
        blocks_kept=len(kept),
        words_total=words_total,
        words_kept=sum(kept_words),
        profile=conf.profile,
        lang_detected=lang_detected,
        lang_confidence=lang_confidence,
        text_sha256=hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest(),
        metadata=read_metadata(doc, page.declarations, url, page.declared_ids, page.microdata)
        if conf.read_metadata
        else NO_METADATA,
        encoding=encoding,
        comments=comments or None,
    )


def _fates(  # noqa: PLR0913, PLR0917 - the page's columns, and the rules
    raw_blocks: list[BlockInfo],
    words: list[int],
    links: list[int],
    leaves: list[int],
    labels: list[str],
    parents: list[int],
    rules: frozenset[Rule],
) -> list[int]:
    """What happens to each block: kept, boilerplate, dropped, kept despite its scope,
    or removed (or, linked prose, kept) by an article rule (the article profile only).

    Classification has run on the full sequence first (a navigation bar is
    still the previous neighbour of the paragraph after it); the semantic drop
    applies after it (docs/spec.md section 5). A dropped element whose blocks hold more
    than half of the page's CONTENT words is not dropped: a navigation bar is
    never most of a page's text, an unclosed <nav> stretched over it is.
    The article rules apply last, to what is still kept, and to the blocks of
    linked prose the tree rejected (blockdensity.article).
    """
    fates = [_KEPT if leaf < CONTENT_LEAVES else _BOILERPLATE for leaf in leaves]
    if labels:
        _scoped_rules(fates, raw_blocks, words, links, leaves, labels, parents, rules)
    if Rule.LIST_HEADINGS in rules or Rule.BETWEEN_TEXT in rules:
        overrides = article.sequence(
            words,
            [fate in _KEPT_FATES for fate in fates],
            [leaf == _LINK_DENSE for leaf in leaves],
            [
                fate == _BOILERPLATE and leaf == _SHORT_ISOLATED
                for fate, leaf in zip(fates, leaves, strict=True)
            ],
            rules,
        )
        for index, rule in enumerate(overrides):
            if rule is not None:
                fates[index] = _RULE_FATES[rule]
    return fates


def _scoped_rules(  # noqa: PLR0913, PLR0917 - the page's columns, and the rules
    fates: list[int],
    raw_blocks: list[BlockInfo],
    words: list[int],
    links: list[int],
    leaves: list[int],
    labels: list[str],
    parents: list[int],
    rules: frozenset[Rule],
) -> None:
    """The semantic drop, then the article rules over the regions, on `fates`."""
    semantic = article.semantic_scopes(labels, parents)
    drops = [semantic[raw[DROP]] if raw[DROP] >= 0 else -1 for raw in raw_blocks]
    _semantic_drop(fates, drops, words)
    if rules and any(article.is_region(label) for label in labels):
        kept = [fate in (_KEPT, _MAJORITY) for fate in fates]
        prose = (
            [
                index
                for index, leaf in enumerate(leaves)
                if leaf == _LINK_DENSE
                and fates[index] == _BOILERPLATE
                and article.is_prose(words[index], links[index])
            ]
            if Rule.LINKED_PROSE in rules
            else []
        )
        scopes = [raw[DROP] for raw in raw_blocks]
        overrides = article.apply(labels, parents, scopes, words, kept, rules, prose)
        for index, rule in enumerate(overrides):
            if rule is not None:
                fates[index] = _RULE_FATES[rule]


def _semantic_drop(fates: list[int], drops: list[int], words: list[int]) -> None:
    """docs/spec.md section 5 on `fates`: `drops` is each block's semantic scope, or -1."""
    scoped = [index for index, drop in enumerate(drops) if drop >= 0]
    if not scoped:
        return
    content_words = sum(w for w, fate in zip(words, fates, strict=True) if fate == _KEPT)
    per_scope: dict[int, int] = {}
    for index in scoped:
        if fates[index] == _KEPT:
            scope = drops[index]
            per_scope[scope] = per_scope.get(scope, 0) + words[index]
    majority = {scope for scope, count in per_scope.items() if 2 * count > content_words}
    for index in scoped:
        if drops[index] not in majority:
            fates[index] = _DROPPED
        elif fates[index] == _KEPT:
            fates[index] = _MAJORITY


def _block_records(  # noqa: PLR0913, PLR0917 - the columns of one table
    drop_scopes: list[str],
    raw_blocks: list[BlockInfo],
    texts: list[str],
    words: list[int],
    links: list[int],
    leaves: list[int],
    fates: list[int],
) -> tuple[Block, ...]:
    records = []
    for index, raw in enumerate(raw_blocks):
        leaf = LEAVES[leaves[index]]
        fate = fates[index]
        if fate == _DROPPED:
            decision, reason = Decision.DROPPED, Reason.SEMANTIC_DROP
        elif fate == _MAJORITY:
            decision, reason = Decision.CONTENT, Reason.SEMANTIC_MAJORITY
        elif fate == _PROSE:
            decision, reason = Decision.CONTENT, Reason.LINKED_PROSE
        elif fate == _BETWEEN:
            decision, reason = Decision.CONTENT, Reason.BETWEEN_TEXT
        elif fate in _RULE_REASONS:
            decision, reason = Decision.DROPPED, _RULE_REASONS[fate]
        else:
            decision = Decision.CONTENT if fate == _KEPT else Decision.BOILERPLATE
            reason = leaf
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
                reason=reason,
                leaf=leaf,
                scope=drop_scopes[raw[DROP]] if raw[DROP] >= 0 else None,
            )
        )
    return tuple(records)
