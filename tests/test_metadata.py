"""blockdensity.metadata: what a page says about itself, from <meta>, <link>, microdata and
JSON-LD, read from the fit's own parse and exposed as Fit.metadata."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from blockdensity import DEFAULT_CONF, Conf, Metadata, fit_text
from blockdensity.jsonld import decode_blocks
from blockdensity.metadata import MAX_ITEMS, MAX_TEXT
from tests.hypothesis_profiles import examples

BODY = "<body><p>" + " ".join(f"w{n}" for n in range(30)) + "</p></body>"


def meta(
    head: str, body: str = BODY, url: str | None = "https://news.example/a/story.html"
) -> Metadata:
    return fit_text(f"<html><head>{head}</head>{body}</html>", url=url).metadata


def ld(value: object) -> str:
    return f'<script type="application/ld+json">{json.dumps(value)}</script>'


ARTICLE_LD = {
    "@context": "https://schema.org",
    "@type": "NewsArticle",
    "headline": "The headline",
    "description": "What it is about.",
    "datePublished": "2019-11-19T08:41:00Z",
    "dateModified": "2019-11-20T10:00:00+01:00",
    "author": [{"@type": "Person", "name": "Ada Lovelace"}, {"name": "Charles Babbage"}],
    "publisher": {"@type": "Organization", "name": "The Example Times"},
    "image": {"@type": "ImageObject", "url": "/img/lead.jpg"},
    "keywords": ["engines", "history"],
}


def test_a_page_that_declares_everything() -> None:
    got = meta(
        '<link rel="canonical" href="/a/story">'
        '<meta property="og:title" content="Shared title | Site">'
        '<meta property="og:description" content="Shared description">'
        '<meta property="og:site_name" content="Example">'
        '<meta property="og:type" content="article">'
        '<meta name="keywords" content="one, two,one , three">' + ld(ARTICLE_LD)
    )
    assert got == Metadata(
        canonical_url="https://news.example/a/story",
        title="The headline",  # the article's headline before what is declared for sharing
        description="Shared description",
        site_name="The Example Times",
        type="article",
        image="https://news.example/img/lead.jpg",
        published="2019-11-19T08:41:00Z",
        modified="2019-11-20T10:00:00+01:00",
        authors=("Ada Lovelace", "Charles Babbage"),
        keywords=("one", "two", "three"),  # split, stripped, de-duplicated, in order
    )


def test_a_page_that_declares_nothing_has_empty_metadata() -> None:
    assert meta("<title>Only a title</title>") == Metadata()
    assert fit_text("").metadata == Metadata()


def test_opengraph_twitter_and_plain_names_fill_in_without_json_ld() -> None:
    got = meta(
        '<meta name="twitter:title" content="  Tweet\n title ">'
        '<meta name="description" content="Plain description">'
        '<meta name="twitter:image" content="https://cdn.example/t.png">'
        '<meta name="author" content="By Jane Doe">'
        '<meta property="article:author" content="https://news.example/staff/jane">'
        '<meta property="article:published_time" content="2020-01-02T03:04:05+0100">'
        '<meta property="og:url" content="https://news.example/a/story.html?ref=og">'
    )
    assert got.title == "Tweet title"  # whitespace collapsed
    assert got.description == "Plain description"
    assert got.image == "https://cdn.example/t.png"
    assert got.authors == ("Jane Doe",)  # a byline's "By " is not the name; a URL is none
    assert got.published == "2020-01-02T03:04:05+01:00"
    assert got.canonical_url == "https://news.example/a/story.html?ref=og"


def test_space_separated_properties_declare_each_name() -> None:
    got = meta('<meta property="dc:title og:title" content="Both"><meta property="x y">')
    assert got.title == "Both"


def test_urls_resolve_against_the_base_element_then_the_page() -> None:
    head = (
        '<base href="/sub/"><link rel="canonical" href="page">'
        '<meta property="og:image" content="i.png">'
    )
    got = meta(head)
    assert got.canonical_url == "https://news.example/sub/page"
    assert got.image == "https://news.example/sub/i.png"
    # Without the page's URL a relative one is kept as the page wrote it.
    assert meta('<link rel="canonical" href="/x">', url=None).canonical_url == "/x"
    assert meta('<link rel="canonical" href="https://a.example/x">', url=None).canonical_url == (
        "https://a.example/x"
    )


@pytest.mark.parametrize(
    "href", ["javascript:alert(1)", "data:text/html,x", "mailto:a@b.example", "http://[::1", ""]
)
def test_a_url_that_is_not_http_is_none(href: str) -> None:
    assert meta(f'<link rel="canonical" href="{href}">').canonical_url is None


def test_json_ld_in_a_graph_and_in_an_array() -> None:
    graph = {"@context": "https://schema.org", "@graph": [
        {"@type": "WebSite", "name": "Graph Site"},
        {"@type": ["BlogPosting"], "headline": "In the graph", "author": "Solo Author"},
    ]}  # fmt: skip
    got = meta(ld(graph))
    assert (got.title, got.site_name, got.authors, got.type) == (
        "In the graph",
        "Graph Site",
        ("Solo Author",),
        "BlogPosting",
    )
    assert meta(ld([{"@type": "Thing"}, ARTICLE_LD])).title == "The headline"


def test_a_dated_entity_of_another_type_is_the_main_one_without_an_article() -> None:
    claim = {"@type": "ClaimReview", "datePublished": "2019-11-18T10:15:00+00:00"}
    assert meta(ld({"@type": "Organization", "name": "O"}) + ld(claim)).published == (
        "2019-11-18T10:15:00Z"
    )


@pytest.mark.parametrize(
    "script",
    [
        '<!-- {"@type": "Article", "headline": "Commented"} -->',
        '//<![CDATA[\n{"@type": "Article", "headline": "Commented"}\n//]]>',
        '{"@type": "Article", "headline": "Commented",}',
        '{"@type": "Article", "headline": "Commented"};',
        '{"@type": "Article", "headline": "Com\nmented"}',  # a raw line break in a string
    ],
)
def test_the_common_breakages_of_json_ld_are_repaired(script: str) -> None:
    got = meta(f'<script type="application/ld+json">{script}</script>')
    assert got.title in {"Commented", "Com mented"}


def test_a_block_beyond_repair_costs_its_fields_not_the_page_and_its_dates_are_salvaged() -> None:
    broken = '{"@type": "Article", "headline": "say "hi"", "datePublished": "2018-04-18"}'
    page = f'<script type="application/ld+json">{broken}</script>'
    fit = fit_text(f"<html><head>{page}</head>{BODY}</html>")
    assert fit.metadata.title is None
    assert fit.metadata.published == "2018-04-18"
    assert fit.text == " ".join(f"w{n}" for n in range(30))
    assert decode_blocks([broken, "null", "", "[1, 2]"]) == (
        [[1, 2]],
        {"datePublished": "2018-04-18"},
    )


def test_a_json_ld_nested_too_deep_for_the_decoder_is_no_json() -> None:
    deep = '{"a":' * 5_000 + "1" + "}" * 5_000
    assert decode_blocks([deep]) == ([], {})
    assert meta(f'<script type="application/ld+json">{deep}</script>{ld(ARTICLE_LD)}').title == (
        "The headline"
    )


def test_json_ld_strings_have_their_references_decoded() -> None:
    got = meta(ld({"@type": "Article", "headline": "Caf&eacute; &amp; bar&#8217;s"}))
    assert got.title == "Caf\u00e9 & bar\u2019s"


def test_microdata_dates_and_author() -> None:
    body = (
        '<body><article><abbr itemprop="datePublished" title="2016-05-08T00:55:00-07:00">12:55 AM'
        '</abbr><time itemprop="dateModified" datetime="2016-05-09">May 9</time>'
        '<span itemprop="author" itemscope><span itemprop="name">Micro Author</span></span>'
        "<p>" + " ".join(f"w{n}" for n in range(30)) + "</p></article></body>"
    )
    got = meta("", body)
    assert got.published == "2016-05-08T00:55:00-07:00"
    assert got.modified == "2016-05-09"
    assert got.authors == ("Micro Author",)


WORDS = " ".join(f"w{n}" for n in range(30))


@pytest.mark.parametrize(
    ("head", "body"),
    [
        # Deep in a subtree the walk never enters (an svg, an object's fallback).
        (
            "",
            f"<body><p>{WORDS}</p><svg><g><desc itemprop=datePublished content=2016-05-08>"
            "x</desc></g></svg></body>",
        ),
        (
            "",
            f'<body><p>{WORDS}</p><object><div><span itemprop="datePublished">2016-05-08'
            "</span></div></object></body>",
        ),
        # On the body element itself, and on a <meta> of the head whose content is no time
        # but whose microdata element is (the query reads <meta> elements too).
        ("", f'<body itemprop="datePublished" content="2016-05-08"><p>{WORDS}</p></body>'),
        ('<meta itemprop="datePublished" datetime="2016-05-08" content="soon">', BODY),
    ],
)
def test_microdata_is_read_wherever_in_the_tree_it_is(head: str, body: str) -> None:
    # The query runs only on a tree with an itemprop or pubdate attribute somewhere:
    # the check that says so must see every element the query sees.
    assert meta(head, body).published == "2016-05-08"


def test_the_first_source_with_a_usable_value_wins() -> None:
    # JSON-LD's date is junk: the next source gives the time.
    got = meta(
        ld({"@type": "Article", "datePublished": "0001-01-01T00:00:00Z"})
        + '<meta property="article:published_time" content="2021-06-01">'
    )
    assert got.published == "2021-06-01"


def test_values_are_capped_in_length_and_number() -> None:
    long_value = "x" * (MAX_TEXT + 500)
    authors = "".join(f'<meta name="author" content="Author {n}">' for n in range(MAX_ITEMS + 10))
    got = meta(f'<meta property="og:title" content="{long_value}">{authors}')
    assert got.title == "x" * MAX_TEXT
    assert got.authors == tuple(f"Author {n}" for n in range(MAX_ITEMS))


def test_the_metadata_is_in_to_dict_and_can_be_switched_off() -> None:
    english = "<p>The engine was never finished, but the notes on it are read to this day.</p>"
    page = f"<html><head>{ld(ARTICLE_LD)}</head><body>{english * 3}</body></html>"
    fit = fit_text(page)
    data = fit.to_dict(blocks=False)
    assert data["metadata"]["authors"] == ["Ada Lovelace", "Charles Babbage"]
    assert json.loads(json.dumps(data)) == data
    quiet = fit_text(page, Conf(read_metadata=False, detect_language=False))
    assert quiet.metadata == Metadata()
    assert quiet.lang_detected is None
    assert quiet.text == fit.text
    assert fit_text(page, DEFAULT_CONF).lang_detected is not None


def test_a_switch_must_be_a_bool() -> None:
    with pytest.raises(ValueError, match=r"Conf\.read_metadata must be True or False"):
        Conf(read_metadata="no")  # type: ignore[arg-type]


_META_NAMES = st.sampled_from(
    ["og:title", "description", "author", "keywords", "article:published_time", "og:image",
     "datePublished", "og:url", "dc:creator twitter:title", "x"]
)  # fmt: skip


@examples(300)
@given(
    names=st.lists(_META_NAMES, max_size=6),
    content=st.text(max_size=60),
    script=st.text(max_size=200)
    | st.sampled_from(
        ['{"@type":"Article","author":{"name":[1]}}', '{"@graph": 3}', '[{"@type": 7}]']
    ),
)
def test_any_declaration_gives_metadata_never_an_exception(
    names: list[str], content: str, script: str
) -> None:
    quoted = content.replace("&", "&amp;").replace('"', "&quot;")
    head = "".join(f'<meta name="{name}" content="{quoted}">' for name in names)
    got = meta(head + f'<script type="application/ld+json">{script}</script>')
    for value in (got.title, got.description, got.canonical_url, got.image, got.published):
        assert value is None or isinstance(value, str)
    assert all(isinstance(item, str) and item for item in got.authors + got.keywords)
