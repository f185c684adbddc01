"""Each rule of SPEC sections 2 to 7, case by case.

Expectations are worked out by hand from SPEC (and from the implementers'
recorded decisions where SPEC is silent); the comment on each case shows the
arithmetic.
"""

from __future__ import annotations

import codecs
import dataclasses
import unicodedata

import pytest

from blockdensity import (
    DEFAULT_CONF,
    Conf,
    Decision,
    FallbackReason,
    Fit,
    Reason,
    fit_text,
    html_to_text,
)
from blockdensity.decode import decode_html
from blockdensity.words import count_many, count_words, word_starts

C = Decision.CONTENT
B = Decision.BOILERPLATE
D = Decision.DROPPED

NO_DROPS = DEFAULT_CONF.without_drops()


def seq(prefix: str, first: int, last: int) -> str:
    """The words `prefix`+NN from `first` to `last`, space separated (SPEC's `{a01..a16}`)."""
    return " ".join(f"{prefix}{number:02d}" for number in range(first, last + 1))


def page(body: str, head: str = "<title>t</title>") -> str:
    return f"<!DOCTYPE html><html><head>{head}</head><body>{body}</body></html>"


def fit(body: str, conf: Conf | None = None) -> Fit:
    return fit_text(page(body), conf)


def measures(result: Fit) -> list[tuple[int, int]]:
    return [(b.words, b.link_words) for b in result.blocks]


def decisions(result: Fit) -> list[Decision]:
    return [b.decision for b in result.blocks]


def texts(result: Fit) -> list[str]:
    return [b.text for b in result.blocks]


def only(boundary: str) -> Conf:
    """A configuration whose only boundary is `boundary`, and no semantic drops."""
    return Conf(boundaries=frozenset({boundary}), drop_elements=frozenset(), drop_roles=frozenset())


# --------------------------------------------------------------------------- boundaries

SPEC_BOUNDARIES = [
    "p",
    "div",
    "li",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "section",
    "article",
    "aside",
    "nav",
    "header",
    "footer",
    "main",
    "table",
    "tr",
    "td",
    "th",
    "blockquote",
    "pre",
    "ul",
    "ol",
    "dl",
    "dt",
    "dd",
    "figure",
    "figcaption",
    "form",
    "hr",
    "body",
]

# For each boundary, markup around "y01 y02" in which only that element can
# end a block: every other element there is a non-boundary under `only()`.
BOUNDARY_CONTEXT = {
    **{name: f"<{name}>y01 y02</{name}>" for name in SPEC_BOUNDARIES},
    "table": "<table><tr><td>y01 y02</td></tr></table>",
    "tr": "<table><tr><td>y01 y02</td></tr></table>",
    "td": "<table><tr><td>y01 y02</td></tr></table>",
    "th": "<table><tr><th>y01 y02</th></tr></table>",
    "li": "<ul><li>y01 y02</li></ul>",
    "ul": "<ul><li>y01 y02</li></ul>",
    "ol": "<ol><li>y01 y02</li></ol>",
    "dl": "<dl><dd>y01 y02</dd></dl>",
    "dt": "<dl><dt>y01 y02</dt></dl>",
    "dd": "<dl><dd>y01 y02</dd></dl>",
    "figcaption": "<figure><figcaption>y01 y02</figcaption></figure>",
}


def test_default_boundaries_include_every_spec_boundary_but_not_br() -> None:
    """SPEC section 2: the seed's list is the default; br is deliberately not a boundary."""
    assert set(SPEC_BOUNDARIES) <= DEFAULT_CONF.boundaries
    assert "br" not in DEFAULT_CONF.boundaries


@pytest.mark.parametrize("name", [name for name in SPEC_BOUNDARIES if name not in ("hr", "body")])
def test_boundary_open_and_close_each_end_a_block(name: str) -> None:
    """With only `name` a boundary, its open and its close each end a block."""
    body = f"<div>x01 x02{BOUNDARY_CONTEXT[name]}z01 z02</div>"
    result = fit(body, only(name))
    assert texts(result) == ["x01 x02", "y01 y02", "z01 z02"]
    assert measures(result) == [(2, 0), (2, 0), (2, 0)]
    assert result.blocks[1].element == name


@pytest.mark.parametrize("name", [name for name in SPEC_BOUNDARIES if name not in ("hr", "body")])
def test_default_boundary_ends_a_line_in_the_renderer(name: str) -> None:
    """With the default boundaries the renderer gives each block its own line."""
    body = f"<div>x01 x02{BOUNDARY_CONTEXT[name]}z01 z02</div>"
    assert html_to_text(page(body)) == "x01 x02\ny01 y02\nz01 z02"


def test_without_the_boundary_the_same_markup_is_one_block() -> None:
    """The control for the cases above: with only body a boundary, one block of 6 words."""
    for name in SPEC_BOUNDARIES:
        if name in ("hr", "body"):
            continue
        body = f"<div>x01 x02{BOUNDARY_CONTEXT[name]}z01 z02</div>"
        result = fit(body, only("body"))
        assert texts(result) == ["x01 x02 y01 y02 z01 z02"], name
        assert measures(result) == [(6, 0)], name


def test_hr_ends_a_block() -> None:
    result = fit("<div>x01 x02<hr>y01 y02</div>", only("hr"))
    assert texts(result) == ["x01 x02", "y01 y02"]
    assert html_to_text(page("<div>x01 x02<hr>y01 y02</div>")) == "x01 x02\ny01 y02"


def test_text_directly_in_body_is_a_block_of_body() -> None:
    result = fit("x01 x02<div>y01</div>z01")
    assert texts(result) == ["x01 x02", "y01", "z01"]
    assert result.blocks[0].element == "body"
    assert result.blocks[2].element == "body"


def test_td_is_a_word_separator_even_when_not_a_boundary() -> None:
    """SPEC 2: `one<td>two` is two words even where td would not be a boundary."""
    result = fit("<table><tr><td>one<td>two</table>", only("body"))
    assert measures(result) == [(2, 0)]
    assert result.text == "one two"


def test_td_cells_are_two_blocks_by_default() -> None:
    result = fit("<table><tr><td>one<td>two</table>")
    assert texts(result) == ["one", "two"]
    assert [b.element for b in result.blocks] == ["td", "td"]


def test_text_after_a_boundary_close_starts_a_new_block() -> None:
    result = fit("<div><p>a01 a02</p>b01 b02</div>")
    assert texts(result) == ["a01 a02", "b01 b02"]
    assert [b.element for b in result.blocks] == ["p", "div"]


def test_br_as_configured_boundary_splits_blocks() -> None:
    """The boundary set is configurable: with br in it, br ends a block."""
    conf = dataclasses.replace(DEFAULT_CONF, boundaries=DEFAULT_CONF.boundaries | {"br"})
    assert texts(fit("<p>a01 a02<br>b01 b02</p>", conf)) == ["a01 a02", "b01 b02"]
    assert texts(fit("<p>a01 a02<br>b01 b02</p>")) == ["a01 a02\nb01 b02"]


@pytest.mark.parametrize(
    ("body", "element"),
    [
        ("<section><p>x01</p></section>", "p"),
        ("<div>a01 <span>b01</span></div>", "div"),
        ("<ul><li><a href=#>x01</a></li></ul>", "li"),
        ("<table><tr><th>x01</th></tr></table>", "th"),
        ("<article><div><h2>x01</h2></div></article>", "h2"),
        ("<div><p></p>  tail01</div>", "div"),
        ("<blockquote><b>x01</b></blockquote>", "blockquote"),
    ],
)
def test_block_element_is_innermost_boundary_at_first_visible_text(body: str, element: str) -> None:
    result = fit(body)
    assert [b.element for b in result.blocks] == [element]


def test_blocks_without_visible_text_are_not_materialised() -> None:
    """Whitespace-only blocks are structural: not in blocks, not counted in blocks_total."""
    result = fit(f"<div> </div><p>\n\t</p><p>{seq('a', 1, 20)}</p><div><p> &nbsp; </p></div>")
    assert texts(result) == [seq("a", 1, 20)]
    assert result.blocks_total == 1
    assert [b.index for b in result.blocks] == [0]


# --------------------------------------------------------------------------- removed, hidden

REMOVED = {
    "script": "<script>secret words</script>",
    "style": "<style>secret words</style>",
    "noscript": "<noscript>secret words</noscript>",
    "template": "<template>secret words</template>",
    "svg": "<svg><text>secret words</text></svg>",
    "math": "<math><mi>secret</mi><mtext>words</mtext></math>",
    "option": "<option>secret words</option>",
    "option_in_select": "<select><option>secret words</option><option>secret</option></select>",
    "object": "<object data=x.swf>secret words</object>",
    "embed": "<embed src=x.swf>",
    "applet": "<applet code=x.class>secret words</applet>",
    "iframe": "<iframe src=x.html>secret words</iframe>",
}


@pytest.mark.parametrize("name", sorted(REMOVED))
def test_removed_element_contributes_no_text_and_separates_words(name: str) -> None:
    """SPEC 2: removed elements give no text and no words; they separate words (SPEC 1)."""
    body = f"<p>foo{REMOVED[name]}bar</p>"
    result = fit(body)
    assert measures(result) == [(2, 0)]
    assert result.text == "foo bar"
    assert html_to_text(page(body)) == "foo bar"
    assert "secret" not in result.blocks[0].text


@pytest.mark.parametrize("name", sorted(REMOVED))
def test_removed_element_alone_makes_no_block(name: str) -> None:
    body = f"<p>{seq('a', 1, 20)}</p><div>{REMOVED[name]}</div><p>{seq('b', 1, 20)}</p>"
    result = fit(body)
    assert texts(result) == [seq("a", 1, 20), seq("b", 1, 20)]
    assert "secret" not in html_to_text(page(body))


def test_head_is_never_text() -> None:
    head = (
        "<title>the title</title><meta name=description content='meta words'>"
        "<style>p{}</style><script>var headscript = 1;</script>"
    )
    html = page(f"<p>{seq('a', 1, 20)}</p>", head=head)
    assert html_to_text(html) == seq("a", 1, 20)
    result = fit_text(html)
    assert result.words_total == 20
    assert "title" not in result.text
    assert result.title == "the title"


@pytest.mark.parametrize("attribute", ["hidden", "hidden=''", "hidden=hidden", "HIDDEN"])
def test_hidden_element_is_removed_and_separates_words(attribute: str) -> None:
    body = f"<p>foo<span {attribute}>secret</span>bar</p>"
    result = fit(body)
    assert measures(result) == [(2, 0)]
    assert result.text == "foo bar"
    assert html_to_text(page(body)) == "foo bar"


def test_hidden_block_makes_no_block_and_is_no_neighbour() -> None:
    """A hidden link list is not there: it cannot be the previous neighbour of a block."""
    # Without the hidden nav, the 10-word block has prev = page edge (0 words):
    # 10 <= 16, next 16 > 15: CONTENT. Had the hidden links counted (ld 1.0),
    # it would be BOILERPLATE (10 <= 40, next 16 <= 17).
    body = (
        f"<div hidden><a>n01</a> <a>n02</a></div><p>{seq('b', 1, 10)}</p><p>{seq('c', 1, 16)}</p>"
    )
    result = fit(body)
    assert measures(result) == [(10, 0), (16, 0)]
    assert decisions(result) == [C, C]
    assert "n01" not in html_to_text(page(body))


# --------------------------------------------------------------------------- sup and sub


def test_sub_inside_a_word_is_one_counted_word() -> None:
    """`H<sub>2</sub>O` begins outside sub: one counted word, rendered glued."""
    result = fit(f"<p>H<sub>2</sub>O {seq('a', 1, 19)}</p>")
    assert measures(result) == [(20, 0)]
    assert result.text == f"H2O {seq('a', 1, 19)}"


def test_sup_ordinal_is_one_counted_word() -> None:
    """`1<sup>st</sup>` is one counted word."""
    result = fit(f"<p>the 1<sup>st</sup> place {seq('a', 1, 17)}</p>")
    assert measures(result) == [(20, 0)]
    assert result.text == f"the 1st place {seq('a', 1, 17)}"


@pytest.mark.parametrize(
    "citation",
    [
        '<a href="#cite1"><sup>[1]</sup></a>',
        '<sup><a href="#cite1">[1]</a></sup>',
        '<sup id="r1"><a href="#cite1">[1]</a></sup><sup><a href="#cite2">[2]</a></sup>',
    ],
)
def test_citation_in_sup_is_neither_a_word_nor_a_link_word(citation: str) -> None:
    """`[1]` in sup inside (or around) <a> does not count, as a word or a link word."""
    result = fit(f"<p>{seq('a', 1, 20)}{citation} {seq('b', 1, 5)}</p>")
    assert measures(result) == [(25, 0)]
    assert "[1]" in result.text


def test_citations_do_not_make_a_paragraph_link_dense() -> None:
    """Ten citations on 12 words: without the sup rule the ld would be 10/22 > 1/3."""
    cites = "".join(f'{seq("w", n, n)}<sup><a href="#c{n}">[{n}]</a></sup> ' for n in range(1, 11))
    body = f"<p>{seq('a', 1, 20)}</p><p>{cites}x01 x02</p><p>{seq('c', 1, 20)}</p>"
    result = fit(body)
    assert measures(result) == [(20, 0), (12, 0), (20, 0)]
    assert decisions(result) == [C, C, C]
    assert "[10]" in result.text


def test_word_beginning_inside_sup_is_not_counted_but_rendered() -> None:
    """`<sup>ab</sup>cd` begins inside sup: not counted; its text is in the kept block."""
    result = fit(
        f"<p>{seq('a', 1, 20)} <sup>ab</sup>cd <sub>note</sub></p><p>{seq('b', 1, 20)}</p>"
    )
    assert measures(result) == [(20, 0), (20, 0)]
    assert result.blocks[0].decision is C
    assert result.text.splitlines()[0] == f"{seq('a', 1, 20)} abcd note"


def test_word_beginning_inside_sup_within_a_link_is_not_a_link_word() -> None:
    result = fit(f"<p>{seq('a', 1, 20)} <a href=#><sup>x</sup>y z01</a></p>")
    assert measures(result) == [(21, 1)]


def test_sup_with_only_punctuation_changes_nothing() -> None:
    result = fit(f"<p>{seq('a', 1, 20)}<sup>*</sup> foo<sup>\u2020</sup></p>")
    assert measures(result) == [(21, 0)]


# --------------------------------------------------------------------------- links


def test_anchor_edges_separate_words_for_counting_but_render_inline() -> None:
    """`foo<a>bar</a>baz` is three words, one linked, rendered `foobarbaz`."""
    result = fit("<p>foo<a href=#>bar</a>baz</p>")
    assert measures(result) == [(3, 1)]
    assert result.text == "foobarbaz"


def test_anchor_spanning_blocks_makes_all_their_words_link_words() -> None:
    """`<a><h3>..</h3><p>..</p></a>`: every word of both blocks is a link word."""
    result = fit(f"<a href=#><h3>t01 t02 t03</h3><p>{seq('s', 1, 10)}</p></a>")
    assert measures(result) == [(3, 3), (10, 10)]
    assert decisions(result) == [B, B]
    assert [b.link_density for b in result.blocks] == [1000, 1000]


def test_anchor_without_href_counts() -> None:
    result = fit(f'<p>{seq("a", 1, 5)} <a name="top">Named anchor text</a></p>')
    assert measures(result) == [(8, 3)]


def test_nested_anchor_is_closed_as_html5_parses_it() -> None:
    """HTML5: a second <a> closes the first; the stray </a> is ignored. 5 words, 2 linked."""
    result = fit("<p>pre <a href=#1>one <a href=#2>two</a> three</a> post</p>")
    assert measures(result) == [(5, 2)]
    assert result.text == "pre one two three post"


def test_unclosed_anchor_continues_as_html5_reconstructs_it() -> None:
    """HTML5 reconstructs an unclosed <a> in the next paragraph: its words are linked too."""
    result = fit("<p>b01 <a href=#>b02 b03<p>c01 c02</p>")
    assert measures(result) == [(3, 2), (2, 2)]


def test_link_word_begins_inside_anchor() -> None:
    """Glue characters join across inline tags, but not across anchor edges."""
    result = fit("<p>(<a href=#>paren)</a> e.g.<b>x</b></p>")
    # "(" alone has no letter: no word; "paren)" linked; "e.g.x" one word.
    assert measures(result) == [(2, 1)]


# --------------------------------------------------------------------------- neighbours


def test_zero_word_block_is_classified_but_never_a_neighbour_as_prev() -> None:
    """`»` between two blocks: the 10-word block's prev is the 20-word block, not `»`."""
    # b: prev = a (20 words, ld 0): 10 <= 16, next c 3 <= 15, prev 20 > 4: CONTENT.
    # Had `»` (0 words) been prev: prev 0 <= 4: BOILERPLATE.
    # `»`: 0 words, prev a (20 > 4), next b 10 <= 15: CONTENT (short_after_text).
    body = f"<p>{seq('a', 1, 20)}</p><p>\u00bb</p><p>{seq('b', 1, 10)}</p><p>c01 c02 c03</p>"
    result = fit(body)
    assert measures(result) == [(20, 0), (0, 0), (10, 0), (3, 0)]
    assert decisions(result) == [C, C, C, C]
    assert result.blocks[1].leaf is Reason.SHORT_AFTER_TEXT
    assert result.blocks[2].leaf is Reason.SHORT_AFTER_TEXT
    assert result.text == f"{seq('a', 1, 20)}\n\u00bb\n{seq('b', 1, 10)}\nc01 c02 c03"


def test_zero_word_block_is_never_a_neighbour_as_next() -> None:
    """`|` before a 16-word block: the 10-word block's next is the 16-word block."""
    # h: 4 words. b: prev h (4 <= 4), next c (16 > 15): CONTENT (short_before_text).
    # Had `|` been next (0 <= 15) with prev 4 <= 4: BOILERPLATE.
    body = f"<h1>{seq('h', 1, 4)}</h1><p>{seq('b', 1, 10)}</p><p>|</p><p>{seq('c', 1, 16)}</p>"
    result = fit(body)
    assert measures(result) == [(4, 0), (10, 0), (0, 0), (16, 0)]
    assert result.blocks[1].decision is C
    assert result.blocks[1].leaf is Reason.SHORT_BEFORE_TEXT


def test_zero_word_block_after_links_and_the_nothing_kept_fallback() -> None:
    """A link list, `|`, 40 words: the 40-word block's prev is still the link list."""
    # b: prev = links (ld 1.0 > 0.555556): 40 <= 40, next 0 <= 17: BOILERPLATE.
    # `|`: prev links, 0 <= 40, next b 40 > 17: CONTENT, but it has no words,
    # so no block *with words* is kept: fallback nothing_kept.
    body = f"<ul><li><a href=#>n01 n02</a></li></ul><p>|</p><p>{seq('b', 1, 40)}</p>"
    result = fit(body)
    assert measures(result) == [(2, 2), (0, 0), (40, 0)]
    assert decisions(result) == [B, C, B]
    assert result.fallback_reason is FallbackReason.NOTHING_KEPT
    assert result.text == f"n01 n02\n|\n{seq('b', 1, 40)}"


def test_zero_word_link_block_is_not_link_dense() -> None:
    """ld_le is true when words is 0: a linked `»` has ld 0, link density 0 permil."""
    body = f"<p>{seq('a', 1, 20)}</p><p><a href=#>\u00bb</a></p><p>{seq('b', 1, 20)}</p>"
    result = fit(body)
    assert measures(result) == [(20, 0), (0, 0), (20, 0)]
    assert result.blocks[1].leaf is not Reason.LINK_DENSE
    assert result.blocks[1].link_density == 0


# --------------------------------------------------------------------------- semantic drops


def test_nav_is_dropped_after_being_classified() -> None:
    """A long CONTENT-by-the-tree nav is still dropped; its leaf stays the tree's."""
    body = f"<nav>{seq('n', 1, 20)}</nav><p>{seq('b', 1, 20)}</p><p>{seq('c', 1, 20)}</p>"
    result = fit(body)
    assert decisions(result) == [D, C, C]
    nav = result.blocks[0]
    assert (nav.reason, nav.leaf, nav.scope) == (Reason.SEMANTIC_DROP, Reason.LONG, "nav")
    assert result.text == f"{seq('b', 1, 20)}\n{seq('c', 1, 20)}"


@pytest.mark.parametrize("name", ["nav", "footer", "aside"])
def test_default_drop_elements(name: str) -> None:
    body = (
        f"<p>{seq('a', 1, 30)}</p><{name}><p>{seq('d', 1, 20)}</p></{name}><p>{seq('c', 1, 30)}</p>"
    )
    result = fit(body)
    assert decisions(result) == [C, D, C]
    assert result.blocks[1].scope == name
    assert "d01" not in result.text


def test_header_is_not_dropped_by_default() -> None:
    body = f"<header><p>{seq('h', 1, 20)}</p></header><p>{seq('c', 1, 30)}</p>"
    result = fit(body)
    assert decisions(result) == [C, C]
    assert result.blocks[0].scope is None


def test_block_scope_is_where_its_first_visible_text_is() -> None:
    """A block whose first visible text is outside a role=navigation span is not dropped."""
    body = (
        f"<p>{seq('a', 1, 20)}</p>"
        f"<div>{seq('b', 1, 20)}<span role=navigation>{seq('r', 1, 3)}</span></div>"
        f"<div><span role=navigation>{seq('s', 1, 3)}</span>{seq('c', 1, 20)}</div>"
    )
    result = fit(body)
    assert decisions(result) == [C, C, D]
    assert [b.scope for b in result.blocks] == [None, None, "role=navigation"]


def test_scope_is_the_innermost_dropped_element() -> None:
    body = (
        f"<p>{seq('a', 1, 40)}</p><aside><p>{seq('s', 1, 20)}</p>"
        f"<nav><p>{seq('n', 1, 20)}</p></nav></aside><p>{seq('c', 1, 40)}</p>"
    )
    result = fit(body)
    assert [b.scope for b in result.blocks] == [None, "aside", "nav", None]
    assert decisions(result) == [C, D, D, C]


def test_unclosed_nav_holding_most_content_words_is_not_dropped() -> None:
    """An unclosed <nav> encloses the page; it holds 50 of 50 CONTENT words: kept."""
    # n: 2/2 link dense. b: prev ld 1.0, 30 <= 40, next 20 > 17: CONTENT.
    # c: prev b ld 0, 20 > 16: CONTENT. All 50 CONTENT words are in the nav.
    body = f"<nav><a href=#>n01</a> <a href=#>n02</a><p>{seq('b', 1, 30)}</p><p>{seq('c', 1, 20)}"
    result = fit(body)
    assert measures(result) == [(2, 2), (30, 0), (20, 0)]
    assert [b.scope for b in result.blocks] == ["nav", "nav", "nav"]
    assert decisions(result)[1:] == [C, C]
    assert [b.reason for b in result.blocks[1:]] == [Reason.SEMANTIC_MAJORITY] * 2
    assert [b.leaf for b in result.blocks[1:]] == [Reason.AFTER_LINKS_BEFORE_TEXT, Reason.LONG]
    assert result.blocks[0].decision is not C
    assert result.text == f"{seq('b', 1, 30)}\n{seq('c', 1, 20)}"
    assert not result.fallback


def test_nav_with_exactly_half_of_the_content_words_is_dropped() -> None:
    """'more than half': 20 of 40 CONTENT words is not more than half."""
    body = f"<p>{seq('a', 1, 20)}</p><nav><p>{seq('b', 1, 20)}</p>"
    result = fit(body)
    assert measures(result) == [(20, 0), (20, 0)]
    assert decisions(result) == [C, D]
    assert result.blocks[1].reason is Reason.SEMANTIC_DROP
    assert result.text == seq("a", 1, 20)


def test_nav_with_just_over_half_of_the_content_words_is_kept() -> None:
    """21 of 41 CONTENT words is more than half: the nav is not dropped."""
    body = f"<p>{seq('a', 1, 20)}</p><nav><p>{seq('b', 1, 21)}</p>"
    result = fit(body)
    assert decisions(result) == [C, C]
    assert result.blocks[1].reason is Reason.SEMANTIC_MAJORITY
    assert result.text == f"{seq('a', 1, 20)}\n{seq('b', 1, 21)}"


@pytest.mark.parametrize("role", ["navigation", "contentinfo", "complementary"])
def test_aria_role_is_a_drop_scope(role: str) -> None:
    body = (
        f"<p>{seq('a', 1, 30)}</p><div role={role}><p>{seq('r', 1, 20)}</p></div>"
        f"<p>{seq('c', 1, 30)}</p>"
    )
    result = fit(body)
    assert decisions(result) == [C, D, C]
    assert result.blocks[1].scope == f"role={role}"
    assert result.blocks[1].reason is Reason.SEMANTIC_DROP
    assert "r01" not in result.text


def test_other_aria_roles_are_not_dropped() -> None:
    body = f"<p>{seq('a', 1, 30)}</p><div role=main><p>{seq('r', 1, 20)}</p></div>"
    result = fit(body)
    assert decisions(result) == [C, C]
    assert result.blocks[1].scope is None


def test_aria_role_drop_block_is_still_a_neighbour() -> None:
    """As with nav: a role=navigation link list is the prev of the block after it."""
    body = (
        "<ul role=navigation><li><a href=#>n01</a></li><li><a href=#>n02</a></li></ul>"
        f"<p>{seq('b', 1, 10)}</p><p>{seq('c', 1, 16)}</p>"
    )
    result = fit(body)
    assert decisions(result) == [D, D, B, C]


def test_conf_without_drops_keeps_nav_footer_aside_and_roles() -> None:
    body = (
        f"<nav><p>{seq('n', 1, 20)}</p></nav><p>{seq('b', 1, 20)}</p>"
        f"<div role=contentinfo><p>{seq('r', 1, 20)}</p></div>"
        f"<aside><p>{seq('s', 1, 20)}</p></aside><footer><p>{seq('f', 1, 20)}</p></footer>"
    )
    dropped = fit(body)
    assert decisions(dropped) == [D, C, D, D, D]
    kept = fit(body, DEFAULT_CONF.without_drops())
    assert decisions(kept) == [C, C, C, C, C]
    assert [b.scope for b in kept.blocks] == [None] * 5
    assert kept.text == html_to_text(page(body))


def test_without_drops_changes_only_the_drop_sets() -> None:
    conf = DEFAULT_CONF.without_drops()
    assert conf.drop_elements == frozenset()
    assert conf.drop_roles == frozenset()
    assert dataclasses.replace(conf, drop_elements=DEFAULT_CONF.drop_elements,
                               drop_roles=DEFAULT_CONF.drop_roles) == DEFAULT_CONF  # fmt: skip


def test_default_drop_sets() -> None:
    assert DEFAULT_CONF.drop_elements == frozenset({"nav", "footer", "aside"})
    assert DEFAULT_CONF.drop_roles == frozenset({"navigation", "contentinfo", "complementary"})


# --------------------------------------------------------------------------- fallback


def test_fallback_no_text_on_a_page_without_words() -> None:
    """Visible text but no words: the full text comes back, reason no_text."""
    body = "<p>|</p><p>\u00bb \u00a9 \u2014</p><p>__ ... !!</p>"
    result = fit(body)
    assert result.fallback_reason is FallbackReason.NO_TEXT
    assert result.fallback
    assert result.text == "|\n\u00bb \u00a9 \u2014\n__ ... !!"
    assert result.text == html_to_text(page(body))
    assert result.words_total == 0
    assert result.blocks_total == 3
    assert result.blocks_with_words == 0


@pytest.mark.parametrize("html", ["", "   ", "<html></html>", "<p></p>", "<!-- only -->"])
def test_fallback_no_text_on_an_empty_page(html: str) -> None:
    result = fit_text(html)
    assert result.fallback_reason is FallbackReason.NO_TEXT
    assert result.text == ""
    assert result.blocks == ()
    assert (result.blocks_total, result.words_total, result.words_kept) == (0, 0, 0)


def test_fallback_single_block_with_zero_word_blocks_around() -> None:
    """One block with words among several blocks: single_block, and all of it returned."""
    body = f"<p>|</p><p>{seq('a', 1, 5)}</p><p>\u00bb</p>"
    result = fit(body)
    assert result.fallback_reason is FallbackReason.SINGLE_BLOCK
    assert result.text == f"|\n{seq('a', 1, 5)}\n\u00bb"
    assert (result.blocks_total, result.blocks_with_words, result.blocks_kept) == (3, 1, 3)


def test_fallback_nothing_kept_when_every_content_block_is_dropped() -> None:
    """Nav and footer each hold half the CONTENT words: both dropped, nothing left."""
    body = f"<nav><p>{seq('n', 1, 20)}</p></nav><footer><p>{seq('f', 1, 20)}</p></footer>"
    result = fit(body)
    assert result.fallback_reason is FallbackReason.NOTHING_KEPT
    assert result.text == f"{seq('n', 1, 20)}\n{seq('f', 1, 20)}"
    assert result.text == html_to_text(page(body))
    assert (result.blocks_kept, result.words_kept) == (2, 40)


def test_fallback_keeps_the_tree_decisions_in_blocks() -> None:
    """In a fallback the blocks still say what the tree said."""
    result = fit(f"<ul><li><a>n01 n02</a></li></ul><p>{seq('b', 1, 40)}</p>")
    assert result.fallback_reason is FallbackReason.NOTHING_KEPT
    assert decisions(result) == [B, B]
    assert result.blocks_kept == result.blocks_total == 2
    assert result.words_kept == result.words_total == 42


def test_no_fallback_is_reported_as_none() -> None:
    result = fit(f"<p>{seq('a', 1, 20)}</p><p>{seq('b', 1, 20)}</p>")
    assert result.fallback is False
    assert result.fallback_reason is None


def test_fallback_reasons_are_exactly_three() -> None:
    assert {reason.value for reason in FallbackReason} == {
        "single_block",
        "nothing_kept",
        "no_text",
    }


# --------------------------------------------------------------------------- title, lang


def test_unterminated_title_is_recovered() -> None:
    """`<title>t <p>...`: HTML5 would make the page the title; it is re-parsed."""
    html = f"<html><head><title>t <p>{seq('a', 1, 20)}</p><p>{seq('b', 1, 20)}</p></body></html>"
    result = fit_text(html)
    assert result.title == "t"
    assert texts(result) == [seq("a", 1, 20), seq("b", 1, 20)]
    assert result.text == f"{seq('a', 1, 20)}\n{seq('b', 1, 20)}"
    assert html_to_text(html) == result.text


def test_unterminated_title_recovery_from_bytes() -> None:
    html = f"<title>Caf\u00e9 news <div><p>{seq('a', 1, 20)}</p></div>".encode()
    result = fit_text(html)
    assert result.title == "Caf\u00e9 news"
    assert result.text == seq("a", 1, 20)


@pytest.mark.parametrize(
    "opening",
    ["<TITLE lang=en>t ", "<head><title>t\n<body>", "<title>t <!-- c -->"],
)
def test_unterminated_title_recovery_variants(opening: str) -> None:
    html = f"{opening}<p>{seq('a', 1, 20)}</p><p>{seq('b', 1, 20)}</p>"
    result = fit_text(html)
    assert result.title == "t"
    assert result.text == f"{seq('a', 1, 20)}\n{seq('b', 1, 20)}"


def test_unterminated_second_title_is_recovered() -> None:
    """The unclosed title that swallows the body is the second one; the body must come back."""
    html = f"<title>first</title><title>t <p>{seq('a', 1, 20)}</p><p>{seq('b', 1, 20)}</p>"
    result = fit_text(html)
    assert result.title == "first"
    assert result.text == f"{seq('a', 1, 20)}\n{seq('b', 1, 20)}"


def test_title_is_whitespace_collapsed_first_title() -> None:
    head = "<title>\n  Hello \t\n World&amp;Co  </title><title>second</title>"
    result = fit_text(page(f"<p>{seq('a', 1, 3)}</p>", head=head))
    assert result.title == "Hello World&Co"


def test_title_is_empty_without_title() -> None:
    assert fit_text("<p>x</p>").title == ""


@pytest.mark.parametrize(
    ("tag", "lang"),
    [("<html lang=' de-CH '>", "de-CH"), ("<html lang=fr>", "fr"), ("<html>", None)],
)
def test_lang_is_the_html_lang_attribute(tag: str, lang: str | None) -> None:
    assert fit_text(f"<!DOCTYPE html>{tag}<body><p>x</p></body></html>").lang == lang


# --------------------------------------------------------------------------- decision boundaries


def test_one_link_in_three_words_is_link_dense_though_permil_is_333() -> None:
    body = f"<p>{seq('a', 1, 20)}</p><p>b01 b02 <a href=#>b03</a></p><p>{seq('c', 1, 20)}</p>"
    block = fit(body).blocks[1]
    assert (block.words, block.link_words, block.link_density) == (3, 1, 333)
    assert (block.decision, block.leaf) == (B, Reason.LINK_DENSE)


@pytest.mark.parametrize(
    ("words", "links", "dense"),
    [(6, 2, True), (1000, 333, False), (1000, 334, True), (7, 2, False), (2, 1, True)],
)
def test_current_link_density_threshold_in_ppm(words: int, links: int, dense: bool) -> None:
    """`link_words * 1_000_000 <= 333_333 * words` decides, never the permil."""
    linked = " ".join(f"<a href=#>l{n}</a>" for n in range(links))
    plain = " ".join(f"w{n}" for n in range(words - links))
    result = fit(f"<p>{seq('a', 1, 20)}</p><p>{plain} {linked}</p><p>{seq('c', 1, 20)}</p>")
    block = result.blocks[1]
    assert (block.words, block.link_words) == (words, links)
    assert (block.leaf is Reason.LINK_DENSE) is dense
    assert block.link_density == links * 1000 // words


@pytest.mark.parametrize(
    ("words", "links", "passes"),
    [(9, 5, True), (7, 4, False), (259, 144, False), (259, 143, True), (2, 1, True)],
)
def test_previous_link_density_threshold_in_ppm(words: int, links: int, passes: bool) -> None:
    """prev ld <= 0.555556 as `lw * 1e6 <= 555_556 * w`: 5/9 and 143/259 pass, 144/259 not."""
    # curr: 10 words, next 3. If prev passes: 10 <= 16, next 3 <= 15, prev > 4
    # (every prev here but 2/1 has > 4 words): CONTENT, else BOILERPLATE.
    # If prev fails: 10 <= 40, next 3 <= 17: BOILERPLATE (after_links_short).
    linked = " ".join(f"<a href=#>l{n}</a>" for n in range(links))
    plain = " ".join(f"w{n}" for n in range(words - links))
    body = f"<p>{plain} {linked}</p><p>{seq('b', 1, 10)}</p><p>c01 c02 c03</p>"
    result = fit(body)
    assert measures(result)[0] == (words, links)
    curr = result.blocks[1]
    if passes:
        expected = Reason.SHORT_AFTER_TEXT if words > 4 else Reason.SHORT_ISOLATED
    else:
        expected = Reason.AFTER_LINKS_SHORT
    assert curr.leaf is expected


@pytest.mark.parametrize(("count", "decision"), [(16, B), (17, C)])
def test_current_words_short_16_vs_17(count: int, decision: Decision) -> None:
    """prev edge (0 words), next 1 <= 15: 16 words is short (BOILERPLATE), 17 long."""
    result = fit(f"<p>{seq('a', 1, count)}</p><ul><li><a href=#>n01</a></li></ul>")
    assert result.blocks[0].words == count
    assert result.blocks[0].decision is decision
    assert result.blocks[0].leaf is (Reason.SHORT_ISOLATED if count == 16 else Reason.LONG)


@pytest.mark.parametrize(("count", "decision"), [(15, B), (16, C)])
def test_next_words_short_15_vs_16(count: int, decision: Decision) -> None:
    """10 words at the page's start (prev 0 <= 4): CONTENT only if next > 15."""
    result = fit(f"<p>{seq('b', 1, 10)}</p><p>{seq('c', 1, count)}</p>")
    assert measures(result) == [(10, 0), (count, 0)]
    assert result.blocks[0].decision is decision
    assert result.blocks[0].leaf is (
        Reason.SHORT_ISOLATED if count == 15 else Reason.SHORT_BEFORE_TEXT
    )


@pytest.mark.parametrize(("count", "decision"), [(4, B), (5, C)])
def test_previous_words_short_4_vs_5(count: int, decision: Decision) -> None:
    result = fit(f"<h2>{seq('h', 1, count)}</h2><p>{seq('b', 1, 10)}</p><p>c01 c02</p>")
    assert result.blocks[1].decision is decision


@pytest.mark.parametrize(("count", "decision"), [(40, B), (41, C)])
def test_current_words_long_40_vs_41_after_links(count: int, decision: Decision) -> None:
    body = f"<ul><li><a href=#>n01 n02</a></li></ul><p>{seq('b', 1, count)}</p><p>c01</p>"
    result = fit(body)
    assert result.blocks[1].words == count
    assert result.blocks[1].decision is decision


@pytest.mark.parametrize(("count", "decision"), [(17, B), (18, C)])
def test_next_words_long_17_vs_18_after_links(count: int, decision: Decision) -> None:
    """After a link list: 10 words is CONTENT only if next > 17."""
    body = (
        f"<ul><li><a href=#>n01 n02</a></li></ul><p>{seq('b', 1, 10)}</p>"
        f"<p>{seq('c', 1, count)}</p>"
    )
    result = fit(body)
    assert measures(result) == [(2, 2), (10, 0), (count, 0)]
    assert result.blocks[1].decision is decision
    assert result.blocks[1].leaf is (
        Reason.AFTER_LINKS_SHORT if count == 17 else Reason.AFTER_LINKS_BEFORE_TEXT
    )


def test_thresholds_come_from_the_conf() -> None:
    """A changed threshold changes the decision: 16 words become long with words_curr_short=15."""
    body = f"<p>{seq('a', 1, 16)}</p><ul><li><a href=#>n01</a></li></ul>"
    assert fit(body).blocks[0].decision is B
    conf = dataclasses.replace(DEFAULT_CONF, words_curr_short=15)
    assert fit(body, conf).blocks[0].decision is C
    loose = dataclasses.replace(DEFAULT_CONF, ld_curr_max_ppm=1_000_000)
    assert fit(body, loose).blocks[1].leaf is not Reason.LINK_DENSE


# --------------------------------------------------------------------------- block records


def test_block_record_fields() -> None:
    body = f"<p>{seq('a', 1, 20)}</p><div>caf\u00e9 <a href=#>\u00fcber</a> na\u00efve</div>"
    result = fit(body)
    block = result.blocks[1]
    assert block.index == 1
    assert block.element == "div"
    assert block.text == "caf\u00e9 \u00fcber na\u00efve"
    assert block.text_bytes == len(block.text.encode("utf-8")) == 18
    assert (block.words, block.link_words, block.link_density) == (3, 1, 333)
    data = block.to_dict()
    assert data["decision"] == block.decision.value
    assert data["reason"] == block.reason.value
    assert data["text"] == block.text
    assert result.to_dict()["blocks"][1] == data


def test_link_density_permil_is_floored_and_zero_without_words() -> None:
    body = (
        f"<p>{seq('a', 1, 20)}</p><p>a b <a href=#>c</a></p>"
        "<p>w1 w2 w3 w4 w5 <a href=#>l1 l2 l3 l4</a></p><p>\u00bb</p>"
    )
    assert [b.link_density for b in fit(body).blocks] == [0, 333, 444, 0]


def test_counts_on_a_mixed_page() -> None:
    # nav 2/2 (dropped), h 2 (CONTENT), b 20 (CONTENT), `|` (CONTENT, 0 words),
    # footer 20 (dropped).
    body = (
        "<nav><a>n01</a> <a>n02</a></nav><main><h1>h01 h02</h1>"
        f"<p>{seq('b', 1, 20)}</p><p>|</p></main><footer>{seq('f', 1, 20)}</footer>"
    )
    result = fit(body)
    assert decisions(result) == [D, C, C, C, D]
    assert result.blocks_total == 5
    assert result.blocks_with_words == 4
    assert result.blocks_kept == 3
    assert result.words_total == 44
    assert result.words_kept == 22
    assert result.text == f"h01 h02\n{seq('b', 1, 20)}\n|"


def test_reason_values_are_the_tree_leaves_and_the_semantic_rules() -> None:
    assert {reason.value for reason in Reason} == {
        "link_dense", "long", "short_before_text", "short_after_text", "short_isolated",
        "after_links_long", "after_links_before_text", "after_links_short",
        "semantic_drop", "semantic_majority",
    }  # fmt: skip


# --------------------------------------------------------------------------- words

ONE_WORD = ["e.g.", "don't", "3.14", "foo-bar", "(paren)", "x_y", "[1]", "100%", "#tag", "C++"]
TWO_WORDS = ["foo+bar", "a&b", "don\u2019t", "em\u2014dash", "co\u00adop"]
NO_WORD = ["|", "\u00bb", "\u00a9", "\u2014"]


@pytest.mark.parametrize("text", ONE_WORD)
def test_spec_examples_of_one_word(text: str) -> None:
    assert count_words(text) == 1


@pytest.mark.parametrize("text", TWO_WORDS)
def test_spec_examples_of_two_words(text: str) -> None:
    assert count_words(text) == 2


@pytest.mark.parametrize("text", NO_WORD)
def test_spec_examples_of_no_word(text: str) -> None:
    assert count_words(text) == 0


@pytest.mark.parametrize("text", ONE_WORD + TWO_WORDS + NO_WORD)
def test_spec_word_examples_through_the_fit(text: str) -> None:
    """The same examples as block text (escaped), counted by the fit."""
    escaped = text.replace("&", "&amp;")
    result = fit(f"<p>{escaped}</p>")
    assert result.blocks[0].words == count_words(text)
    assert result.blocks[0].text == text


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("caf\u00e9", 1),
        ("nai\u0308ve", 1),  # a combining mark is a word character
        ("\u0301", 0),  # a combining mark alone has no letter
        ("__", 0),
        ("_a_", 1),
        ("...", 0),
        ("a...b", 1),
        ('$5 @user a/b a:b a;b a!b a?b a,b a"b', 9),
        ("\u00bd \u00b2 \u216b \u2460", 4),  # No, No, Nl, No: numbers
        ("\u0661\u0662\u0663", 1),  # Arabic-Indic digits (Nd)
        ("a\u200bb", 2),  # ZERO WIDTH SPACE is no word character
        ("a\U0001f600b", 2),  # an emoji separates
        ("\U0001f600", 0),
        ("\u041f\u0440\u0438\u0432\u0435\u0442, \u043c\u0438\u0440!", 2),
        ("a\u00a0b", 2),
        ("a\tb\nc", 3),
        ("a<b>c", 3),
        ("", 0),
    ],
)
def test_word_rule(text: str, count: int) -> None:
    assert count_words(text) == count


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("\u65e5\u672c\u8a9e", 3),  # Han
        ("\u3072\u3089\u304c\u306a", 4),  # Hiragana
        ("\u30e9\u30fc\u30e1\u30f3", 4),  # Katakana with U+30FC
        ("\u6642\u3005", 2),  # U+3005 iteration mark
        ("\uff97\uff70\uff92\uff9d", 4),  # half-width katakana with U+FF70
        ("\uff71\uff72\uff73", 3),
        ("\u4e2d\u6587\uff0c\u6d4b\u8bd5\u3002", 4),  # CJK punctuation is no word
        ("\u4e2d\u30fb\u65e5", 2),  # U+30FB middle dot (script Common) is no word
        ("abc\u65e5\u672c", 3),  # a CJK character ends the Latin word before it
        ("Python3\u306f", 2),
        ("\u65e5_\u672c", 2),  # underscore between two CJK words is no third word
        ("\ud55c\uad6d\uc5b4 \ubb38\uc7a5\uc785\ub2c8\ub2e4", 2),  # Hangul: by spaces
        ("\ud55c\uad6d\uc5b4\ubb38\uc7a5", 1),
        ("\uff21\uff22\uff23", 1),  # full-width Latin letters are letters
    ],
)
def test_cjk_counting(text: str, count: int) -> None:
    assert count_words(text) == count


def test_every_han_kana_letter_is_one_word() -> None:
    """Every ideograph and kana letter in Unicode counts one word, even side by side."""
    prefixes = (
        "CJK UNIFIED IDEOGRAPH-",
        "CJK COMPATIBILITY IDEOGRAPH-",
        "HIRAGANA LETTER",
        "KATAKANA LETTER",
        "HALFWIDTH KATAKANA LETTER",
    )
    chars = [
        chr(code)
        for code in range(0x2E80, 0x32400)
        if code < 0xD800 or code > 0xDFFF
        if unicodedata.name(chr(code), "").startswith(prefixes)
    ]
    assert len(chars) > 80_000
    text = "".join(chars)
    assert count_words(text) == len(chars)
    assert word_starts(text) == list(range(len(chars)))
    sample = chars[:: len(chars) // 50]
    assert [count_words(f"a{char}b") for char in sample] == [3] * len(sample)


def test_cjk_through_the_fit() -> None:
    text = "\u65e5\u672c\u8a9e\u306e\u6587\u7ae0\u3067\u3059\u3002" * 3  # 8 words a sentence
    result = fit(f"<p>{text}</p><p>{text}</p>")
    assert measures(result) == [(24, 0), (24, 0)]
    assert decisions(result) == [C, C]


def test_count_many_matches_count_words() -> None:
    items = [*ONE_WORD, *TWO_WORDS, *NO_WORD, "\u65e5\u672c", "", "a b c", "\u0430 \u0431"]
    assert count_many(items) == [count_words(text) for text in items]
    assert count_many([]) == []


@pytest.mark.parametrize(
    ("text", "starts"),
    [
        ("foo bar", [0, 4]),
        ("(paren) e.g.", [0, 8]),
        ("| \u00bb x", [4]),
        ("\u65e5\u672cab", [0, 1, 2]),
        ("a+b", [0, 2]),
    ],
)
def test_word_starts(text: str, starts: list[int]) -> None:
    assert word_starts(text) == starts


def test_count_words_treats_nul_as_a_separator() -> None:
    """NUL is a control character (Cc): it separates `a` and `b`, two words."""
    assert count_words("a\x00b") == 2
    assert count_words("\x00foo bar") == 2


def test_counting_is_linear_on_long_punctuation_and_underscores() -> None:
    """1 MB runs that a backtracking pattern would choke on count correctly."""
    assert count_words("_" * 1_000_000) == 0
    assert count_words("-." * 500_000) == 0
    assert count_words("_" * 500_000 + "a" + "(" * 500_000) == 1
    assert word_starts("." * 200_000 + "x") == [0]


# --------------------------------------------------------------------------- Conf

INT_FIELDS = [
    "words_curr_short",
    "words_next_short",
    "words_prev_short",
    "words_curr_long",
    "words_next_long",
]


def test_default_conf_is_the_published_thresholds() -> None:
    assert Conf() == DEFAULT_CONF
    assert (DEFAULT_CONF.ld_curr_max_ppm, DEFAULT_CONF.ld_prev_max_ppm) == (333_333, 555_556)
    assert [getattr(DEFAULT_CONF, name) for name in INT_FIELDS] == [16, 15, 4, 40, 17]


@pytest.mark.parametrize("name", [*INT_FIELDS, "ld_curr_max_ppm", "ld_prev_max_ppm"])
@pytest.mark.parametrize("value", [-1, 1.5, "16", None, True])
def test_invalid_threshold_raises_value_error_naming_the_field(name: str, value: object) -> None:
    with pytest.raises(ValueError, match=name):
        Conf(**{name: value})  # type: ignore[arg-type]


@pytest.mark.parametrize("name", ["ld_curr_max_ppm", "ld_prev_max_ppm"])
def test_ppm_over_one_million_is_invalid(name: str) -> None:
    with pytest.raises(ValueError, match=name):
        Conf(**{name: 1_000_001})  # type: ignore[arg-type]


@pytest.mark.parametrize("name", ["boundaries", "drop_elements", "drop_roles"])
def test_a_string_for_a_set_raises_value_error_naming_the_field(name: str) -> None:
    with pytest.raises(ValueError, match=name):
        Conf(**{name: "nav"})  # type: ignore[arg-type]


@pytest.mark.parametrize("element", ["notanelement", "my-widget"])
def test_unknown_element_name_raises_value_error(element: str) -> None:
    """Implementers' decision: an element name lexbor does not know is an error."""
    for name in ("boundaries", "drop_elements"):
        with pytest.raises(ValueError, match=element):
            Conf(**{name: frozenset({"p", element})})  # type: ignore[arg-type]


@pytest.mark.parametrize("name", ["boundaries", "drop_elements"])
def test_unknown_element_name_error_names_the_field(name: str) -> None:
    """'invalid values raise ValueError naming the field' holds for element names too."""
    with pytest.raises(ValueError, match=name):
        Conf(**{name: frozenset({"p", "notanelement"})})  # type: ignore[arg-type]


def test_conf_is_frozen() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        DEFAULT_CONF.words_curr_short = 3  # type: ignore[misc]


def test_conf_accepts_valid_values() -> None:
    conf = Conf(
        words_curr_short=0,
        ld_curr_max_ppm=0,
        ld_prev_max_ppm=1_000_000,
        boundaries=frozenset({"p", "br", "address"}),
        drop_elements=frozenset({"nav"}),
        drop_roles=frozenset(),
    )
    assert conf.words_curr_short == 0
    assert "address" in conf.boundaries


# --------------------------------------------------------------------------- decoding

LATIN = (
    "caf\u00e9 na\u00efve \u201cquoted\u201d r\u00e9sum\u00e9 \u2013 fa\u00e7ade d\u00e9j\u00e0 vu"
)
CYRILLIC = "\u041f\u0440\u0438\u0432\u0435\u0442 \u043c\u0438\u0440"


def html_bytes(text: str, encoding: str, head: str = "") -> bytes:
    return f"<html><head>{head}</head><body><p>{text}</p></body></html>".encode(encoding)


def same_encoding(name: str | None, expected: str) -> bool:
    assert name is not None
    return codecs.lookup(name).name == codecs.lookup(expected).name


def test_utf8_is_the_default() -> None:
    data = html_bytes(LATIN + " \u65e5\u672c", "utf-8")
    text, encoding = decode_html(data)
    assert LATIN + " \u65e5\u672c" in text
    assert same_encoding(encoding, "utf-8")
    result = fit_text(data)
    assert result.text == LATIN + " \u65e5\u672c"
    assert same_encoding(result.encoding, "utf-8")


def test_str_input_reports_no_encoding() -> None:
    assert fit_text("<p>x</p>").encoding is None


@pytest.mark.parametrize(
    ("bom", "codec"),
    [(b"\xef\xbb\xbf", "utf-8"), (b"\xff\xfe", "utf-16-le"), (b"\xfe\xff", "utf-16-be")],
)
def test_bom_decides_and_beats_http_charset_and_meta(bom: bytes, codec: str) -> None:
    data = bom + html_bytes(LATIN, codec, head='<meta charset="windows-1251">')
    for charset in (None, "windows-1251"):
        text, _ = decode_html(data, charset)
        assert LATIN in text
        assert "\ufeff" not in text
        assert fit_text(data, charset=charset).text == LATIN


def test_http_charset_beats_meta() -> None:
    data = html_bytes(CYRILLIC, "windows-1251", head='<meta charset="utf-8">')
    assert fit_text(data, charset="windows-1251").text == CYRILLIC
    assert same_encoding(fit_text(data, charset="windows-1251").encoding, "cp1251")
    assert html_to_text(data, charset="windows-1251") == CYRILLIC


def test_meta_charset_is_read() -> None:
    data = html_bytes(CYRILLIC, "windows-1251", head='<meta charset="windows-1251">')
    assert fit_text(data).text == CYRILLIC
    assert html_to_text(data) == CYRILLIC


def test_meta_http_equiv_is_read() -> None:
    head = '<meta http-equiv="Content-Type" content="text/html; charset=koi8-r">'
    data = html_bytes(CYRILLIC, "koi8-r", head=head)
    assert fit_text(data).text == CYRILLIC
    assert same_encoding(fit_text(data).encoding, "koi8-r")


def test_windows_1252_page_without_declaration() -> None:
    data = html_bytes(LATIN, "cp1252")
    assert fit_text(data).text == LATIN
    assert html_to_text(data) == LATIN


@pytest.mark.parametrize(
    "data",
    [
        b'<meta charset="utf-8"><p>caf\xc3\xa9 \xff\xfe x\x80y</p>',
        b"<p>caf\xc3\xa9 \xc3 end</p>",
    ],
)
def test_invalid_utf8_becomes_replacement_character(data: bytes) -> None:
    result = fit_text(data, charset="utf-8")
    assert "caf\u00e9" in result.text
    assert "\ufffd" in result.text
    text, _ = decode_html(data, "utf-8")
    assert "\ufffd" in text


WESTERN = b"<p>\x93hi\x94 caf\xe9</p>"


@pytest.mark.parametrize(
    ("label", "data", "expected"),
    [
        ("latin1", WESTERN, "\u201chi\u201d caf\u00e9"),  # WHATWG: latin1 is windows-1252
        ("ISO-8859-1", WESTERN, "\u201chi\u201d caf\u00e9"),
        ("us-ascii", WESTERN, "\u201chi\u201d caf\u00e9"),  # so is us-ascii
        (" Windows-1252 ", WESTERN, "\u201chi\u201d caf\u00e9"),
        ("cp1252", WESTERN, "\u201chi\u201d caf\u00e9"),
        ("iso-8859-15", b"<p>\xbdhi\xff caf\xe9</p>", "\u0153hi\u00ff caf\u00e9"),
        ("UTF8", "caf\u00e9 \u65e5".encode(), "caf\u00e9 \u65e5"),
        ("x-sjis", "\u65e5\u672c\u8a9e".encode("shift_jis"), "\u65e5\u672c\u8a9e"),
        ("gb2312", "\u4e2d\u6587".encode("gbk"), "\u4e2d\u6587"),  # WHATWG: gb2312 is GBK
    ],
)
def test_charset_labels_resolve_as_whatwg_says(label: str, data: bytes, expected: str) -> None:
    if not data.startswith(b"<p>"):
        data = b"<p>" + data + b"</p>"
    assert fit_text(data, charset=label).text == expected
    assert expected in decode_html(data, label)[0]


def test_replacement_encoding_labels_decode_to_one_replacement_character() -> None:
    """WHATWG maps iso-2022-kr (and csiso2022kr, hz-gb-2312, ...) to 'replacement'."""
    data = b"<p>\x93hi\x94 caf\xe9</p>"
    assert fit_text(data, charset="iso-2022-kr").text == "\ufffd"


def test_unknown_http_charset_is_ignored() -> None:
    data = html_bytes(CYRILLIC, "windows-1251", head='<meta charset="windows-1251">')
    assert fit_text(data, charset="no-such-charset").text == CYRILLIC


def test_meta_declaring_utf16_is_read_as_utf8() -> None:
    """WHATWG: a page cannot declare itself UTF-16 from inside; the prescan gives UTF-8."""
    data = html_bytes(LATIN, "utf-8", head='<meta charset="utf-16">')
    assert fit_text(data).text == LATIN


@pytest.mark.parametrize(
    "data",
    [b"\xff\xfe\xfd", b"\x80" * 100, b"<p>\xc0\xaf</p>", b"\xfe\xff\xd8\x00", bytes(range(256))],
)
def test_decoding_never_raises(data: bytes) -> None:
    text, encoding = decode_html(data)
    assert isinstance(text, str)
    assert encoding
    assert isinstance(fit_text(data).text, str)


@pytest.mark.parametrize("label", ["rot13", "idna", "undefined"])
def test_meta_charset_that_is_no_whatwg_label_is_ignored_and_never_raises(label: str) -> None:
    """WHATWG prescan: a label that names no encoding is skipped; decoding never raises."""
    data = f'<meta charset="{label}"><p>hello world</p>'.encode("ascii")
    assert fit_text(data).text == "hello world"
    assert html_to_text(data) == "hello world"


def test_http_charset_that_is_no_whatwg_label_is_ignored_and_never_raises() -> None:
    data = b"<p>hello world</p>"
    assert fit_text(data, charset="base64").text == "hello world"


@pytest.mark.parametrize(
    ("label", "data", "expected"),
    [
        # Python codecs that are no WHATWG label: the declaration must be ignored.
        ("unicode_escape", b"<p>a\\u0041b</p>", "a\\u0041b"),
        ("cp037", b"<p>hello world</p>", "hello world"),
        ("utf-32", b"<p>hello world</p>", "hello world"),
    ],
)
def test_python_only_codec_names_are_not_charset_labels(
    label: str, data: bytes, expected: str
) -> None:
    declared = f'<meta charset="{label}">'.encode() + data
    assert fit_text(declared).text == expected


@pytest.mark.parametrize(
    ("label", "data", "expected"),
    [
        ("l9", b"<p>price 5 \xa4 and \xbd</p>", "price 5 \u20ac and \u0153"),
        ("csisolatin9", b"<p>price 5 \xa4 and \xbd</p>", "price 5 \u20ac and \u0153"),
        ("x-cp1253", b"<p>alpha \xe1 omega \xf9</p>", "alpha \u03b1 omega \u03c9"),
    ],
)
def test_whatwg_labels_name_their_encoding(label: str, data: bytes, expected: str) -> None:
    """WHATWG label table: l9 and csisolatin9 are ISO-8859-15, x-cp1253 is windows-1253."""
    assert fit_text(data, charset=label).text == expected


# --------------------------------------------------------------------------- more edges


def test_each_dropped_element_is_judged_on_its_own_words() -> None:
    """Two navs of 40 CONTENT words each, of 100: neither holds more than half."""
    body = (
        f"<p>{seq('a', 1, 20)}</p><nav><p>{seq('n', 1, 40)}</p></nav>"
        f"<nav><p>{seq('m', 1, 40)}</p></nav>"
    )
    result = fit(body)
    assert measures(result) == [(20, 0), (40, 0), (40, 0)]
    assert decisions(result) == [C, D, D]
    assert result.text == seq("a", 1, 20)


def test_wbr_never_splits_a_word() -> None:
    result = fit(f"<p>super<wbr>cali<wbr>fragilistic {seq('a', 1, 3)}</p>")
    assert measures(result) == [(4, 0)]


def test_inline_elements_separated_by_whitespace_are_two_words() -> None:
    result = fit("<p><b>foo</b> <i>bar</i><span>  </span><em>baz</em></p>")
    assert measures(result) == [(3, 0)]
    assert result.text == "foo bar baz"


def test_title_in_body_is_the_first_title_and_never_text() -> None:
    result = fit_text(f"<html><head></head><body><p>{seq('a', 1, 3)}</p><title>late</title>")
    assert result.title == "late"
    assert result.text == seq("a", 1, 3)


def test_empty_lang_is_none() -> None:
    assert fit_text("<html lang=''><body><p>x</p>").lang is None
    assert fit_text("<html lang='  '><body><p>x</p>").lang is None


def test_to_dict_without_blocks() -> None:
    result = fit(f"<p>{seq('a', 1, 20)}</p><p>{seq('b', 1, 20)}</p>")
    data = result.to_dict(blocks=False)
    assert "blocks" not in data
    assert data["text"] == result.text
    assert data["fallback_reason"] is None
    assert data["words_total"] == 40


def test_text_foster_parented_out_of_a_table_is_its_own_block() -> None:
    """HTML5 moves text found directly in <table> before the table."""
    result = fit("<table>foo01 foo02<tr><td>bar01</td></tr></table>")
    assert texts(result) == ["foo01 foo02", "bar01"]
