"""The fit (blockdensity.fit, docs/spec.md sections 5 to 7): the stages put together.

`fit_text` runs decode, segment, measure and classify, then applies the
semantic drops after the tree has decided (section 5), falls back to the
full text when nothing sensible is left (section 6), renders the kept blocks
and returns the Fit with its counts and per-block records (section 7). These
tests check what happens after the tree: the drops and the majority rule,
the three fallbacks, the records and counts, and the result as data.
"""

from __future__ import annotations

import dataclasses
import json

import pytest

from blockdensity import (
    DEFAULT_CONF,
    PUBLISHED_CONF,
    FallbackReason,
    PageType,
    Reason,
    fit_text,
    html_to_text,
)
from tests.helpers import B, C, D, decisions, fit, measures, page, seq

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


def test_a_block_the_tree_rejects_inside_a_majority_scope_stays_boilerplate() -> None:
    """The majority rule only undoes the drop: a link list in that nav is still boilerplate."""
    # As above: the nav holds all 50 CONTENT words; its own link list (2/2) is
    # link dense, so BOILERPLATE with the tree's leaf as its reason.
    body = f"<nav><a href=#>n01</a> <a href=#>n02</a><p>{seq('b', 1, 30)}</p><p>{seq('c', 1, 20)}"
    links = fit(body).blocks[0]
    assert (links.decision, links.reason, links.leaf) == (B, Reason.LINK_DENSE, Reason.LINK_DENSE)
    assert links.scope == "nav"


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
    result = fit(body, PUBLISHED_CONF)  # the article profile's main container is role=main
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


def test_dropping_is_decided_by_the_conf() -> None:
    """A configuration that drops <header> drops it; one that drops nothing keeps the nav."""
    body = f"<header><p>{seq('h', 1, 20)}</p></header><nav><p>{seq('n', 1, 20)}</p></nav>"
    body += f"<p>{seq('c', 1, 30)}</p>"
    conf = dataclasses.replace(DEFAULT_CONF, drop_elements=frozenset({"header"}))
    result = fit(body, conf)
    assert decisions(result) == [D, C, C]
    assert [b.scope for b in result.blocks] == ["header", None, None]


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


def test_fallback_reasons_are_the_three_of_spec_and_the_two_readings() -> None:
    assert {reason.value for reason in FallbackReason} == {
        "single_block",
        "nothing_kept",
        "no_text",
        "noscript",  # blockdensity.parse's other readings (tests/test_readings.py)
        "deferred_content",
    }


# --------------------------------------------------------------------------- records and counts


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


def test_the_text_is_the_kept_blocks_text_line_by_line() -> None:
    body = (
        f"<h1>{seq('h', 1, 3)}</h1><p>{seq('a', 1, 20)}<br>{seq('x', 1, 3)}</p>"
        f"<ul><li><a href=#>n01</a></li><li><a href=#>n02</a></li></ul><p>{seq('b', 1, 20)}</p>"
    )
    result = fit(body)
    assert not result.fallback
    kept = [b for b in result.blocks if b.decision is C]
    assert result.text == "\n".join(b.text for b in kept)
    assert (result.blocks_kept, result.words_kept) == (len(kept), sum(b.words for b in kept))


def test_blocks_are_built_once_on_first_access() -> None:
    result = fit(f"<p>{seq('a', 1, 20)}</p><p>{seq('b', 1, 20)}</p>")
    assert result.blocks is result.blocks
    assert [b.index for b in result.blocks] == [0, 1]


def test_no_conf_means_the_default_conf() -> None:
    html = page(f"<nav><p>{seq('n', 1, 20)}</p></nav><p>{seq('a', 1, 20)}</p><p>x01</p>")
    assert fit_text(html).to_dict() == fit_text(html, DEFAULT_CONF).to_dict()
    assert fit_text(html, None).to_dict() == fit_text(html, DEFAULT_CONF).to_dict()


def test_the_fit_of_bytes_is_the_fit_of_their_text() -> None:
    html = page(f"<p>caf\u00e9 {seq('a', 1, 20)}</p><nav>{seq('n', 1, 3)}</nav><p>x01</p>")
    from_bytes = fit_text(html.encode("utf-8")).to_dict()
    from_str = fit_text(html).to_dict()
    assert from_bytes.pop("encoding") == "utf-8"
    assert from_str.pop("encoding") is None
    assert from_bytes == from_str


# --------------------------------------------------------------------------- the result as data


def test_to_dict_without_blocks() -> None:
    result = fit(f"<p>{seq('a', 1, 20)}</p><p>{seq('b', 1, 20)}</p>")
    data = result.to_dict(blocks=False)
    assert "blocks" not in data
    assert data["text"] == result.text
    assert data["fallback_reason"] is None
    assert data["words_total"] == 40


def test_to_dict_is_json_with_enums_as_their_values() -> None:
    body = f"<nav>{seq('n', 1, 3)}</nav><p>{seq('a', 1, 20)}</p><p>{seq('b', 1, 20)}</p>"
    result = fit(body)
    data = json.loads(json.dumps(result.to_dict()))
    assert set(data) == {
        "text", "title", "lang", "fallback", "fallback_reason", "blocks_total",
        "blocks_with_words", "blocks_kept", "words_total", "words_kept", "profile", "lang_detected",
        "lang_confidence", "text_sha256", "metadata", "encoding", "comments", "truncated",
        "confidence", "page_type", "page_type_confidence", "rules_kind",
        "blocks",
    }  # fmt: skip
    assert data["page_type"] in {kind.value for kind in PageType}
    assert data["rules_kind"] in {kind.value for kind in PageType}
    assert data["text"] == result.text
    assert data["title"] == "t"
    assert [block["decision"] for block in data["blocks"]] == ["dropped", "content", "content"]
    assert data["blocks"][0]["reason"] == "semantic_drop"
    # The nav: 3 words, prev the page's edge, next 20 > 15: short_before_text.
    assert data["blocks"][0]["leaf"] == Reason.SHORT_BEFORE_TEXT.value
    assert data["blocks"][0]["scope"] == "nav"
    assert set(data["blocks"][0]) == {
        "index", "element", "text", "text_bytes", "words", "link_words", "link_density",
        "decision", "reason", "leaf", "scope", "kind", "level",
    }  # fmt: skip


def test_a_fallback_is_reported_by_its_value_in_the_data() -> None:
    data = fit(f"<p>{seq('a', 1, 5)}</p>").to_dict(blocks=False)
    assert (data["fallback"], data["fallback_reason"]) == (True, "single_block")
