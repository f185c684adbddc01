"""The rules by kind of page (blockdensity.decide.kinds and the modules it names).

Each rule is shown doing its work on the kind of page it serves, and doing
nothing on an article, under a configuration without it, or under the
published profile (docs/spec.md: the published fit never changes).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable

import pytest

from blockdensity import (
    DEFAULT_CONF,
    PUBLISHED_CONF,
    Conf,
    Decision,
    Fit,
    Reason,
    Rule,
    fit_text,
)
from blockdensity.conf import ARTICLE_RULES
from blockdensity.decide import Verdict, decide
from blockdensity.decide.kinds import (
    KIND_ONLY,
    KIND_RULES,
    LISTING_DOUBT,
    LISTING_GAIN,
    SCANT_WORDS,
    TYPE_CONFIDENCE,
    rules_for,
)
from blockdensity.fit import read_page
from blockdensity.markdown import render_markdown
from blockdensity.pagetype import PageType
from tests.helpers import page, seq

INTRO = f"<p>{seq('i', 1, 30)}</p>"


def three_readings(html: str, kind: PageType, rule: Rule) -> tuple[Fit, Fit, Fit]:
    """The page's fit as `kind`, as an article, and as `kind` with `rule` switched off."""
    return (
        fit_text(html, page_type=kind),
        fit_text(html, page_type=PageType.ARTICLE),
        fit_text(html, Conf(article_rules=ARTICLE_RULES - {rule}), page_type=kind),
    )


def cards(count: int = 4) -> str:
    """A listing's cards: a linked title and a teaser line each."""
    return "".join(
        f'<div class="card"><h2><a href="/post/{n}">{seq(f"t{n}x", 1, 6)}</a></h2>'
        f"<p>{seq(f'd{n}x', 1, 12)}</p></div>"
        for n in range(count)
    )


NAV = "<nav><ul>" + "".join(f"<li><a href=/{n}>n{n}</a></li>" for n in range(8)) + "</ul></nav>"
LISTING = page(f"{NAV}<main>{INTRO}{cards()}<p>{seq('e', 1, 20)}</p></main>")


def test_a_listing_keeps_its_cards_on_a_listing_only() -> None:
    as_listing = fit_text(LISTING, page_type=PageType.LISTING)
    as_article = fit_text(LISTING, page_type=PageType.ARTICLE)
    for n in range(4):
        assert seq(f"t{n}x", 1, 6) in as_listing.text
        assert seq(f"d{n}x", 1, 12) in as_listing.text
        assert seq(f"t{n}x", 1, 6) not in as_article.text
    assert "n1" not in as_listing.text  # the navigation stays out
    reasons = {block.reason for block in as_listing.blocks if block.decision is Decision.CONTENT}
    assert reasons & {Reason.CONTAINER_TEXT, Reason.ITEM_CARD}


def test_each_rule_by_kind_of_page_can_be_switched_off() -> None:
    without = Conf(
        article_rules=ARTICLE_RULES
        - {Rule.CONTAINER_TEXT, Rule.ITEM_CARDS, Rule.SPAN_TEXT, Rule.ITEM_GRID}
    )
    fit = fit_text(LISTING, without, page_type=PageType.LISTING)
    assert fit.text == fit_text(LISTING, page_type=PageType.ARTICLE).text


def test_the_published_profile_ignores_the_kind_of_page() -> None:
    for kind in PageType:
        assert (
            fit_text(LISTING, PUBLISHED_CONF, page_type=kind).text
            == fit_text(LISTING, PUBLISHED_CONF).text
        )


THREAD = page(
    f"<main><h1>{seq('q', 1, 8)}</h1><p>{seq('a', 1, 40)}</p>"
    '<div class="comments">'
    + "".join(f'<div class="comment"><p>{seq(f"r{n}x", 1, 30)}</p></div>' for n in range(3))
    + "</div></main>"
)


def test_a_forum_keeps_its_posts_where_an_article_moves_them_to_comments() -> None:
    as_forum = fit_text(THREAD, page_type=PageType.FORUM)
    as_article = fit_text(THREAD, page_type=PageType.ARTICLE)
    for n in range(3):
        assert seq(f"r{n}x", 1, 30) in as_forum.text
        assert seq(f"r{n}x", 1, 30) not in as_article.text
        assert as_article.comments is not None
        assert seq(f"r{n}x", 1, 30) in as_article.comments
    assert as_forum.comments is None
    assert Reason.FORUM_POST in {block.reason for block in as_forum.blocks}


def remarks(post: str) -> str:
    """A Q&A post's short remarks, named comments as a thread's replies are."""
    return (
        '<div class="comments">'
        + "".join(f'<div class="comment"><p>{seq(f"{post}c{n}x", 1, 8)}</p></div>' for n in (0, 1))
        + "</div>"
    )


# A question and three answers the tree keeps, each with two short remarks under it.
QUESTION = page(
    f"<main><h1>{seq('q', 1, 8)}</h1><div class=post><p>{seq('a', 1, 60)}</p></div>{remarks('a')}"
    + "".join(
        f"<div class=post><p>{seq(f'ans{n}x', 1, 60)}</p></div>{remarks(f'ans{n}')}"
        for n in range(3)
    )
    + "</main>"
)


def test_a_forum_leaves_out_the_short_remarks_under_the_posts_it_keeps() -> None:
    as_forum = fit_text(QUESTION, page_type=PageType.FORUM)
    for post in ("a", "ans0", "ans1", "ans2"):
        assert seq(post if post == "a" else f"{post}x", 1, 60) in as_forum.text
        assert seq(f"{post}c0x", 1, 8) not in as_forum.text
        assert as_forum.comments is not None
        assert seq(f"{post}c0x", 1, 8) in as_forum.comments
    assert Reason.FORUM_POST not in {block.reason for block in as_forum.blocks}
    # THREAD's replies outweigh its opening post: there the rule still brings them back.
    thread = fit_text(THREAD, page_type=PageType.FORUM)
    assert Reason.FORUM_POST in {block.reason for block in thread.blocks}


def thread_post(n: int, words: int) -> str:
    """A post of a thread's template: a linked author line, a body, a join line."""
    return (
        f'<div class="post"><div class="author"><a href="/u/{n}">user{n}</a>'
        f' <a href="/p/{n}">#{n}</a></div>'
        f'<div class="body"><p>{seq(f"b{n}x", 1, words)}</p></div>'
        f'<div class="joined">Joined 2024 \u00b7 {n}0 posts</div></div>'
    )


# An opening post the tree keeps, then short replies it rejects: each follows a link-dense
# author line.
REPLIES = page("<main>" + thread_post(0, 60) + "".join(thread_post(n, 12) for n in range(1, 5)))


def test_a_forum_keeps_the_replies_laid_out_as_its_posts() -> None:
    as_forum, as_article, without = three_readings(REPLIES, PageType.FORUM, Rule.POST_BODIES)
    for n in range(1, 5):
        assert seq(f"b{n}x", 1, 12) in as_forum.text
        assert seq(f"b{n}x", 1, 12) not in as_article.text
        assert seq(f"b{n}x", 1, 12) not in without.text
        # The author lines and the join lines repeat a layout too, but short or linked.
        assert f"user{n}" not in as_forum.text
        assert "Joined" not in as_forum.text
    assert Reason.POST_BODY in {block.reason for block in as_forum.blocks}


def test_a_forum_keeps_no_layout_of_short_or_linked_lines() -> None:
    teasers = "".join(
        f'<div class="teaser"><p><a href="/t/{n}">{seq(f"t{n}x", 1, 6)}</a> {seq(f"s{n}x", 1, 3)}'
        "</p></div>"
        for n in range(5)
    )
    # Two posts only: too few for a thread's layout.
    few = page("<main>" + thread_post(0, 60) + thread_post(1, 12) + "</main>" + teasers)
    fit = fit_text(few, page_type=PageType.FORUM)
    assert seq("b01x", 1, 12) not in fit.text
    for n in range(5):
        assert seq(f"s{n}x", 1, 3) not in fit.text
    assert Reason.POST_BODY not in {block.reason for block in fit.blocks}


def promoted(paragraphs: int) -> str:
    """An article-structured page: a kept paragraph, then a region whose class names a
    promotion (a box to the article rules) holding `paragraphs` paragraphs of 40 words."""
    return page(
        f"<article><h1>{seq('h', 1, 4)}</h1><p>{seq('a', 1, 50)}</p>"
        '<div class="node--promoted">'
        + "".join(f"<p>{seq(f'p{n}x', 1, 40)}</p>" for n in range(paragraphs))
        + "</div></article>"
    )


def test_a_service_page_keeps_a_box_that_holds_most_of_its_text() -> None:
    # The box holds 120 of the 174 words the tree keeps: above BOX_SHARE, under the
    # article rules' own guard (0.85).
    as_service, as_article, without = three_readings(
        promoted(3), PageType.SERVICE, Rule.BOX_MAJORITY
    )
    for n in range(3):
        assert seq(f"p{n}x", 1, 40) in as_service.text
        assert seq(f"p{n}x", 1, 40) not in as_article.text
        assert seq(f"p{n}x", 1, 40) not in without.text
    assert Reason.BOX_MAJORITY in {block.reason for block in as_service.blocks}


def test_a_service_page_drops_a_box_that_holds_less_than_most_of_its_text() -> None:
    # One paragraph: 40 of 94 kept words.
    fit = fit_text(promoted(1), page_type=PageType.SERVICE)
    assert seq("a", 1, 50) in fit.text
    assert seq("p0x", 1, 40) not in fit.text
    assert Reason.BOX_MAJORITY not in {block.reason for block in fit.blocks}


# A reference page: its text in <main>, then the lines about the page itself that the
# container rules keep with it.
REFERENCE = page(
    f"<main><h1>{seq('h', 1, 3)}</h1><p>{seq('a', 1, 40)}</p><p>{seq('b', 1, 30)}</p>"
    "<p>This page was last modified on Sep 25, 2024 by contributors.</p>"
    "<div>Edit this page on GitHub</div><div>Was this page helpful?</div>"
    f"<p>The handler is last modified by the caller: {seq('c', 1, 25)}</p></main>"
)


def test_a_documentation_page_drops_the_short_lines_about_itself() -> None:
    as_docs, as_article, without = three_readings(
        REFERENCE, PageType.DOCUMENTATION, Rule.PAGE_CHROME
    )
    for line in ("last modified on Sep 25", "Edit this page", "Was this page helpful"):
        assert line not in as_docs.text
        assert line in without.text
    assert "last modified on Sep 25" in as_article.text
    # A paragraph of the text that uses the words is longer than a chrome line.
    assert seq("c", 1, 25) in as_docs.text
    assert seq("a", 1, 40) in as_docs.text
    assert Reason.PAGE_CHROME in {block.reason for block in as_docs.blocks}


PRODUCT = page(
    f"<main><h1>{seq('p', 1, 4)}</h1><p>{seq('a', 1, 40)}</p>"
    "<div>Weight: 2 kg</div><div>Colour: black</div><div>Size: large</div>"
    "<div>Material: steel</div><div>Made in Italy</div>"
    f"<p>{seq('b', 1, 30)}</p></main>"
    f"<footer><p>{seq('f', 1, 200)}</p></footer>"
)


def test_a_product_keeps_its_short_specification_lines() -> None:
    as_product = fit_text(PRODUCT, page_type=PageType.PRODUCT)
    as_article = fit_text(PRODUCT, page_type=PageType.ARTICLE)
    specification = "Weight: 2 kg\nColour: black\nSize: large\nMaterial: steel\nMade in Italy"
    assert specification in as_product.text
    # The tree keeps a short line after long text, and one before it; not those between.
    assert "Colour" not in as_article.text
    assert "Material" not in as_article.text


def test_a_footer_kept_for_its_majority_goes_on_a_product_page() -> None:
    # The footer holds most of the kept words: the semantic drop's guard keeps it
    # on an article; on a product page it is the shop's footer.
    as_article = fit_text(PRODUCT, page_type=PageType.ARTICLE)
    as_product = fit_text(PRODUCT, page_type=PageType.PRODUCT)
    assert seq("f", 1, 200) in as_article.text
    assert "f01" not in as_product.text
    assert seq("a", 1, 40) in as_product.text
    assert Reason.FOOTER_MAJORITY in {block.reason for block in as_product.blocks}


def test_a_kind_the_classifier_is_unsure_of_is_judged_as_an_article() -> None:
    rules = DEFAULT_CONF.rules
    unsure = rules_for(rules, PageType.LISTING, TYPE_CONFIDENCE - 0.01)
    assert unsure == rules_for(rules, PageType.ARTICLE, 1.0)
    assert (
        rules_for(rules, PageType.LISTING, TYPE_CONFIDENCE)
        == (rules - KIND_ONLY) | KIND_RULES[PageType.LISTING]
    )


@pytest.mark.parametrize("kind", list(PageType))
def test_every_kind_runs_the_article_rules_and_its_own(kind: PageType) -> None:
    rules = rules_for(ARTICLE_RULES, kind, 1.0)
    assert rules >= ARTICLE_RULES - KIND_ONLY
    assert rules & KIND_ONLY == KIND_RULES[kind]
    without = dataclasses.replace(DEFAULT_CONF, article_rules=frozenset())
    assert rules_for(without.article_rules, kind, 1.0) == frozenset()


def table(rows: int, columns: int, *, head: bool = True, inner: str = "") -> str:
    """A data table: a header row of <th>, then rows of short cells; `inner`: the
    element each cell's text is in ("p", as word processors write it), or none."""
    opening, closing = (f"<{inner}>", f"</{inner}>") if inner else ("", "")
    header = "<tr>" + "".join(f"<th>h{c}</th>" for c in range(columns)) + "</tr>" if head else ""
    body = "".join(
        "<tr>"
        + "".join(f"<td>{opening}r{r}c{c} v{r}{c}{closing}</td>" for c in range(columns))
        + "</tr>"
        for r in range(rows)
    )
    return f"<table>{header}{body}</table>"


WITHOUT_TABLES = Conf(article_rules=ARTICLE_RULES - {Rule.DATA_TABLES})


def assert_table_kept(html: str, fit: Fit) -> None:
    """Every cell of `table(4, 3)` is in the fit's text, by the data_tables rule, and
    none of its short cells without the rule."""
    for r in range(4):
        for c in range(3):
            assert f"r{r}c{c} v{r}{c}" in fit.text
    assert Reason.DATA_TABLE in {block.reason for block in fit.blocks}
    assert "r2c1" not in fit_text(html, WITHOUT_TABLES).text


def test_a_data_table_with_a_kept_cell_is_kept_whole_on_every_page() -> None:
    html = page(f"<p>{seq('a', 1, 40)}</p>{table(4, 3)}<p>{seq('b', 1, 40)}</p>")
    for kind in (PageType.ARTICLE, PageType.PRODUCT):
        assert_table_kept(html, fit_text(html, page_type=kind))


@pytest.mark.parametrize("inner", ["p", "div"])
def test_a_data_tables_cells_are_kept_whatever_element_holds_their_text(inner: str) -> None:
    # Word processors and CMS editors put each cell's text in a <p> (or a <div>): the
    # blocks are the <p>s, in cells all the same.
    html = page(
        f"<p>{seq('a', 1, 40)}</p><h4>Amounts per person</h4>{table(4, 3, inner=inner)}"
        f"<h4>Notes</h4><p>{seq('b', 1, 40)}</p>"
    )
    fit = fit_text(html)
    assert_table_kept(html, fit)
    # The Markdown renders it as the table it is.
    assert "| r2c0 v20 | r2c1 v21 | r2c2 v22 |" in fit.markdown


def test_a_data_table_inside_the_kept_text_is_kept_whole() -> None:
    # Short headings on either side: the tree keeps none of the cells (short and
    # isolated), but the table stands between kept paragraphs.
    html = page(
        f"<p>{seq('a', 1, 40)}</p><h4>Amounts per person</h4>{table(4, 3)}"
        f"<h4>Notes</h4><p>{seq('b', 1, 40)}</p>"
    )
    published_cells = Conf(article_rules=ARTICLE_RULES - {Rule.DATA_TABLES})
    assert "r2c1" not in fit_text(html, published_cells).text
    fit = fit_text(html)
    for r in range(4):
        for c in range(3):
            assert f"r{r}c{c} v{r}{c}" in fit.text
    # After the kept text (nothing kept below it) the table is not inside it.
    after = page(f"<p>{seq('a', 1, 40)}</p><h4>Amounts per person</h4>{table(4, 3)}")
    assert "r2c1" not in fit_text(after).text


# An article in its declared container: short headings, a one-line paragraph and a
# list of short items between two long paragraphs; the tree rejects them as short
# and isolated (the first heading it keeps, after the long paragraph).
INSIDE = page(
    f"{NAV}<main><article><p>{seq('a', 1, 60)}</p><h4>{seq('h', 1, 2)}</h4>"
    f"<h5>{seq('m', 1, 2)}</h5><p>{seq('s', 1, 6)}</p>"
    f"<ul><li>{seq('i', 1, 3)}</li><li>{seq('j', 1, 3)}</li></ul>"
    f"<h4>{seq('k', 1, 2)}</h4><ul><li><a href=/x>{seq('l', 1, 4)}</a></li></ul>"
    f"<p>{seq('b', 1, 60)}</p></article></main>"
    f"<footer><p>{seq('f', 1, 6)}</p></footer>"
)


def test_an_articles_list_items_inside_its_kept_text_are_kept() -> None:
    as_article, _, without = three_readings(INSIDE, PageType.ARTICLE, Rule.CONTAINER_ITEMS)
    for item in (seq("i", 1, 3), seq("j", 1, 3)):
        assert item in as_article.text
        assert item not in without.text
    assert Reason.CONTAINER_ITEM in {block.reason for block in as_article.blocks}
    # List items only: not the short paragraph or heading; not a link; not outside
    # the kept text (the footer).
    assert seq("s", 1, 6) not in as_article.text
    assert seq("m", 1, 2) not in as_article.text
    assert seq("l", 1, 4) not in as_article.text
    assert seq("f", 1, 6) not in as_article.text
    # An article's rule: on another kind of page it does not run.
    assert Reason.CONTAINER_ITEM not in {
        block.reason for block in fit_text(INSIDE, page_type=PageType.PRODUCT).blocks
    }


def bullets(items: Iterable[str]) -> str:
    """A <ul> of one <li> per item."""
    return "<ul>" + "".join(f"<li>{item}</li>" for item in items) + "</ul>"


def linked_list(prefix: str, count: int = 4) -> str:
    """A list of `count` items that are links end to end (a changelog's entries)."""
    return bullets(
        f"<p><a href=/{prefix}{n}>{seq(f'{prefix}{n}x', 1, 6)}</a></p>" for n in range(count)
    )


def introduced(lead: str, items: str, after: str = f"<p>{seq('b', 1, 60)}</p>") -> str:
    """An article: a paragraph, then `lead`, `items` and `after` in its container."""
    body = f"<p>{seq('a', 1, 60)}</p>{lead}{items}{after}"
    return page(f"{NAV}<main><article>{body}</article></main>")


def test_a_list_a_sentence_introduces_is_kept_whole_with_its_lead() -> None:
    html = introduced("<p>Many patches were sent for review:</p>", linked_list("p"))
    as_article, _, without = three_readings(html, PageType.ARTICLE, Rule.INTRODUCED_LISTS)
    for text in ("Many patches were sent for review:", *(seq(f"p{n}x", 1, 6) for n in range(4))):
        assert text in as_article.text
        assert text not in without.text
    assert Reason.INTRODUCED_LIST in {block.reason for block in as_article.blocks}
    # An article's rule: on another kind of page it does not run.
    as_product = fit_text(html, page_type=PageType.PRODUCT)
    assert Reason.INTRODUCED_LIST not in {block.reason for block in as_product.blocks}


@pytest.mark.parametrize(
    ("lead", "items", "after"),
    [
        # No colon: a list under any line is as often a link list.
        ("<p>Many patches were sent for review</p>", linked_list("p"), None),
        # A label, not a sentence.
        ("<p>See also:</p>", linked_list("p"), None),
        # A heading labels a link list ("More on this school:").
        ("<h4>More on this topic here:</h4>", linked_list("p"), None),
        # Two items are no list to keep whole.
        ("<p>Many patches were sent for review:</p>", linked_list("p", 2), None),
        # Nothing kept after it: the list ends the text, as a link list does.
        ("<p>Many patches were sent for review:</p>", linked_list("p"), ""),
        # An entry of a table of contents leads its sub-entries.
        (
            f"<ul><li>{seq('c', 1, 4)} to pack for it:{linked_list('p')}</li></ul>",
            "",
            None,
        ),
    ],
)
def test_a_list_is_kept_whole_only_when_a_sentence_introduces_it_before_text(
    lead: str, items: str, after: str | None
) -> None:
    html = introduced(lead, items) if after is None else introduced(lead, items, after)
    fit = fit_text(html, page_type=PageType.ARTICLE)
    assert Reason.INTRODUCED_LIST not in {block.reason for block in fit.blocks}
    assert seq("p0x", 1, 6) not in fit.text


def contents(hrefs: Iterable[str]) -> str:
    """A list whose entries are links end to end, to `hrefs`."""
    return bullets(
        f"<p><a href='{href}'>{seq(f'c{n}x', 1, 6)}</a></p>" for n, href in enumerate(hrefs)
    )


SECTIONS = "".join(
    f"<h2 id=s{n}>{seq(f'c{n}x', 1, 6)}</h2><p>{seq(f'b{n}x', 1, 50)}</p>" for n in range(4)
)
JUMP = "<p>Many sections follow for you to read:</p>"


def test_a_table_of_contents_goes_with_the_line_that_introduced_it() -> None:
    html = introduced(JUMP, contents(f"#s{n}" for n in range(4)), SECTIONS)
    for kind in PageType:
        fit = fit_text(html, page_type=kind)
        # The entries go; the sections' headings they repeat stay, once each.
        for n in range(4):
            assert fit.text.count(seq(f"c{n}x", 1, 6)) == 1, kind
    # On an article the line went with it: introduced_lists kept it for the list's sake.
    fit = fit_text(html, page_type=PageType.ARTICLE)
    assert "Many sections follow" not in fit.text
    entries = [block for block in fit.blocks if block.reason is Reason.TABLE_OF_CONTENTS]
    assert [block.index for block in entries] == [9, 10, 11, 12, 13]  # the line, the entries
    assert all(block.decision is Decision.DROPPED for block in entries)
    # Without the rule, introduced_lists keeps the list and its lead.
    without = fit_text(
        html,
        Conf(article_rules=ARTICLE_RULES - {Rule.TABLE_OF_CONTENTS}),
        page_type=PageType.ARTICLE,
    )
    assert "Many sections follow" in without.text
    assert without.text.count(seq("c0x", 1, 6)) == 2
    # The published fit keeps neither (the tree rejects the list as link-dense).
    assert Reason.TABLE_OF_CONTENTS not in {
        block.reason for block in fit_text(html, PUBLISHED_CONF).blocks
    }


def test_a_table_of_contents_laid_out_as_lines_of_links_goes_too() -> None:
    lines = "".join(f"<p><a href=#s{n}>{seq(f'c{n}x', 1, 6)}</a></p>" for n in range(4))
    for kind in (PageType.DOCUMENTATION, PageType.SERVICE):
        fit = fit_text(introduced(JUMP, f"<div>{lines}</div>", SECTIONS), page_type=kind)
        for n in range(4):
            assert fit.text.count(seq(f"c{n}x", 1, 6)) == 1, kind
        assert Reason.TABLE_OF_CONTENTS in {block.reason for block in fit.blocks}


@pytest.mark.parametrize(
    "hrefs",
    [
        # Links to other pages: a reading list.
        ["/a", "/b", "/c", "/d"],
        # One entry leads elsewhere: the run it breaks is too short on both sides.
        ["#s0", "#s1", "/x", "#s2"],
        # Two entries are no table of contents.
        ["#s0", "#s1"],
        # A bare "#" is a script's button, "#!/..." a script's route.
        ["#", "#", "#!/s2", "#!/s3"],
        # A link to a fragment of another page.
        ["/guide#s0", "/guide#s1", "/guide#s2", "/guide#s3"],
    ],
)
def test_a_list_of_links_is_no_table_of_contents_unless_each_entry_leads_within_the_page(
    hrefs: list[str],
) -> None:
    fit = fit_text(introduced(JUMP, contents(hrefs), SECTIONS), page_type=PageType.ARTICLE)
    assert Reason.TABLE_OF_CONTENTS not in {block.reason for block in fit.blocks}
    if len(hrefs) > 2:
        assert "Many sections follow" in fit.text


def test_an_entry_with_words_besides_its_link_is_no_entry_of_a_table_of_contents() -> None:
    items = bullets(f"see <a href=#s{n}>{seq(f'c{n}x', 1, 6)}</a>" for n in range(4))
    fit = fit_text(introduced(JUMP, items, SECTIONS), page_type=PageType.ARTICLE)
    assert Reason.TABLE_OF_CONTENTS not in {block.reason for block in fit.blocks}
    assert fit.text.count(seq("c0x", 1, 6)) == 2


def test_the_walk_marks_the_blocks_whose_links_all_lead_within_the_page() -> None:
    html = page(
        "<ul><li><a href=#a>one</a></li><li><a href=#b>two <b>2</b></a> <a href=#c>3</a></li>"
        "<li><a href=#d>four</a> <a href=/x>x</a></li><li>five</li>"
        "<li><a href=#e><div>six</div>six and <p>seven</p></a></li><li><a href='#'>8</a></li></ul>"
    )
    walked = read_page(html, DEFAULT_CONF).page
    linked = [walked.blocks[index][0] for index in walked.in_page_links]
    # one, two 2 3, and the link around blocks: its three blocks (six, six and, seven).
    assert len(walked.in_page_links) == 5
    assert linked == ["li", "li", "div", "li", "p"]
    # Read only under the rule.
    conf = Conf(article_rules=ARTICLE_RULES - {Rule.TABLE_OF_CONTENTS})
    assert read_page(html, conf).page.in_page_links == []
    assert read_page(html, PUBLISHED_CONF).page.in_page_links == []


def test_a_data_tables_linked_cells_are_kept_but_not_in_a_dropped_region() -> None:
    # A list's table: each row a linked name and its figures (Wikipedia's lists,
    # a schedule's teams). The linked cells are the table's as much as the others.
    rows = "".join(
        f"<tr><td><a href=/n{r}>{seq(f'n{r}x', 1, 2)}</a></td><td>v{r} w{r}</td></tr>"
        for r in range(4)
    )
    linked = f"<table><tr><th>name</th><th>value</th></tr>{rows}</table>"
    html = page(f"<main><p>{seq('a', 1, 40)}</p>{linked}<p>{seq('b', 1, 40)}</p></main>")
    fit = fit_text(html)
    for r in range(4):
        assert seq(f"n{r}x", 1, 2) in fit.text
        assert f"v{r} w{r}" in fit.text
    without = Conf(article_rules=ARTICLE_RULES - {Rule.DATA_TABLES})
    assert seq("n1x", 1, 2) not in fit_text(html, without).text
    # The same table in a <nav>: navigation, left dropped.
    in_nav = page(
        f"<main><p>{seq('a', 1, 40)}</p><nav>{linked}</nav><p>{seq('b', 1, 40)}</p></main>"
    )
    assert seq("n1x", 1, 2) not in fit_text(in_nav).text


def test_a_layout_table_is_left_to_the_tree() -> None:
    # One column: the page's grid, not a table of data.
    html = page(f"<p>{seq('a', 1, 40)}</p>{table(4, 1, head=False)}<p>{seq('b', 1, 40)}</p>")
    assert (
        fit_text(html).text
        == fit_text(html, Conf(article_rules=ARTICLE_RULES - {Rule.DATA_TABLES})).text
    )


def grid(count: int, *, card_class: str = "item", title: str = "g", line: str = "l") -> str:
    """A shop's grid: sibling cards of a linked title, a price and a line, no heading
    (`card_class` may hold `{n}`, the card's number; the n-th card's title words are
    `title` n "x" 01..05, its line's `line` n "x" 01..06)."""
    return (
        "<div>"
        + "".join(
            f'<div class="{card_class.format(n=n)}"><a href="/p/{n}">{seq(f"{title}{n}x", 1, 5)}'
            f"</a><div>{n + 1}.99 EUR</div><div>{seq(f'{line}{n}x', 1, 6)}</div></div>"
            for n in range(count)
        )
        + "</div>"
    )


# No declared container (container_text has nothing to trust) and no headings
# in the cards (item_cards has none to start from): the tree keeps the intro.
SHOP = page(f"{NAV}<p>{seq('i', 1, 45)}</p>{grid(6)}<footer><p>{seq('f', 1, 8)}</p></footer>")


def test_a_collection_keeps_its_item_grid_on_pages_of_items_only() -> None:
    for kind in (PageType.COLLECTION, PageType.LISTING):
        fit = fit_text(SHOP, page_type=kind)
        for n in range(6):
            assert seq(f"g{n}x", 1, 5) in fit.text
            assert seq(f"l{n}x", 1, 6) in fit.text
        assert seq("i", 1, 45) in fit.text
        assert "n1" not in fit.text  # the navigation stays out
        assert Reason.ITEM_GRID in {block.reason for block in fit.blocks}
    for kind in (PageType.ARTICLE, PageType.PRODUCT):
        assert "g0x01" not in fit_text(SHOP, page_type=kind).text
    without = Conf(article_rules=ARTICLE_RULES - {Rule.ITEM_GRID})
    assert "g0x01" not in fit_text(SHOP, without, page_type=PageType.COLLECTION).text


def judged(
    html: str,
    kind: PageType,
    sure: float,
    *,
    classified: bool = True,
    runner_up: PageType | None = None,
) -> Verdict:
    """The verdict on a page of `kind`, as sure of it as `sure` (the classifier's call, or
    the caller's kind when not `classified`; `runner_up` its next likeliest kind)."""
    read = read_page(html, DEFAULT_CONF)
    return decide(
        read.page,
        read.measures,
        DEFAULT_CONF,
        kind,
        sure,
        classified=classified,
        runner_up=runner_up,
    )


# A shop's grid alone: as an article, the tree rejects every card.
BARE_SHOP = page(f"{NAV}{grid(6)}<footer><p>{seq('f', 1, 8)}</p></footer>")
UNSURE = TYPE_CONFIDENCE - 0.01


def test_a_verdict_hands_on_the_structure_its_rules_built() -> None:
    # The collection's grid rule reads the page's structure; Fit.markdown renders from
    # that one, as it would from one of its own. The published fit builds none.
    read = read_page(BARE_SHOP, DEFAULT_CONF)
    verdict = decide(read.page, read.measures, DEFAULT_CONF, PageType.COLLECTION, 1.0)
    assert verdict.structure is not None
    assert verdict.kept
    shared = render_markdown(
        read.page, verdict.kept, kind=verdict.kind, structure=verdict.structure
    )
    assert shared == render_markdown(read.page, verdict.kept, kind=verdict.kind)
    assert seq("g0x", 1, 5) in shared
    assert decide(read.page, read.measures, PUBLISHED_CONF).structure is None


def test_an_unsure_kind_whose_page_is_scant_as_an_article_meets_its_kinds_rules() -> None:
    verdict = judged(BARE_SHOP, PageType.COLLECTION, UNSURE)
    assert verdict.kind is PageType.COLLECTION
    fit = fit_text(BARE_SHOP, page_type=PageType.COLLECTION)
    assert verdict.kept == [
        block.index for block in fit.blocks if block.decision is Decision.CONTENT
    ]
    assert Reason.ITEM_GRID in {fit.blocks[index].reason for index in verdict.kept}
    assert fit_text(BARE_SHOP, page_type=PageType.ARTICLE).words_kept < SCANT_WORDS


@pytest.mark.parametrize("kind", [PageType.ARTICLE, PageType.FORUM, PageType.SERVICE])
@pytest.mark.parametrize("sure", [UNSURE, 0.9])
def test_a_scant_page_that_is_not_a_product_is_read_as_a_page_of_items(
    kind: PageType, sure: float
) -> None:
    assert judged(BARE_SHOP, kind, sure).kind is PageType.COLLECTION
    # A kind the caller gives is followed.
    assert judged(BARE_SHOP, kind, 1.0, classified=False).kind is kind


def test_a_scant_product_page_is_not_read_as_a_page_of_items() -> None:
    # Its grid is other products (decide.related), not its text.
    assert judged(BARE_SHOP, PageType.PRODUCT, 0.9).kind is PageType.PRODUCT


def test_an_unsure_kind_whose_page_has_text_as_an_article_is_judged_as_one() -> None:
    # SCANT_WORDS words of intro: enough text as an article; its grid stays out.
    html = page(f"{NAV}<p>{seq('i', 1, SCANT_WORDS)}</p>{grid(6)}")
    verdict = judged(html, PageType.COLLECTION, UNSURE)
    assert verdict.kind is PageType.ARTICLE
    assert verdict.words_kept == SCANT_WORDS
    assert fit_text(html, page_type=PageType.ARTICLE).words_kept == SCANT_WORDS
    assert fit_text(html, page_type=PageType.COLLECTION).words_kept > SCANT_WORDS


def index(entries: int) -> str:
    """A category's index: its introduction (enough text for no second look as a scant
    page), its linked entries, a closing line."""
    intro = f"<p>{seq('i', 1, SCANT_WORDS)}</p>"
    return page(f"{NAV}<main>{intro}{cards(entries)}<p>{seq('e', 1, 20)}</p></main>")


INDEX = index(12)
MAYBE_LISTING = LISTING_DOUBT - 0.01


def test_an_uncertain_article_that_may_be_a_listing_is_read_as_one() -> None:
    as_article = judged(INDEX, PageType.ARTICLE, 1.0, classified=False)
    as_listing = judged(INDEX, PageType.LISTING, 1.0, classified=False)
    assert as_listing.words_kept >= LISTING_GAIN * as_article.words_kept
    verdict = judged(INDEX, PageType.ARTICLE, MAYBE_LISTING, runner_up=PageType.LISTING)
    assert verdict.kind is PageType.LISTING
    assert verdict.kept == as_listing.kept
    # Not when the classifier is sure enough, when a listing is not next likeliest, or
    # when the caller gave the kind.
    for sure, runner_up, classified in (
        (LISTING_DOUBT, PageType.LISTING, True),
        (MAYBE_LISTING, PageType.COLLECTION, True),
        (MAYBE_LISTING, PageType.LISTING, False),
    ):
        verdict = judged(INDEX, PageType.ARTICLE, sure, runner_up=runner_up, classified=classified)
        assert verdict.kind is PageType.ARTICLE
        assert verdict.kept == as_article.kept


def test_an_uncertain_article_stays_one_where_a_listing_keeps_less_than_thrice_its_words() -> None:
    # Four entries: the listing's rules keep more, but not three times the article's.
    html = index(4)
    as_article = judged(html, PageType.ARTICLE, 1.0, classified=False)
    as_listing = judged(html, PageType.LISTING, 1.0, classified=False)
    assert as_article.words_kept < as_listing.words_kept < LISTING_GAIN * as_article.words_kept
    verdict = judged(html, PageType.ARTICLE, MAYBE_LISTING, runner_up=PageType.LISTING)
    assert verdict.kind is PageType.ARTICLE
    assert verdict.kept == as_article.kept


def test_a_fit_says_which_kinds_rules_ran() -> None:
    assert fit_text(SHOP, page_type=PageType.LISTING).rules_kind is PageType.LISTING
    assert fit_text(SHOP, PUBLISHED_CONF, page_type=PageType.LISTING).rules_kind is None
    without = Conf(article_rules=frozenset())
    assert fit_text(SHOP, without, page_type=PageType.LISTING).rules_kind is None


def test_a_grid_of_cards_whose_classes_name_each_card_is_one_grid() -> None:
    # WordPress and its shops write each card's id, position and stock into its class
    # ("product post-15 first instock"): the first token names the cards.
    classes = "product post-{n} status-publish instock"
    numbered = page(
        f"{NAV}<p>{seq('i', 1, 45)}</p>{grid(6, card_class=classes)}"
        f"<footer><p>{seq('f', 1, 8)}</p></footer>"
    )
    fit = fit_text(numbered, page_type=PageType.COLLECTION)
    for n in range(6):
        assert seq(f"g{n}x", 1, 5) in fit.text
    assert Reason.ITEM_GRID in {block.reason for block in fit.blocks}
    # Cards whose first tokens differ are no grid.
    mixed = page(f"{NAV}<p>{seq('i', 1, 45)}</p>{grid(6, card_class='kind{n} product')}")
    assert "g0x01" not in fit_text(mixed, page_type=PageType.COLLECTION).text


def entries(count: int, title: int = 14) -> str:
    """A catalogue's list: each item a linked title and its attribution, in one block."""
    return bullets(
        f"<a href=/e/{n}>{seq(f'e{n}x', 1, title)}</a> ({seq(f'y{n}x', 1, 8)})"
        for n in range(count)
    )


def test_a_list_of_long_entries_is_a_grid_of_cards() -> None:
    # No container to trust, every entry link-dense: the tree keeps the intro alone.
    html = page(f"{NAV}<p>{seq('i', 1, 45)}</p>{entries(6)}")
    for kind in (PageType.LISTING, PageType.COLLECTION):
        fit = fit_text(html, page_type=kind)
        for n in range(6):
            assert seq(f"e{n}x", 1, 14) in fit.text
        assert "n1" not in fit.text  # a menu's short items are no cards
        assert Reason.ITEM_GRID in {block.reason for block in fit.blocks}
    assert "e0x01" not in fit_text(html, page_type=PageType.ARTICLE).text
    short = page(f"{NAV}<p>{seq('i', 1, 45)}</p>{entries(6, title=4)}")  # 12 words an item
    assert Reason.ITEM_GRID not in {
        block.reason for block in fit_text(short, page_type=PageType.LISTING).blocks
    }


def test_a_grid_smaller_than_the_kept_text_is_left_to_the_other_rules() -> None:
    # Three teasers under a long text: related items, not the page's content.
    html = page(f"<p>{seq('a', 1, 80)}</p>{grid(3)}")
    fit = fit_text(html, page_type=PageType.COLLECTION)
    assert seq("a", 1, 80) in fit.text
    assert Reason.ITEM_GRID not in {block.reason for block in fit.blocks}


def test_a_grid_in_the_navigation_is_not_the_content() -> None:
    html = page(f"<p>{seq('i', 1, 45)}</p><nav>{grid(6)}</nav>")
    fit = fit_text(html, page_type=PageType.COLLECTION)
    assert "g0x01" not in fit.text


def test_a_page_of_items_keeps_each_grid_of_a_quarter_of_the_largest_ones_words() -> None:
    # Featured items over all of them: two grids, both the page's items.
    featured = grid(3, card_class="featured", title="f", line="fl")
    html = page(f"{NAV}<p>{seq('i', 1, 45)}</p>{featured}{grid(8, title='a', line='al')}")
    fit = fit_text(html, page_type=PageType.COLLECTION)
    for n in range(8):
        assert seq(f"a{n}x", 1, 5) in fit.text
    for n in range(3):
        assert seq(f"f{n}x", 1, 5) in fit.text
    # Under a quarter of the largest grid's words: a strip of teasers, left to the tree.
    teasers = grid(3, card_class="teaser", title="f", line="fl")
    small = page(f"{NAV}<p>{seq('i', 1, 45)}</p>{teasers}{grid(16, title='a', line='al')}")
    fit = fit_text(small, page_type=PageType.COLLECTION)
    assert seq("a15x", 1, 5) in fit.text
    assert "f0x01" not in fit.text


def test_a_grid_in_a_box_is_a_page_of_items_content_but_not_in_comments() -> None:
    # "gallery" and "promo" name an article's boxes; on a page of items, its products.
    for name in ("product-gallery", "promo-tiles"):
        html = page(f"{NAV}<p>{seq('i', 1, 45)}</p><div class={name}>{grid(6)}</div>")
        fit = fit_text(html, page_type=PageType.COLLECTION)
        assert seq("g3x", 1, 5) in fit.text, name
        assert Reason.ITEM_GRID in {block.reason for block in fit.blocks}
        assert "g3x01" not in fit_text(html, page_type=PageType.ARTICLE).text
    html = page(f"{NAV}<p>{seq('i', 1, 45)}</p><div class=comments>{grid(6)}</div>")
    assert "g3x01" not in fit_text(html, page_type=PageType.COLLECTION).text


# A carousel's slide cloned for its loop: a heading and its line, and a long
# paragraph, each twice in another element; a short answer repeated on its
# own is the text's.
SLIDE = f"<div><h2>{seq('h', 1, 4)}</h2><p>{seq('s', 1, 8)}</p></div>"
CAROUSEL = page(
    f"<main><h1>{seq('t', 1, 5)}</h1><div><p>{seq('a', 1, 40)}</p></div>{SLIDE}"
    f"<p>{seq('b', 1, 30)}</p><p>Yes</p><p>{seq('c', 1, 30)}</p><p>Yes</p>"
    f"<p>{seq('d', 1, 30)}</p>{SLIDE}<div><p>{seq('a', 1, 40)}</p></div></main>"
)


def test_repeated_text_is_kept_once_on_a_product_page() -> None:
    as_product = fit_text(CAROUSEL, page_type=PageType.PRODUCT)
    as_article = fit_text(CAROUSEL, page_type=PageType.ARTICLE)
    assert as_article.text.count(seq("a", 1, 40)) == 2
    assert as_article.text.count(seq("s", 1, 8)) == 2
    assert as_product.text.count(seq("a", 1, 40)) == 1
    assert as_product.text.count(seq("h", 1, 4)) == 1
    assert as_product.text.count(seq("s", 1, 8)) == 1
    # A short line repeated alone stays: it is the text's own.
    assert as_product.text.count("Yes") == as_article.text.count("Yes")
    dropped = [block for block in as_product.blocks if block.reason is Reason.DUPLICATE_TEXT]
    assert dropped
    assert all(block.decision is Decision.DROPPED for block in dropped)
    without = Conf(article_rules=ARTICLE_RULES - {Rule.DUPLICATE_TEXT})
    assert fit_text(CAROUSEL, without, page_type=PageType.PRODUCT).text.count(seq("a", 1, 40)) == 2


def test_an_article_and_a_documentation_page_keep_their_repeats() -> None:
    # The carousel's copies are a quarter of the kept words: on an article, no copy
    # of the text.
    for kind in (PageType.ARTICLE, PageType.DOCUMENTATION):
        fit = fit_text(CAROUSEL, page_type=kind)
        assert fit.text.count(seq("a", 1, 40)) == 2


def article_copies(body: str, copies: int) -> str:
    """`body` rendered `copies` times, each in its own element (desktop, phone, print)."""
    return page("<main>" + f"<div>{body}</div>" * copies + "</main>")


STORY = "".join(f"<h2>{seq(f'h{n}x', 1, 3)}</h2><p>{seq(f'p{n}x', 1, 40)}</p>" for n in range(3))


def test_an_article_rendered_twice_is_kept_once() -> None:
    for copies in (2, 3):
        html = article_copies(STORY, copies)
        without = fit_text(html, Conf(article_rules=ARTICLE_RULES - {Rule.DUPLICATE_TEXT}))
        assert without.text.count(seq("p0x", 1, 40)) == copies
        fit = fit_text(html, page_type=PageType.ARTICLE)
        for n in range(3):
            assert fit.text.count(seq(f"p{n}x", 1, 40)) == 1
            assert fit.text.count(seq(f"h{n}x", 1, 3)) == 1
        assert {block.reason for block in fit.blocks if block.decision is Decision.DROPPED} == {
            Reason.DUPLICATE_TEXT
        }
    # The published profile keeps every copy, as SPEC says.
    assert fit_text(article_copies(STORY, 2), PUBLISHED_CONF).text.count(seq("p0x", 1, 40)) == 2


def test_an_article_keeps_one_line_repeated_under_each_item() -> None:
    # A coupon page's disclaimer under every coupon: its three repeats hold more than
    # 3 in 10 of the kept words (48 of 142), but as one text, the article's own; on a
    # listing it goes.
    notice = seq("n", 1, 16)
    coupons = "".join(f"<div><p>{seq(f'c{n}x', 1, 12)}</p><p>{notice}</p></div>" for n in range(4))
    html = page(f"<main><p>{seq('a', 1, 30)}</p>{coupons}</main>")
    assert fit_text(html, page_type=PageType.ARTICLE).text.count(notice) == 4
    assert fit_text(html, page_type=PageType.LISTING).text.count(notice) == 1


# A product's column (its h1, its description) and the reviews after it.
REVIEWED = page(
    f"<div><h1>{seq('t', 1, 4)}</h1><p>{seq('p', 1, 80)}</p></div>"
    f"<div><p>{seq('r', 1, 30)}</p><p>{seq('s', 1, 30)}</p></div>"
)


def test_a_product_page_keeps_the_region_of_its_title() -> None:
    as_product = fit_text(REVIEWED, page_type=PageType.PRODUCT)
    as_article = fit_text(REVIEWED, page_type=PageType.ARTICLE)
    for fit in (as_product, as_article):
        assert seq("t", 1, 4) in fit.text
        assert seq("p", 1, 80) in fit.text
    assert seq("r", 1, 30) in as_article.text
    assert seq("r", 1, 30) not in as_product.text
    assert seq("s", 1, 30) not in as_product.text
    reasons = {block.reason for block in as_product.blocks if block.decision is Decision.DROPPED}
    assert Reason.OUTSIDE_TITLE_REGION in reasons
    without = Conf(article_rules=ARTICLE_RULES - {Rule.TITLE_REGION})
    assert seq("r", 1, 30) in fit_text(REVIEWED, without, page_type=PageType.PRODUCT).text


def test_a_page_with_two_titles_or_a_title_in_a_small_region_keeps_its_text() -> None:
    two = REVIEWED.replace("<div><p>", f"<div><h1>{seq('u', 1, 4)}</h1><p>", 1)
    assert seq("r", 1, 30) in fit_text(two, page_type=PageType.PRODUCT).text
    # The h1's column holds less than half the kept words: the region is the page.
    small = page(
        f"<div><h1>{seq('t', 1, 4)}</h1><p>{seq('p', 1, 20)}</p></div>"
        f"<div><p>{seq('r', 1, 45)}</p><p>{seq('s', 1, 45)}</p></div>"
    )
    assert seq("r", 1, 45) in fit_text(small, page_type=PageType.PRODUCT).text


def test_a_paragraph_said_twice_in_one_element_is_kept_twice() -> None:
    html = page(
        f"<main><h1>{seq('t', 1, 5)}</h1><p>{seq('a', 1, 40)}</p>"
        f"<p>{seq('b', 1, 30)}</p><p>{seq('a', 1, 40)}</p></main>"
    )
    assert fit_text(html, page_type=PageType.PRODUCT).text.count(seq("a", 1, 40)) == 2


def priced(count: int) -> str:
    """A grid of related products: a linked title and a price each."""
    return (
        "<div>"
        + "".join(
            f'<div class="other"><p><a href="/o/{n}">{seq(f"o{n}x", 1, 4)}</a></p>'
            f"<p>${n + 10}.00 {seq(f'q{n}x', 1, 3)}</p></div>"
            for n in range(count)
        )
        + "</div>"
    )


# The product's text, then four other products with prices, then more text:
# the tree keeps the cards' lines between the description's paragraphs.
SHELF = page(
    f"<main><h1>{seq('t', 1, 4)}</h1><p>{seq('a', 1, 45)}</p>{priced(4)}"
    f"<p>{seq('b', 1, 45)}</p></main>"
)


def test_a_product_page_drops_the_grid_of_other_priced_items() -> None:
    without = Conf(article_rules=ARTICLE_RULES - {Rule.RELATED_ITEMS})
    before = fit_text(SHELF, without, page_type=PageType.PRODUCT)
    assert "q1x01" in before.text  # kept without the rule: the check sees the cards
    fit = fit_text(SHELF, page_type=PageType.PRODUCT)
    assert seq("a", 1, 45) in fit.text
    assert seq("b", 1, 45) in fit.text
    for n in range(4):
        assert f"q{n}x01" not in fit.text
    dropped = {block.reason for block in fit.blocks if block.decision is Decision.DROPPED}
    assert Reason.RELATED_ITEMS in dropped
    assert "q1x01" in fit_text(SHELF, page_type=PageType.COLLECTION).text


def test_a_grid_without_prices_stays_on_a_product_page() -> None:
    unpriced = SHELF.replace("$", "#")
    assert "q1x01" in fit_text(unpriced, page_type=PageType.PRODUCT).text


def reviewed(heading: str, after: str = "") -> str:
    """A product page: its description under an h2, then a section of two long customer
    reviews under `heading` (each with its h4 title), then `after`."""
    return page(
        f"<main><h1>{seq('t', 1, 4)}</h1><h2>Description</h2><p>{seq('a', 1, 45)}</p>"
        f"<h2>{heading}</h2>"
        f"<h4>{seq('r', 1, 5)}</h4><p>{seq('v', 1, 45)}</p>"
        f"<h4>{seq('s', 1, 5)}</h4><p>{seq('w', 1, 45)}</p>{after}</main>"
    )


@pytest.mark.parametrize(
    "heading", ["Customer Reviews", "Ratings &amp; Reviews", "1,113 reviews", "Reviews (76)"]
)
def test_a_product_page_drops_its_section_of_reviews(heading: str) -> None:
    html = reviewed(heading, after=f"<h2>Specifications</h2><p>{seq('z', 1, 45)}</p>")
    without = Conf(article_rules=ARTICLE_RULES - {Rule.REVIEW_SECTIONS})
    assert "v01" in fit_text(html, without, page_type=PageType.PRODUCT).text  # the tree keeps it
    fit = fit_text(html, page_type=PageType.PRODUCT)
    assert seq("a", 1, 45) in fit.text
    assert "v01" not in fit.text
    assert "w01" not in fit.text
    assert "r01" not in fit.text  # a review's title is inside the section
    # The next heading of the section's rank closes it: the specifications stay.
    assert seq("z", 1, 45) in fit.text
    dropped = {block.reason for block in fit.blocks if block.decision is Decision.DROPPED}
    assert Reason.REVIEW_SECTION in dropped
    # On an article (a review's own page, a story about reviews) the section is text.
    assert "v01" in fit_text(html, page_type=PageType.ARTICLE).text


def test_a_section_of_reviews_ends_with_the_element_that_holds_them() -> None:
    # A review widget of six long reviews (300 words after its heading), then the
    # description goes on outside it without a heading of its own.
    widget = "".join(
        f"<div><h4>{seq(f'r{n}x', 1, 5)}</h4><p>{seq(f'v{n}x', 1, 45)}</p></div>" for n in range(6)
    )
    html = page(
        f"<main><h1>{seq('t', 1, 4)}</h1><p>{seq('a', 1, 45)}</p>"
        f"<section><h2>Customer Reviews</h2>{widget}</section><p>{seq('b', 1, 45)}</p></main>"
    )
    fit = fit_text(html, page_type=PageType.PRODUCT)
    assert "v0x01" not in fit.text
    assert "v5x01" not in fit.text
    assert seq("a", 1, 45) in fit.text
    assert seq("b", 1, 45) in fit.text


@pytest.mark.parametrize(
    "heading", ["The review process", "Frequently Asked Questions", "Review our terms"]
)
def test_a_heading_that_only_mentions_reviews_keeps_its_section(heading: str) -> None:
    # A heading must name a section of reviews as a whole: a store's FAQ, which
    # WCXB's truth keeps, or a heading with the word in a sentence, stays.
    fit = fit_text(reviewed(heading), page_type=PageType.PRODUCT)
    assert "v01" in fit.text
    assert "w01" in fit.text


def test_a_product_page_drops_its_section_of_other_products() -> None:
    others = "".join(
        f"<h3>{seq(f'o{n}x', 1, 4)}</h3><p>{seq(f'q{n}x', 1, 20)}</p>" for n in range(3)
    )
    html = page(
        f"<main><h1>{seq('t', 1, 4)}</h1><p>{seq('a', 1, 45)}</p>"
        f"<h2>You may also like…</h2>{others}<h2>Care</h2><p>{seq('c', 1, 45)}</p></main>"
    )
    without = Conf(article_rules=ARTICLE_RULES - {Rule.RELATED_SECTIONS})
    assert "q1x01" in fit_text(html, without, page_type=PageType.PRODUCT).text
    fit = fit_text(html, page_type=PageType.PRODUCT)
    assert seq("a", 1, 45) in fit.text
    assert seq("c", 1, 45) in fit.text
    for n in range(3):
        assert f"q{n}x01" not in fit.text
        assert f"o{n}x01" not in fit.text
    dropped = {block.reason for block in fit.blocks if block.decision is Decision.DROPPED}
    assert Reason.RELATED_SECTION in dropped
    assert "q1x01" in fit_text(html, page_type=PageType.COLLECTION).text
    assert "q1x01" in fit_text(html, PUBLISHED_CONF).text


def facets(count: int = 5) -> str:
    """A shop's filter: short links, each a facet and its count."""
    return (
        "<ul>"
        + "".join(f"<li><a href=/f/{n}>fa{n} ({n + 3})</a></li>" for n in range(count))
        + "</ul>"
    )


# A category page whose main container holds the shop's controls (a filter's
# facets, a sort link) beside its intro and its grid of items.
CATEGORY = page(
    f"{NAV}<main><h1>{seq('t', 1, 2)}</h1><p>{seq('i', 1, 20)}</p>{facets()}"
    f"<div><a href=/sort>sort by price</a></div>{grid(6)}</main>"
)


def test_a_collection_drops_the_short_links_of_its_container() -> None:
    fit = fit_text(CATEGORY, page_type=PageType.COLLECTION)
    assert seq("i", 1, 20) in fit.text
    for n in range(6):  # the grid's linked titles come back with the grid
        assert seq(f"g{n}x", 1, 5) in fit.text
    assert "fa1" not in fit.text
    assert "sort by price" not in fit.text
    assert Reason.SHOP_LINK in {block.reason for block in fit.blocks}
    # Kept where the rule does not run: switched off, and on a listing, whose
    # short links are its items' titles.
    without = Conf(article_rules=ARTICLE_RULES - {Rule.SHOP_LINKS})
    assert "fa1" in fit_text(CATEGORY, without, page_type=PageType.COLLECTION).text
    assert "fa1" in fit_text(CATEGORY, page_type=PageType.LISTING).text


def test_a_collection_keeps_a_long_linked_title_in_its_container() -> None:
    title = seq("k", 1, 12)
    html = page(f"<main><p>{seq('i', 1, 20)}</p>{facets()}<div><a href=/k>{title}</a></div></main>")
    fit = fit_text(html, page_type=PageType.COLLECTION)
    assert title in fit.text
    assert "fa1" not in fit.text
