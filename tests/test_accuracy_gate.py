"""Accuracy gate: each profile of the fit must keep its figures, on the full development sets and
on the repository's sample of them.

Two gates, the same checks, each with its own floors:
- the full gate (TestFullGate) on the full development sets (BLOCKDENSITY_DATA,
  else ../shared/data, as devkit.corpus finds them): where accuracy is
  judged. Without the sets it skips, and fails under CI (tests/conftest.py's
  `full_data`). The floors sit a little under the figures measured when each
  was set: the published profile (SPEC) 0.87 on scrapinghub and 0.90 on
  readability (measured 0.8726 and 0.9008); the article profile, the
  default, 0.94 and 0.94 (measured 0.9497 and 0.9442 after issue 22; 0.93 /
  0.93 were issue 11's targets);
- the sample gate (TestSampleGate) on tests/corpus (devkit.corpus.SAMPLE_DATA),
  which every checkout has: its floors sit a little under what the fit
  measured on those pages when they were set (the figures beside them), so
  that a clone without the full sets still sees a loss of accuracy.

Checked on each: mean per-page F1 on the two ROUGE sets; on the segment set
(trafilatura-eval), F1 and precision from the passage counts summed over its
pages; on the page-type set (wcxb-dev), WCXB's mean per-page word F1 over
the set and over each page type; on every set, the default profile at least the published one; and
the fallback to the whole page (docs/spec.md section 6) on under 3% of the
pages of each set (the full gate) or on at most as many pages as when
measured (the sample gate, whose sets are too small for a rate). Scoring and loading are
devkit.corpus's, the same code as bench.accuracy's, so the gates and the
benchmark cannot disagree. Only the fit runs (no peers).
"""

from __future__ import annotations

import functools
import statistics
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

import pytest

from blockdensity import DEFAULT_CONF, PUBLISHED_CONF, Conf, Fit, Profile, fit_text, html_to_text
from devkit.corpus import (
    EVERY_SET,
    PAGE_TYPES,
    SAMPLE_DATA,
    SEGMENT_SETS,
    Counts,
    Page,
    count_segments,
    load_pages,
    score,
    score_words,
    sum_counts,
)

pytestmark = pytest.mark.slow

# Words: a page's HTML and its truth with this many hold text to extract.
TEXT_WORDS = 50


@dataclass(frozen=True)
class Floors:
    """What a gate holds the fit to."""

    # Per profile and set: mean per-page F1 (ROUGE sets, page-type set), or F1 of
    # the summed counts (segment set).
    f1: Mapping[Profile, Mapping[str, float]]
    # Per profile and page type of the page-type set: its mean per-page word F1.
    page_types: Mapping[Profile, Mapping[str, float]]
    # The segment set's precision (passages that must not be there, found): the
    # article profile's reason to be, so it has its own floor.
    segment_precision: Mapping[Profile, float]
    # Per set: the largest share of pages that may fall back to the whole page,
    # or (`fallback_pages`) the largest number of them.
    fallback_rate: float = 1.0
    fallback_pages: Mapping[str, int] | None = None


# Issue 22: trafilatura-eval measured 0.8630 (published) and 0.8761 (article)
# when the set joined the corpus; its rules (the boxes guard, content_container,
# list_headings, between_text) lifted the article profile to 0.9497 / 0.9442 /
# 0.9007 (precision 0.8958 on trafilatura-eval), and the floors with it.
# wcxb-dev, when it joined the gate: published 0.7613, article 0.7892 (WCXB's
# word F1, all 1,497 pages); by type, published / article: article 0.8985 /
# 0.9297, forum 0.5903 / 0.6711, product 0.5260 / 0.5664, collection 0.4748 /
# 0.4942, listing 0.3860 / 0.3824, documentation 0.8517 / 0.8596, service
# 0.7670 / 0.7698. With the fit's page type choosing the rules by kind of page
# (blockdensity.pagetype, no URL given here), article 0.9506 / 0.9473 / 0.9040 /
# 0.8033; by type article 0.9323, forum 0.7174, product 0.5710, collection
# 0.5346, listing 0.4378, documentation 0.8766, service 0.7786. With the rules
# item_grid, title_region, related_items and duplicate_text: wcxb-dev 0.8094; by
# type article 0.9326, forum 0.7277, product 0.5973, collection 0.5597, listing
# 0.4398, documentation 0.8780, service 0.7869. With review_sections and
# related_sections (bench.accuracy, the URL given): product 0.5977 -> 0.6281.
# With the classifier's layout, title and URL-shape evidence and TYPE_CONFIDENCE
# 0.4 (here, no URL): wcxb-dev 0.8327; by type article 0.9327, forum 0.7425,
# product 0.6327, collection 0.6187, listing 0.5952, documentation 0.9105,
# service 0.8092. With post_bodies (issue 34; here, no URL): wcxb-dev 0.8358; by type
# article 0.9329, forum 0.7826, the others unchanged. With shop_links (collections):
# collection 0.6239, product 0.6346, service 0.8097; no other set or type moves. With
# item_grid's one-block entries: wcxb-dev 0.8347, listing 0.6049 (each measured on its
# own branch; together, the figures of BENCHMARKS.md). With data_tables inside the kept
# text and container_items (2026-12-06, bench.accuracy with the URL): scrapinghub 0.9541,
# readability 0.9490, trafilatura-eval 0.9071, wcxb-dev 0.8469, article 0.937. With
# tab_panels (hidden tab panels read as shown): wcxb-dev 0.8476, documentation 0.932,
# service 0.828, forum 0.779; the other sets unchanged (none has a hidden tab panel).
# With hidden_text (a page whose hidden elements hold its text read with them shown):
# wcxb-dev 0.8519; the other sets unchanged. With class signatures of the first
# token and item_grid in box regions (here, no URL): wcxb-dev 0.8514; by type article
# 0.9447, forum 0.7904, product 0.6458, collection 0.6556, listing 0.6371,
# documentation 0.9202, service 0.8229; scrapinghub 0.9556, readability 0.9512,
# trafilatura-eval 0.9068. With the second look at a scant page of an unsure kind
# (decide.kinds.SCANT_WORDS; here, no URL): wcxb-dev 0.8554; product 0.6476,
# collection 0.6692, listing 0.6724, service 0.8265; nothing else moves. With a scant
# page that is not a product read as a page of items too (here, no URL): wcxb-dev
# 0.8575; forum 0.7987, collection 0.6703, listing 0.6932; trafilatura-eval 0.9095.
# With no comments region on an inline element and introduced_lists (here, no URL):
# wcxb-dev 0.8582 (article 0.946, documentation 0.921); scrapinghub 0.9557,
# readability 0.9513, trafilatura-eval 0.9095.
FULL = Floors(
    f1={
        Profile.PUBLISHED: {
            "scrapinghub": 0.87,
            "readability": 0.90,
            "trafilatura-eval": 0.86,
            "wcxb-dev": 0.75,
        },
        # Issue 34's "no development set loses" (0.949 / 0.944 / 0.901), held here.
        Profile.ARTICLE: {
            "scrapinghub": 0.949,
            "readability": 0.944,
            "trafilatura-eval": 0.901,
            "wcxb-dev": 0.85,  # 0.8582 here, without the URL
        },
    },
    page_types={
        Profile.PUBLISHED: {
            "article": 0.89,
            "forum": 0.58,
            "product": 0.52,
            "collection": 0.47,
            "listing": 0.38,
            "documentation": 0.85,
            "service": 0.76,
        },
        Profile.ARTICLE: {
            "article": 0.935,
            "forum": 0.77,
            "product": 0.62,
            "collection": 0.66,
            "listing": 0.68,
            "documentation": 0.91,
            "service": 0.80,
        },
    },
    # 0.8081, 0.8885 (0.8904 before the scant pages read as pages of items, whose
    # passages found rose more: recall 0.9238 -> 0.9315, F1 0.9068 -> 0.9095)
    segment_precision={Profile.PUBLISHED: 0.80, Profile.ARTICLE: 0.885},
    fallback_rate=0.03,
)

# Measured on the sample when it was made (40 scrapinghub, 40 readability and 60
# trafilatura-eval pages, 6 wcxb-dev pages of each type): published 0.8088 /
# 0.9515 / 0.8773 (precision 0.8116) / 0.6601, article 0.9180 / 0.9564 / 0.8956
# (precision 0.8670) / 0.6781; wcxb-dev by type, published / article: article
# 0.9422 / 0.9534, forum 0.5181 / 0.5232, product 0.7125 / 0.7374, collection
# 0.5118 / 0.4461, listing 0.4471 / 0.4869, documentation 0.7327 / 0.7361,
# service 0.7563 / 0.8639. Under both profiles one readability page falls back,
# and three wcxb-dev pages (two forums, a collection). With the fit's page type:
# article 0.9180 / 0.9571 / 0.8956 / 0.6966; by type article 0.9522, forum
# 0.5232, product 0.7892, collection 0.5104, listing 0.4869, documentation
# 0.7479, service 0.8665. With the four rules above: wcxb-dev 0.7079; by type
# article 0.9522, forum 0.5533, product 0.7976, collection 0.5323, listing
# 0.4869, documentation 0.7479, service 0.8854. With the classifier's new evidence,
# TYPE_CONFIDENCE 0.4 and the product sections: wcxb-dev 0.7347; by type article
# 0.9522, forum 0.5533, product 0.8115, collection 0.5374, listing 0.4878,
# documentation 0.9003, service 0.9008 (scrapinghub 0.9180, readability 0.9572).
# With shop_links: wcxb-dev 0.7367, collection 0.5508. With item_grid's one-block
# entries: wcxb-dev 0.7595, listing 0.6477.
SAMPLE = Floors(
    f1={
        Profile.PUBLISHED: {
            "scrapinghub": 0.80,
            "readability": 0.94,
            "trafilatura-eval": 0.87,
            "wcxb-dev": 0.65,
        },
        Profile.ARTICLE: {
            "scrapinghub": 0.91,
            "readability": 0.95,
            "trafilatura-eval": 0.89,
            "wcxb-dev": 0.75,
        },
    },
    page_types={
        Profile.PUBLISHED: {
            "article": 0.93,
            "forum": 0.51,
            "product": 0.70,
            "collection": 0.50,
            "listing": 0.44,
            "documentation": 0.72,
            "service": 0.75,
        },
        Profile.ARTICLE: {
            "article": 0.95,
            "forum": 0.55,
            "product": 0.80,
            "collection": 0.54,
            "listing": 0.64,
            "documentation": 0.89,
            "service": 0.89,
        },
    },
    segment_precision={Profile.PUBLISHED: 0.80, Profile.ARTICLE: 0.86},
    fallback_pages={"scrapinghub": 0, "readability": 1, "trafilatura-eval": 0, "wcxb-dev": 3},
)


@dataclass(frozen=True, slots=True)
class PageResult:
    page_id: str
    f1: float  # ROUGE and page-type sets: the page's F1; the segment set: of its own counts
    fallback: bool
    counts: Counts | None = None  # the segment set: the page's passage counts
    page_type: str | None = None  # the page-type set: the page's type


@functools.cache
def _pages(data: Path) -> tuple[Page, ...]:
    return tuple(load_pages(data, EVERY_SET))


@functools.cache
def _fits(data: Path, profile: Profile) -> tuple[tuple[Page, Fit], ...]:
    """Every page of every set fitted under `profile`: once per corpus and profile."""
    conf = Conf(profile=profile)
    return tuple((page, fit_text(page.html, conf)) for page in _pages(data))


def _page_f1(page: Page, fit: Fit) -> float:
    """The page's F1 as its set is scored (the segment set's: of the page's own counts)."""
    if page.segmented:
        return count_segments(fit.text, page).f1
    if page.typed:
        return score_words(fit.text, page.truth).f1
    return score(fit.text, page.truth).f1


def _set_f1(results: list[PageResult], set_name: str) -> float:
    if set_name in SEGMENT_SETS:
        return sum_counts(result.counts for result in results if result.counts).f1
    return statistics.fmean(result.f1 for result in results)


Results = tuple[Profile, dict[str, list[PageResult]]]


class Gate:
    """The checks, on the corpus a subclass's `data` fixture gives, held to its `floors`."""

    floors: ClassVar[Floors]

    @pytest.fixture(scope="class", params=list(Profile), ids=str)
    @classmethod
    def results(cls, request: pytest.FixtureRequest, data: Path) -> Results:
        """Every page of every set, scored once per profile for all the tests of the class."""
        profile: Profile = request.param
        by_set: dict[str, list[PageResult]] = {name: [] for name in EVERY_SET}
        for page, fit in _fits(data, profile):
            counts = count_segments(fit.text, page) if page.segmented else None
            result = PageResult(
                page.page_id, _page_f1(page, fit), fit.fallback, counts, page.page_type
            )
            by_set[page.set_name].append(result)
        return profile, by_set

    def test_every_profile_and_set_has_a_target(self) -> None:
        assert set(self.floors.f1) == set(Profile)
        assert all(set(floors) == set(EVERY_SET) for floors in self.floors.f1.values())
        assert set(self.floors.page_types) == set(Profile)
        assert all(set(floors) == set(PAGE_TYPES) for floors in self.floors.page_types.values())
        assert set(self.floors.segment_precision) == set(Profile)

    @pytest.mark.parametrize("set_name", EVERY_SET)
    def test_f1(self, results: Results, set_name: str) -> None:
        profile, by_set = results
        pages = by_set[set_name]
        assert pages, f"{set_name}: no pages loaded"
        mean_f1 = _set_f1(pages, set_name)
        # On failure, name the worst pages: where to start looking.
        worst = ", ".join(
            f"{result.page_id[:12]} {result.f1:.3f}"
            for result in sorted(pages, key=lambda result: result.f1)[:5]
        )
        floor = self.floors.f1[profile][set_name]
        assert mean_f1 >= floor, (
            f"{profile} profile, {set_name}: F1 {mean_f1:.4f} < {floor} over {len(pages)} "
            f"pages; lowest pages: {worst}"
        )

    @pytest.mark.parametrize("page_type", PAGE_TYPES)
    def test_page_type_f1(self, results: Results, page_type: str) -> None:
        profile, by_set = results
        pages = [result for result in by_set["wcxb-dev"] if result.page_type == page_type]
        assert pages, f"wcxb-dev: no {page_type} pages loaded"
        mean_f1 = statistics.fmean(result.f1 for result in pages)
        floor = self.floors.page_types[profile][page_type]
        worst = ", ".join(
            f"{result.page_id} {result.f1:.3f}"
            for result in sorted(pages, key=lambda result: result.f1)[:5]
        )
        assert mean_f1 >= floor, (
            f"{profile} profile, wcxb-dev {page_type}: F1 {mean_f1:.4f} < {floor} over "
            f"{len(pages)} pages; lowest pages: {worst}"
        )

    @pytest.mark.parametrize("set_name", SEGMENT_SETS)
    def test_segment_precision(self, results: Results, set_name: str) -> None:
        profile, by_set = results
        counts = sum_counts(result.counts for result in by_set[set_name] if result.counts)
        floor = self.floors.segment_precision[profile]
        assert counts.precision >= floor, f"{profile}, {set_name}: {counts} under {floor}"

    def test_the_default_profile_is_at_least_the_published_on_every_set(self, data: Path) -> None:
        figures = {}
        for conf in (DEFAULT_CONF, PUBLISHED_CONF):
            # The profiles' fits are the other tests' (each fitted once): the same confs.
            assert conf == Conf(profile=conf.profile)
            for set_name in EVERY_SET:
                chosen = [(p, f) for p, f in _fits(data, conf.profile) if p.set_name == set_name]
                if set_name in SEGMENT_SETS:
                    f1 = sum_counts(count_segments(f.text, p) for p, f in chosen).f1
                else:
                    f1 = statistics.fmean(_page_f1(p, f) for p, f in chosen)
                figures[conf.profile, set_name] = f1
        for set_name in EVERY_SET:
            article, published = (
                figures[Profile.ARTICLE, set_name],
                figures[Profile.PUBLISHED, set_name],
            )
            assert article >= published, (
                f"{set_name}: article {article:.4f} < published {published:.4f}"
            )

    @pytest.mark.parametrize("set_name", EVERY_SET)
    def test_fallback_rate(self, results: Results, set_name: str) -> None:
        pages = results[1][set_name]
        assert pages, f"{set_name}: no pages loaded"
        fallbacks = [result.page_id[:12] for result in pages if result.fallback]
        named = f"{set_name}: fallback on {len(fallbacks)} of {len(pages)} pages: {fallbacks}"
        if self.floors.fallback_pages is not None:
            assert len(fallbacks) <= self.floors.fallback_pages[set_name], named
        assert len(fallbacks) / len(pages) < self.floors.fallback_rate, named

    def test_no_text_comes_back_empty_where_the_page_and_its_truth_have_words(
        self, data: Path
    ) -> None:
        # An empty text for a page whose HTML shows at least TEXT_WORDS words (as
        # html_to_text reads it, the fit's own reading) and whose truth holds as many
        # is a defect: the fit found the text and kept none of it. (Pages empty in
        # their HTML as captured, five forum threads, are nobody's to extract.)
        empty = [
            f"{page.set_name}/{page.page_id[:12]}"
            for page, fit in _fits(data, Profile.ARTICLE)
            if not fit.text.strip()
            and len(page.truth.split()) >= TEXT_WORDS
            and len(html_to_text(page.html).split()) >= TEXT_WORDS
        ]
        assert not empty, f"empty text on {len(empty)} pages with text: {empty}"


class TestFullGate(Gate):
    floors = FULL

    @pytest.fixture(scope="class")
    @classmethod
    def data(cls, full_data: Path) -> Path:
        return full_data


class TestSampleGate(Gate):
    floors = SAMPLE

    @pytest.fixture(scope="class")
    @classmethod
    def data(cls) -> Path:
        return SAMPLE_DATA


def test_segment_scoring_collapses_whitespace_and_sums_counts() -> None:
    # Not on the corpus: the scorer itself, as ../shared/data/README.md describes it.
    page = Page(
        "trafilatura-eval",
        "p",
        b"",
        "",
        "",
        with_passages=("one  two\nthree", "missing passage"),
        without_passages=("Most read", "Footer text"),
    )
    counts = count_segments("one two\u00a0three and\n\nMost   read", page)
    assert counts == Counts(
        true_positives=1, false_negatives=1, false_positives=1, true_negatives=1
    )
    assert count_segments("", page) == Counts(0, 2, 0, 2)
    total = sum_counts([counts, Counts(3, 0, 0, 1)])
    assert total == Counts(4, 1, 1, 2)
    assert (total.precision, total.recall) == (0.8, 0.8)
    assert total.f1 == pytest.approx(0.8)
    assert total.accuracy == 0.75
