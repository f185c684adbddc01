"""code_blocks (blockdensity.decide.code): a `<pre>` standing inside the kept text."""

from __future__ import annotations

from blockdensity import PUBLISHED_CONF, Conf, Decision, Fit, Reason, Rule, fit_text
from blockdensity.conf import ARTICLE_RULES
from blockdensity.pagetype import PageType
from tests.helpers import page, seq

WITHOUT = Conf(article_rules=ARTICLE_RULES - {Rule.CODE_BLOCKS})

# A tutorial as a static-site generator's highlighter lays it out: a code block in a
# table beside a gutter of line numbers that are links to their lines. The gutter
# is link-dense, so the tree drops the code after it as short after links (a short
# line follows it); the second command follows a line of links. Both stand between
# paragraphs the tree keeps.
GUTTER = "<td><pre>" + " ".join(f"<a href=#l{n}>{n}</a>" for n in range(1, 5)) + "</pre></td>"
TUTORIAL = page(
    f"<main><article><p>{seq('a', 1, 60)}</p>"
    f"<table><tr>{GUTTER}<td><pre><code>git clone {seq('c', 1, 20)}</code></pre></td></tr></table>"
    f"<p>{seq('s', 1, 12)}</p><p>{seq('b', 1, 50)}</p>"
    f"<p>See <a href=/docs>{seq('d', 1, 20)}</a></p>"
    f"<pre>make {seq('m', 1, 6)}</pre><p>{seq('t', 1, 12)}</p>"
    f"<p>{seq('e', 1, 60)}</p></article></main>"
)


def reasons(fit: Fit, text: str) -> set[Reason | None]:
    return {block.reason for block in fit.blocks if text in block.text}


def test_the_code_blocks_inside_the_text_are_kept_and_the_gutter_is_not() -> None:
    with_rule, without = fit_text(TUTORIAL), fit_text(TUTORIAL, WITHOUT)
    for code in (seq("c", 1, 20), seq("m", 1, 6)):
        assert code not in without.text
        assert code in with_rule.text
        assert reasons(with_rule, code) == {Reason.CODE_BLOCK}
    # The gutter's numbers are links: it stays out.
    assert "1 2 3 4" not in with_rule.text
    assert reasons(with_rule, "1 2 3 4") == {Reason.LINK_DENSE}
    # The Markdown renders them as fenced code.
    assert f"```\nmake {seq('m', 1, 6)}\n```" in with_rule.markdown
    # Nothing else changes.
    added = [line for line in with_rule.text.split("\n") if line not in without.text]
    assert added == [f"git clone {seq('c', 1, 20)}", f"make {seq('m', 1, 6)}"]


def test_code_outside_the_kept_text_or_in_a_dropped_region_stays_out() -> None:
    # Before the first kept block (short and isolated: a lone line), in an aside,
    # and after the last kept block (short after links).
    html = page(
        f"<main><pre>{seq('before', 1, 8)}</pre><p>{seq('s', 1, 10)}</p>"
        f"<p>{seq('a', 1, 60)}</p><aside><pre>{seq('side', 1, 8)}</pre></aside>"
        f"<p>{seq('b', 1, 60)}</p><p>See <a href=/x>{seq('x', 1, 20)}</a></p>"
        f"<pre>{seq('after', 1, 8)}</pre></main>"
    )
    fit, without = fit_text(html), fit_text(html, WITHOUT)
    assert fit.text == without.text
    for code in ("before", "side", "after"):
        assert seq(code, 1, 8) not in fit.text, code
    assert {block.decision for block in fit.blocks if block.text == seq("side", 1, 8)} == {
        Decision.DROPPED
    }


def test_a_linked_pre_stays_out() -> None:
    # A <pre> of links (a listing of files) is not code the text explains.
    linked = " ".join(f"<a href=/f{n}>{seq(f'f{n}x', 1, 2)}</a>" for n in range(4))
    html = page(
        f"<main><p>{seq('a', 1, 60)}</p><p>{seq('b', 1, 50)} <a href=/x>{seq('x', 1, 20)}</a></p>"
        f"<pre>{linked} {seq('t', 1, 2)}</pre><p>{seq('e', 1, 60)}</p></main>"
    )
    assert seq("f0x", 1, 2) not in fit_text(html).text


def test_it_runs_on_every_kind_of_page_and_never_in_the_published_profile() -> None:
    for kind in PageType:
        assert f"make {seq('m', 1, 6)}" in fit_text(TUTORIAL, page_type=kind).text.split("\n")
    # On the kinds whose other rules leave it out (the others' container_text and
    # span_text keep it too), it is this rule that keeps it.
    for kind in (PageType.ARTICLE, PageType.FORUM):
        assert reasons(fit_text(TUTORIAL, page_type=kind), seq("m", 1, 6)) == {Reason.CODE_BLOCK}
        assert seq("m", 1, 6) not in fit_text(TUTORIAL, WITHOUT, page_type=kind).text
    published = fit_text(TUTORIAL, PUBLISHED_CONF)
    assert seq("m", 1, 6) not in published.text
    assert Reason.CODE_BLOCK not in {block.reason for block in published.blocks}
