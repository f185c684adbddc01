"""The bound on nesting (blockdensity.nesting): what it takes out of a page before lexbor parses it.

The scan (blockdensity._nesting, Cython, with the regions of
blockdensity._regions) and its plain Python reference (tests/reference/scan.py
and regions.py) must find the same cuts and region marks on every page (the
development corpus's sample, the fuzz corpus, the hostile shapes and random
tag soup); a page within the bounds comes back as the same object; a page
beyond them loses only the nesting: its text, its words and its blocks stay;
and whatever the page, lexbor's tree is no deeper than the bound allows.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from blockdensity import _regions, fit_text, html_to_text, nesting
from blockdensity.dom import Document
from blockdensity.elements import CONTENT_OWNERS, CONTENT_PARTS
from blockdensity.nesting import (
    ATTRIBUTE_LIMIT,
    BUDGET_CUT,
    DEPTH_LIMIT,
    FORMATTING_LIMIT,
    NODE_LIMIT,
    bound,
    bound_nesting,
)
from devkit.corpus import SAMPLE_DATA, Corpus
from devkit.corpus_sample import SAMPLED_SETS
from devkit.fuzzing import CORPUS_DIR
from devkit.hostile import Html, flat_divs, nested_divs, unclosed_formatting
from tests.hypothesis_profiles import examples
from tests.reference import scan as reference

CORPUS = Corpus(SAMPLE_DATA, SAMPLED_SETS)  # every page of the sample (tests/corpus)


def lexbor(html: bytes) -> Document:
    """Lexbor's tree for `html` as it is: parsed without the bound (dom.parse bounds first)."""
    return Document(html)


def tree_depth(html: bytes) -> int:
    """The deepest element of lexbor's tree for `html` (the html element is depth 1)."""
    root = lexbor(html).root
    assert root is not None
    deepest = 0
    stack = [(root, 1)]
    while stack:
        node, depth = stack.pop()
        deepest = max(deepest, depth)
        child = node.child
        while child is not None:
            if child.tag not in ("-text", "-comment"):
                stack.append((child, depth + 1))
            child = child.next
    return deepest


def node_count(html: bytes) -> int:
    root = lexbor(html).root
    assert root is not None
    return sum(1 for _ in root.traverse(include_text=False))


def page(build: Callable[[int, random.Random, Corpus], Html], size: int, seed: int = 1) -> str:
    """A hostile page of devkit.hostile's, as the str its generators make."""
    html = build(size, random.Random(seed), CORPUS)
    assert isinstance(html, str)
    return html


def agree(data: bytes) -> None:
    """The scan finds what the reference finds, with the article regions and without,
    and both judge alike whether the page declares an article."""
    assert nesting.cuts(data) == reference.scan(data)
    found, declared = reference.scan_regions(data)
    assert nesting.cuts(data, regions=True) == found
    assert nesting.declares_article(data) == declared


# ----------------------------------------------------------- pages within the bounds


def test_every_corpus_page_is_left_alone_and_both_scans_agree() -> None:
    for page in CORPUS.pages():
        data = page.html.encode("utf-8", "ignore")
        assert bound_nesting(data) is data, page.page_id
        assert reference.scan(data) == []
        agree(data)
        agree(page.raw)


def _fuzz_files() -> Iterator[bytes]:
    for path in sorted(CORPUS_DIR.glob("*.html")):
        yield path.read_bytes()


def test_both_scans_agree_on_the_fuzz_corpus() -> None:
    files = list(_fuzz_files())
    assert len(files) >= 10
    for data in files:
        agree(data)


def test_a_page_nested_as_deep_as_the_limit_is_unchanged() -> None:
    data = ("<div>" * (DEPTH_LIMIT - 3) + "deep" + "</div>" * (DEPTH_LIMIT - 3)).encode()
    assert bound_nesting(data) is data


def test_closed_and_implicitly_closed_elements_do_not_count() -> None:
    # Thousands of each, none nested: the tree builder closes every one.
    pieces = [
        "<p>para",  # a p closes the p before it
        "<li>item",  # an li closes the li before it
        "<dt>term<dd>definition",
        "<h2>one<h3>two",  # a heading closes an open heading
        "<option>choice",
        "<img src=x><br><input>",  # void
        "<a href=#>link",  # a new a closes the one before
        "<!-- <div> -->",  # a comment
        "<script>if (a<b) { '<div>' }</script>",  # raw text
        "<svg><path d='M0'/><circle/></svg>",  # self-closing in foreign content
        "<table><tr><td>cell<td>cell</table>",
        '<span title="<div>">s</span>',  # a tag in a quoted attribute value
    ]
    for piece in pieces:
        data = ("<body>" + piece * 2_000).encode()
        assert bound_nesting(data) is data, piece
        agree(data)


def test_identical_unclosed_formatting_elements_are_harmless() -> None:
    # Each <p> takes the open <b> along; the formatting list stays short.
    data = ("<p><b>bold " * 100).encode()
    assert len(nesting.cuts(data)) == 100 - FORMATTING_LIMIT
    assert fit_text(data).text == fit_text(data.replace(b"<b>", b"")).text


# --------------------------------------------------------------- pages beyond them


def test_fifty_thousand_nested_divs_keep_their_words_and_blocks() -> None:
    data = page(nested_divs, 50_000).encode()
    bounded = bound_nesting(data)
    agree(data)
    assert tree_depth(bounded) <= DEPTH_LIMIT + 3  # html, body, the hr
    deep, flat = fit_text(data), fit_text(page(flat_divs, 50_000))
    assert (deep.blocks_total, deep.words_total) == (flat.blocks_total, flat.words_total)
    assert deep.text == flat.text


def test_a_boundary_becomes_hr_an_inline_tag_nothing_any_other_a_space() -> None:
    depth = "<div>" * DEPTH_LIMIT
    html = f"{depth}<div>one</div>t<span>w</span>o<label>three</label>four<x-y>five</x-y>six"
    bounded = bound_nesting(html.encode()).decode()
    assert bounded.endswith("<hr>one<hr>two three four five six")
    assert html_to_text(html).split("\n")[-2:] == ["one", "two three four five six"]


def test_link_words_stay_link_words_at_any_depth() -> None:
    html = "<p>" + "<span>" * 50_000 + "x01 <a href=#>l01</a> x02" + "</span>" * 50_000 + "</p>"
    (block,) = [block for block in fit_text(html).blocks if block.words]
    assert (block.words, block.link_words) == (3, 1)


def test_a_raw_text_element_beyond_the_limit_keeps_its_content_out_of_the_tree() -> None:
    # Were the <script> taken out, its content would be parsed as 3,000 more divs.
    html = "<div>" * (DEPTH_LIMIT + 50) + "<script>" + "<div>" * 3_000 + "</script>text"
    bounded = bound_nesting(html.encode())
    assert b"<script>" + b"<div>" * 3_000 + b"</script>" in bounded
    assert tree_depth(bounded) <= DEPTH_LIMIT + 4
    assert fit_text(html).text == "text"


def test_foreign_content_self_closes_but_html_does_not() -> None:
    svg = ("<svg>" + "<g/>" * 5_000 + "</svg>").encode()
    assert bound_nesting(svg) is svg
    html = ("<div/>" * 5_000 + "x").encode()  # HTML ignores the slash: 5,000 levels
    assert len(nesting.cuts(html)) == 5_000 - DEPTH_LIMIT
    assert tree_depth(bound_nesting(html)) <= DEPTH_LIMIT + 3


def test_reconstructed_formatting_elements_stop_growing_the_tree() -> None:
    data = page(unclosed_formatting, 8_000).encode()
    agree(data)
    bounded = bound_nesting(data)
    # Unbounded, paragraph N re-creates N <b>s: 32 million elements, a minute to parse.
    assert node_count(bounded) <= 8_000 * (FORMATTING_LIMIT + 2) + 100
    assert fit_text(data).words_total == 8_000 + 60


# ---------------------------------------------------------------- random tag soup

TAGS = (
    "div", "p", "li", "ul", "ol", "dd", "dt", "dl", "td", "th", "tr", "tbody", "table", "span",
    "a", "b", "i", "font", "nobr", "button", "h1", "h2", "option", "select", "form", "svg",
    "math", "g", "foreignObject", "mi", "br", "img", "hr", "script", "style", "textarea",
    "title", "plaintext", "template", "object", "caption", "body", "html", "x-custom",
    "thead", "tfoot", "colgroup", "col", "optgroup", "ruby", "rt", "rb", "rp", "frameset",
)  # fmt: skip
TOKENS = st.one_of(
    st.sampled_from(TAGS).map(lambda name: f"<{name}>"),
    st.sampled_from(TAGS).map(lambda name: f"</{name}>"),
    st.sampled_from(TAGS).map(lambda name: f"<{name}/>"),
    st.sampled_from(TAGS).map(lambda name: f"<{name.upper()} id='a>b' class=x/y>"),
    st.sampled_from(TAGS).map(lambda name: f'<{name} class="Comment-list share">'),
    st.sampled_from(TAGS).map(lambda name: f'<{name} id="Cookie-Banner" class=gdpr>'),
    st.sampled_from(TAGS).map(lambda name: f"<{name} ID=Byline role=' main '>"),
    st.sampled_from(
        [
            '<meta property="og:type" content=" Article ">',
            '<script type="application/ld+json">{"@type": "NewsArticle"}</script>',
            '<div itemprop="articleBody">',
            "<h1>",
        ]
    ),
    st.sampled_from(["<!--", "-->", "<!doctype html>", "<?x>", "</>", "<", ">", "text ", "'"]),
)


def soup(tokens: list[str], repeat: int) -> bytes:
    return ("".join(tokens) * (1 + repeat // max(1, len(tokens)))).encode()


@examples(300)
@given(st.lists(TOKENS, max_size=60), st.integers(min_value=1, max_value=400))
@example(["<td>", "<table>"], 132)  # lexbor's implied tbody and tr (issue 21)
def test_both_scans_agree_on_random_tag_soup(tokens: list[str], repeat: int) -> None:
    data = soup(tokens, repeat)
    agree(data)
    bounded = bound_nesting(data)
    # Whatever was taken out, lexbor is left a tree no deeper than the bound allows.
    assert tree_depth(bounded) <= DEPTH_LIMIT + 8


# ------------------------------------------------ elements the tree builder inserts


def test_cells_straight_in_tables_count_the_tbody_and_tr_lexbor_inserts() -> None:
    # Found by the property above: each <td><table> pair nests four elements
    # (table, tbody, tr, td), not the two the scan once counted: 67 pairs made
    # a tree 267 deep, past the bound.
    data = soup(["<td>", "<table>"], 132)
    assert tree_depth(data) == 2 + 4 * 66 + 1  # html, body; 66 whole pairs; the last table
    bounded = bound_nesting(data)
    assert tree_depth(bounded) <= DEPTH_LIMIT + 8
    agree(data)


# Shapes whose elements the tree builder inserts (tbody, tr, colgroup) or
# closes itself (select, ruby, a table in a table), repeated far past the bound.
IMPLIED = [
    ["<table>", "<td>"],  # td straight in a table: tbody and tr
    ["<table>", "<tr>", "<td>"],  # tr straight in a table: tbody
    ["<table>", "<tbody>", "<td>"],  # td straight in a section: tr
    ["<table>", "<th>", "<div>"],
    ["<table>", "x", "<td>"],  # text in a table is moved before it (foster parenting)
    ["<table>", "<td>", "<p>"],
    ["<table>", "<td>", "<li>"],
    ["<table>", "<caption>", "<td>"],  # a cell closes the caption
    ["<table>", "<col>", "<td>"],  # col: an implied colgroup, closed by the cell
    ["<table>", "<colgroup>", "<td>"],
    ["<table>", "<form>", "<td>"],
    ["<table>", "<td>", "<select>", "<option>"],
    ["<table>", "<td>", "<select>", "<table>"],  # a table in a select closes the select
    ["<table>", "<tr>", "<table>"],  # a table in a row closes the outer table
    ["<table>", "<table>"],
    ["<table>", "<caption>"],
    ["<select>", "<option>", "<div>"],
    ["<select>", "<optgroup>", "<option>", "<p>"],
    ["<ruby>", "<rt>", "<div>"],
    ["<ruby>", "<rb>", "<rtc>", "<rp>", "<span>"],
    ["<dl>", "<dt>", "<dd>", "<div>"],
    ["<table>", "<td>", "<svg>", "<foreignObject>"],
    ["<math>", "<mi>", "<table>", "<td>"],
]


@pytest.mark.parametrize("tokens", IMPLIED, ids="".join)
def test_implied_elements_stay_within_the_bound(tokens: list[str]) -> None:
    data = soup(tokens, 3_000)
    agree(data)
    assert tree_depth(bound_nesting(data)) <= DEPTH_LIMIT + 8


# ------------------------------------------------------ the article profile's regions


def marks(html: str) -> list[tuple[int, str]]:
    """The region marks the scan inserts: (where, labels)."""
    data = html.encode()
    found = [(start, text.decode()) for start, end, text in nesting.cuts(data, regions=True)]
    agree(data)
    return [(start, text.split('"')[1]) for start, text in found if text.startswith(" data-")]


def test_boxes_are_marked_only_on_a_page_that_declares_an_article() -> None:
    body = '<div class="comments">c</div><div class="share-bar">s</div>'
    # Comments are found on every page; boxes only where an article is declared.
    assert [labels for _, labels in marks(body)] == ["comments"]
    assert [labels for _, labels in marks("<main>m</main>" + body)] == ["main", "comments", "boxes"]
    og = '<meta property="og:type" content="article">'
    assert [labels for _, labels in marks(og + body)] == ["comments", "boxes"]
    assert marks('<div class="share-bar">s</div><p>text</p>') == []


def test_a_comment_word_on_an_inline_element_marks_no_comments_region() -> None:
    # A syntax highlighter's tokens (highlight.js, Prism) and a comment count are
    # inline; a thread of comments is a block of posts.
    code = '<pre><code><span class="hljs-comment"># set up</span> make</code></pre>'
    assert marks(code) == []
    assert marks('<p>3 <a class="comment-count" href="#c">comments</a></p>') == []
    assert marks('<code class="token comment">// x</code>') == []
    assert [labels for _, labels in marks('<ol class="comment-list"><li>c</li></ol>')] == [
        "comments"
    ]
    # Its other words are read as on any element.
    og = '<meta property="og:type" content="article">'
    assert [labels for _, labels in marks(og + '<span class="share-links">s</span>')] == ["boxes"]


def test_consent_notices_are_marked_on_every_page() -> None:
    notice = '<div id="onetrust-consent-sdk"><div class="cookie-banner">c</div></div>'
    # Without a declared article, as with one; the notice's inner element adds nothing.
    assert [labels for _, labels in marks(notice + "<p>text</p>")] == ["consent"]
    assert [labels for _, labels in marks("<main>m</main>" + notice)] == ["main", "consent"]
    # Comments win over it, it over boxes; "cookie" alone is a box word.
    assert [labels for _, labels in marks('<div class="comments gdpr">c</div>')] == ["comments"]
    both = '<main>m</main><div class="share consent">s</div><div class=cookie>k</div>'
    assert [labels for _, labels in marks(both)] == ["main", "consent", "boxes"]
    # A consent word on the wrapper of the headline is no notice.
    assert [labels for _, labels in marks('<div class="gdpr-ok"><h1>t</h1></div>')] == []


def test_a_content_container_is_named_by_an_owner_word_and_a_part_word() -> None:
    named = [
        '<div class="entry-content">x</div>',
        '<div class="td-post-content tagdiv-type">x</div>',
        '<div id="articleBody">x</div>',
        '<div class="article__body">x</div>',
        '<section class="Story_Content">x</section>',
        '<div class="blog-post-body">x</div>',
        '<div class="x news-body">x</div>',
    ]
    for html in named:
        assert [labels for _, labels in marks(html)] == ["content"], html
    for html in [
        '<div class="entry">x</div>',
        '<div class="content">x</div>',
        '<div class="post content">x</div>',  # two words, not one name
        '<div title="post-body">x</div>',
        '<div class="postbo">x</div>',
        '<div class="post-text">x</div>',  # "text" measured and left out
    ]:
        assert marks(html) == [], html
    # A main container is not also a content container; a content container
    # inside another keeps its mark (and so do the comments beside it).
    assert [labels for _, labels in marks('<article class="post-content">x</article>')] == ["main"]
    nested = '<div class="post-body"><div class="entry-content">x</div></div>'
    assert [labels for _, labels in marks(nested)] == ["content", "content"]
    commented = '<div class="comment-list"><div class="comment-body post-body">c</div></div>'
    assert [labels for _, labels in marks(commented)] == ["comments", "content"]


# Pieces of class and id values: parts of the region and content words, in
# any case, with the separators the scan skips or stops at.
_WORD_PIECES = st.sampled_from(
    [
        "comment", "Disqus", "sha", "re", "SHARING", "sign", "-up", "up", "more", "-stories",
        "article", "Article", "post", "entry", "story", "news", "blog", "body", "BODY",
        "content", "cont", "ent", "-", "_", "__", "--", " ", "\t", "x", "é", "0", "a", "ar",
        "ticle", "po", "st", "gdpr", "promo", "taboola", "by", "line",
    ]
)  # fmt: skip


@examples(300)
@given(
    st.lists(st.lists(_WORD_PIECES, max_size=8).map("".join), min_size=1, max_size=4),
    st.sampled_from(["div", "main", "section", "article"]),
)
@example(["sign-up Post_-_Body", "x"], "div")
@example(["ARTICLE-BODY comments", ""], "main")
@example(["x NEWS_BODY", "Taboola"], "section")
def test_class_and_id_words_are_read_as_the_reference_reads_them(
    values: list[str], name: str
) -> None:
    # One automaton reads both kinds of word in a value: the region words, and
    # the content containers' names with "-" and "_" skipped.
    attributes = " ".join(
        f'{("class", "id", "ID", "Class")[index % 4]}="{value}"'
        for index, value in enumerate(values)
    )
    agree(f"<{name} {attributes}>x</{name}><h2 class='{values[0]}'>y</h2>".encode())
    agree(f'<meta property="og:type" content="article"><div {attributes}>x</div>'.encode())


@pytest.mark.parametrize(
    ("html", "labels"),
    [
        ('<div CLASS="comments">c</div>', ["comments"]),
        ('<div cLaSs="entry-content">c</div>', ["content"]),
        ('<div Id="comments">c</div>', ["comments"]),
        ('<div classx="comments" clas="comments" iD\x00="comments">c</div>', []),
        ('<div cl\x00ss="comments" c\x03ass="comments" k="comments">c</div>', []),
        ('<main>m</main><div ITEMPROP="articleBody">a</div>', ["main", "main"]),
        ('<main>m</main><div RoLe="main">a</div>', ["main", "main"]),
        ('<main>m</main><div role="main">a</div><DIV Class=share', ["main", "main"]),
        ('<div class="x" class="comments">c</div>', []),  # the first of each name counts
        ("<main>m</main><div id=share>", ["main", "boxes"]),  # a name near the page's end
    ],
)
def test_region_attribute_names_are_read_in_any_case_and_nothing_else(
    html: str, labels: list[str]
) -> None:
    assert [found for _, found in marks(html)] == labels


def _configure(
    comment_tokens: tuple[bytes, ...],
    content_owners: tuple[bytes, ...],
    article_types: tuple[bytes, ...] = nesting._ARTICLE_TYPES,
) -> None:
    """nesting's configure() of the regions with other comment words, content owner words,
    article types."""
    _regions.configure(
        comment_tokens,
        nesting._BOX_TOKENS,
        nesting._CONSENT_TOKENS,
        article_types,
        nesting.REGION_ATTRIBUTE.encode(),
        content_owners,
        tuple(word.encode() for word in CONTENT_PARTS),
    )


def test_words_the_automaton_cannot_hold_are_refused_by_name() -> None:
    owners = tuple(word.encode() for word in CONTENT_OWNERS)
    before = nesting.cuts(b'<div class="Comments">c</div>', regions=True)
    with pytest.raises(ValueError, match="region word b'Comment'"):
        _configure((b"Comment",), owners)
    with pytest.raises(ValueError, match="content word b''"):
        _configure(nesting._COMMENT_TOKENS, (*owners, b""))
    # A table of at most 65536 rows: one very long word needs more.
    with pytest.raises(ValueError, match=r"the longest word: b'x{16}' of 70000 bytes"):
        _configure((b"x" * 70_000,), owners)
    # A configure() that raises leaves the scan as it was.
    assert nesting.cuts(b'<div class="Comments">c</div>', regions=True) == before != []
    _configure(nesting._COMMENT_TOKENS, owners)
    assert nesting.cuts(b'<div class="Comments">c</div>', regions=True) == before


def test_a_json_ld_block_is_read_once_per_first_byte_of_the_article_types() -> None:
    def declared(script: str) -> bool:
        return nesting.declares_article(
            f'<script type="application/ld+json">{script}</script><p>x</p>'.encode()
        )

    # The types begin with a quote: one pass finds any of them, wherever it is.
    assert declared('"NewsArticle"')
    assert declared('{"@type": "x", "y": "Report"}')
    assert not declared('{"@type": "NewsArticl", "Report ": "Articles"}')
    assert not declared('"Report')  # cut short by the script's end
    owners = tuple(word.encode() for word in CONTENT_OWNERS)
    try:
        # Types that begin with other bytes, and one that begins another.
        _configure(nesting._COMMENT_TOKENS, owners, (b"'Story'", b'"Post"', b"Post'", b'"Po'))
        assert declared("{'Story'}")
        assert declared("Post\" Post'")
        assert declared('"Po')
        assert not declared('"P "Story" \'Stor Post')
        _configure(nesting._COMMENT_TOKENS, owners, (b"", b"Post"))
        assert declared("{}")  # an empty type is in every block
    finally:
        _configure(nesting._COMMENT_TOKENS, owners)
    assert declared('"BlogPosting"')
    assert not declared("'Story'")


def test_a_mark_goes_after_the_tag_name_and_the_page_parses_with_it() -> None:
    html = "<article><div class=comments id=c>x</div></article>"
    bounded = bound_nesting(html.encode(), regions=True).decode()
    assert bounded == (
        '<article data-blockdensity-region="main"><div data-blockdensity-region="comments"'
        " class=comments id=c>x</div></article>"
    )


def test_a_region_around_the_headline_or_the_article_is_not_marked() -> None:
    around_h1 = '<main>m</main><div class="has-comments"><h1>Title</h1>text</div>'
    assert [labels for _, labels in marks(around_h1)] == ["main"]
    around_main = '<div class="share-wrap"><article>a</article></div>'
    assert [labels for _, labels in marks(around_main)] == ["main"]
    # An element both a main container and named a region keeps both labels.
    both = '<main>m</main><article class="comment">c</article>'
    assert [labels for _, labels in marks(both)] == ["main", "main comments"]
    # A content container does not unmark the region around it (a CMS's
    # comment list of comment-text containers stays a comments region).
    listed = '<div class="comments"><div class="post-content">c</div></div>'
    assert [labels for _, labels in marks(listed)] == ["comments", "content"]


def test_a_region_inside_the_same_region_is_marked_once() -> None:
    html = '<main><div class=comments><div class="comment-body">c</div></div></main>'
    assert [labels for _, labels in marks(html)] == ["main", "comments"]
    boxes = '<article><div class=share><div class="share-button">s</div></div></article>'
    assert [labels for _, labels in marks(boxes)] == ["main", "boxes"]


def test_a_main_container_inside_another_is_marked_too() -> None:
    # The inner_container rule reads the containers nested in the main one.
    nested_main = '<main><article><div itemprop="articleBody">a</div></article></main>'
    assert [labels for _, labels in marks(nested_main)] == ["main", "main", "main"]


# ------------------------------------------------------------- the page's budget


def test_a_page_past_the_node_budget_ends_there_and_says_so() -> None:
    # Closed elements: nothing nests, only the count of nodes matters.
    unit = b"<div>a</div>"
    data = unit * (NODE_LIMIT + 10)
    assert bound(data) == (unit * NODE_LIMIT + BUDGET_CUT, True)
    agree(data)
    assert bound(unit * NODE_LIMIT) == (unit * NODE_LIMIT, False)  # exactly the budget
    fit = fit_text(data)
    assert fit.truncated
    assert fit.words_total == NODE_LIMIT
    assert not fit_text(unit * 10).truncated


def test_attributes_count_toward_the_budget_at_half_an_element() -> None:
    unit = b'<i a="1" b="2">x</i>'  # two elements' worth: the element and two halves
    whole = NODE_LIMIT // 2
    data = unit * (whole + 5)
    assert bound_nesting(data) == unit * whole + BUDGET_CUT
    agree(data)


@pytest.mark.parametrize("close", [b">", b"/>", b" >"])
def test_attributes_past_the_limit_on_one_tag_go(close: bytes) -> None:
    kept = b"".join(b" a%d=1" % index for index in range(ATTRIBUTE_LIMIT))
    extra = b"".join(b" b%d='2'" % index for index in range(100))
    data = b"<p>x<div" + kept + extra + close + b"text</div>"
    # From the first attribute past the limit to the tag's end (the space before it stays).
    assert bound_nesting(data) == b"<p>x<div" + kept + b" " + close.lstrip() + b"text</div>"
    agree(data)
    assert bound_nesting(b"<div" + kept + b">t</div>") == b"<div" + kept + b">t</div>"


def test_a_million_attributes_on_one_element_cost_a_fit_little() -> None:
    # lexbor checks each attribute against those before it: a million took
    # too long to wait for before the bound (RELIABILITY.md, "Memory").
    data = b"<div" + b"".join(b" a%x=1" % index for index in range(1_000_000)) + b">text</div>"
    fit = fit_text(data)
    assert fit.text == "text"
