"""Hostile and broken input: no exception, and a result that makes sense.

Properties are asserted, never timings. The multi-megabyte cases are marked
`slow`.
"""

from __future__ import annotations

import random

import pytest

from blockdensity import Decision, FallbackReason, Fit, Reason, fit_text, html_to_text
from tests.helpers import seq


def consistent(result: Fit, html: str | bytes, charset: str | None = None) -> None:
    """What every fit must satisfy whatever the input."""
    assert result.blocks_total == len(result.blocks)
    assert result.words_total == sum(b.words for b in result.blocks)
    assert all(0 <= b.link_words <= b.words for b in result.blocks)
    assert "\n\n" not in result.text
    assert result.text == result.text.strip("\n")
    if result.fallback:
        assert result.text == html_to_text(html, charset=charset)


# --------------------------------------------------------------------------- missing structure


@pytest.mark.parametrize(
    ("html", "text"),
    [
        ("<p>hello world</p>", "hello world"),  # no html, head or body
        ("hello world", "hello world"),
        ("<b>bold</b> text", "bold text"),
        ("</p>", ""),  # HTML5 makes an empty <p>
        ("<li>a<li>b", "a\nb"),
        ("<td>x</td>", "x"),  # td start and end tags outside a table are ignored
        ("<html><head><title>only a title</title></head></html>", ""),
        ("<html>", ""),
        ("<head></head>text after head", "text after head"),
        ("<frameset><frame src=a.html><frame src=b.html></frameset>", ""),
    ],
)
def test_pages_without_body_or_with_fragments(html: str, text: str) -> None:
    result = fit_text(html)
    consistent(result, html)
    assert html_to_text(html) == text
    if not text:
        assert result.fallback_reason is FallbackReason.NO_TEXT
        assert result.text == ""


def test_title_of_a_page_without_body() -> None:
    result = fit_text("<html><head><title>only a title</title></head></html>")
    assert result.title == "only a title"
    assert result.fallback_reason is FallbackReason.NO_TEXT


@pytest.mark.parametrize(
    ("html", "text"),
    [
        ('<p>abc <a href="', "abc"),
        ("<div><p>foo <b>bar", "foo bar"),
        ("<p>a</p><!-- unterminated", "a"),
        ("<p>a</p><script>var x = 1;", "a"),  # the rest is script
        ("<p>foo &am", "foo &am"),
        ('<p class="x', ""),  # an unterminated attribute swallows the rest
        ("<", "<"),
        ("<p>a b</p><p", "a b"),
        ("<table><tr><td>a", "a"),
        ("<ul><li>one<li>two<li>thr", "one\ntwo\nthr"),
    ],
)
def test_truncated_markup(html: str, text: str) -> None:
    result = fit_text(html)
    consistent(result, html)
    assert html_to_text(html) == text


def test_unterminated_title_without_any_tag_after_it() -> None:
    """Nothing to recover: the page is only a title; no text, no exception."""
    result = fit_text("<title>just a title and no markup")
    consistent(result, "<title>just a title and no markup")
    assert result.fallback_reason is FallbackReason.NO_TEXT
    assert result.title == "just a title and no markup"


# --------------------------------------------------------------------------- bad bytes


@pytest.mark.parametrize(
    "html",
    [
        "<p>a\x00b c\x00</p>",
        "\x00" * 1000,
        "<p\x00>x y</p>",
        "<p>x</p>\x00<p>y</p>",
        "<title>\x00t</title><p>\x00</p>",
        "<table>\x00<tr>\x00<td>a\x00</td></tr></table>",
        "<svg>\x00<text>\x00</text></svg><math>\x00</math><p>z</p>",
        "<pre>\x00a\n\x00 b</pre>",
        "<p title='\x00'>v</p>",
    ],
)
def test_nul_characters(html: str) -> None:
    for given in (html, html.encode()):
        result = fit_text(given)
        consistent(result, given)
        assert "\x00" not in result.text
        assert "\x00" not in html_to_text(given)


def test_nul_never_reaches_a_block() -> None:
    result = fit_text(f"<p>{seq('a', 1, 20)}\x00</p><p>\x00{seq('b', 1, 20)}</p>")
    assert [b.words for b in result.blocks] == [20, 20]


@pytest.mark.parametrize(
    "data",
    [
        b"<p>\xff\xfe\xc3( \xe2\x82 end</p>",
        b"<p>overlong \xc0\xaf \xe0\x80\xaf</p>",
        b"<p>surrogate \xed\xa0\x80 half</p>",
        b"<p>truncated \xe6\x97",
        b"\xef\xbb\xbf\xff\xff<p>after a BOM</p>",
        b"\xff\xfe<\x00p\x00>\x00\x00\xd8",  # UTF-16LE BOM, then a lone surrogate
        bytes(range(256)) * 10,
    ],
)
@pytest.mark.parametrize("charset", [None, "utf-8", "windows-1252", "utf-16le"])
def test_invalid_bytes_never_raise(data: bytes, charset: str | None) -> None:
    result = fit_text(data, charset=charset)
    consistent(result, data, charset)
    assert isinstance(result.encoding, str)


def test_invalid_utf8_keeps_the_valid_text() -> None:
    data = b'<meta charset="utf-8"><p>caf\xc3\xa9 \xff na\xc3\xafve</p>'
    assert fit_text(data).text == "caf\u00e9 \ufffd na\u00efve"


# --------------------------------------------------------------------------- size


@pytest.mark.slow
def test_fifty_thousand_nested_divs() -> None:
    """One block, element div: the bound on nesting (blockdensity.nesting) keeps it linear."""
    html = "<div>" * 50_000 + "deep text here" + "</div>" * 50_000
    result = fit_text(html)
    assert [(b.text, b.words, b.element) for b in result.blocks] == [("deep text here", 3, "div")]
    assert result.fallback_reason is FallbackReason.SINGLE_BLOCK
    assert result.text == "deep text here"


def test_fifty_thousand_nested_spans_and_links() -> None:
    html = (
        f"<p>{seq('a', 1, 20)}</p><p>"
        + "<span>" * 50_000
        + "x01 <a href=#>l01</a> x02"
        + "</span>" * 50_000
        + f"</p><p>{seq('c', 1, 20)}</p>"
    )
    result = fit_text(html)
    consistent(result, html)
    assert [(b.words, b.link_words) for b in result.blocks] == [(20, 0), (3, 1), (20, 0)]


def test_ten_thousand_unclosed_paragraphs_and_list_items() -> None:
    html = "<p>w01 w02" * 5_000 + "<li>i01" * 5_000
    result = fit_text(html)
    consistent(result, html)
    assert result.blocks_total == 10_000
    assert result.words_total == 15_000


def test_one_megabyte_of_underscores() -> None:
    html = "<p>" + "_" * 1_000_000 + "</p>"
    result = fit_text(html)
    consistent(result, html)
    assert result.words_total == 0
    assert result.fallback_reason is FallbackReason.NO_TEXT
    assert result.text == "_" * 1_000_000


def test_one_megabyte_of_punctuation() -> None:
    glue = "\"'.,!@-:;$?()/"
    other = "#%*+=[]^{|}~"
    body = ((glue + other) * (1_000_000 // len(glue + other) + 1))[:1_000_000]
    html = "<p>" + body.replace("&", "&amp;") + "</p>"
    result = fit_text(html)
    consistent(result, html)
    assert result.words_total == 0
    assert result.fallback_reason is FallbackReason.NO_TEXT
    assert len(result.text) == 1_000_000


def test_one_megabyte_of_glue_between_two_letters_is_one_word() -> None:
    html = f"<p>x{'-.' * 500_000}y</p><p>{seq('a', 1, 20)}</p>"
    result = fit_text(html)
    consistent(result, html)
    assert [b.words for b in result.blocks] == [1, 20]


def test_one_megabyte_of_underscores_inside_sup() -> None:
    html = f"<p>{seq('a', 1, 20)} x<sup>{'_' * 1_000_000}y</sup></p><p>{seq('b', 1, 20)}</p>"
    result = fit_text(html)
    consistent(result, html)
    assert [b.words for b in result.blocks] == [21, 20]


def test_hundred_thousand_links_make_a_link_dense_block() -> None:
    links = " ".join(f"<a href='/p{n}'>w{n}</a>" for n in range(100_000))
    html = f"<div>{links}</div><p>{seq('b', 1, 50)}</p>"
    result = fit_text(html)
    consistent(result, html)
    block = result.blocks[0]
    assert (block.words, block.link_words, block.link_density) == (100_000, 100_000, 1000)
    assert (block.decision, block.leaf) == (Decision.BOILERPLATE, Reason.LINK_DENSE)
    # 50 words after a link-dense block (ld 1.0 > 0.555556): 50 > 40: CONTENT.
    assert result.blocks[1].leaf is Reason.AFTER_LINKS_LONG
    assert result.text == seq("b", 1, 50)


@pytest.mark.slow
def test_twenty_megabyte_page() -> None:
    paragraph = f"<p>{seq('w', 1, 30)} caf\u00e9 \u65e5\u672c</p>\n"
    count = 20_000_000 // len(paragraph.encode()) + 1
    html = "<html><head><title>big</title></head><body>" + paragraph * count + "</body></html>"
    assert len(html.encode()) > 20_000_000
    result = fit_text(html.encode())
    assert result.blocks_total == count
    assert result.words_total == count * 33
    assert not result.fallback
    assert result.blocks_kept == count
    lines = result.text.split("\n")
    assert len(lines) == count
    assert lines[0] == f"{seq('w', 1, 30)} caf\u00e9 \u65e5\u672c"


@pytest.mark.slow
def test_twenty_megabytes_in_one_block() -> None:
    html = "<p>" + "word " * 4_000_000 + "</p>"
    result = fit_text(html)
    assert result.blocks_total == 1
    assert result.words_total == 4_000_000
    assert result.fallback_reason is FallbackReason.SINGLE_BLOCK


def test_two_megabytes_of_random_bytes() -> None:
    data = random.Random(20).randbytes(2_000_000)
    result = fit_text(data)
    assert result.blocks_total == len(result.blocks)
    assert result.words_total == sum(b.words for b in result.blocks)
    assert isinstance(result.text, str)
