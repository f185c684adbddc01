"""`<noscript>` as a reader's browser sees it (docs/spec.md section 2): raw text, never the page's.

Browsers run with scripting on, so a noscript's content is raw text up to its
end tag. Parsed with scripting off (lexbor's default), an element opened
inside a noscript keeps it open, and the whole page after it hides in the
noscript: `<noscript><div id="x"></noscript>` at the top of a body once made
the fit return "" with fallback no_text.
"""

from __future__ import annotations

from selectolax.lexbor import LexborHTMLParser

from blockdensity import PUBLISHED_CONF, FallbackReason, fit_text, html_to_text
from blockdensity.dom import parse
from blockdensity.nesting import DEPTH_LIMIT, bound_nesting, cuts
from devkit.visible import visible_text
from tests.helpers import seq

ARTICLE = (
    f"<article><h1>{seq('h', 1, 6)}</h1><p>{seq('a', 1, 40)}</p><p>{seq('b', 1, 30)}</p></article>"
)
ARTICLE_TEXT = f"{seq('h', 1, 6)}\n{seq('a', 1, 40)}\n{seq('b', 1, 30)}"
NAV = "<ul><li><a href=/>n01</a></li><li><a href=/x>n02</a></li></ul>"


def test_a_div_opened_in_a_noscript_does_not_hide_the_article_after_it() -> None:
    html = f'<html><body><noscript><div id="x"></noscript>{NAV}{ARTICLE}</body></html>'
    # The construction the issue found: with scripting off the article is in the noscript.
    scripting_off = LexborHTMLParser(html).css_first("noscript")
    assert scripting_off is not None
    assert seq("a", 1, 40) in scripting_off.text()
    for conf in (PUBLISHED_CONF, None):
        result = fit_text(html) if conf is None else fit_text(html, conf)
        assert result.fallback_reason is None
        assert result.text == ARTICLE_TEXT
        assert "n01" not in result.text
    assert html_to_text(html) == f"n01\nn02\n{ARTICLE_TEXT}"


def test_the_noscript_content_is_one_text_node_the_walk_never_reads() -> None:
    html = "<body><noscript><p>enable <b>JavaScript</b></p></noscript><p>x01 x02</p>"
    noscript = parse(html).css_first("noscript")
    assert noscript is not None
    assert [node.tag for node in noscript.iter(include_text=True)] == ["-text"]
    assert html_to_text(html) == "x01 x02"


def test_a_noscript_left_open_to_the_end_of_the_page_hides_nothing() -> None:
    # Never closed, a noscript would take the rest of the page as raw text (a
    # browser shows nothing after it): its start tag goes before the parse,
    # and what follows is the page's, as an unterminated <title> is recovered.
    html = f"<body><h1>{seq('t', 1, 5)}</h1><noscript><div>{NAV}{ARTICLE}"
    assert visible_text(html).split() == seq("t", 1, 5).split()
    for conf in (PUBLISHED_CONF, None):
        result = fit_text(html) if conf is None else fit_text(html, conf)
        assert result.fallback_reason is None
        assert ARTICLE_TEXT in result.text
        assert "n01" not in result.text
    # After the article, the same: the article stays, and so does what follows.
    html = f"<body>{NAV}{ARTICLE}<noscript><div><p>{seq('z', 1, 30)}<p>{seq('y', 1, 30)}"
    result = fit_text(html, PUBLISHED_CONF)
    assert result.text == f"{ARTICLE_TEXT}\n{seq('z', 1, 30)}\n{seq('y', 1, 30)}"
    # Only the unclosed one's start tag goes; a closed one keeps its content out.
    closed = f"<body><noscript><p>{seq('z', 1, 30)}</noscript>{ARTICLE}<noscript><p>y01"
    assert cuts(closed.encode()) == [
        (len(closed) - len("<noscript><p>y01"), len(closed) - len("<p>y01"), b" ")
    ]
    assert "z01" not in fit_text(closed).text


def test_an_end_tag_inside_the_noscript_text_does_not_end_anything_else() -> None:
    html = f"<body><div><noscript></div></p></body><p>in</p></noscript>{ARTICLE}</div>"
    assert fit_text(html).text == ARTICLE_TEXT


def test_a_noscript_in_head_keeps_the_head_elements_after_it_in_head() -> None:
    # With scripting off, an <img> in a head noscript ends the head: the
    # <title>, <link> and <meta> after it moved into the body.
    head = (
        "<head><noscript><img src=/pixel.gif><link rel=stylesheet href=/ns.css>"
        "<meta name=robots content=noindex></noscript>"
        "<title>The title</title><link rel=canonical href=https://example.com/a>"
        '<meta property="og:site_name" content="Example"></head>'
    )
    html = f"<html>{head}<body>{NAV}{ARTICLE}</body></html>"
    document = parse(html)
    assert document.css_first("head title") is not None
    assert document.css_first("head link[rel=canonical]") is not None
    assert document.css_first("body title") is None
    result = fit_text(html, url="https://example.com/")
    assert result.title == "The title"
    assert result.text == ARTICLE_TEXT
    assert result.metadata.canonical_url == "https://example.com/a"
    assert result.metadata.site_name == "Example"


def test_the_noscript_text_stays_out_of_the_golden_removed_elements_case() -> None:
    html = f"<body><noscript>z01 z02 z03</noscript><p>{seq('a', 1, 17)}</p></body>"
    result = fit_text(html, PUBLISHED_CONF)
    assert result.text == seq("a", 1, 17)
    assert result.fallback_reason is FallbackReason.SINGLE_BLOCK


def test_the_nesting_scan_skips_the_noscript_content_as_the_parser_does() -> None:
    # 3,000 divs inside a noscript are text, not elements: nothing to bound.
    inside = "<noscript>" + "<div>" * 3_000 + "</noscript>x01"
    data = inside.encode()
    assert cuts(data) == []
    assert bound_nesting(data) is data
    # Deeper than the limit, a noscript is never taken out: its content
    # would then be parsed as markup.
    deep = "<div>" * (DEPTH_LIMIT + 5) + "<noscript><p>" + "<div>" * 100 + "</noscript>y01"
    bounded = bound_nesting(deep.encode())
    assert b"<noscript><p>" + b"<div>" * 100 + b"</noscript>" in bounded
    assert html_to_text(deep) == "y01"


def test_a_page_without_noscript_parses_as_before() -> None:
    # scripting on changes nothing but the noscript's own content.
    html = f"<body>{NAV}<template><p>t01</p></template>{ARTICLE}<script>s01</script></body>"
    scripting_off = LexborHTMLParser(html)
    assert parse(html).html == scripting_off.html
