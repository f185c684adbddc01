"""Segmentation (blockdensity.segment, docs/spec.md section 2): the page as a sequence of blocks.

`segment` and `trace_segment` are called directly and the `Page` they return
is read as it is: one BlockInfo (element, pre, drop scope) per block with
visible text, the blocks' text with its markers (anchor edges, <br>, sup/sub
edges) and BLOCK_END after each, the link text apart, the title, the
language and the dropped elements met. The end-to-end cases then show the
same rules in the fit's block records: where blocks begin and end, what is
never text, what glues and what separates words, and the title and language.
"""

from __future__ import annotations

import dataclasses

import pytest

from blockdensity import DEFAULT_CONF, Conf, fit_text, html_to_text
from blockdensity.segment import (
    ANCHOR_MARK,
    BLOCK_END,
    BREAK_MARK,
    DROP,
    ELEMENT,
    PRE,
    SUB_CLOSE,
    SUB_OPEN,
    Trace,
    segment,
    trace_segment,
)
from devkit.corpus import SAMPLE_DATA, Corpus
from devkit.corpus_sample import SAMPLED_SETS
from tests.helpers import (
    BOUNDARY_CONTEXT,
    NO_DROPS,
    SPEC_BOUNDARIES,
    SPEC_INLINE,
    C,
    D,
    decisions,
    fit,
    measures,
    only,
    page,
    segmented,
    seq,
    texts,
)


def block_links(body: str, conf: Conf = DEFAULT_CONF) -> list[list[str]]:
    """The link text of every block, as words split at whitespace."""
    return [part.split() for part in segmented(body, conf).linked.split(BLOCK_END)[:-1]]


# --------------------------------------------------------------------------- the Page


def test_one_block_info_and_one_text_per_block_with_visible_text() -> None:
    result = segmented("<p>a01 a02</p><div>b01</div><p> </p>")
    assert result.blocks == [("p", False, -1), ("div", False, -1)]
    assert result.text == f"a01 a02{BLOCK_END}b01{BLOCK_END}"
    assert result.linked == BLOCK_END * 2
    assert result.block_texts() == ["a01 a02", "b01"]


def test_a_page_without_visible_text_has_no_blocks() -> None:
    for html in ("", "<p> </p>", "<html><head><title>t</title></head></html>"):
        result = segment(html, DEFAULT_CONF)
        assert (result.blocks, result.text, result.linked, result.drop_scopes) == ([], "", "", [])
        assert result.block_texts() == []


def test_anchor_edges_are_marked_and_the_link_text_is_kept_apart() -> None:
    body = "<p>foo<a href=#>bar</a>baz <a href=#>qux quux</a></p>"
    result = segmented(body)
    a = ANCHOR_MARK
    assert result.text == f"foo{a}bar{a}baz {a}qux quux{a}{BLOCK_END}"
    assert block_links(body) == [["bar", "qux", "quux"]]
    assert result.block_texts() == ["foobarbaz qux quux"]  # anchors render inline


def test_anchor_with_markup_inside_is_marked_at_its_edges() -> None:
    body = "<p>x <a href=#><b>bold</b> link</a> y</p>"
    assert segmented(body).text == f"x {ANCHOR_MARK}bold link{ANCHOR_MARK} y{BLOCK_END}"
    assert block_links(body) == [["bold", "link"]]


def test_a_link_over_two_blocks_is_closed_and_reopened_at_the_boundary() -> None:
    """Each block's anchor marks pair up, and both blocks' words are link text."""
    body = "<a href=#><h3>t01 t02</h3><p>s01</p></a>"
    result = segmented(body)
    assert [text.count(ANCHOR_MARK) % 2 for text in result.text.split(BLOCK_END)[:-1]] == [0, 0]
    assert block_links(body) == [["t01", "t02"], ["s01"]]


def test_br_is_a_break_mark_that_block_texts_keep() -> None:
    result = segmented("<p>x01<br>y01</p>")
    assert result.text == f"x01{BREAK_MARK}y01{BLOCK_END}"
    assert result.block_texts() == [f"x01{BREAK_MARK}y01"]


def test_sup_and_sub_edges_are_marked_and_block_texts_drop_the_marks() -> None:
    result = segmented("<p>H<sub>2</sub>O x<sup>[1]</sup></p>")
    assert result.text == f"H{SUB_OPEN}2{SUB_CLOSE}O x{SUB_OPEN}[1]{SUB_CLOSE}{BLOCK_END}"
    assert result.block_texts() == ["H2O x[1]"]


def test_a_sup_over_two_blocks_is_closed_and_reopened_at_the_boundary() -> None:
    result = segmented("<p>a<sup>b<div>c</div>d</sup>e</p>")
    parts = result.text.split(BLOCK_END)[:-1]
    assert [part.count(SUB_OPEN) - part.count(SUB_CLOSE) for part in parts] == [0] * len(parts)
    assert result.block_texts() == ["ab", "c", "de"]


def test_pre_blocks_are_flagged_and_keep_their_whitespace() -> None:
    result = segmented("<p>a01</p><pre> x01\n  y01  </pre>")
    assert [block[PRE] for block in result.blocks] == [False, True]
    assert result.block_texts()[1] == " x01\n  y01  "


def test_elements_neither_inline_nor_boundaries_are_spaces() -> None:
    """img, custom elements, removed elements: one space each in the block text."""
    result = segmented("<p>a<img>b<x-widget>c</x-widget>d<script>s</script>e</p>")
    assert result.block_texts()[0].split() == ["a", "b", "c", "d", "e"]


def test_inline_elements_glue_and_whitespace_between_them_is_kept() -> None:
    """lexbor skips whitespace-only text nodes; the walk puts back the space they made."""
    assert segmented("<p><b>foo</b><i>bar</i></p>").block_texts() == ["foobar"]
    assert segmented("<p><b>foo</b> <i>bar</i></p>").block_texts()[0].split() == ["foo", "bar"]
    assert segmented("<p><b>foo</b><span> </span><i>bar</i></p>").block_texts()[0].split() == [
        "foo",
        "bar",
    ]


def test_block_element_is_recorded_per_block() -> None:
    result = segmented("<ul><li>a01</li></ul><table><tr><td>b01</td></tr></table>c01")
    assert [block[ELEMENT] for block in result.blocks] == ["li", "td", "body"]


def test_str_and_utf8_bytes_segment_alike() -> None:
    html = page("<p>caf\u00e9 <a href=#>\u65e5\u672c</a></p><pre> x\n y</pre>")
    from_str = segment(html, DEFAULT_CONF)
    from_bytes = segment(html.encode(), DEFAULT_CONF)
    assert (from_bytes.blocks, from_bytes.text, from_bytes.linked) == (
        from_str.blocks,
        from_str.text,
        from_str.linked,
    )


def test_an_empty_boundary_set_leaves_one_block_for_the_body() -> None:
    """The close of <body> always ends the last block; with no boundaries it is the only end."""
    result = segment(page("<p>a01</p><div>b01</div>"), Conf(boundaries=frozenset()))
    assert result.blocks == [("body", False, -1)]
    assert result.block_texts()[0].split() == ["a01", "b01"]


# --------------------------------------------------------------------------- the trace


def test_trace_gives_the_block_of_every_text_node() -> None:
    trace: Trace = []
    html = page("<p>a01 <b>b01</b></p><div>c01<p> </p>d01</div>")
    result, doc = trace_segment(html, DEFAULT_CONF, trace)
    assert [(index, node.text_content) for index, node in trace] == [
        (0, "a01 "),
        (0, "b01"),
        (1, "c01"),
        (2, "d01"),
    ]
    assert len(result.blocks) == 3
    assert doc.body is not None


def test_trace_leaves_out_the_text_of_blocks_without_visible_text() -> None:
    """An NBSP-only paragraph has a text node but no visible text: no block, no trace entry."""
    trace: Trace = []
    trace_segment(page("<p>a01</p><p>&nbsp;</p><p>b01</p>"), DEFAULT_CONF, trace)
    assert [(index, node.text_content) for index, node in trace] == [(0, "a01"), (1, "b01")]


def test_trace_of_a_recovered_page_is_of_the_tree_parsed_again() -> None:
    trace: Trace = []
    result, doc = trace_segment("<title>t <p>a01</p><p>b01</p>", DEFAULT_CONF, trace)
    assert result.title == "t"
    assert [(index, node.text_content) for index, node in trace] == [(0, "a01"), (1, "b01")]
    assert doc.body is not None
    assert doc.body.text() == "a01b01"


def test_segment_without_a_trace_is_trace_segment_without_one() -> None:
    html = page("<p>a01</p><nav><p>b01</p></nav>")
    traced, _ = trace_segment(html, DEFAULT_CONF, None)
    plain = segment(html, DEFAULT_CONF)
    assert (traced.blocks, traced.text, traced.drop_scopes) == (
        plain.blocks,
        plain.text,
        plain.drop_scopes,
    )


# --------------------------------------------------------------------------- boundaries


@pytest.mark.parametrize("name", [name for name in SPEC_BOUNDARIES if name not in ("hr", "body")])
def test_boundary_open_and_close_each_end_a_block(name: str) -> None:
    """With only `name` a boundary, its open and its close each end a block."""
    body = f"<div>x01 x02{BOUNDARY_CONTEXT[name]}z01 z02</div>"
    result = fit(body, only(name))
    assert texts(result) == ["x01 x02", "y01 y02", "z01 z02"]
    assert measures(result) == [(2, 0), (2, 0), (2, 0)]
    assert result.blocks[1].element == name


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
    """docs/spec.md section 2: `one<td>two` is two words even where td would not be a boundary."""
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


def test_text_foster_parented_out_of_a_table_is_its_own_block() -> None:
    """HTML5 moves text found directly in <table> before the table."""
    result = fit("<table>foo01 foo02<tr><td>bar01</td></tr></table>")
    assert texts(result) == ["foo01 foo02", "bar01"]


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
    """docs/spec.md section 2: removed elements give no text and no words; they separate
    words (docs/spec.md section 1)."""
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


# --------------------------------------------------------------------------- inline and separators


@pytest.mark.parametrize("name", [name for name in SPEC_INLINE if name not in ("a", "sub", "sup")])
def test_inline_element_never_splits_a_word(name: str) -> None:
    result = fit_text(page(f"<p>foo<{name}>bar</{name}>baz qux</p>"))
    assert [(b.words, b.link_words) for b in result.blocks] == [(2, 0)]


def test_wbr_never_splits_a_word() -> None:
    result = fit(f"<p>super<wbr>cali<wbr>fragilistic {seq('a', 1, 3)}</p>")
    assert measures(result) == [(4, 0)]


def test_inline_elements_separated_by_whitespace_are_two_words() -> None:
    result = fit("<p><b>foo</b> <i>bar</i><span>  </span><em>baz</em></p>")
    assert measures(result) == [(3, 0)]
    assert result.text == "foo bar baz"


def test_img_separates_words_for_counting() -> None:
    result = fit_text(page("<p>foo<img>bar</p>"))
    assert result.blocks[0].words == 2


def test_custom_element_never_ends_a_block() -> None:
    result = fit_text(page("<p>foo<x-widget>bar</x-widget>baz</p>"))
    assert [(b.text, b.words) for b in result.blocks] == [("foo bar baz", 3)]


def test_words_do_not_join_across_br() -> None:
    result = fit_text("<p>one<br>two</p>")
    assert result.blocks[0].words == 2


# --------------------------------------------------------------------------- drop scopes


def test_drop_scopes_name_each_dropped_element_met() -> None:
    result = segmented("<nav><p>a01</p></nav><div role=navigation>b01</div><p>c01</p>")
    assert result.drop_scopes == ["nav", "role=navigation"]
    assert [block[DROP] for block in result.blocks] == [0, 1, -1]


def test_each_dropped_element_is_a_scope_of_its_own() -> None:
    result = segmented("<nav><p>a01</p></nav><footer><p>b01</p></footer><nav><p>c01</p></nav>")
    assert result.drop_scopes == ["nav", "footer", "nav"]
    assert [block[DROP] for block in result.blocks] == [0, 1, 2]


def test_an_aria_role_is_matched_whatever_its_case() -> None:
    result = segmented("<div role=NAVIGATION><p>a01</p></div>")
    assert result.drop_scopes == ["role=navigation"]
    assert result.blocks[0][DROP] == 0


def test_an_aria_role_with_whitespace_around_it_is_a_drop_scope() -> None:
    """WAI-ARIA: role is a list of whitespace-separated tokens, so " navigation " is one."""
    result = segmented('<div role=" navigation "><p>a01</p></div>')
    assert result.drop_scopes == ["role=navigation"]
    assert result.blocks[0][DROP] == 0


def test_the_conf_decides_what_is_a_scope() -> None:
    body = "<nav><p>a01</p></nav><header><p>b01</p></header><div role=banner><p>c01</p></div>"
    assert segmented(body, NO_DROPS).drop_scopes == []
    conf = Conf(drop_elements=frozenset({"header"}), drop_roles=frozenset({"banner"}))
    result = segmented(body, conf)
    assert result.drop_scopes == ["header", "role=banner"]
    assert [block[DROP] for block in result.blocks] == [-1, 0, 1]


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


# --------------------------------------------------------------------------- title, lang


def test_page_title_and_lang_are_read_from_head_and_html() -> None:
    result = segment(
        "<html lang=de><head><title> Der \n Titel </title></head><body><p>x</p>", DEFAULT_CONF
    )
    assert (result.title, result.lang) == ("Der Titel", "de")
    assert segment("<p>x</p>", DEFAULT_CONF).title == ""
    assert segment("<p>x</p>", DEFAULT_CONF).lang is None


def test_xml_lang_is_read_when_lang_is_absent() -> None:
    assert segment("<html xml:lang=fr><body><p>x</p>", DEFAULT_CONF).lang == "fr"


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


def test_title_in_body_is_the_first_title_and_never_text() -> None:
    result = fit_text(f"<html><head></head><body><p>{seq('a', 1, 3)}</p><title>late</title>")
    assert result.title == "late"
    assert result.text == seq("a", 1, 3)


@pytest.mark.parametrize(
    ("tag", "lang"),
    [("<html lang=' de-CH '>", "de-CH"), ("<html lang=fr>", "fr"), ("<html>", None)],
)
def test_lang_is_the_html_lang_attribute(tag: str, lang: str | None) -> None:
    assert fit_text(f"<!DOCTYPE html>{tag}<body><p>x</p></body></html>").lang == lang


def test_empty_lang_is_none() -> None:
    assert fit_text("<html lang=''><body><p>x</p>").lang is None
    assert fit_text("<html lang='  '><body><p>x</p>").lang is None


SAMPLE = Corpus(SAMPLE_DATA, SAMPLED_SETS)  # every page of the sample (tests/corpus)


def test_texts_at_reads_the_blocks_texts_as_block_texts_has_them() -> None:
    # The render stage and the rules read a few blocks' texts without the split of the
    # page's every block's; the texts are the same, marks gone, every sample page.
    for sample in SAMPLE.pages():
        walked = segment(sample.html, DEFAULT_CONF)
        every = list(range(len(walked.blocks)))
        some = every[1::3]
        parts = walked.texts_at(some)  # before block_texts is made
        whole = walked.texts_at(every)
        texts = walked.block_texts()
        assert parts == [texts[index] for index in some], sample.page_id
        assert whole == texts, sample.page_id
        assert walked.texts_at(some) == parts  # and after, from block_texts
    walked = segment("<p>a<sup>1</sup> <a href=/x>b</a></p><p>c</p>", DEFAULT_CONF)
    assert walked.texts_at([0, 1]) == ["a1 b", "c"]
    with pytest.raises(IndexError):
        walked.texts_at([1, 0])  # not increasing
