"""The classifier's evidence as the fit counts it (blockdensity.evidence), and the fit's page type.

Small hand-made pages of three kinds go through fit_text: the evidence its
stages count, the kind the classifier makes of it (Fit.page_type), and
what a caller's page_type, the published profile and the output records
do with it.
"""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from blockdensity import DEFAULT_CONF, PUBLISHED_CONF, PageType, fit_text
from blockdensity.decide.kinds import TYPE_CONFIDENCE
from blockdensity.decode import decode
from blockdensity.evidence import (
    _DATE,
    _ITEMTYPE,
    _add_phrase,
    _dates,
    _itemtypes,
    _phrases,
    gather,
)
from blockdensity.measure import measure
from blockdensity.metadata import read_declared
from blockdensity.pagetype import KNOWN_PHRASES, Evidence, classify, features
from blockdensity.parse import parse
from blockdensity.segment import walk

_POST = (
    "<article class=post><div class=author><a href=/u/{n}>user{n}</a></div>"
    "<p>I tried the setting you mentioned and the build still fails on the second step,"
    " the log says the cache directory is locked by another process and the retry does"
    " not help at all, any idea what else I could check before reinstalling?</p>"
    "<div><a href=#r{n}>Reply</a></div><div><a href=#q{n}>Quote</a></div></article>"
)
FORUM = (
    "<html><head><title>Build fails with locked cache - Help - Example Community Forum</title>"
    '<meta name="generator" content="Discourse 3.2">'
    '<script type="application/ld+json">{"@context": "https://schema.org",'
    ' "@type": "DiscussionForumPosting", "headline": "Build fails with locked cache",'
    ' "datePublished": "2024-03-01T10:00:00Z", "author": {"@type": "Person",'
    ' "name": "user0"}}</script></head><body>'
    "<nav><a href=/>Home</a> <a href=/c/help>Help</a></nav><h1>Build fails with locked cache</h1>"
    + "".join(_POST.format(n=n) for n in range(6))
    + "<footer><a href=/tos>Terms</a></footer></body></html>"
)
PRODUCT = (
    "<html><head><title>Cast Iron Skillet 10 Inch - Buy online</title>"
    '<meta property="og:type" content="product">'
    '<script type="application/ld+json">{"@context": "https://schema.org", "@type": "Product",'
    ' "name": "Cast Iron Skillet", "offers": {"@type": "Offer", "price": "34.99",'
    ' "priceCurrency": "USD"}}</script></head><body>'
    "<nav><a href=/>Shop</a> <a href=/kitchen>Kitchen</a></nav>"
    "<h1>Cast Iron Skillet 10 Inch</h1><div>$34.99</div><div>In stock</div>"
    "<div>Quantity</div><div><button>Add to cart</button></div>"
    "<h2>Description</h2><p>A pre-seasoned cast iron skillet for the stove, the oven and"
    " the campfire, ready to use out of the box.</p>"
    "<h2>Specifications</h2><ul><li>Diameter: 10 inches</li><li>Weight: 5 pounds</li></ul>"
    "<h2>Reviews</h2><footer><a href=/help>Help</a></footer></body></html>"
)
_CARD = (
    "<li class=card><h3><a href=/courses/{n}>Course {n}: data analysis</a></h3>"
    "<p>12 weeks</p><p><a href=/courses/{n}>Learn more</a></p></li>"
)
LISTING = (
    "<html><head><title>All courses - page 2</title></head><body>"
    "<nav><a href=/>Home</a> <a href=/courses>Courses</a></nav><h1>All courses</h1>"
    "<div>Sort by</div><ul class=results>"
    + "".join(_CARD.format(n=n) for n in range(20))
    + "</ul><div><a href=?page=1>Previous</a></div><div><a href=?page=3>Next</a></div>"
    "<footer><a href=/about>About</a></footer></body></html>"
)


def evidence_of(html: str, url: str | None = None) -> Evidence:
    """The evidence fit_text counts for `html`, from its own stages."""
    source = decode(html)
    parsed = parse(source, DEFAULT_CONF)
    page = walk(parsed, DEFAULT_CONF)
    measures = measure(page)
    metadata, declared = read_declared(
        parsed.document, page.declarations, url, page.declared_ids, page.microdata
    )
    return gather(page, measures, metadata, declared, source.markup, url)


def test_the_evidence_of_a_forum_thread() -> None:
    evidence = evidence_of(FORUM)
    assert evidence.schema_types == {"DiscussionForumPosting"}  # not the nested author
    assert evidence.generator == "Discourse 3.2"
    assert evidence.published
    assert evidence.authors == 1
    assert evidence.p_words == 6 * 43
    assert {"reply", "quote"} <= evidence.phrases
    assert evidence.title.startswith("Build fails")


def test_the_evidence_of_a_product_page() -> None:
    evidence = evidence_of(PRODUCT)
    assert "Product" in evidence.schema_types
    assert evidence.og_type == "product"
    assert evidence.prices == 1
    assert {"in stock", "quantity", "add to cart", "description", "reviews"} <= evidence.phrases
    assert evidence.li_words == 6
    assert evidence.heading_blocks == 4


def test_the_evidence_of_a_listing() -> None:
    evidence = evidence_of(LISTING)
    assert evidence.schema_types == frozenset()
    assert evidence.linked_headings == 20
    assert evidence.link_words > evidence.words / 2
    assert {"sort by", "next", "previous", "learn more"} <= evidence.phrases
    # Its layout: twenty linked titles ("Course 3: data analysis"), no prose.
    assert evidence.linked_titles == 20
    assert evidence.prose_run == 0


def test_the_layout_of_an_article_and_of_a_dated_list() -> None:
    """The longest run of prose adds the prose blocks in a row, which a short block (a
    caption) does not break and a linked block does; dates are counted in short blocks."""
    prose = "<p>" + " ".join(["word"] * 30) + "</p>"
    article = evidence_of(
        "<html><body><h1>A title</h1>"
        + prose * 3
        + "<p>A short caption.</p>"
        + prose * 2
        + "<p><a href=/a>"
        + " ".join(["linked"] * 12)
        + "</a></p>"
        + prose
        + "</body></html>"
    )
    assert article.prose_run == 5 * 30
    assert article.longest_block == 30
    assert article.linked_medium == 1
    dated = evidence_of(
        "<html><body><ul>"
        + "".join(
            f"<li><a href=/p{n}>Post number {n} of the week</a></li><li>Mar {n + 1}, 2025</li>"
            for n in range(5)
        )
        + "</ul></body></html>"
    )
    assert dated.dates == 5
    assert dated.linked_titles == 5


def test_microdata_types_are_read_where_the_walk_met_an_itemprop() -> None:
    page = (
        '<div itemscope itemtype="https://schema.org/Product"><h1 itemprop=name>Lamp</h1>'
        "<p>A lamp for the desk, with a warm light and a heavy base.</p></div>"
    )
    assert evidence_of(page).schema_types == {"Product"}
    # Without an itemprop the markup is not searched: a stray itemtype is not read.
    assert evidence_of(page.replace(" itemprop=name", "")).schema_types == frozenset()


def _itemtypes_as_first_written(markup: str) -> frozenset[str]:
    """evidence._itemtypes as first written, with str.find: what it must find."""
    values: list[str] = []
    start = markup.find("itemtype")
    while start >= 0:
        match = _ITEMTYPE.match(markup, start)
        if match:
            values.append(match.group(1))
        start = markup.find("itemtype", match.end() if match else start + 8)
    names = {value.rstrip("/").rsplit("/", 1)[-1] for value in values}
    names.discard("")
    return frozenset(names)


_ITEMTYPE_PIECES = st.sampled_from(
    ["itemtype", "item", "type", "=", " = ", '"', "'", ">", "/", "x" * 30, "\u00a0",
     "https://schema.org/", "Product", "Offer", "itemtype=Person", "\u2014", "\U0001f600", " "]
)  # fmt: skip


@example(["itemtype", "=", "itemtype", "=", "Product"])
@example(["itemtype", " = ", "\u00a0", '"', "https://schema.org/", "Offer", "\u2014"])
@given(st.lists(_ITEMTYPE_PIECES, max_size=40))
def test_microdata_types_are_those_the_find_loop_found(pieces: list[str]) -> None:
    markup = "".join(pieces)
    assert _itemtypes(markup) == _itemtypes_as_first_written(markup)


def _phrases_as_first_written(short: list[str]) -> set[str]:
    """evidence._phrases as first written, every line lowercased and looked up: what the
    compiled filter before it must not change."""
    found: set[str] = set()
    for text in short:
        for line in text.split("\n"):
            _add_phrase(line, found)
    return found


# The known phrases, their pieces, and what may stand beside them or in them: marks,
# edges, whitespace, capitals, the Kelvin sign (lowercased "k"), U+0130 (lowercased "i"
# and a combining dot), letters and digits of other scripts.
_PHRASE_PIECES = st.one_of(
    st.sampled_from(sorted(KNOWN_PHRASES)),
    st.sampled_from(
        ["Add", "TO", "cart", "Li", "\u212a", "e", "\u0130", "\u0131", "\u00e9", "\u0663",
         " ", "  ", "\n", "\t", "\u00a0", "\ud800", "\ud801", "\ud802", "\ud803", "»", "→",
         "\u2014", ".", "(", "2", "3", "x" * 20, "Q", "\U0001f600", "_"]
    ),
)  # fmt: skip


@example(["li", "\u212a", "e"])
@example(["\ud800", "Reply", "\ud800", " »"])
@example(["add", "  ", "\ud800", "to cart"])
@example(["\u0130", "tem"])
@given(st.lists(st.lists(_PHRASE_PIECES, max_size=6).map("".join), max_size=8))
def test_phrases_are_those_every_line_looked_up_finds(short: list[str]) -> None:
    assert _phrases(short) == _phrases_as_first_written(short)


def test_phrases_are_the_known_ones_cleaned_as_phrase_cleans_them() -> None:
    page = "<p>Some text here.</p><div>» <a href=#>Add  to   Cart</a> →</div><div>Zebra</div>"
    assert evidence_of(page).phrases == {"add to cart"}


@pytest.mark.parametrize(
    ("html", "kind"),
    [(FORUM, PageType.FORUM), (PRODUCT, PageType.PRODUCT), (LISTING, PageType.LISTING)],
)
def test_the_fit_classifies_each_page(html: str, kind: PageType) -> None:
    fit = fit_text(html)
    assert fit.page_type is kind
    assert fit.page_type_confidence is not None
    # Sure enough that the kind's rules ran.
    assert TYPE_CONFIDENCE <= fit.page_type_confidence <= 1.0
    assert (fit.page_type, fit.page_type_confidence) == pytest.approx(
        classify(evidence_of(html)), abs=1e-4
    )


def test_a_caller_s_page_type_is_reported_with_confidence_one() -> None:
    fit = fit_text(FORUM, page_type=PageType.DOCUMENTATION)
    assert (fit.page_type, fit.page_type_confidence) == (PageType.DOCUMENTATION, 1.0)


def test_the_page_type_is_in_to_dict_as_its_value() -> None:
    data = json.loads(json.dumps(fit_text(PRODUCT).to_dict(blocks=False)))
    assert data["page_type"] == "product"
    assert 0.5 <= data["page_type_confidence"] <= 1.0


@pytest.mark.parametrize("html", [FORUM, PRODUCT, LISTING])
def test_the_published_profile_s_text_does_not_follow_the_page_type(html: str) -> None:
    # The rules by kind of page never run under the published profile: it does not
    # classify, and its text is the same whatever kind a caller gives.
    fit = fit_text(html, PUBLISHED_CONF)
    assert (fit.page_type, fit.page_type_confidence) == (None, None)
    for kind in PageType:
        given = fit_text(html, PUBLISHED_CONF, page_type=kind)
        assert given.text == fit.text
        assert (given.page_type, given.page_type_confidence) == (kind, 1.0)


@pytest.mark.parametrize("url", ["http://[x/", "https://[::1/a", "http://a]b/"])
def test_a_url_urllib_cannot_split_is_no_evidence_and_no_error(url: str) -> None:
    fit = fit_text(PRODUCT, url=url)
    assert fit.page_type is PageType.PRODUCT
    named = features(evidence_of(PRODUCT, url))
    assert not [name for name in named if name.startswith(("url_", "host_"))]


# The date pattern as first written: _DATE, which begins with one character class so that
# the engine skips to where a date may start, must find what this finds on lowercased text.
_DATE_AS_WRITTEN = re.compile(
    r"\b(?:\d+\s+(?:minutes?|mins?|hours?|hrs?|days?|weeks?|months?|years?)\s+ago"
    r"|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d{1,2}(?:st|nd|rd|th)?,?\s+\d{4}"
    r"|\d{1,2}(?:st|nd|rd|th)?\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?,?\s+\d{4}"
    r"|\d{4}-\d\d-\d\d|\d{1,2}[./]\d{1,2}[./]\d{2,4})\b",
    re.IGNORECASE,
)
# Pieces dates are made of, and what sits around them, so that random texts hold dates.
_DATE_PIECES = st.sampled_from(
    [
        "Mar",
        "march",
        "Jun.",
        "sept",
        "dec",
        "Janet",
        "amar",
        "3",
        "12",
        "2025",
        "1999",
        "st",
        "nd",
        "th",
        " ",
        "  ",
        "\n",
        ",",
        ".",
        "/",
        "-",
        "days",
        "hour",
        "ago",
        "x",
        "٣",
        "_",
        "a",
        "on",
        "Sep",
    ]
)


@example(["Mar", " ", "3", ",", " ", "2025"])
@example(["3", " ", "days", " ", "ago", "x", "12", "/", "3", "/", "1999"])
@example(["amar", " ", "3", " ", "2025", "-", "12", "-", "12"])
@given(st.lists(_DATE_PIECES, max_size=30))
def test_the_date_pattern_finds_what_the_pattern_as_written_finds(pieces: list[str]) -> None:
    text = "".join(pieces).lower()
    assert _DATE.findall(text) == _DATE_AS_WRITTEN.findall(text)
    # Counted stretch by stretch, as gather counts them: the same.
    assert _dates(text) == len(_DATE_AS_WRITTEN.findall(text))


@pytest.mark.parametrize(
    "text",
    [
        "march\n3, 2025",  # across short blocks
        "x3 days ago",
        "\u00e93 days ago",  # a letter before the stretch: no date
        "_3 days ago",
        "3 days ago\u00e9",  # a letter after it: no date
        "mar 3, 2025x",
        "a-2025-03-03",
        "3 days ago,march 3 2025",
        "\u0661\u0662 days ago",
        "1.1.25",  # the shortest date
        "1.1.2",
        "",
    ],
)
def test_dates_are_counted_by_stretch_as_in_the_whole_text(text: str) -> None:
    assert _dates(text) == len(_DATE.findall(text))


def test_the_date_pattern_finds_dates_and_not_their_look_alikes() -> None:
    text = "posted mar 3, 2025 · 3 days ago · 2025-03-03 · 03/03/2025 · amar 3 2025 · 12:30"
    assert _DATE.findall(text) == ["mar 3, 2025", "3 days ago", "2025-03-03", "03/03/2025"]
