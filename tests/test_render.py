"""The renderer (blockdensity.render, docs/spec.md section 1) and the golden strings that freeze it.

`render_blocks` and `block_lines` are called directly on hand-built blocks:
one line per block, <br> marks breaking lines inside one, whitespace
collapsed (verbatim inside <pre>, trailing whitespace aside), no empty line.
Then `html_to_text`, the one renderer, on whole pages: every expected string
follows from docs/spec.md section 1 and the HTML5 parsing rules (character
references, implied and ignored tags), worked out by hand. The fit's text is
what it renders with the dropped blocks removed.
"""

from __future__ import annotations

import pytest

from blockdensity import Decision, fit_text, html_to_text
from blockdensity.conf import DEFAULT_CONF
from blockdensity.render import block_lines, render_blocks
from blockdensity.segment import BREAK_MARK, BlockInfo, segment
from tests.helpers import BOUNDARY_CONTEXT, SPEC_BOUNDARIES, SPEC_INLINE, page, render, seq

PLAIN: BlockInfo = ("p", False, -1)
PRE: BlockInfo = ("pre", True, -1)

# --------------------------------------------------------------------------- render_blocks


def test_one_line_per_block_with_whitespace_collapsed() -> None:
    assert render_blocks([PLAIN, PLAIN], ["  a01 \t a02 ", "\nb01\u00a0\u3000b02"]) == (
        "a01 a02\nb01 b02"
    )


def test_no_blocks_render_as_nothing() -> None:
    assert render_blocks([], []) == ""


def test_a_pre_block_or_a_broken_block_of_whitespace_gives_no_empty_line() -> None:
    """A plain block always has visible text (segment makes no other); these may not."""
    assert render_blocks([PLAIN, PRE, PLAIN], ["a01", " \n\t ", "b01"]) == "a01\nb01"
    assert render_blocks([PLAIN, PLAIN, PLAIN], ["a01", f" {BREAK_MARK} ", "b01"]) == "a01\nb01"


def test_break_marks_break_lines_and_never_make_an_empty_one() -> None:
    text = f"{BREAK_MARK}x01 {BREAK_MARK}{BREAK_MARK} y01{BREAK_MARK}"
    assert render_blocks([PLAIN], [text]) == "x01\ny01"


def test_pre_text_is_verbatim_but_for_trailing_whitespace_and_empty_lines() -> None:
    text = "  def f():\n      return 1   \n\n \t\n\treturn  2\t"
    assert render_blocks([PRE], [text]) == "  def f():\n      return 1\n\treturn  2"


def test_a_break_mark_in_pre_is_a_line_break() -> None:
    assert render_blocks([PRE], [f"a{BREAK_MARK}  b"]) == "a\n  b"


def test_plain_pre_and_broken_blocks_keep_their_order() -> None:
    blocks = [PLAIN, PRE, PLAIN, PLAIN, PLAIN]
    texts = ["a01", "  p01\n  p02", f"b01{BREAK_MARK}b02", "c01", "  d01  "]
    assert render_blocks(blocks, texts) == "a01\n  p01\n  p02\nb01\nb02\nc01\nd01"


def test_blocks_and_texts_must_pair_up() -> None:
    with pytest.raises(ValueError, match="shorter"):
        render_blocks([PLAIN, PLAIN], ["only one"])


@pytest.mark.parametrize(
    ("block", "text", "lines"),
    [
        (PLAIN, " a01  a02 ", ["a01 a02"]),
        (PLAIN, "   ", []),
        (PLAIN, f"a01{BREAK_MARK}{BREAK_MARK} b01 ", ["a01", "b01"]),
        (PRE, "  x\n\n  y  \n", ["  x", "  y"]),
        (PRE, " \n\t", []),
    ],
)
def test_block_lines_are_the_non_empty_lines_of_one_block(
    block: BlockInfo, text: str, lines: list[str]
) -> None:
    assert block_lines(block, text) == lines


def test_html_to_text_is_render_blocks_of_the_segmented_page() -> None:
    body = f"<nav>n01</nav><p>a01<br>a02</p><pre> x\n  y</pre><footer>{seq('f', 1, 3)}</footer>"
    html = page(body)
    segmented = segment(html, DEFAULT_CONF.without_drops())
    assert html_to_text(html) == render_blocks(segmented.blocks, segmented.block_texts())
    assert html_to_text(html) == f"n01\na01\na02\n x\n  y\n{seq('f', 1, 3)}"


def test_html_to_text_decodes_bytes_with_the_charset() -> None:
    data = "<p>\u041f\u0440\u0438\u0432\u0435\u0442</p>".encode("koi8-r")
    assert html_to_text(data, charset="koi8-r") == "\u041f\u0440\u0438\u0432\u0435\u0442"


# --------------------------------------------------------------------------- boundaries


@pytest.mark.parametrize("name", [name for name in SPEC_BOUNDARIES if name not in ("hr", "body")])
def test_default_boundary_ends_a_line_in_the_renderer(name: str) -> None:
    """With the default boundaries the renderer gives each block its own line."""
    body = f"<div>x01 x02{BOUNDARY_CONTEXT[name]}z01 z02</div>"
    assert html_to_text(page(body)) == "x01 x02\ny01 y02\nz01 z02"


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


@pytest.mark.parametrize("name", SPEC_INLINE)
def test_inline_element_never_inserts_a_space(name: str) -> None:
    """`foo<b>bar</b>` is `foobar`; `<a>` renders inline like the others."""
    assert render(f"<p>foo<{name}>bar</{name}>baz</p>") == "foobarbaz"


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
    """Identity (docs/spec.md section 1): every block kept, so fit.text == html_to_text
    byte for byte."""
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
