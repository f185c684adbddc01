"""Golden tests that freeze the renderer's byte contract (SPEC section 1).

`html_to_text` is the one renderer; the fit's text is what it renders with the
dropped blocks removed. Every expected string here follows from SPEC section
1 and the HTML5 parsing rules (character references, implied and ignored
tags), worked out by hand.
"""

from __future__ import annotations

import pytest

from blockdensity import Decision, fit_text, html_to_text


def page(body: str, head: str = "<title>t</title>") -> str:
    return f"<!DOCTYPE html><html><head>{head}</head><body>{body}</body></html>"


def render(body: str) -> str:
    return html_to_text(page(body))


def seq(prefix: str, first: int, last: int) -> str:
    return " ".join(f"{prefix}{number:02d}" for number in range(first, last + 1))


# --------------------------------------------------------------------------- entities


@pytest.mark.parametrize(
    ("body", "text"),
    [
        ("<p>AT&amp;T</p>", "AT&T"),
        ("<p>a &lt;b&gt; c</p>", "a <b> c"),
        ("<p>x&nbsp;y</p>", "x y"),  # NBSP is whitespace: renders as a plain space
        ("<p>don&#8217;t</p>", "don\u2019t"),
        ("<p>don&#x2019;t &#X2019;</p>", "don\u2019t \u2019"),
        ("<p>&copy; &eacute;t&eacute; &hellip;</p>", "\u00a9 \u00e9t\u00e9 \u2026"),
        ("<p>&quot;q&quot; &apos;a&apos;</p>", "\"q\" 'a'"),
        ("<p>AT&T and &unknown; stay</p>", "AT&T and &unknown; stay"),
        ("<p>&notit; &notin;</p>", "\u00acit; \u2209"),  # HTML5 legacy prefix match
        ("<p>&amp</p>", "&"),  # legacy reference without semicolon
        ("<p>&#128; &#x80;</p>", "\u20ac \u20ac"),  # HTML5's windows-1252 override
        ("<p>a&#0;b &#xD800;</p>", "a\ufffdb \ufffd"),
        ("<p>&#x1F600;</p>", "\U0001f600"),
        ("<p>&nbsp;&nbsp;x&nbsp;&nbsp;</p>", "x"),
        ("<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>", "<script>alert(1)</script>"),
    ],
)
def test_character_references_are_decoded_as_html5_does(body: str, text: str) -> None:
    assert render(body) == text


# --------------------------------------------------------------------------- br


@pytest.mark.parametrize(
    ("body", "text"),
    [
        ("<p>one<br>two</p>", "one\ntwo"),
        ("<p>one<br/>two</p>", "one\ntwo"),
        ("<p>one <br> two</p>", "one\ntwo"),
        ("<p>one<br><br><br>two</p>", "one\ntwo"),
        ("<p>one<br> <br>\n<br>two</p>", "one\ntwo"),
        ("<p><br>one<br></p>", "one"),
        ("<p>one</p><br><br><p>two</p>", "one\ntwo"),
        ("<p>a <b>bold<br>text</b> c</p>", "a bold\ntext c"),
    ],
)
def test_br_is_a_line_break_and_never_an_empty_line(body: str, text: str) -> None:
    assert render(body) == text


def test_br_breaks_a_line_inside_one_block() -> None:
    """br is not a boundary: one block, two lines, and it separates words."""
    result = fit_text(
        page(f"<p>{seq('a', 1, 10)}<br>{seq('b', 1, 10)}</p><p>{seq('c', 1, 20)}</p>")
    )
    assert len(result.blocks) == 2
    assert result.blocks[0].text == f"{seq('a', 1, 10)}\n{seq('b', 1, 10)}"
    assert result.blocks[0].words == 20
    assert result.text == f"{seq('a', 1, 10)}\n{seq('b', 1, 10)}\n{seq('c', 1, 20)}"


def test_words_do_not_join_across_br() -> None:
    result = fit_text("<p>one<br>two</p>")
    assert result.blocks[0].words == 2


# --------------------------------------------------------------------------- pre


def test_pre_keeps_indentation_and_line_breaks() -> None:
    body = (
        "<p>intro</p><pre>def f(x):\n    if x:\n        return 1   \n\n\treturn  2\t\n</pre>"
        "<p>outro</p>"
    )
    assert render(body) == "intro\ndef f(x):\n    if x:\n        return 1\n\treturn  2\noutro"


@pytest.mark.parametrize(
    ("body", "text"),
    [
        ("<pre>\nfirst</pre>", "first"),  # HTML5 drops a newline right after <pre>
        ("<pre>a    b</pre>", "a    b"),
        ("<pre><b>bold</b>   <i>it</i></pre>", "bold   it"),
        ("<pre>a<br>  b</pre>", "a\n  b"),
        ("<pre>a\n   \n\t\nb</pre>", "a\nb"),  # whitespace-only lines are empty lines
        ("<pre>a  \nb \t </pre>", "a\nb"),
        ("<pre>x &lt; y &amp;&amp; z</pre>", "x < y && z"),
        ("<pre>a\r\n  b\r  c</pre>", "a\n  b\n  c"),  # HTML5 normalises CR and CRLF
    ],
)
def test_pre_verbatim_but_trailing_whitespace_and_empty_lines_go(body: str, text: str) -> None:
    assert render(f"<p>before</p>{body}<p>after</p>") == f"before\n{text}\nafter"


def test_pre_block_words_and_text() -> None:
    result = fit_text(page(f"<p>{seq('a', 1, 20)}</p><pre>  x01 x02\n    y01</pre>"))
    pre = result.blocks[1]
    assert pre.element == "pre"
    assert pre.words == 3
    assert pre.text == "  x01 x02\n    y01"


# --------------------------------------------------------------------------- inline and separators

INLINE = [
    "a",
    "abbr",
    "acronym",
    "b",
    "bdi",
    "bdo",
    "cite",
    "code",
    "data",
    "del",
    "dfn",
    "em",
    "font",
    "i",
    "ins",
    "kbd",
    "mark",
    "q",
    "s",
    "samp",
    "small",
    "span",
    "strike",
    "strong",
    "sub",
    "sup",
    "time",
    "tt",
    "u",
    "var",
]


@pytest.mark.parametrize("name", INLINE)
def test_inline_element_never_inserts_a_space(name: str) -> None:
    """`foo<b>bar</b>` is `foobar`; `<a>` renders inline like the others."""
    assert render(f"<p>foo<{name}>bar</{name}>baz</p>") == "foobarbaz"


@pytest.mark.parametrize("name", [name for name in INLINE if name not in ("a", "sub", "sup")])
def test_inline_element_never_splits_a_word(name: str) -> None:
    result = fit_text(page(f"<p>foo<{name}>bar</{name}>baz qux</p>"))
    assert [(b.words, b.link_words) for b in result.blocks] == [(2, 0)]


def test_wbr_never_inserts_a_space() -> None:
    assert render("<p>super<wbr>cali<wbr>fragilistic</p>") == "supercalifragilistic"


@pytest.mark.parametrize(
    ("markup", "text"),
    [
        ("foo<img src=x.png alt='alt words'>bar", "foo bar"),
        ("foo<input value='v'>bar", "foo bar"),
        ("foo<label>x</label>bar", "foo x bar"),
        ("foo<button>x</button>bar", "foo x bar"),
        ("foo<x-widget>x</x-widget>bar", "foo x bar"),
        ("foo<my-element>x</my-element>bar", "foo x bar"),
        ("foo<textarea>x</textarea>bar", "foo x bar"),
        ("foo<script>x</script>bar", "foo bar"),
        ("foo <script>x</script> bar", "foo bar"),
        ("foo<span hidden>x</span>bar", "foo bar"),
        ("foo<b>bar</b><img>baz", "foobar baz"),
    ],
)
def test_non_inline_elements_render_as_one_collapsible_space(markup: str, text: str) -> None:
    assert render(f"<p>{markup}</p>") == text


def test_img_separates_words_for_counting() -> None:
    result = fit_text(page("<p>foo<img>bar</p>"))
    assert result.blocks[0].words == 2


def test_custom_element_never_ends_a_block() -> None:
    result = fit_text(page("<p>foo<x-widget>bar</x-widget>baz</p>"))
    assert [(b.text, b.words) for b in result.blocks] == [("foo bar baz", 3)]


# --------------------------------------------------------------------------- whitespace


@pytest.mark.parametrize(
    ("body", "text"),
    [
        ("<p>  a \t\n  b  </p>", "a b"),
        ("<p>a\u00a0\u00a0 b</p>", "a b"),  # raw NBSP
        ("<p>a\u2003\u3000b</p>", "a b"),  # EM SPACE, IDEOGRAPHIC SPACE
        ("<p>a\u2028b\u0085c</p>", "a b c"),  # LINE SEPARATOR, NEL: str.isspace
        ("<p>a\x0cb\x1cc</p>", "a b c"),  # form feed; FS is str.isspace too
        ("<p>a\u200bb</p>", "a\u200bb"),  # ZERO WIDTH SPACE is not whitespace
        ("<p>a<span> </span>b</p>", "a b"),
        ("<p>a<span>  </span>  <b> </b>b</p>", "a b"),
        ("<p>a</p>\n\n   <p>b</p>", "a\nb"),
    ],
)
def test_whitespace_runs_collapse_to_one_space(body: str, text: str) -> None:
    assert render(body) == text


def test_several_boundaries_in_a_row_give_one_line_break() -> None:
    body = (
        "<div><div><div><p>a</p></div></div></div>"
        "<div><section><p><span>b</span></p></section></div>"
    )
    assert render(body) == "a\nb"


def test_no_empty_lines_and_no_edge_whitespace() -> None:
    body = (
        "\n\n<div>\n  <p>   x   </p>\n\n<p>\n</p><p>&nbsp;</p><ul><li> </li><li>  y</li></ul>\n"
        "<table><tr><td> </td><td>z </td></tr></table>\n</div>\n\n"
    )
    text = render(body)
    assert text == "x\ny\nz"


def test_whitespace_only_page_renders_empty() -> None:
    assert render(" \n\t&nbsp; <div> </div> ") == ""


# --------------------------------------------------------------------------- never text


@pytest.mark.parametrize(
    ("body", "text"),
    [
        ("<p>before <!-- secret --> after</p>", "before after"),
        ("<!-- secret --><p>a</p><!-- secret -->", "a"),
        ("<!--[if IE]><p>secret</p><![endif]--><p>a</p>", "a"),
        ("<p>a</p><!-- unterminated <p>secret</p>", "a"),
        ('<p>x <?php echo "secret"; ?> y</p>', "x y"),
        ("<?xml version='1.0'?><p>a</p>", "a"),
        ("<p>a <![CDATA[secret]]> b</p>", "a b"),
        ("<p>a</p><!DOCTYPE html><p>b</p>", "a\nb"),
    ],
)
def test_comments_processing_instructions_and_doctype_are_never_text(body: str, text: str) -> None:
    assert render(body) == text
    assert fit_text(page(body)).text == text


def test_head_is_never_text() -> None:
    head = (
        "<title>secret title</title><meta name=description content='secret'>"
        "<style>secret{}</style><script>secret()</script><link rel=stylesheet href=secret.css>"
    )
    assert html_to_text(page("<p>body text</p>", head=head)) == "body text"
    assert html_to_text(page("", head=head)) == ""


# --------------------------------------------------------------------------- identity


def test_str_and_utf8_bytes_render_the_same() -> None:
    html = page("<p>caf\u00e9 \u65e5\u672c\u8a9e &amp; co</p><pre>  x\n y</pre>")
    assert (
        html_to_text(html.encode())
        == html_to_text(html)
        == "caf\u00e9 \u65e5\u672c\u8a9e & co\n  x\n y"
    )


def test_fit_text_is_the_renderer_when_every_block_is_kept() -> None:
    """Identity (SPEC 1): every block kept, so fit.text == html_to_text byte for byte."""
    body = (
        f"<h2>{seq('h', 1, 17)} &amp; more</h2>"
        f"<p>{seq('a', 1, 10)}<br><br>{seq('b', 1, 10)} <b>bo</b>ld &nbsp; caf&eacute;</p>"
        f"<pre>  {seq('p', 1, 10)}\n      {seq('q', 1, 10)}   </pre>"
        f"<ul><li>{seq('l', 1, 20)}<img src=x> <x-y>z</x-y></li></ul>"
        f"<blockquote>{seq('q', 1, 20)}<sup>[1]</sup></blockquote>"
    )
    html = page(body)
    result = fit_text(html)
    assert [b.decision for b in result.blocks] == [Decision.CONTENT] * 5
    assert not result.fallback
    assert result.text == html_to_text(html)
    assert result.text.splitlines()[0] == f"{seq('h', 1, 17)} & more"
    assert result.text.splitlines()[3] == f"  {seq('p', 1, 10)}"


def test_dropped_blocks_leave_the_rest_of_the_rendering_unchanged() -> None:
    """Only the dropped blocks' text goes: the remaining lines are the renderer's."""
    body = (
        f"<p>{seq('a', 1, 20)}</p><nav><a href=#>n01</a> <a href=#>n02</a></nav>"
        f"<p>{seq('b', 1, 10)}<br>{seq('c', 1, 10)}</p><footer>{seq('f', 1, 20)}</footer>"
    )
    # b+c (20 words) follows the nav (ld 1.0): 20 <= 40, next 20 > 17: CONTENT.
    html = page(body)
    full = html_to_text(html).split("\n")
    assert full == [seq("a", 1, 20), "n01 n02", seq("b", 1, 10), seq("c", 1, 10), seq("f", 1, 20)]
    assert fit_text(html).text.split("\n") == [full[0], full[2], full[3]]
