"""The golden cases of docs/spec.md section 8, exactly as tabulated.

Every expectation here is derived by hand from docs/spec.md sections 3 to 6 (the
word rule, the decision tree in parts per million, the semantic drops and
the fallback), never copied from the library's output. `{a01..a16}` in the
SPEC's table is written `seq("a", 1, 16)` here.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from blockdensity import (
    PUBLISHED_CONF,
    Decision,
    FallbackReason,
    Fit,
    Reason,
    fit_text,
    html_to_text,
)
from tests.helpers import B, C, D, page, seq


@dataclass(frozen=True)
class Golden:
    """One row of docs/spec.md section 8 with its expected outcome."""

    body: str
    # (words, link words, decision) per block with visible text, in document order.
    blocks: tuple[tuple[int, int, Decision], ...]
    text: str
    fallback: FallbackReason | None = None
    # The deciding leaf of the tree per block, where the case pins it.
    leaves: tuple[Reason, ...] | None = None


A20 = seq("a", 1, 20)
C20 = seq("c", 1, 20)

GOLDEN: dict[str, Golden] = {
    # 16 words, 0 links: one block with words, so the fallback returns it.
    # The tree says BOILERPLATE (16 <= 16, next 0 <= 15, prev 0 <= 4).
    "one_block_of_16": Golden(
        body=f"<p>{seq('a', 1, 16)}</p>",
        blocks=((16, 0, B),),
        text=seq("a", 1, 16),
        fallback=FallbackReason.SINGLE_BLOCK,
        leaves=(Reason.SHORT_ISOLATED,),
    ),
    # 1 link word in 3: 1_000_000 > 333_333 * 3, so link dense (floored permil
    # 333 would have passed it).
    "one_third_linked": Golden(
        body=f"<p>{A20}</p><p>b01 b02 <a href=#>b03</a></p><p>{C20}</p>",
        blocks=((20, 0, C), (3, 1, B), (20, 0, C)),
        text=f"{A20}\n{C20}",
        leaves=(Reason.LONG, Reason.LINK_DENSE, Reason.LONG),
    ),
    # 1 in 4 is within 0.333333; 4 <= 16 but next 20 > 15.
    "one_quarter_linked": Golden(
        body=f"<p>{A20}</p><p>b01 b02 b03 <a>b04</a></p><p>{C20}</p>",
        blocks=((20, 0, C), (4, 1, C), (20, 0, C)),
        text=f"{A20}\nb01 b02 b03 b04\n{C20}",
        leaves=(Reason.LONG, Reason.SHORT_BEFORE_TEXT, Reason.LONG),
    ),
    # prev ld 5/9: 5_000_000 <= 555_556 * 9 = 5_000_004, so the 10-word block
    # follows the "prev not link dense" branch: 10 <= 16, next 3 <= 15,
    # prev 9 > 4: CONTENT.
    "prev_ld_5_of_9": Golden(
        body=(
            f"<p>a01 a02 a03 a04 <a>{seq('a', 5, 9)}</a></p>"
            f"<p>{seq('b', 1, 10)}</p><p>c01 c02 c03</p>"
        ),
        blocks=((9, 5, B), (10, 0, C), (3, 0, C)),
        text=f"{seq('b', 1, 10)}\nc01 c02 c03",
        leaves=(Reason.LINK_DENSE, Reason.SHORT_AFTER_TEXT, Reason.SHORT_AFTER_TEXT),
    ),
    # prev ld 4/7 = 0.571 > 0.555556: 10 <= 40 and next 3 <= 17: BOILERPLATE.
    "prev_ld_4_of_7": Golden(
        body=(
            f"<p>a01 a02 a03 <a>{seq('a', 4, 7)}</a></p><p>{seq('b', 1, 10)}</p><p>c01 c02 c03</p>"
        ),
        blocks=((7, 4, B), (10, 0, B), (3, 0, C)),
        text="c01 c02 c03",
        leaves=(Reason.LINK_DENSE, Reason.AFTER_LINKS_SHORT, Reason.SHORT_AFTER_TEXT),
    ),
    # After a link-only list (ld 1.0): 40 <= 40 and next 0 <= 17: BOILERPLATE,
    # so no block with words is kept and the fit falls back to the full text.
    "after_nav_40": Golden(
        body=f"<ul><li><a>n01 n02</a></li></ul><p>{seq('b', 1, 40)}</p>",
        blocks=((2, 2, B), (40, 0, B)),
        text=f"n01 n02\n{seq('b', 1, 40)}",
        fallback=FallbackReason.NOTHING_KEPT,
        leaves=(Reason.LINK_DENSE, Reason.AFTER_LINKS_SHORT),
    ),
    # 41 > 40: CONTENT.
    "after_nav_41": Golden(
        body=f"<ul><li><a>n01 n02</a></li></ul><p>{seq('b', 1, 41)}</p>",
        blocks=((2, 2, B), (41, 0, C)),
        text=seq("b", 1, 41),
        leaves=(Reason.LINK_DENSE, Reason.AFTER_LINKS_LONG),
    ),
    # 10 <= 16, next 5 <= 15, prev 4 <= 4: BOILERPLATE. The heading itself has
    # prev 0 (page edge) and next 10 <= 15: BOILERPLATE. The last block has
    # prev 10 > 4: CONTENT.
    "prev_words_4": Golden(
        body=f"<h1>{seq('h', 1, 4)}</h1><p>{seq('b', 1, 10)}</p><p>{seq('c', 1, 5)}</p>",
        blocks=((4, 0, B), (10, 0, B), (5, 0, C)),
        text=seq("c", 1, 5),
        leaves=(Reason.SHORT_ISOLATED, Reason.SHORT_ISOLATED, Reason.SHORT_AFTER_TEXT),
    ),
    # prev 5 > 4: CONTENT.
    "prev_words_5": Golden(
        body=f"<h1>{seq('h', 1, 5)}</h1><p>{seq('b', 1, 10)}</p><p>{seq('c', 1, 5)}</p>",
        blocks=((5, 0, B), (10, 0, C), (5, 0, C)),
        text=f"{seq('b', 1, 10)}\n{seq('c', 1, 5)}",
        leaves=(Reason.SHORT_ISOLATED, Reason.SHORT_AFTER_TEXT, Reason.SHORT_AFTER_TEXT),
    ),
    # The nav (2/2) is link dense; the heading follows it (prev ld 1.0) with
    # next 20 > 17: CONTENT; the paragraph is long; the footer is long too,
    # but dropped: 20 of the page's 42 CONTENT words is not more than half.
    "semantic_footer": Golden(
        body=(
            "<nav><a>n01</a> <a>n02</a></nav><main><h1>h01 h02</h1>"
            f"<p>{seq('b', 1, 20)}</p></main><footer>{seq('f', 1, 20)}</footer>"
        ),
        blocks=((2, 2, D), (2, 0, C), (20, 0, C), (20, 0, D)),
        text=f"h01 h02\n{seq('b', 1, 20)}",
        leaves=(Reason.LINK_DENSE, Reason.AFTER_LINKS_BEFORE_TEXT, Reason.LONG, Reason.LONG),
    ),
    # Classification runs before the drop: the nav (ld 1.0) is the previous
    # neighbour of the 10-word block: 10 <= 40, next 16 <= 17: BOILERPLATE.
    # The 16-word block: prev 10 (ld 0) > 4: CONTENT.
    "nav_is_a_neighbour": Golden(
        body=f"<nav><a>n01</a> <a>n02</a></nav><p>{seq('b', 1, 10)}</p><p>{seq('c', 1, 16)}</p>",
        blocks=((2, 2, D), (10, 0, B), (16, 0, C)),
        text=seq("c", 1, 16),
        leaves=(Reason.LINK_DENSE, Reason.AFTER_LINKS_SHORT, Reason.SHORT_AFTER_TEXT),
    ),
    # Removed elements make no block and no words: one block 17/0, so the
    # fallback (single_block) returns it; the tree says 17 > 16: CONTENT.
    "removed_elements": Golden(
        body=(
            "<script>var s01 = 's02 s03';</script><style>p { content: 'y01 y02'; }</style>"
            "<noscript>z01 z02 z03</noscript>"
            f"<p>{seq('a', 1, 17)}</p>"
            "<select><option>o01 o02</option><option>o03</option></select>"
        ),
        blocks=((17, 0, C),),
        text=seq("a", 1, 17),
        fallback=FallbackReason.SINGLE_BLOCK,
        leaves=(Reason.LONG,),
    ),
    # docs/spec.md section 3's tokenizer line: 20 words, one block (17 < 20: long).
    "tokenizer": Golden(
        body=(
            "<p>e.g. don't don&#8217;t 3.14 foo-bar foo+bar a&amp;b x_y &#8212; em&#8212;dash"
            " [1] (paren) 100% #tag C++ co&shy;op</p>"
        ),
        blocks=((20, 0, C),),
        text=(
            "e.g. don't don\u2019t 3.14 foo-bar foo+bar a&b x_y \u2014 em\u2014dash"
            " [1] (paren) 100% #tag C++ co\u00adop"
        ),
        fallback=FallbackReason.SINGLE_BLOCK,
        leaves=(Reason.LONG,),
    ),
}


@pytest.fixture(params=sorted(GOLDEN), name="case")
def golden_case(request: pytest.FixtureRequest) -> tuple[str, Golden]:
    name: str = request.param
    return name, GOLDEN[name]


def fitted(case: tuple[str, Golden]) -> Fit:
    # SPEC's golden cases are the published profile's (the article profile runs on top).
    return fit_text(page(case[1].body), PUBLISHED_CONF)


def test_golden_blocks_words_and_link_words(case: tuple[str, Golden]) -> None:
    """Per block: words and link words exactly as docs/spec.md section 8 tabulates."""
    fit = fitted(case)
    assert [(b.words, b.link_words) for b in fit.blocks] == [
        (words, links) for words, links, _ in case[1].blocks
    ]


def test_golden_decisions(case: tuple[str, Golden]) -> None:
    """Per block: the decision (CONTENT, BOILERPLATE, or DROPPED by a semantic element)."""
    fit = fitted(case)
    assert [b.decision for b in fit.blocks] == [decision for _, _, decision in case[1].blocks]


def test_golden_leaves(case: tuple[str, Golden]) -> None:
    """Per block: the leaf of the published tree that decided it."""
    expected = case[1].leaves
    assert expected is not None
    assert tuple(b.leaf for b in fitted(case).blocks) == expected


def test_golden_fallback(case: tuple[str, Golden]) -> None:
    """fallback / fallback_reason as tabulated (None when the fit keeps a subset)."""
    fit = fitted(case)
    assert fit.fallback_reason == case[1].fallback
    assert fit.fallback is (case[1].fallback is not None)


def test_golden_text(case: tuple[str, Golden]) -> None:
    """The returned text: the kept blocks' lines, or the whole page on fallback."""
    fit = fitted(case)
    assert fit.text == case[1].text
    if fit.fallback:
        assert fit.text == html_to_text(page(case[1].body))


def test_golden_counts(case: tuple[str, Golden]) -> None:
    """The counts agree with the tabulated blocks (everything counts as kept on fallback)."""
    fit = fitted(case)
    expected = case[1].blocks
    words_total = sum(words for words, _, _ in expected)
    assert fit.blocks_total == len(expected)
    assert fit.blocks_with_words == sum(1 for words, _, _ in expected if words)
    assert fit.words_total == words_total
    if case[1].fallback is None:
        assert fit.blocks_kept == sum(1 for _, _, decision in expected if decision is C)
        assert fit.words_kept == sum(words for words, _, decision in expected if decision is C)
    else:
        assert fit.blocks_kept == fit.blocks_total
        assert fit.words_kept == words_total


def test_golden_removed_elements_leave_no_option_text_anywhere() -> None:
    """'no option text anywhere': not in the text, any block, or the full rendering."""
    body = GOLDEN["removed_elements"].body
    fit = fit_text(page(body))
    everything = [fit.text, html_to_text(page(body)), *(b.text for b in fit.blocks)]
    for text in everything:
        for hidden in ("o01", "o02", "o03", "s01", "s02", "y01", "z01"):
            assert hidden not in text


def test_golden_semantic_footer_reasons() -> None:
    """The nav and the footer are dropped by the semantic rule, the tree's leaf kept apart."""
    fit = fit_text(page(GOLDEN["semantic_footer"].body), PUBLISHED_CONF)
    nav, _, _, footer = fit.blocks
    assert (nav.reason, nav.scope) == (Reason.SEMANTIC_DROP, "nav")
    assert (footer.reason, footer.scope) == (Reason.SEMANTIC_DROP, "footer")
    assert fit.blocks[1].scope is None
    assert fit.blocks[2].scope is None
