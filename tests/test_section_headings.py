"""section_headings (blockdensity.decide.headings): a heading dropped right before kept text."""

from __future__ import annotations

from blockdensity import PUBLISHED_CONF, Conf, Decision, Fit, Reason, Rule, fit_text
from blockdensity.conf import ARTICLE_RULES
from blockdensity.pagetype import PageType
from tests.helpers import page, seq

WITHOUT = Conf(article_rules=ARTICLE_RULES - {Rule.SECTION_HEADINGS})


def items(prefix: str, count: int) -> str:
    lines = "".join(f"<li>{seq(f'{prefix}{n}x', 1, 4)}</li>" for n in range(count))
    return f"<ul>{lines}</ul>"


# A review's product, as a review site lays it out: after the links that close the
# previous product's review, the product's name, then "Pros" and "Cons" over lists
# of short lines that container_items keeps. The tree drops the name as short after
# links, list_headings takes "Pros" for a link list's heading (it stands between
# blocks the tree rejected), and "Cons" is short and isolated. Last, a heading
# over a section of nothing but a link, and one over it.
REVIEW = page(
    f"<main><article><p>{seq('a', 1, 60)}</p>"
    f"<p>Read <a href=/r>{seq('r', 1, 8)}</a></p>"
    f"<h2>{seq('name', 1, 5)}</h2><h3>Pros</h3>{items('p', 3)}<h3>Cons</h3>{items('c', 2)}"
    f"<p>{seq('b', 1, 60)}</p>"
    f"<h2>{seq('other', 1, 3)}</h2><h3>{seq('lone', 1, 2)}</h3>"
    f"<p><a href=/z>{seq('z', 1, 9)}</a></p>"
    "</article></main>"
)


def reasons(fit: Fit, text: str) -> set[Reason | None]:
    return {block.reason for block in fit.blocks if block.text == text}


def test_the_headings_of_a_kept_section_are_kept() -> None:
    with_rule, without = fit_text(REVIEW), fit_text(REVIEW, WITHOUT)
    # Without the rule the lists stay and their headings go.
    assert seq("p0x", 1, 4) in without.text
    for heading in (seq("name", 1, 5), "Pros", "Cons"):
        assert heading not in without.text.split("\n")
        assert heading in with_rule.text.split("\n")
        assert reasons(with_rule, heading) == {Reason.SECTION_HEADING}
    # The h2 over the h3 over the list: a heading over a heading it kept, outranking it.
    assert f"## {seq('name', 1, 5)}\n\n### Pros\n\n- {seq('p0x', 1, 4)}" in with_rule.markdown
    # Nothing else changes.
    assert [line for line in with_rule.text.split("\n") if line not in without.text] == [
        seq("name", 1, 5),
        "Pros",
        "Cons",
    ]


def test_a_heading_over_nothing_kept_stays_out() -> None:
    fit = fit_text(REVIEW)
    # The h3 over a link the tree rejected: nothing of its section is kept.
    assert seq("lone", 1, 2) not in fit.text
    assert reasons(fit, seq("lone", 1, 2)) == {Reason.SHORT_ISOLATED}


def review(heading: str) -> str:
    """REVIEW with `heading` in place of the product's name."""
    return REVIEW.replace(f"<h2>{seq('name', 1, 5)}</h2>", heading)


def test_a_linked_heading_an_h1_and_a_heading_over_a_higher_one_stay_out() -> None:
    linked = f"<h2><a href=/t>{seq('t', 1, 5)}</a></h2>"  # a linked title: a listing's
    title = f"<h1>{seq('t', 1, 5)}</h1>"  # the page's title
    # An h4 over the h2 it does not outrank: it heads nothing; the h2 heads the text.
    minor = f"<h4>{seq('t', 1, 5)}</h4><h2>{seq('name', 1, 5)}</h2>"
    for heading in (linked, title, minor):
        fit = fit_text(review(heading))
        assert "Pros" in fit.text.split("\n")
        assert seq("t", 1, 5) not in fit.text, heading
        assert Reason.SECTION_HEADING not in reasons(fit, seq("t", 1, 5))
    assert seq("name", 1, 5) in fit_text(review(minor)).text.split("\n")


def test_a_heading_a_region_dropped_stays_dropped() -> None:
    html = page(
        f"<main><p>{seq('a', 1, 60)}</p><aside><h3>{seq('side', 1, 2)}</h3></aside>"
        f"<p>{seq('b', 1, 60)}</p></main>"
    )
    fit = fit_text(html)
    assert seq("side", 1, 2) not in fit.text
    assert {block.decision for block in fit.blocks if block.text == seq("side", 1, 2)} == {
        Decision.DROPPED
    }


def test_it_runs_on_every_kind_of_page_and_never_in_the_published_profile() -> None:
    # A heading after links over a short line and a paragraph the tree keeps.
    html = page(
        f"<main><p>{seq('a', 1, 60)}</p><p>Read <a href=/r>{seq('r', 1, 8)}</a></p>"
        f"<h3>Cons</h3><p>{seq('s', 1, 6)}</p><p>{seq('b', 1, 60)}</p></main>"
    )
    for kind in PageType:
        assert "Cons" in fit_text(html, page_type=kind).text.split("\n"), kind
    # On the kinds whose other rules leave it out (the others' container_text and
    # span_text keep it too), it is this rule that keeps it.
    for kind in (PageType.ARTICLE, PageType.FORUM):
        assert reasons(fit_text(html, page_type=kind), "Cons") == {Reason.SECTION_HEADING}
        assert "Cons" not in fit_text(html, WITHOUT, page_type=kind).text.split("\n")
    published = fit_text(html, PUBLISHED_CONF)
    assert "Cons" not in published.text.split("\n")
    assert Reason.SECTION_HEADING not in {block.reason for block in published.blocks}
