"""Fit.confidence (blockdensity.confidence): computed from the stages' figures, the same as
the block records give, bounded, and ordered as a reader of the two pages would order them.

The fit computes the confidence in `record` from the measure stage's link
words and the decide stage's verdict, without the block records;
`figures_of` reads the same figures from the block records (what the
training script and --explain use). Both ways must agree, figure for
figure, on every kind of page: kept, overridden by rules, dropped by the
semantic drop, on each fallback, and read from its <noscript>.
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bench.confidence_train import weight_table, write_weights
from blockdensity import DEFAULT_CONF, PUBLISHED_CONF, Conf, FallbackReason, PageType, fit_text
from blockdensity.confidence import (
    FEATURES,
    WEIGHTS,
    Figures,
    confidence,
    features,
    figures,
    figures_of,
    score,
    terms,
)
from blockdensity.decide import decide
from blockdensity.decode import decode
from blockdensity.measure import measure
from blockdensity.parse import parse
from blockdensity.segment import walk
from tests.helpers import seq

SAMPLES = sorted((Path(__file__).resolve().parents[1] / "samples").glob("*.html"))
CONFIDENCE = Path(__file__).resolve().parents[1] / "blockdensity" / "confidence.py"

A60 = seq("a", 1, 60)
LINKS = " ".join(f"<a href=/{n}>link {n}</a>" for n in range(12))
STORY = (
    "<html><head><title>t</title><meta property=og:type content=article></head><body>"
    f"<nav>{LINKS}</nav><article><h1>Head line here</h1><p>{A60}</p>"
    f"<p>{seq('b', 1, 50)}</p></article><footer>{LINKS}</footer></body></html>"
)
# The text the fit keeps is a line out of a page of links.
LINK_FARM = "<html><body>" + "".join(
    f"<div>{LINKS}</div><p>short line {n} of text</p>" for n in range(8)
) + "</body></html>"  # fmt: skip
PAGES = {
    "story": STORY,
    "link farm": LINK_FARM,
    "comments and boxes": (
        f"<article><h1>Title</h1><p>{A60}</p><div class=share><p>Share this on the sites</p></div>"
        f"</article><div class=comments><p>{seq('c', 1, 30)}</p></div>"
    ),
    "linked prose": (
        f"<main><h1>A heading of the text</h1><p>{A60}</p>"
        f"<p>{' '.join(f'<a href=/{n}>w{n}</a> v{n}' for n in range(40))}</p></main>"
    ),
    "nothing kept": "<p><a href=/1>one</a> <a href=/2>two</a></p><p><a href=/3>three</a></p>",
    "single block": "<p>one two three</p>",
    "no text": "<html><body><script>x()</script></body></html>",
    "no blocks": "",
    "noscript": (
        "<html><body><div id=app></div><noscript>"
        f"<p>{A60}</p><p>{seq('b', 1, 40)}</p></noscript></body></html>"
    ),
}


def _stages(html: str, conf: Conf) -> Figures:
    """The figures as the fit computes them, from its stages' results (a page that needs
    no second reading)."""
    source = decode(html)
    page = walk(parse(source, conf), conf)
    measures = measure(page)
    fit = fit_text(html, conf)
    kind = fit.page_type or PageType.ARTICLE
    verdict = decide(page, measures, conf, kind, fit.page_type_confidence or 0.0)
    return figures(
        sum(measures.words),
        measures.links,
        verdict,
        fit.fallback_reason,
        fit.metadata,
        page_type=fit.page_type,
        type_confidence=fit.page_type_confidence or 0.0,
    )


@pytest.mark.parametrize("conf", [DEFAULT_CONF, PUBLISHED_CONF], ids=["article", "published"])
@pytest.mark.parametrize("name", sorted(PAGES))
def test_the_block_records_give_the_figures_the_fit_used(name: str, conf: Conf) -> None:
    fit = fit_text(PAGES[name], conf)
    read = figures_of(fit)
    assert confidence(read) == fit.confidence
    if name != "noscript":  # read a second way, which _stages does not do
        assert read == _stages(PAGES[name], conf)


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda path: path.name)
def test_the_block_records_give_the_figures_the_fit_used_on_real_pages(sample: Path) -> None:
    html = sample.read_bytes().decode("utf-8", "replace")
    for conf in (DEFAULT_CONF, PUBLISHED_CONF):
        fit = fit_text(html, conf)
        assert figures_of(fit) == _stages(html, conf)
        assert confidence(figures_of(fit)) == fit.confidence


def test_every_fit_has_a_confidence_rounded_to_three_decimals() -> None:
    for html in PAGES.values():
        value = fit_text(html).confidence
        assert value is not None
        assert 0.0 <= value <= 1.0
        assert round(value, 3) == value


def test_the_figures_count_what_the_rules_and_drops_did() -> None:
    story = figures_of(fit_text(STORY))
    # nav and footer: 2 blocks in dropped elements; the heading and the two paragraphs kept.
    assert (story.dropped, story.blocks_kept, story.runs) == (2, 3, 1)
    assert story.declares_article
    boxes = figures_of(fit_text(PAGES["comments and boxes"]))
    assert boxes.rule_dropped == 2  # the share box and the comments
    prose = figures_of(fit_text(PAGES["linked prose"]))
    assert prose.rule_kept == 1  # the link-dense prose kept inside <main>
    assert prose.link_words_kept == prose.link_words == 40


def test_a_fallback_counts_nothing_as_dropped_and_is_named() -> None:
    single = figures_of(fit_text(PAGES["single block"]))
    assert single.fallback is FallbackReason.SINGLE_BLOCK
    assert (single.rejected, single.dropped, single.rule_dropped, single.rule_kept) == (0, 0, 0, 0)
    values = dict(zip(FEATURES, features(single), strict=True))
    assert values["fallback_single_block"] == 1.0
    assert values["fallback_nothing_kept"] == 0.0
    assert figures_of(fit_text(PAGES["noscript"])).fallback is FallbackReason.NOSCRIPT


def test_a_clean_article_scores_above_a_line_out_of_a_link_farm() -> None:
    story, farm = fit_text(STORY).confidence, fit_text(LINK_FARM).confidence
    assert story is not None
    assert farm is not None
    assert story > farm


def test_the_terms_make_the_confidence() -> None:
    fit = fit_text(STORY)
    found = terms(figures_of(fit))
    assert "bias" in [name for name, _, _ in found]
    assert all(value != 0 for _, value, _ in found)
    assert [abs(term) for _, _, term in found] == sorted(
        (abs(t) for _, _, t in found), reverse=True
    )
    total = sum(term for _, _, term in found)
    assert round(1 / (1 + math.exp(-total)), 3) == fit.confidence


def test_there_is_a_weight_for_every_feature() -> None:
    assert len(WEIGHTS) == len(FEATURES) == len(features(figures_of(fit_text(STORY))))
    assert FEATURES[0] == "bias"
    assert len(set(FEATURES)) == len(FEATURES)


def test_the_module_holds_the_table_the_training_script_writes() -> None:
    # Written by `python -m bench.confidence_train --write`, not by hand.
    assert weight_table(WEIGHTS) in CONFIDENCE.read_text(encoding="utf-8")


def test_the_training_script_rewrites_only_the_weights(tmp_path: Path) -> None:
    module = tmp_path / "confidence.py"
    source = CONFIDENCE.read_text(encoding="utf-8")
    module.write_text(source, encoding="utf-8")
    import numpy as np  # noqa: PLC0415 - the bench's dependency, for this test alone

    weights = np.arange(len(FEATURES)) / 8 - 1
    write_weights(weights, module)
    written = module.read_text(encoding="utf-8")
    assert weight_table(weights) in written
    before, after = source.split("# BEGIN WEIGHTS"), written.split("# BEGIN WEIGHTS")
    assert before[0] == after[0]
    assert before[1].split("# END WEIGHTS")[1] == after[1].split("# END WEIGHTS")[1]


_COUNT = st.integers(min_value=0, max_value=10_000)


@st.composite
def _figures(draw: st.DrawFn) -> Figures:
    blocks = draw(_COUNT)
    kept = draw(st.integers(min_value=0, max_value=blocks))
    words = draw(_COUNT)
    words_kept = draw(st.integers(min_value=0, max_value=words))
    links = draw(st.integers(min_value=0, max_value=words))
    links_kept = draw(st.integers(min_value=max(0, links - (words - words_kept)),
                                  max_value=min(links, words_kept)))  # fmt: skip
    rest = blocks - kept
    rejected = draw(st.integers(min_value=0, max_value=rest))
    dropped = draw(st.integers(min_value=0, max_value=rest - rejected))
    return Figures(
        blocks=blocks,
        blocks_kept=kept,
        runs=draw(st.integers(min_value=min(kept, 1), max_value=kept)),
        words=words,
        words_kept=words_kept,
        link_words=links,
        link_words_kept=links_kept,
        rejected=rejected,
        dropped=dropped,
        rule_dropped=rest - rejected - dropped,
        rule_kept=draw(st.integers(min_value=0, max_value=kept)),
        fallback=draw(st.none() | st.sampled_from(FallbackReason)),
        declares_article=draw(st.booleans()),
        page_type=draw(st.none() | st.sampled_from(PageType)),
        type_confidence=draw(st.floats(min_value=0.0, max_value=1.0)),
    )


@given(_figures())
def test_every_feature_is_bounded_and_the_confidence_a_share(found: Figures) -> None:
    values = features(found)
    assert all(0.0 <= value <= 1.0 for value in values)
    assert 0.0 <= score(values) <= 1.0


def test_a_page_without_a_declared_type_declares_no_article() -> None:
    assert not figures_of(fit_text(f"<p>{A60}</p><p>{A60}</p>")).declares_article
