"""Measuring (blockdensity.measure, docs/spec.md section 3): each block's words and link words.

`measure` is called directly on hand-built `Page`s, whose text carries the
markers the walk puts in (anchor edges, <br>, sup/sub edges) and whose link
text is given apart, so that each rule is seen on its own: markers separate
words, link words are the words of the link text, and a word that begins
inside sup or sub is not counted. The end-to-end cases then show the same
figures in the fit's block records, from real markup.
"""

from __future__ import annotations

import pytest

from blockdensity import fit_text
from blockdensity.conf import DEFAULT_CONF
from blockdensity.measure import measure
from blockdensity.segment import (
    ANCHOR_MARK,
    BLOCK_END,
    BREAK_MARK,
    SUB_CLOSE,
    SUB_OPEN,
    Page,
    segment,
)
from tests.helpers import B, C, decisions, fit, measures, page, seq

A = ANCHOR_MARK
OPEN = SUB_OPEN
CLOSE = SUB_CLOSE


def hand_page(*blocks: tuple[str, str]) -> Page:
    """A Page of one <p> block per (text with markers, link text) pair."""
    return Page(
        [("p", False, -1)] * len(blocks),
        "".join(text + BLOCK_END for text, _ in blocks),
        "".join(linked + BLOCK_END for _, linked in blocks),
        "",
        None,
        [],
        [],
        [],
    )


# --------------------------------------------------------------------------- hand-built pages


def test_no_blocks_no_figures() -> None:
    assert measure(hand_page()) == ([], [])


def test_words_of_each_block_in_order() -> None:
    assert measure(hand_page(("a01 a02 a03", ""), ("|", ""), ("b01", ""))) == (
        [3, 0, 1],
        [0, 0, 0],
    )


def test_anchor_marks_separate_words_and_link_text_gives_the_link_words() -> None:
    """`foo<a>bar</a>baz`: three words, the linked one counted from the link text."""
    assert measure(hand_page((f"foo{A}bar{A}baz", " bar "))) == ([3], [1])


def test_link_words_are_counted_per_block() -> None:
    result = hand_page((f"{A}t01 t02{A}", " t01 t02 "), (f"x01 {A}s01{A}", " s01 "))
    assert measure(result) == ([2, 2], [2, 1])


def test_break_mark_separates_words() -> None:
    assert measure(hand_page((f"one{BREAK_MARK}two", ""))) == ([2], [0])


def test_a_word_beginning_inside_sup_is_not_counted() -> None:
    """`word<sup>[1]</sup> more`: `[1]` begins inside: 2 words."""
    assert measure(hand_page((f"word{OPEN}[1]{CLOSE} more", ""))) == ([2], [0])


def test_a_word_beginning_before_sup_is_counted_once() -> None:
    """`1<sup>st</sup>` and `H<sub>2</sub>O` begin outside: one word each."""
    assert measure(hand_page((f"1{OPEN}st{CLOSE} place", ""))) == ([2], [0])
    assert measure(hand_page((f"H{OPEN}2{CLOSE}O", ""))) == ([1], [0])


def test_a_word_beginning_inside_sup_and_going_on_after_is_not_counted() -> None:
    """`<sup>ab</sup>cd x`: `abcd` begins inside sup: only `x` counts."""
    assert measure(hand_page((f"{OPEN}ab{CLOSE}cd x", ""))) == ([1], [0])


def test_a_linked_word_beginning_inside_sup_is_no_link_word() -> None:
    """`x <a><sup>y</sup> z</a>`: y begins inside sup; z is the one link word."""
    assert measure(hand_page((f"x {A}{OPEN}y{CLOSE} z{A}", " y z "))) == ([2], [1])


def test_a_citation_inside_a_link_inside_sup_takes_off_a_word_and_a_link_word() -> None:
    """`w<sup><a>[1]</a></sup>`: the citation is the link text, and neither counts."""
    assert measure(hand_page((f"w01 w02{OPEN}{A}[1]{A}{CLOSE}", " [1] "))) == ([2], [0])


def test_sup_with_punctuation_only_takes_off_nothing() -> None:
    assert measure(hand_page((f"w01{OPEN}*{CLOSE} w02{OPEN}\u2020{CLOSE}", ""))) == ([2], [0])


def test_only_the_blocks_with_sup_are_corrected() -> None:
    result = hand_page(("a01 a02", ""), (f"b01{OPEN} n1 n2{CLOSE}", ""), (f"{A}c01{A}", " c01 "))
    assert measure(result) == ([2, 1, 1], [0, 0, 1])


def test_measure_of_a_segmented_page_is_what_the_fit_reports() -> None:
    html = page(
        f"<p>{seq('a', 1, 5)} <a href=#>l01 l02</a><sup>[1]</sup></p>"
        "<p>1<sup>st</sup> H<sub>2</sub>O <a href=#><sup>x</sup>y z</a></p><p>\u00bb</p>"
    )
    words, links = measure(segment(html, DEFAULT_CONF))
    assert list(zip(words, links, strict=True)) == [(7, 2), (3, 1), (0, 0)]
    assert measures(fit_text(html)) == [(7, 2), (3, 1), (0, 0)]


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
