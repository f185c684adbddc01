"""after_links_text (blockdensity.decide.prose): a paragraph the tree drops for the links
before it."""

from __future__ import annotations

from blockdensity import PUBLISHED_CONF, Conf, Fit, Reason, Rule, fit_text
from blockdensity.conf import ARTICLE_RULES
from blockdensity.decide.prose import MIN_WORDS
from tests.helpers import page, seq

WITHOUT = Conf(article_rules=ARTICLE_RULES - {Rule.AFTER_LINKS_TEXT})


ALL = "<p><a href=/all>all our projects</a></p>"


def sentence(prefix: str, words: int, end: str = ".") -> str:
    return seq(prefix, 1, words) + end


def projects(*paragraphs: str) -> str:
    """A page of projects as a blog lays them out: each a linked title, then a paragraph
    of prose under it (after_links_short to the tree: the title is all link, and so is
    what follows the paragraph), then a link to them all and a closing paragraph."""
    items = "".join(
        f"<h3><a href=/p{n}>{seq(f't{n}x', 1, 3)}</a></h3><p>{text}</p>"
        for n, text in enumerate(paragraphs)
    )
    return page(
        f"<main><article><p>{seq('a', 1, 60)}</p>{items}{ALL}<p>{seq('z', 1, 60)}</p>"
        "</article></main>"
    )


def reasons(fit: Fit, text: str) -> set[Reason | None]:
    return {block.reason for block in fit.blocks if text in block.text}


def test_a_paragraph_after_a_linked_title_is_kept() -> None:
    html = projects(sentence("p", 30), f"\u201c{sentence('q', 28, '!')}\u201d\u00a0")
    fit, without = fit_text(html), fit_text(html, WITHOUT)
    for prefix in ("p", "q"):
        text = seq(prefix, 1, 25)
        assert text not in without.text
        assert text in fit.text
        assert reasons(fit, text) == {Reason.AFTER_LINKS_TEXT}
    # The linked titles themselves stay out; the published fit drops both.
    assert seq("t0x", 1, 3) not in fit.text
    assert seq("p", 1, 25) not in fit_text(html, PUBLISHED_CONF).text


def test_only_prose_after_links_is_kept() -> None:
    # Too short, holding a link, cut short as a teaser is, not ending a sentence.
    linked = f"{seq('l', 1, 30)} <a href=/more>read more</a>."
    html = projects(
        sentence("s", MIN_WORDS - 1),
        linked,
        seq("e", 1, 30) + "\u2026",
        seq("n", 1, 30),
    )
    fit, without = fit_text(html), fit_text(html, WITHOUT)
    assert fit.text == without.text
    for prefix in ("s", "l", "e", "n"):
        assert seq(prefix, 1, 20) not in fit.text, prefix


def test_outside_the_trusted_container_or_the_kept_text_it_stays_out() -> None:
    paragraph = sentence("p", 30)
    title = f"<h3><a href=/x>{seq('t', 1, 3)}</a></h3>"
    # No main or content container the rules trust.
    bare = page(
        f"<div><p>{seq('a', 1, 60)}</p>{title}<p>{paragraph}</p>{ALL}<p>{seq('z', 1, 60)}</p>"
    )
    assert seq("p", 1, 25) not in fit_text(bare).text
    # After the last kept block: a related story's teaser under the article.
    after = page(
        f"<main><article><p>{seq('a', 1, 60)}</p>{title}<p>{paragraph}</p></article></main>"
    )
    assert seq("p", 1, 25) not in fit_text(after).text
