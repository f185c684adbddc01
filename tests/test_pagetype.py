"""The page-type classifier (blockdensity.pagetype) on hand-made evidence.

Each page below is what a page of its kind typically declares and how its
text is shaped (the features a reader of the page would use); the model's
weights were fitted on WCXB's development split (bench/pagetype_train.py),
so these cases check that the fitted tables read the way the features mean,
and the contract around them: probabilities, the URL's two tables, the
phrase form.
"""

from __future__ import annotations

import dataclasses
import math

import pytest

from blockdensity.pagetype import (
    TYPES,
    Evidence,
    PageType,
    classify,
    features,
    phrase,
    probabilities,
    ranked,
)

FORUM = Evidence(
    schema_types=frozenset({"DiscussionForumPosting", "BreadcrumbList"}),
    og_type="website",
    generator="Discourse 3.4.0 - https://github.com/discourse/discourse",
    title="Is changing the MSRV a breaking change? - help - The Rust Programming Language Forum",
    published=True,
    words=1400,
    link_words=120,
    blocks=60,
    p_words=1100,
    long_block_words=700,
    phrases=frozenset({"reply", "like", "quote", "share"}),
)
PRODUCT = Evidence(
    schema_types=frozenset({"Product", "Offer", "BreadcrumbList"}),
    og_type="product",
    title="Cast Iron Skillet 10.25 Inch",
    words=900,
    link_words=350,
    blocks=120,
    li_words=300,
    p_words=200,
    long_block_words=120,
    prices=3,
    phrases=frozenset({"add to cart", "quantity", "description", "reviews", "in stock"}),
)
DOCUMENTATION = Evidence(
    generator="Sphinx 7.2.6",
    title="asyncio — Asynchronous I/O — Python 3.12 documentation",
    words=3000,
    link_words=900,
    blocks=200,
    li_words=800,
    code_words=600,
    heading_blocks=14,
    p_words=1200,
    long_block_words=900,
    phrases=frozenset({"parameters", "returns", "note", "see also", "table of contents"}),
)
ARTICLE = Evidence(
    schema_types=frozenset({"BlogPosting", "Person", "Organization", "WebSite"}),
    og_type="article",
    published=True,
    authors=1,
    title="Why we moved our build to Bazel",
    words=1800,
    link_words=200,
    blocks=45,
    p_words=1500,
    long_block_words=1300,
    heading_blocks=5,
    phrases=frozenset({"share", "related posts"}),
)
COLLECTION = Evidence(
    schema_types=frozenset({"CollectionPage", "ItemList", "BreadcrumbList"}),
    og_type="website",
    title="Cookware | Kitchen Store",
    words=1200,
    link_words=800,
    blocks=260,
    li_words=700,
    long_block_words=0,
    prices=36,
    phrases=frozenset({"sort by", "filter", "add to cart", "load more"}),
)


@pytest.mark.parametrize(
    ("evidence", "expected"),
    [
        (FORUM, PageType.FORUM),
        (PRODUCT, PageType.PRODUCT),
        (DOCUMENTATION, PageType.DOCUMENTATION),
        (ARTICLE, PageType.ARTICLE),
        (COLLECTION, PageType.COLLECTION),
    ],
    ids=["forum", "product", "documentation", "article", "collection"],
)
def test_typical_pages_get_their_kind(evidence: Evidence, expected: PageType) -> None:
    kind, confidence = classify(evidence)
    assert kind is expected
    assert confidence > 0.5


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("https://forum.example.org/t/some-topic-title/12345", PageType.FORUM),
        ("https://docs.example.com/en/latest/reference/api.html", PageType.DOCUMENTATION),
        ("https://example.com/blog/2024/05/why-we-moved-our-build-to-bazel", PageType.ARTICLE),
        ("https://example.com/pricing", PageType.SERVICE),
    ],
)
def test_the_url_tips_a_page_that_says_little(url: str, expected: PageType) -> None:
    """A page with a plain shape and no declarations: its URL's words decide."""
    plain = Evidence(words=600, link_words=200, blocks=40, p_words=300, long_block_words=100)
    assert classify(dataclasses.replace(plain, url=url))[0] is expected


def test_probabilities_are_a_distribution_over_every_kind() -> None:
    for evidence in (FORUM, PRODUCT, DOCUMENTATION, ARTICLE, COLLECTION, Evidence()):
        odds = probabilities(evidence)
        assert list(odds) == list(TYPES)
        assert all(0.0 <= value <= 1.0 for value in odds.values())
        assert math.isclose(sum(odds.values()), 1.0, rel_tol=1e-9)
        kind, confidence = classify(evidence)
        assert confidence == max(odds.values()) == odds[kind]


def test_ranked_names_the_likeliest_kind_and_the_next() -> None:
    for evidence in (FORUM, PRODUCT, DOCUMENTATION, ARTICLE, COLLECTION):
        odds = probabilities(evidence)
        first, confidence, second = ranked(evidence)
        assert confidence == odds[first] == max(odds.values())
        assert (first, confidence) == classify(evidence)
        assert second is not first
        assert odds[second] == max(odds[kind] for kind in TYPES if kind is not first)


def test_a_page_with_no_evidence_has_no_likely_kind() -> None:
    """Nothing known (a page with no words, no declarations): the classifier names a kind,
    but at less than even odds, so a caller that acts only on a confident kind does not."""
    assert classify(Evidence())[1] < 0.5


def test_the_url_features_are_read_only_when_there_is_a_url() -> None:
    with_url = dataclasses.replace(FORUM, url="https://forum.example.org/t/topic/1")
    assert any(name.startswith("url_") for name in features(with_url))
    assert not any(name.startswith(("url_", "host_")) for name in features(FORUM))
    assert not any(
        name.startswith(("url_", "host_")) for name in features(with_url, with_url=False)
    )


def test_features_are_bounded() -> None:
    """A huge or degenerate page cannot push one feature far past the range the weights
    were fitted on."""
    huge = Evidence(
        words=10**9,
        link_words=10**9,
        blocks=1,
        heading_blocks=10**6,
        prices=10**6,
        linked_headings=10**6,
        linked_titles=10**6,
        linked_medium=10**6,
        prose_run=10**9,
        longest_block=10**9,
        dates=10**6,
        url="https://example.com/" + "/".join(["a-b-c-d-e-f-g-h-i-j-k-l-m-n"] * 50),
    )
    assert all(0.0 <= value <= 6.0 for value in features(huge).values())
    assert classify(huge)[1] <= 1.0


def test_declarations_are_matched_whatever_their_case() -> None:
    shouting = dataclasses.replace(
        PRODUCT, schema_types=frozenset({"PRODUCT", "offer"}), og_type="PRODUCT"
    )
    assert features(shouting)["ld_product"] == 1.0
    assert features(shouting)["og_product"] == 1.0
    assert classify(shouting)[0] is PageType.PRODUCT


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("  Add to   Cart ", "add to cart"),
        ("Reply »", "reply"),
        ("« Previous", "previous"),
        ("Next →", "next"),
        ("»", ""),
        ("Q&A", "q&a"),
    ],
)
def test_phrase_is_the_short_text_as_the_evidence_holds_it(text: str, expected: str) -> None:
    assert phrase(text) == expected
