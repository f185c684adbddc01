"""Fit.confidence: how likely the fit's text is the page's main content, in [0, 1].

Read from the fit's own evidence, the figures its stages already have (no
block records are built for it): how much of the page's text it kept, in
how many pieces, how linked the kept and the dropped text are, how long the
kept text is, which rules and drops decided how many blocks, whether the
whole page came back (the fallback) or was read another way, and whether
the page declares itself an article (the kind of page the fit does best).

The model is a logistic regression over a handful of bounded features
(`features`, named in FEATURES), whose weights are the table at the end,
fitted by bench/confidence_train.py on the development pages of all four
sets of ../shared/data against each page's F1 (k-fold cross-validated; its
report has the figures): the output estimates the page's F1, so that pages
rank by it and a value of 0.8 means about 0.8 F1 on average. Retrain after a
change to the fit's rules (`python -m bench.confidence_train --write`).

Cost: three counts over the page's outcomes, a sum of its link words and two
maps over the kept blocks, each a loop in C (list.count, sum, map), and a dot
product of twenty-five weights: tens of microseconds on a typical page, about
0.4% of its fit (measured on WCXB's pages).
"""

from __future__ import annotations

import math
from operator import sub
from typing import Final, NamedTuple

from blockdensity.decide.outcome import Outcome
from blockdensity.decide.stage import Verdict
from blockdensity.pagetype import PageType
from blockdensity.result import Decision, FallbackReason, Fit, Metadata, Reason

__all__ = [
    "FEATURES",
    "WEIGHTS",
    "Figures",
    "confidence",
    "features",
    "figures",
    "figures_of",
    "score",
    "terms",
]


class Figures(NamedTuple):
    """What the confidence reads of a fit: page-level counts its stages have."""

    blocks: int  # the page's blocks (Fit.blocks_total)
    blocks_kept: int  # the blocks the text holds (Fit.blocks_kept)
    runs: int  # runs of consecutive kept blocks: 1 for one unbroken stretch of text
    words: int  # the page's words (Fit.words_total)
    words_kept: int  # the text's words (Fit.words_kept)
    link_words: int  # the page's words that begin inside a link
    link_words_kept: int  # ... of them, the text's
    rejected: int  # blocks the tree rejected that nothing kept after (Outcome.BOILERPLATE)
    dropped: int  # blocks in an element the semantic drop removes (Outcome.DROPPED)
    rule_dropped: int  # blocks the tree kept that a rule took out (comments, boxes, containers)
    rule_kept: int  # blocks kept against the tree or a drop (prose, between text, majority)
    fallback: FallbackReason | None  # Fit.fallback_reason
    declares_article: bool  # the page's declared type (og:type, JSON-LD @type) names an article
    page_type: PageType | None  # Fit.page_type: the kind the rules followed, None if unclassified
    type_confidence: float  # Fit.page_type_confidence (0 when None)


_KEPT: Final = Outcome.KEPT
_BOILERPLATE: Final = Outcome.BOILERPLATE
_DROPPED: Final = Outcome.DROPPED


def figures(  # noqa: PLR0913 - the stages' figures, then the page's kind
    words: int,
    links: list[int],
    verdict: Verdict,
    fallback: FallbackReason | None,
    metadata: Metadata,
    *,
    page_type: PageType | None = None,
    type_confidence: float = 0.0,
) -> Figures:
    """The figures of a fit, from the page's words (Fit.words_total), the measure stage's
    link words of each block, the decide stage's verdict, the fit's fallback reason, the
    page's metadata, and its kind with the classifier's confidence (as Fit reports them)."""
    kept = verdict.kept
    outcomes = verdict.outcomes
    blocks = len(outcomes)
    blocks_kept = len(kept)
    # A gap between two kept blocks' indices starts a new run.
    steps = list(map(sub, kept[1:], kept))
    runs = blocks_kept - steps.count(1) if blocks_kept else 0
    if verdict.fallback is None:
        tree_kept = outcomes.count(_KEPT)
        rejected = outcomes.count(_BOILERPLATE)
        dropped = outcomes.count(_DROPPED)
        rule_kept = blocks_kept - tree_kept
        rule_dropped = blocks - blocks_kept - rejected - dropped
    else:
        # The whole page is the text: nothing was rejected, dropped or overridden.
        rejected = dropped = rule_kept = rule_dropped = 0
    declared = metadata.type
    return Figures(
        blocks=blocks,
        blocks_kept=blocks_kept,
        runs=runs,
        words=words,
        words_kept=verdict.words_kept,
        link_words=sum(links),
        link_words_kept=sum(map(links.__getitem__, kept)),
        rejected=rejected,
        dropped=dropped,
        rule_dropped=rule_dropped,
        rule_kept=rule_kept,
        fallback=fallback,
        declares_article=declared is not None and "article" in declared.lower(),
        page_type=page_type,
        type_confidence=type_confidence if page_type is not None else 0.0,
    )


def figures_of(fit: Fit) -> Figures:
    """The same figures as `figures`, read from a Fit's block records (which this builds,
    if not built yet): for --explain, the training script and the tests, which check
    that both ways agree."""
    blocks = fit.blocks
    whole_page = fit.fallback  # the whole page kept (not another reading of it)
    kept = [block.index for block in blocks if whole_page or block.decision is Decision.CONTENT]
    if whole_page:
        # The whole page but a cookie-consent notice, where the rest holds words
        # (blockdensity.decide.stage).
        rest = [index for index in kept if blocks[index].reason is not Reason.CONSENT_NOTICE]
        if len(rest) < len(kept) and any(blocks[index].words for index in rest):
            kept = rest
    steps = list(map(sub, kept[1:], kept))
    counted = not whole_page
    tree_kept = sum(
        counted and block.decision is Decision.CONTENT and block.reason is block.leaf
        for block in blocks
    )
    rejected = sum(counted and block.decision is Decision.BOILERPLATE for block in blocks)
    dropped = sum(counted and block.reason is Reason.SEMANTIC_DROP for block in blocks)
    declared = fit.metadata.type
    return Figures(
        blocks=len(blocks),
        blocks_kept=len(kept),
        runs=len(kept) - steps.count(1) if kept else 0,
        words=sum(block.words for block in blocks),
        words_kept=sum(blocks[index].words for index in kept),
        link_words=sum(block.link_words for block in blocks),
        link_words_kept=sum(blocks[index].link_words for index in kept),
        rejected=rejected,
        dropped=dropped,
        rule_dropped=len(blocks) - len(kept) - rejected - dropped if counted else 0,
        rule_kept=len(kept) - tree_kept if counted else 0,
        fallback=fit.fallback_reason,
        declares_article=declared is not None and "article" in declared.lower(),
        page_type=fit.page_type,
        type_confidence=fit.page_type_confidence or 0.0,
    )


# The features, in the order of WEIGHTS: each bounded, most in [0, 1].
FEATURES: Final = (
    "bias",
    # The square root of the share of the page's words the text keeps: steeper
    # near 0, where a text that keeps almost nothing has lost the content.
    "kept_words",
    "kept_blocks",  # share of the page's blocks the text keeps
    # The square root of the runs of kept blocks per kept block: near 0 for one
    # unbroken stretch of text, 1 for lines scattered over the page.
    "pieces",
    "words_per_block",  # log of the kept blocks' mean words, over log(1000)
    "length",  # log of the text's words, over log(20000)
    "kept_link_density",  # link words of the kept text per word
    "dropped_link_density",  # link words of the dropped text per word
    "rejected",  # share of blocks the tree rejected
    "dropped",  # share of blocks in dropped elements
    "rule_dropped",  # share of blocks a rule took out
    "rule_kept",  # share of blocks kept against the tree or a drop
    "article",  # 1 when the page declares itself an article
    *(f"fallback_{reason.value}" for reason in FallbackReason),  # 1 for the fit's reason
    # 1 for the kind the classifier took the page for (an article: none of them)
    *(f"type_{kind.value}" for kind in PageType if kind is not PageType.ARTICLE),
    "type_confidence",  # the classifier's probability of that kind (0 unclassified)
)

_WORDS_PER_BLOCK_SCALE: Final = math.log(1000.0)
_LENGTH_SCALE: Final = math.log(20000.0)
_REASONS: Final = tuple(FallbackReason)
_KINDS: Final = tuple(kind for kind in PageType if kind is not PageType.ARTICLE)


def features(figures: Figures) -> tuple[float, ...]:
    """The model's inputs of `figures`, in the order FEATURES names them."""
    blocks = figures.blocks or 1
    kept = figures.blocks_kept
    words = figures.words
    words_kept = figures.words_kept
    words_dropped = words - words_kept
    return (
        1.0,
        math.sqrt(words_kept / words) if words else 0.0,
        kept / blocks,
        math.sqrt(figures.runs / kept) if kept else 1.0,
        min(math.log1p(words_kept / kept) / _WORDS_PER_BLOCK_SCALE, 1.0) if kept else 0.0,
        min(math.log1p(words_kept) / _LENGTH_SCALE, 1.0),
        figures.link_words_kept / words_kept if words_kept else 0.0,
        (figures.link_words - figures.link_words_kept) / words_dropped if words_dropped else 0.0,
        figures.rejected / blocks,
        figures.dropped / blocks,
        figures.rule_dropped / blocks,
        figures.rule_kept / blocks,
        1.0 if figures.declares_article else 0.0,
        *(1.0 if figures.fallback is reason else 0.0 for reason in _REASONS),
        *(1.0 if figures.page_type is kind else 0.0 for kind in _KINDS),
        figures.type_confidence,
    )


def score(values: tuple[float, ...]) -> float:
    """The model's estimate for `values` (features' output), rounded to three decimals."""
    total = 0.0
    for weight, value in zip(WEIGHTS, values, strict=True):
        total += weight * value
    # Rounded: a figure for people and thresholds, the same on every platform.
    return round(1.0 / (1.0 + math.exp(-total)), 3)


def terms(figures: Figures) -> list[tuple[str, float, float]]:
    """Each feature of `figures` with its value and its term (weight * value) in the
    score, the largest terms first, features whose value is 0 left out: what --explain
    shows of why the confidence is what it is."""
    named = zip(FEATURES, features(figures), WEIGHTS, strict=True)
    found = [(name, value, weight * value) for name, value, weight in named if value]
    return sorted(found, key=lambda term: -abs(term[2]))


def confidence(figures: Figures) -> float:
    """How likely the fit's text is the page's main content: its estimated F1, in [0, 1]."""
    return score(features(figures))


# BEGIN WEIGHTS (written by bench/confidence_train.py; edit there, not here)
WEIGHTS: Final[tuple[float, ...]] = (
    1.2695,  # bias
    1.2982,  # kept_words
    -0.1156,  # kept_blocks
    -2.2062,  # pieces
    2.6911,  # words_per_block
    -0.9810,  # length
    -0.1239,  # kept_link_density
    0.3558,  # dropped_link_density
    -0.3253,  # rejected
    0.0568,  # dropped
    -0.2612,  # rule_dropped
    -1.4447,  # rule_kept
    -0.1034,  # article
    -1.5862,  # fallback_single_block
    -0.3062,  # fallback_nothing_kept
    0.6454,  # fallback_no_text
    -0.6942,  # fallback_noscript
    -1.0074,  # fallback_deferred_content
    -0.2291,  # type_forum
    -0.8483,  # type_product
    -0.5569,  # type_collection
    -0.4150,  # type_listing
    -0.1157,  # type_documentation
    -0.2817,  # type_service
    0.7257,  # type_confidence
)
# END WEIGHTS
