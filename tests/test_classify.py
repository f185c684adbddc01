"""The decision tree (blockdensity.decide.tree, docs/spec.md section 4), in parts per million.

`classify` is called directly on lists of (words, link words) and its leaf
codes read through LEAVES: every leaf, the neighbours (the nearest blocks
with words, 0 words at the page's edges), the ppm comparisons at each
threshold, and the thresholds taken from the Conf. The end-to-end cases then
show the same decisions in the fit's block records, from real markup; each
comment works the tree by hand.
"""

from __future__ import annotations

import dataclasses

import pytest

from blockdensity import DEFAULT_CONF, Conf, Decision, FallbackReason, Reason
from blockdensity.decide.tree import (
    CONTENT_LEAVES,
    LEAVES,
    LINK_DENSE_LEAF,
    classify,
    link_density_permil,
)
from tests.helpers import B, C, decisions, fit, measures, seq


def tree(figures: list[tuple[int, int]], conf: Conf = DEFAULT_CONF) -> list[Reason]:
    """The leaf of every block of a page of (words, link words)."""
    codes = classify([words for words, _ in figures], [links for _, links in figures], conf)
    return [LEAVES[code] for code in codes]


# --------------------------------------------------------------------------- the leaves

LINKS = (2, 2)  # a link-only block: link density 1.0, over both thresholds


@pytest.mark.parametrize(
    ("figures", "leaf"),
    [
        # curr 3/1: 1_000_000 > 333_333 * 3.
        ([(20, 0), (3, 1), (20, 0)], Reason.LINK_DENSE),
        # prev 5 (ld 0), curr 17 > 16.
        ([(5, 0), (17, 0), (0, 0)], Reason.LONG),
        # curr 10 <= 16, next 16 > 15.
        ([(5, 0), (10, 0), (16, 0)], Reason.SHORT_BEFORE_TEXT),
        # curr 10 <= 16, next 15 <= 15, prev 5 > 4.
        ([(5, 0), (10, 0), (15, 0)], Reason.SHORT_AFTER_TEXT),
        # curr 10 <= 16, next 15 <= 15, prev 4 <= 4.
        ([(4, 0), (10, 0), (15, 0)], Reason.SHORT_ISOLATED),
        # prev ld 1.0 > 0.555556, curr 41 > 40.
        ([LINKS, (41, 0), (0, 0)], Reason.AFTER_LINKS_LONG),
        # prev ld 1.0, curr 10 <= 40, next 18 > 17.
        ([LINKS, (10, 0), (18, 0)], Reason.AFTER_LINKS_BEFORE_TEXT),
        # prev ld 1.0, curr 10 <= 40, next 17 <= 17.
        ([LINKS, (10, 0), (17, 0)], Reason.AFTER_LINKS_SHORT),
    ],
)
def test_each_leaf_of_the_tree(figures: list[tuple[int, int]], leaf: Reason) -> None:
    assert tree(figures)[1] is leaf


def test_the_first_leaf_codes_are_the_content_leaves() -> None:
    content = {
        Reason.LONG,
        Reason.SHORT_BEFORE_TEXT,
        Reason.SHORT_AFTER_TEXT,
        Reason.AFTER_LINKS_LONG,
        Reason.AFTER_LINKS_BEFORE_TEXT,
    }
    assert set(LEAVES[:CONTENT_LEAVES]) == content
    assert set(LEAVES[CONTENT_LEAVES:]) == {
        Reason.LINK_DENSE,
        Reason.SHORT_ISOLATED,
        Reason.AFTER_LINKS_SHORT,
    }


def test_the_link_dense_leaf_code_is_the_link_dense_leaf() -> None:
    # The rules after the tree test the leaf by this code (decide.article, ...).
    assert LEAVES[LINK_DENSE_LEAF] is Reason.LINK_DENSE
    assert classify([100], [100], DEFAULT_CONF) == [LINK_DENSE_LEAF]


def test_no_blocks_no_leaves() -> None:
    assert classify([], [], DEFAULT_CONF) == []


def test_any_sequence_of_figures_is_accepted() -> None:
    assert classify((20, 3, 20), (0, 1, 0), DEFAULT_CONF) == classify(
        [20, 3, 20], [0, 1, 0], DEFAULT_CONF
    )


# --------------------------------------------------------------------------- neighbours


def test_a_page_edge_is_a_neighbour_of_zero_words() -> None:
    """Alone on the page: prev and next are 0 words, ld 0."""
    assert tree([(16, 0)]) == [Reason.SHORT_ISOLATED]  # 16 <= 16, next 0, prev 0 <= 4
    assert tree([(17, 0)]) == [Reason.LONG]


def test_blocks_without_words_are_skipped_as_neighbours() -> None:
    # 10 words: prev is the 20-word block across `0`, next the 3-word block:
    # 10 <= 16, 3 <= 15, prev 20 > 4: short_after_text.
    assert tree([(20, 0), (0, 0), (10, 0), (0, 0), (3, 0)])[2] is Reason.SHORT_AFTER_TEXT
    # 10 words: next is the 16-word block across `0`: 16 > 15: short_before_text.
    assert tree([(4, 0), (10, 0), (0, 0), (16, 0)])[1] is Reason.SHORT_BEFORE_TEXT


def test_a_block_without_words_is_classified_with_its_neighbours() -> None:
    """0 words, ld 0: prev 20 (ld 0), 0 <= 16, next 10 <= 15, prev 20 > 4."""
    assert tree([(20, 0), (0, 0), (10, 0)])[1] is Reason.SHORT_AFTER_TEXT


def test_the_tree_reads_the_neighbours_figures_never_their_decisions() -> None:
    """4/9 is link dense as a block (over 1/3) yet passes as a prev (within 0.555556)."""
    # 10 words after it: prev ld 4/9 <= 0.555556, 10 <= 16, next 3 <= 15,
    # prev 9 > 4: short_after_text (after a link-dense *decision*).
    assert tree([(9, 4), (10, 0), (3, 0)]) == [
        Reason.LINK_DENSE,
        Reason.SHORT_AFTER_TEXT,
        Reason.SHORT_AFTER_TEXT,
    ]


def test_prev_is_the_last_block_with_words_even_if_link_dense() -> None:
    # prev of the 10-word block is the 2/2 list across the `0` block: ld 1.0,
    # 10 <= 40, next 17 <= 17: after_links_short.
    assert tree([LINKS, (0, 0), (10, 0), (17, 0)])[2] is Reason.AFTER_LINKS_SHORT


# --------------------------------------------------------------------------- thresholds


@pytest.mark.parametrize(
    ("words", "links", "dense"),
    [
        (3, 1, True),  # 1_000_000 > 999_999: the permil (333) would have passed it
        (4, 1, False),
        (1000, 333, False),  # 333_000_000 <= 333_333_000
        (1000, 334, True),
        (0, 0, False),  # no words: ld is 0
        (7, 7, True),
    ],
)
def test_current_link_density_in_ppm(words: int, links: int, dense: bool) -> None:
    assert (tree([(words, links)])[0] is Reason.LINK_DENSE) is dense


@pytest.mark.parametrize(
    ("prev", "passes"),
    [
        ((9, 5), True),  # 5_000_000 <= 555_556 * 9 = 5_000_004
        ((7, 4), False),  # 4_000_000 > 3_888_892
        ((259, 143), True),
        ((259, 144), False),  # 144_000_000 > 143_889_004
        ((1, 1), False),
    ],
)
def test_previous_link_density_in_ppm(prev: tuple[int, int], passes: bool) -> None:
    # 10 words, next 3 <= 15: if prev passes, prev words > 4 (every prev that
    # passes here has more than 4): short_after_text; if not, 10 <= 40, next
    # 3 <= 17: after_links_short.
    leaf = tree([prev, (10, 0), (3, 0)])[1]
    assert leaf is (Reason.SHORT_AFTER_TEXT if passes else Reason.AFTER_LINKS_SHORT)


def test_every_threshold_is_read_from_the_conf() -> None:
    figures = [(5, 0), (16, 0), (0, 0)]
    assert tree(figures)[1] is Reason.SHORT_AFTER_TEXT
    assert tree(figures, dataclasses.replace(DEFAULT_CONF, words_curr_short=15))[1] is Reason.LONG
    isolated = dataclasses.replace(DEFAULT_CONF, words_prev_short=5)
    assert tree(figures, isolated)[1] is Reason.SHORT_ISOLATED
    before = dataclasses.replace(DEFAULT_CONF, words_next_short=2)
    assert tree([(1, 0), (10, 0), (3, 0)], before)[1] is Reason.SHORT_BEFORE_TEXT
    loose = dataclasses.replace(DEFAULT_CONF, ld_curr_max_ppm=333_334)  # 1_000_000 <= 1_000_002
    assert tree([(3, 1)], loose)[0] is Reason.SHORT_ISOLATED
    strict_prev = dataclasses.replace(DEFAULT_CONF, ld_prev_max_ppm=555_555)
    assert tree([(9, 5), (10, 0), (3, 0)], strict_prev)[1] is Reason.AFTER_LINKS_SHORT
    after = [LINKS, (30, 0), (10, 0)]
    assert tree(after)[1] is Reason.AFTER_LINKS_SHORT
    assert tree(after, dataclasses.replace(DEFAULT_CONF, words_curr_long=29))[1] is (
        Reason.AFTER_LINKS_LONG
    )
    assert tree(after, dataclasses.replace(DEFAULT_CONF, words_next_long=9))[1] is (
        Reason.AFTER_LINKS_BEFORE_TEXT
    )


@pytest.mark.parametrize(
    ("words", "links", "permil"),
    [(3, 1, 333), (9, 4, 444), (7, 7, 1000), (1000, 1, 1), (1001, 1, 0), (0, 0, 0)],
)
def test_link_density_permil_is_floored_and_zero_without_words_directly(
    words: int, links: int, permil: int
) -> None:
    assert link_density_permil(words, links) == permil


# --------------------------------------------------------------------------- through the fit


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


def test_link_density_permil_is_floored_and_zero_without_words() -> None:
    body = (
        f"<p>{seq('a', 1, 20)}</p><p>a b <a href=#>c</a></p>"
        "<p>w1 w2 w3 w4 w5 <a href=#>l1 l2 l3 l4</a></p><p>\u00bb</p>"
    )
    assert [b.link_density for b in fit(body).blocks] == [0, 333, 444, 0]


def test_reason_values_are_the_tree_leaves_and_the_semantic_article_and_kind_rules() -> None:
    assert {reason.value for reason in Reason} == {
        "link_dense", "long", "short_before_text", "short_after_text", "short_isolated",
        "after_links_long", "after_links_before_text", "after_links_short",
        "semantic_drop", "semantic_majority", "article_comments", "article_box",
        "outside_main_container", "outside_inner_container", "linked_prose",
        "outside_content_container", "list_heading", "between_text",
        # the rules by kind of page (tests/test_page_kinds.py)
        "footer_majority", "forum_post", "post_body", "box_majority", "page_chrome",
        "container_text",
        "span_text", "item_card", "data_table", "item_grid", "duplicate_text",
        "outside_title_region",
        "related_items", "review_section", "related_section", "shop_link", "container_item",
        "section_heading", "code_block", "after_links_text", "consent_notice", "introduced_list",
        "table_of_contents", "form_control", "copyright_notice",
    }  # fmt: skip
