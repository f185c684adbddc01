"""Fit.markdown (blockdensity.markdown), parsed back by another implementation.

markdown-it-py, a CommonMark parser with GitHub's tables, reads what the
renderer writes: escaped text parses back as that text, as plain inline
content; and on generated pages of every structure (headings of every level
and inside links, nested ordered and unordered lists, tables with header,
empty and spanning cells, code with backticks, blank lines and a language,
quotes, text full of Markdown's own characters), fitted under a
configuration that keeps every block with words, each heading, list item,
table cell and code block the fit kept parses back as that element with its
text.
"""

from __future__ import annotations

import dataclasses
import html
import re
from collections import Counter
from dataclasses import dataclass

import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from markdown_it import MarkdownIt
from markdown_it.token import Token

from blockdensity import DEFAULT_CONF, Decision, Fit, fit_text
from blockdensity.conf import PPM, Comments, Conf, Profile
from blockdensity.markdown import escape_cell, escape_heading, escape_line, render_markdown
from blockdensity.pagetype import PageType
from blockdensity.segment import ANCHOR_MARK, BLOCK_END, segment
from blockdensity.structure import Structure
from tests.helpers import seq
from tests.hypothesis_profiles import examples

PROFILE = examples(200)

# Every block with a word kept: no link is dense, every block with a word is long.
KEEP_ALL = Conf(
    profile=Profile.PUBLISHED,
    words_curr_short=0,
    ld_curr_max_ppm=PPM,
    ld_prev_max_ppm=PPM,
    drop_elements=frozenset(),
    drop_roles=frozenset(),
)


# The kinds of page whose short headings name items (blockdensity.markdown._item_names).
NAMED_ITEMS = (PageType.COLLECTION, PageType.PRODUCT)


def parser() -> MarkdownIt:
    return MarkdownIt("commonmark").enable(["table", "strikethrough"])


def inline_text(token: Token) -> str:
    """An inline token's content as plain text (a hard break as a newline, a cell's <br>
    as itself); any other markup than text fails the test."""
    parts = []
    for child in token.children or []:
        if child.type == "text":
            parts.append(child.content)
        elif child.type == "hardbreak":
            parts.append("\n")
        elif child.type == "html_inline" and child.content == "<br>":
            parts.append("<br>")  # a line break inside a table cell
        else:
            raise AssertionError(f"{child.type} in {token.content!r}")
    return "".join(parts)


# --------------------------------------------------------------------------- escaping

MARKDOWN_CHARS = "\\`*_{}[]()<>#+-.!|~=:&;\"' \t1a_é"
# A line of text as the renderer gives one: runs of whitespace made one space, none
# at either end; Markdown's own characters and entities drawn often.
lines_text = st.lists(
    st.one_of(
        st.sampled_from(MARKDOWN_CHARS),
        st.sampled_from(["&amp;", "&#35;", "&copy;", "1.", "2)", "---", "***", "```", "~~~"]),
        st.characters(blacklist_categories=("Cs", "Cc")),
    ),
    min_size=1,
    max_size=30,
).map(lambda parts: " ".join("".join(parts).split()))


@PROFILE
@given(lines_text)
@example("1. item")
@example("- item")
@example("# heading")
@example("> quote")
@example("===")
@example("a_b_c _d_ e__f__ *g*")
@example("&amp; &#35; [x](y) <b> `c` ~~s~~")
@example("| a | b |")
@example("\\")
def test_an_escaped_line_parses_back_as_its_text(text: str) -> None:
    if not text:
        return
    tokens = parser().parse(escape_line(text))
    assert [token.type for token in tokens] == ["paragraph_open", "inline", "paragraph_close"]
    assert inline_text(tokens[1]) == text


@PROFILE
@given(st.lists(lines_text.filter(bool), min_size=1, max_size=4))
@example(["a", "==="])
@example(["a | b", "--- | ---"])
@example(["a", "- b"])
@example(["a", "|-|-|"])
@example(["a", ":-:|"])
def test_escaped_lines_with_hard_breaks_parse_back_as_one_paragraph(lines: list[str]) -> None:
    escaped = [escape_line(line) for line in lines]
    source = "\n".join([line + "\\" for line in escaped[:-1]] + escaped[-1:])
    tokens = parser().parse(source)
    assert [token.type for token in tokens] == ["paragraph_open", "inline", "paragraph_close"]
    assert inline_text(tokens[1]) == "\n".join(lines)


@PROFILE
@given(lines_text.filter(bool), st.integers(1, 6))
@example("C #", 2)
@example("##", 1)
@example("a \\#", 3)
def test_an_escaped_heading_parses_back_as_its_text(text: str, level: int) -> None:
    tokens = parser().parse("#" * level + " " + escape_heading(text))
    assert [token.type for token in tokens] == ["heading_open", "inline", "heading_close"]
    assert tokens[0].tag == f"h{level}"
    assert inline_text(tokens[1]) == text


@PROFILE
@given(lines_text.filter(bool))
@example("a | b")
@example("a \\| b")
@example("|")
def test_an_escaped_cell_parses_back_as_its_text(text: str) -> None:
    tokens = parser().parse(f"| h | i |\n| --- | --- |\n| {escape_cell(text)} | x |")
    cells = [token for token in tokens if token.type == "inline"]
    assert [inline_text(cell) for cell in cells] == ["h", "i", text, "x"]


# --------------------------------------------------------------------------- pages

WORDS = ["alpha", "beta", "gamma", "delta", "snake_case", "x2", "über", "naïve"]
MARKS = ["*", "_", "`", "#", "1.", "2)", "-", "+", ">", "[", "]", "\\", "<", "&", "|", "~", "="]
words = st.lists(st.sampled_from(WORDS + MARKS), min_size=1, max_size=6).map(" ".join)


@dataclass
class Built:
    """A generated page's HTML."""

    parts: list[str]

    def add(self, part: str) -> None:
        self.parts.append(part)


def esc(text: str) -> str:
    return html.escape(text, quote=False)


@st.composite
def lists(draw: st.DrawFn, depth: int = 0) -> str:
    tag = draw(st.sampled_from(["ul", "ol"]))
    items = []
    for _ in range(draw(st.integers(1, 4))):
        item = esc(draw(words))
        if draw(st.booleans()):
            item += "<br>" + esc(draw(words))
        if depth < 2 and draw(st.integers(0, 3)) == 0:
            item += draw(lists(depth + 1))
        if draw(st.integers(0, 5)) == 0:
            item = f"<p>{item}</p><p>{esc(draw(words))}</p>"
        items.append(f"<li>{item}</li>")
    return f"<{tag}>{''.join(items)}</{tag}>"


@st.composite
def tables(draw: st.DrawFn) -> str:
    columns = draw(st.integers(2, 4))
    rows = []
    if draw(st.booleans()):
        rows.append("".join(f"<th>{esc(draw(words))}</th>" for _ in range(columns)))
    for _ in range(draw(st.integers(2 - len(rows), 4))):
        cells = []
        column = 0
        while column < columns:
            span = draw(st.integers(1, 2)) if column < columns - 1 else 1
            tag = draw(st.sampled_from(["td", "td", "td", "th"]))
            text = draw(st.one_of(st.just(""), words, words.map(lambda w: w + "<br>" + w)))
            text = esc(text).replace("&lt;br&gt;", "<br>")
            attribute = f' colspan="{span}"' if span > 1 else ""
            cells.append(f"<{tag}{attribute}>{text}</{tag}>")
            column += span
        rows.append("".join(cells))
    body = "".join(f"<tr>{row}</tr>" for row in rows)
    return f"<table>{body}</table>"


@st.composite
def code(draw: st.DrawFn) -> str:
    lines = draw(
        st.lists(
            st.one_of(words, st.sampled_from(["", "    indented = 1", "```", "````x", "a `b` c"])),
            min_size=1,
            max_size=6,
        )
    )
    language = draw(st.sampled_from(["", ' class="language-python"', ' class="lang-js"']))
    text = esc("\n".join(lines))
    return f"<pre><code{language}>{text}</code></pre>"


@st.composite
def pages(draw: st.DrawFn) -> str:
    parts = []
    for _ in range(draw(st.integers(1, 8))):
        kind = draw(st.sampled_from(["h", "p", "list", "table", "pre", "quote", "ah"]))
        if kind == "h":
            level = draw(st.integers(1, 6))
            parts.append(f"<h{level}>{esc(draw(words))}</h{level}>")
        elif kind == "ah":
            level = draw(st.integers(1, 6))
            parts.append(f'<a href="/x"><h{level}>{esc(draw(words))}</h{level}></a>')
        elif kind == "p":
            parts.append(f"<p>{esc(draw(words))}<br>{esc(draw(words))}</p>")
        elif kind == "list":
            parts.append(draw(lists()))
        elif kind == "table":
            parts.append(draw(tables()))
        elif kind == "pre":
            parts.append(draw(code()))
        else:
            inner = draw(st.sampled_from([lists(), words.map(lambda w: f"<p>{esc(w)}</p>")]))
            parts.append(f"<blockquote><p>{esc(draw(words))}</p>{draw(inner)}</blockquote>")
    return "<html><body>" + "".join(parts) + "</body></html>"


def kept_elements(page: str, fit: Fit) -> dict[str, list[str]]:
    """What the fit kept, by kind (as the page's structure places each kept block): the
    texts the Markdown should give back."""
    found: dict[str, list[str]] = {"heading": [], "item": [], "cell": [], "code": []}
    segmented = segment(page, KEEP_ALL)
    structure = Structure(segmented)
    raw = segmented.text.split(BLOCK_END)
    kept = [
        (index, block)
        for index, block in enumerate(fit.blocks)
        if (block.decision is Decision.CONTENT or fit.fallback) and block.text.strip()
    ]
    # A table whose kept text lies in one column renders as its blocks.
    columns: dict[int, set[int]] = {}
    for index, _ in kept:
        cell = structure.cell(index)
        if cell is not None:
            columns.setdefault(cell.table, set()).add(cell.index)
    for place, (index, block) in enumerate(kept):
        level = structure.heading_level(index)
        cell = structure.cell(index)
        if structure.element(index) == "pre":
            found["code"].extend(block.text.split("\n"))
        elif cell is not None and len(columns[cell.table]) > 1:
            found["cell"].extend(block.text.split("\n"))
        elif level is not None:
            # A heading that is a link from end to end and heads nothing (the next kept
            # block is a heading of its level or above, or none) is a line.
            following = kept[place + 1][0] if place + 1 < len(kept) else -1
            next_level = structure.heading_level(following) if following >= 0 else 0
            part = raw[index].strip()
            linked = part[:1] == ANCHOR_MARK and part[-1:] == ANCHOR_MARK
            if not linked or (next_level is None or next_level > level):
                found["heading"].append(f"h{level} " + " ".join(block.text.split("\n")))
        else:
            lines, items = bulleted(block.text.split("\n"))
            found["item"].extend(items)
            if lines and structure.list_item(index) is not None:
                found["item"].append("\n".join(lines))
    return found


BULLET = re.compile(r"[\u2022\u00b7\u25aa\u25e6\u25cf\u2023\u2043\u25a0\u25ba\u25b8*-] (?=\S)")


BULLETS = Counter(
    dict.fromkeys("\u2022\u00b7\u25aa\u25e6\u25cf\u2023\u2043\u25a0\u25ba\u25b8*-", 1_000)
)


def bulleted(lines: list[str]) -> tuple[list[str], list[str]]:
    """A paragraph's lines as the Markdown renders them: (its lines of text, its lines
    that are list items, bullets gone). Lines that all begin with a bullet and a space
    are items, and so are all but the first when they are two or more."""
    marked = [BULLET.match(line) is not None for line in lines]
    if all(marked):
        return [], [line[2:] for line in lines]
    if len(lines) > 2 and all(marked[1:]):
        return lines[:1], [line[2:] for line in lines[1:]]
    return lines, []


def parsed_elements(markdown: str) -> dict[str, list[str]]:
    """The same, read from the Markdown by markdown-it-py."""
    found: dict[str, list[str]] = {"heading": [], "item": [], "cell": [], "code": []}
    tokens = parser().parse(markdown)
    context: list[str] = []
    for index, token in enumerate(tokens):
        if token.nesting == 1:
            context.append(token.type)
        elif token.nesting == -1:
            context.pop()
        elif token.type == "inline":
            text = inline_text(token)
            if context[-1] == "heading_open":
                found["heading"].append(f"{tokens[index - 1].tag} {text}")
            elif context[-1] in {"th_open", "td_open"}:
                found["cell"].extend(part for part in text.split("<br>") if part)
            elif context[-2:] == ["list_item_open", "paragraph_open"]:
                found["item"].append(text)
        elif token.type == "fence":
            found["code"].extend(line for line in token.content.split("\n") if line.strip())
    return found


@PROFILE
@given(pages())
def test_every_kept_element_parses_back_as_itself(page: str) -> None:
    fit = fit_text(page, KEEP_ALL)
    kept = kept_elements(page, fit)
    parsed = parsed_elements(fit.markdown)
    assert Counter(parsed["heading"]) == Counter(kept["heading"])
    assert Counter(parsed["cell"]) == Counter(kept["cell"])
    assert Counter(parsed["code"]) == Counter(kept["code"])
    assert Counter(parsed["item"]) == Counter(kept["item"])


@PROFILE
@given(pages())
def test_the_markdown_holds_the_texts_words(page: str) -> None:
    fit = fit_text(page, KEEP_ALL)
    plain = []
    for token in parser().parse(fit.markdown):
        if token.type == "inline":
            plain.append(inline_text(token).replace("<br>", " "))
        elif token.type == "fence":
            plain.append(token.content)
    # (A bullet that begins a line of a list written as text goes: it is no word.)
    assert Counter(" ".join(plain).split()) - BULLETS == Counter(fit.text.split()) - BULLETS


@PROFILE
@given(pages())
def test_items_names_parse_back_as_the_lines_the_headings_were(page: str) -> None:
    # On a collection's or a product's page, short headings render as lines: every
    # inline text and code block parses back as without a kind, in the same order; the
    # list items, cells and code are the same; no heading appears that was not one.
    segmented = segment(page, KEEP_ALL)
    kept = [index for index, text in enumerate(segmented.block_texts()) if text.strip()]
    headed = render_markdown(segmented, kept)
    for kind in NAMED_ITEMS:
        named = render_markdown(segmented, kept, kind=kind)
        assert contents(named) == contents(headed)
        before, after = parsed_elements(headed), parsed_elements(named)
        for element in ("item", "cell", "code"):
            assert after[element] == before[element]
        assert not Counter(after["heading"]) - Counter(before["heading"])


def contents(markdown: str) -> list[str]:
    """The texts of the Markdown's inline and code blocks, in order."""
    return [
        inline_text(token) if token.type == "inline" else token.content
        for token in parser().parse(markdown)
        if token.type in {"inline", "fence"}
    ]


# --------------------------------------------------------------------------- cases


def test_a_page_as_markdown() -> None:
    page = (
        "<h1>Title</h1><p>One <b>para</b> 1. *x*</p>"
        "<ul><li>a<ul><li>b</li></ul></li><li>c</li></ul>"
        "<ol><li>d</li><li>e</li></ol>"
        "<table><tr><th>k</th><th>v | w</th></tr><tr><td>1</td><td></td></tr></table>"
        '<pre><code class="language-py">x = "```"\n\ny</code></pre>'
        "<blockquote><p>q1</p><p>q2</p></blockquote>"
    )
    assert fit_text(page, KEEP_ALL).markdown == (
        "# Title\n\nOne para 1. \\*x\\*\n\n- a\n  - b\n- c\n\n1. d\n2. e\n\n"
        "| k | v \\| w |\n| --- | --- |\n| 1 |  |\n\n"
        '````py\nx = "```"\n\ny\n````\n\n> q1\n>\n> q2'
    )


def test_an_ordered_list_keeps_the_pages_numbers_and_nests() -> None:
    page = "<ol><li>a</li><li>b<ol><li>c</li></ol></li></ol>"
    assert fit_text(page, KEEP_ALL).markdown == "1. a\n2. b\n   1. c"


def test_a_blockquote_holding_structure_is_a_box_rendered_unquoted() -> None:
    # A blockquote around a list, a heading, a table or a <pre> frames an example or a
    # note: its blocks render as they would outside it. One of paragraphs is a quote.
    page = (
        "<blockquote><ol><li>a</li><li>b</li></ol></blockquote>"
        "<blockquote><p>Example:</p><pre>x = 1</pre></blockquote>"
        "<blockquote><p>q1</p><blockquote><p>q2</p></blockquote></blockquote>"
    )
    assert fit_text(page, KEEP_ALL).markdown == (
        "1. a\n2. b\n\nExample:\n\n```\nx = 1\n```\n\n> q1\n>\n> > q2"
    )


def test_a_list_written_as_lines_of_text_renders_as_a_list() -> None:
    # Lines that each begin with a bullet and a space; or all but a first line, when
    # two or more do. A bullet alone on one line of two is left as text.
    page = (
        "<p>Goals:<br>- one<br>- two</p><p>&bull; a<br>&bull; *b*</p><p>x<br>- y</p>"
        "<ul><li>item<br>&bull; sub one<br>&bull; sub two</li></ul>"
    )
    markdown = fit_text(page, KEEP_ALL).markdown
    assert markdown == (
        "Goals:\n\n- one\n- two\n\n- a\n- \\*b\\*\n\nx\\\n\\- y\n\n"
        "- item\n\n  - sub one\n  - sub two"
    )
    items = parsed_elements(markdown)["item"]
    assert items == ["one", "two", "a", "*b*", "item", "sub one", "sub two"]
    # With links rendered as links, the same (the link's text is the item's).
    linked = (
        '<p>Goals:<br>- one <a href="/a">link</a><br>- # two</p><p>x<br>- y <a href="/c">z</a></p>'
    )
    markdown = fit_text(linked, LINKS, url="https://e.org/").markdown
    assert markdown == (
        "Goals:\n\n- one [link](https://e.org/a)\n- \\# two\n\nx\\\n\\- y [z](https://e.org/c)"
    )
    tokens = parser().parse(markdown)
    items = [
        t.content for i, t in enumerate(tokens[2:], 2) if tokens[i - 2].type == "list_item_open"
    ]
    assert items == ["one [link](https://e.org/a)", "\\# two"]


def test_a_layout_table_renders_its_cells_as_blocks() -> None:
    page = "<table><tr><td><h2>Side</h2><p>text</p></td><td><p>more</p></td></tr></table>"
    assert fit_text(page, KEEP_ALL).markdown == "## Side\n\ntext\n\nmore"


def test_a_list_item_holding_a_heading_renders_as_blocks() -> None:
    # A card of a grid: its heading is one of the page's headings, its other blocks
    # paragraphs; a card's heading that is a link from end to end is its title, a line.
    page = (
        "<ul><li><h3>Title</h3><p>text</p></li><li><h3><a href=/x>Linked</a></h3>"
        "<p>more</p></li></ul><ol><li>one<ul><li><h4>Deep</h4></li></ul></li><li>two</li></ol>"
        "<h2><a href=/y>Section</a></h2><p>body</p>"
    )
    expected = (
        "### Title\n\ntext\n\n{linked}\n\nmore\n\n1. one\n\n   #### Deep\n2. two\n\n"
        "## {section}\n\nbody"
    )
    assert fit_text(page, KEEP_ALL).markdown == expected.format(linked="Linked", section="Section")
    assert fit_text(page, LINKS, url="https://e.org/").markdown == expected.format(
        linked="[Linked](https://e.org/x)", section="[Section](https://e.org/y)"
    )
    tokens = parser().parse(fit_text(page, KEEP_ALL).markdown)
    headings = [tokens[i + 1].content for i, t in enumerate(tokens) if t.type == "heading_open"]
    assert headings == ["Title", "Deep", "Section"]


def test_a_list_item_laid_out_in_divs_is_a_grid_cell() -> None:
    # A list used as a grid: the <div>s in an item are its blocks, not an entry's text.
    # The items of a list nested in such an item stay items.
    page = (
        "<ul><li><div>cell one</div><div>price</div></li><li><div>cell two</div>"
        "<ul><li>nested</li></ul></li></ul><ol><li>entry<p>more</p></li></ol>"
    )
    assert fit_text(page, KEEP_ALL).markdown == (
        "cell one\n\nprice\n\ncell two\n\n- nested\n\n1. entry\n\n   more"
    )


def test_a_heading_in_a_summary_is_a_line() -> None:
    # A disclosure widget's label (an FAQ's question): a line, even in a heading.
    page = (
        "<h2>FAQ</h2><details><summary><h3>Is it *free*?</h3></summary><p>Yes.</p></details>"
        "<details open><summary>Plain label</summary><h3>Inside</h3><p>text</p></details>"
    )
    assert fit_text(page, KEEP_ALL).markdown == (
        "## FAQ\n\nIs it \\*free\\*?\n\nYes.\n\nPlain label\n\n### Inside\n\ntext"
    )


def test_a_linked_heading_that_heads_nothing_is_a_line() -> None:
    # A heading that is a link from end to end, followed by a heading of its level or
    # above or by nothing, is an entry of a list of links: a line. One with something
    # under it (a teaser, a lower heading) stays a heading, and so does a plain one.
    page = (
        "<h2>Latest</h2><h3><a href=/a>One #</a></h3><h3><a href=/b>Two</a></h3><p>teaser</p>"
        "<h3><a href=/c>Three</a></h3><h4>Sub</h4><h3>Plain</h3><h2><a href=/d>- Last</a></h2>"
    )
    expected = (
        "## Latest\n\n{one}\n\n### {two}\n\nteaser\n\n### {three}\n\n#### Sub\n\n"
        "### Plain\n\n{last}"
    )
    assert fit_text(page, KEEP_ALL).markdown == expected.format(
        one="One #", two="Two", three="Three", last="\\- Last"
    )
    linked = fit_text(page, LINKS, url="https://e.org/").markdown
    assert linked == expected.format(
        one="[One #](https://e.org/a)",
        two="[Two](https://e.org/b)",
        three="[Three](https://e.org/c)",
        last="[- Last](https://e.org/d)",
    )
    for markdown in (fit_text(page, KEEP_ALL).markdown, linked):
        tokens = parser().parse(markdown)
        headings = [tokens[i + 1].content for i, t in enumerate(tokens) if t.type == "heading_open"]
        assert [re.sub(r"\[(.*)\]\(.*\)", r"\1", h) for h in headings] == [
            "Latest",
            "Two",
            "Three",
            "Sub",
            "Plain",
        ]
        assert not any(t.type == "bullet_list_open" for t in tokens)
    # An image under it is no content of its own: the same lines, the image beside.
    pictured = "<h3><a href=/a>One</a></h3><p><img src=/o.png alt=o></p><h3>Two</h3><p>x</p>"
    assert fit_text(pictured, IMAGES, url="https://e.org/").markdown == (
        "One\n\n![o](https://e.org/o.png)\n\n### Two\n\nx"
    )


def test_a_collections_short_headings_name_its_items() -> None:
    # On a page read as a collection or a product, a heading over fewer than 20 words
    # (subsections included) names an item or a widget: a line. One over a section of
    # 20 words or more stays a heading; on other kinds of page (and with no kind: the
    # published profile) all stay headings.
    body = (
        "<h1>Gas barbecues</h1><p>" + seq("w", 1, 20) + "</p>"
        "<h2>Baron 490 #</h2><p>1 399,00 €</p><h2>Recently viewed</h2>"
        "<h2>About</h2><h3>Sub</h3><p>" + seq("s", 1, 19) + "</p>"
        "<h2>Specs</h2><table><tr><th>k</th><th>v</th></tr>"
        + "<tr><td>a b c d</td><td>e f g h</td></tr>" * 3
        + "</table><h2>Last</h2>"
    )
    page = segment(f"<html><body>{body}</body></html>", KEEP_ALL)
    kept = [index for index, text in enumerate(page.block_texts()) if text.strip()]
    words = seq("w", 1, 20)
    sub = seq("s", 1, 19)
    table = "| k | v |\n| --- | --- |" + "\n| a b c d | e f g h |" * 3
    headings = (
        f"# Gas barbecues\n\n{words}\n\n## Baron 490 \\#\n\n1 399,00 €\n\n"
        f"## Recently viewed\n\n## About\n\n### Sub\n\n{sub}\n\n## Specs\n\n{table}"
        "\n\n## Last"
    )
    others: list[PageType | None] = [None, *(k for k in PageType if k not in NAMED_ITEMS)]
    for kind in others:
        assert render_markdown(page, kept, kind=kind) == headings
    names = (
        f"# Gas barbecues\n\n{words}\n\nBaron 490 #\n\n1 399,00 €\n\n"
        f"Recently viewed\n\n## About\n\nSub\n\n{sub}\n\n## Specs\n\n{table}"
        "\n\nLast"
    )
    for kind in NAMED_ITEMS:
        markdown = render_markdown(page, kept, kind=kind)
        assert markdown == names
        tokens = parser().parse(markdown)
        assert [
            tokens[i + 1].content for i, t in enumerate(tokens) if t.type == "heading_open"
        ] == [
            "Gas barbecues",
            "About",
            "Specs",
        ]
    # A whole fit (the default profile) of a page given as a collection: its cards'
    # linked names are lines, with their links when the links are asked for.
    cards = "".join(
        f"<div class=card><h2><a href=/p{n}>Grill {n}</a></h2><p>{n}99 € in stock</p></div>"
        for n in (1, 2)
    )
    grills = (
        f"<h1>Gas grills</h1><p>{seq('w', 1, 40)}</p>{cards}"
        f"<h2>About grills</h2><p>{seq('g', 1, 30)}</p>"
    )
    shown = "# Gas grills\n\n{w}\n\n{one}\n\n199 € in stock\n\n{two}\n\n299 € in stock"
    shown += "\n\n## About grills\n\n{g}"
    for conf, one, two in (
        (DEFAULT_CONF, "Grill 1", "Grill 2"),
        (
            dataclasses.replace(DEFAULT_CONF, markdown_links=True),
            "[Grill 1](https://e.org/p1)",
            "[Grill 2](https://e.org/p2)",
        ),
    ):
        fit = fit_text(grills, conf, url="https://e.org/", page_type=PageType.COLLECTION)
        assert fit.markdown == shown.format(w=seq("w", 1, 40), one=one, two=two, g=seq("g", 1, 30))


def test_a_table_with_text_in_one_column_renders_its_cells_as_blocks() -> None:
    # One column of text (the others empty): lines, no grid; its cells' lines as a
    # paragraph's. Two columns of text: a pipe table.
    one = "<table><tr><th>Drug</th><th></th></tr><tr><td>- a<br>- b</td><td> </td></tr></table>"
    assert fit_text(one, KEEP_ALL).markdown == "Drug\n\n- a\n- b"
    two = "<table><tr><th>Drug</th><th></th></tr><tr><td>a</td><td>b</td></tr></table>"
    assert fit_text(two, KEEP_ALL).markdown == "| Drug |  |\n| --- | --- |\n| a | b |"
    linked = "<table><tr><td><a href=/x>A</a></td><td></td></tr><tr><td>b</td></tr></table>"
    assert fit_text(linked, LINKS, url="https://e.org/").markdown == "[A](https://e.org/x)\n\nb"


def test_a_heading_of_two_links_with_words_between_is_no_title() -> None:
    # Linked from end to end means no word outside a link: two links joined by "and"
    # make a heading that heads nothing a heading still; two links side by side, a line.
    page = (
        "<h2>Latest</h2><h3><a href=/a>One</a> and <a href=/b>Two</a></h3>"
        "<h3><a href=/c>Three</a> <a href=/d>Four</a></h3>"
    )
    assert fit_text(page, KEEP_ALL).markdown == "## Latest\n\n### One and Two\n\nThree Four"


def test_a_heading_over_a_tables_columns_is_its_header_cell() -> None:
    # A heading in the first row titles the columns: the table stays a data table. One
    # in a later row makes it a layout table, its cells the page's blocks.
    rows = "<tr><td>Price</td><td>$1</td></tr><tr><td>Size</td><td>2 m</td></tr>"
    page = f"<table><tr><th><h3>Specs</h3></th><th>Value</th></tr>{rows}</table>"
    assert fit_text(page, KEEP_ALL).markdown == (
        "| Specs | Value |\n| --- | --- |\n| Price | $1 |\n| Size | 2 m |"
    )
    layout = f"<table>{rows}<tr><td><h3>Specs</h3></td><td>Value</td></tr></table>"
    assert fit_text(layout, KEEP_ALL).markdown == (
        "Price\n\n$1\n\nSize\n\n2 m\n\n### Specs\n\nValue"
    )


def test_a_heading_alone_in_its_row_labels_a_group_of_rows() -> None:
    # A shopping list's "Vegetables" spans the table's row above its items: the table
    # stays a data table, the label a row of its own (WCXB's truth writes it so).
    rows = "<tr><td>Onions</td><td>3</td></tr><tr><td>Celery</td><td>80g</td></tr>"
    label = '<tr><td colspan="2"><h5>Vegetables</h5></td></tr>'
    page = f"<table><tr><th>Item</th><th>Amount</th></tr>{label}{rows}</table>"
    assert fit_text(page, KEEP_ALL).markdown == (
        "| Item | Amount |\n| --- | --- |\n| Vegetables |  |\n| Onions | 3 |\n| Celery | 80g |"
    )
    # A heading beside other cells, in a later row, is no label: a layout table still.
    beside = page.replace(label, "<tr><td><h5>Vegetables</h5></td><td>x</td></tr>")
    assert "| Onions | 3 |" not in fit_text(beside, KEEP_ALL).markdown


def test_markdown_is_rendered_on_first_read_only() -> None:
    calls = []
    fit = fit_text("<p>words here</p>", KEEP_ALL)
    factory = fit.markdown_factory

    def counted() -> tuple[str, str | None]:
        calls.append(1)
        return factory()

    object.__setattr__(fit, "markdown_factory", counted)
    assert not calls
    assert fit.markdown == fit.markdown == "words here"
    assert len(calls) == 1


@pytest.mark.parametrize("comments", list(Comments))
def test_comments_get_their_markdown(comments: Comments) -> None:
    page = (
        "<article><h1>Head</h1><p>" + "word " * 60 + "</p></article>"
        '<div class="comments"><ul class="comment-list"><li class="comment"><p>'
        + "I agree with this *entirely* "
        + "yes " * 20
        + "</p></li></ul></div>"
    )
    fit = fit_text(page, Conf(comments=comments))
    if fit.comments is None:
        assert fit.comments_markdown is None
        return
    assert fit.comments_markdown is not None
    assert "\\*entirely\\*" in fit.comments_markdown
    if comments is Comments.INCLUDE:
        assert fit.markdown.endswith(fit.comments_markdown)


# --------------------------------------------------------------------------- links

LINKS = dataclasses.replace(KEEP_ALL, markdown_links=True)


def test_links_are_markdown_links_when_asked() -> None:
    page = (
        '<p>See <a href="/x?a=1&amp;b=(2)">the *docs*</a> now, <a name=n>an anchor</a>'
        ' and <a href="y">y</a>z.</p>'
        '<a href="/h"><h2>Heading link</h2></a><ul><li><a href="/l">item link</a> more</li></ul>'
        '<table><tr><th>k</th><th>v</th></tr><tr><td><a href="/c">cell|link</a></td><td>2</td>'
        '</tr></table><p>line <a href="/b">one<br>two</a> end</p>'
    )
    assert fit_text(page, LINKS, url="https://e.org/base/").markdown == (
        "See [the \\*docs\\*](https://e.org/x?a=1&b=%282%29) now, an anchor and"
        " [y](https://e.org/base/y)z.\n\n## [Heading link](https://e.org/h)\n\n"
        "- [item link](https://e.org/l) more\n\n"
        "| k | v |\n| --- | --- |\n| [cell\\|link](https://e.org/c) | 2 |\n\n"
        "line [one two](https://e.org/b) end"
    )
    # Not asked (the default): a link is its text, as in `text`.
    assert fit_text(page, KEEP_ALL).markdown.startswith("See the \\*docs\\* now, an anchor and yz.")
    with pytest.raises(ValueError, match="markdown_links must be True or False"):
        Conf(markdown_links="yes")  # type: ignore[arg-type]  # the wrong type, on purpose


def test_a_default_fit_links_its_text_and_its_comments_not_what_it_dropped() -> None:
    # Only the kept blocks and the comments render, so only their links are paired and
    # resolved (mdlinks.link_targets is given those blocks): the same Markdown as pairing
    # every block's, without resolving the navigation's links.
    words, yes = "word " * 60, "yes " * 25
    page = (
        '<nav><ul><li><a href="/home">Home</a></li><li><a href="/about">About</a></li></ul></nav>'
        f'<article><h1>Head</h1><p>Read <a href="/doc">the doc</a> {words}</p></article>'
        '<div class="comments"><ul class="comment-list"><li class="comment"><p>See '
        f'<a href="/other">this one</a> {yes}</p></li></ul></div>'
    )
    conf = dataclasses.replace(DEFAULT_CONF, markdown_links=True, comments=Comments.SEPARATE)
    fit = fit_text(page, conf, url="https://e.org/a/")
    assert fit.markdown.startswith("# Head\n\nRead [the doc](https://e.org/doc) word word")
    assert "home" not in fit.markdown.lower()
    assert fit.comments_markdown is not None
    assert fit.comments_markdown.startswith("- See [this one](https://e.org/other) yes yes")


def test_a_link_urljoin_cannot_resolve_keeps_its_href() -> None:
    # urljoin raises ValueError on a bracketed host that is no IP address (a WCXB page
    # has one): the Markdown keeps such an href as it is rather than failing.
    page = '<p>See <a href="http://[ccpa-preferences]/x">the choices</a> here.</p>'
    markdown = fit_text(page, LINKS, url="https://e.org/").markdown
    assert markdown == "See [the choices](http://[ccpa-preferences]/x) here."


@PROFILE
@given(
    st.lists(
        st.tuples(words, st.one_of(st.none(), words), st.sampled_from(["/a b", "c(d)", "e\\f"])),
        min_size=1,
        max_size=5,
    )
)
def test_links_parse_back_with_their_text_and_target(
    parts: list[tuple[str, str | None, str]],
) -> None:
    html_parts: list[str] = []
    expected: list[tuple[str, str]] = []
    for number, (before, linked, path) in enumerate(parts):
        html_parts.append(esc(before))
        if linked is not None:
            href = f"/{number}{path}"
            html_parts.append(f' <a href="{html.escape(href)}">{esc(linked)}</a> ')
            if linked.strip():
                expected.append((f"https://e.org{href}", linked))
    fit = fit_text("<p>" + "".join(html_parts) + "</p><p>after</p>", LINKS, url="https://e.org/")
    found: list[tuple[str, str]] = []
    inside: tuple[str, list[str]] | None = None
    for token in parser().parse(fit.markdown):
        for child in token.children or []:
            if child.type == "link_open":
                inside = (str(child.attrs["href"]), [])
            elif child.type == "link_close" and inside is not None:
                found.append((inside[0], "".join(inside[1])))
                inside = None
            elif inside is not None and child.type == "text":
                inside[1].append(child.content)
    decoded = [(target.replace("%20", " ").replace("%28", "(").replace("%29", ")")
                .replace("%5C", "\\"), text) for target, text in found]  # fmt: skip
    assert decoded == [(href, " ".join(text.split())) for href, text in expected]


# --------------------------------------------------------------------------- images

IMAGES = dataclasses.replace(KEEP_ALL, markdown_images=True)
STORY_A = seq("a", 1, 60)
STORY_B = seq("b", 1, 50)


def images_of(markdown: str) -> list[tuple[str, str]]:
    """The images markdown-it-py reads in `markdown`: (alt, src), in order (the alt as
    its text: the label's inline content, escapes read)."""
    return [
        ("".join(part.content for part in child.children or []), str(child.attrs["src"]))
        for token in parser().parse(markdown)
        for child in token.children or []
        if child.type == "image"
    ]


def test_images_are_markdown_images_when_asked() -> None:
    page = (
        "<p>First paragraph words.</p>"
        '<figure><img src="a.png" alt="A [chart] of *sales*"><figcaption>The caption'
        "</figcaption></figure>"
        '<p>Text before <img src="/b c.jpg" alt="b"></p>'
        '<p><img src="data:image/gif;base64,R0lGOD" data-src="lazy(1).png" alt=""></p>'
        "<p>Last paragraph words.</p>"
        '<ul><li><img src="//cdn.e.org/i.png" alt="item"> item text</li></ul>'
    )
    markdown = fit_text(page, IMAGES, url="https://e.org/post/").markdown
    assert images_of(markdown) == [
        ("A [chart] of *sales*", "https://e.org/post/a.png"),
        ("b", "https://e.org/b%20c.jpg"),
        ("", "https://e.org/post/lazy%281%29.png"),
        ("item", "https://cdn.e.org/i.png"),
    ]
    assert markdown == (
        "First paragraph words.\n\n"
        "![A \\[chart\\] of \\*sales\\*](https://e.org/post/a.png)\n\nThe caption\n\n"
        "Text before\n\n![b](https://e.org/b%20c.jpg)\n\n"
        "![](https://e.org/post/lazy%281%29.png)\n\nLast paragraph words.\n\n"
        "- ![item](https://cdn.e.org/i.png)\n\n  item text"
    )
    # Not asked (the default): no image, and the text is the same either way.
    plain = fit_text(page, KEEP_ALL, url="https://e.org/post/")
    assert not images_of(plain.markdown)
    assert "![" not in plain.markdown
    assert plain.text == fit_text(page, IMAGES, url="https://e.org/post/").text
    with pytest.raises(ValueError, match="markdown_images must be True or False"):
        Conf(markdown_images=1)  # type: ignore[arg-type]  # the wrong type, on purpose


def test_only_the_kept_content_s_images_render() -> None:
    story = "".join(f"<p>{seq}</p>" for seq in (STORY_A, STORY_B))
    page = (
        '<nav><img src="/logo.png" alt="logo"><a href="/">Home</a> <a href="/x">X</a></nav>'
        f'<article>{story}<p><img src="/photo.jpg" alt="photo"></p>{story}</article>'
        '<footer><p>Footer words here</p><img src="/pixel.gif" alt="pixel"></footer>'
        '<noscript><img src="/noscript.gif" alt="noscript"></noscript>'
    )
    fit = fit_text(page, dataclasses.replace(Conf(), markdown_images=True), url="https://e.org/")
    assert "Footer" not in fit.text
    assert images_of(fit.markdown) == [("photo", "https://e.org/photo.jpg")]


def test_images_stay_out_of_data_tables_and_code() -> None:
    page = (
        "<p>Before the table.</p>"
        '<table><tr><th>k</th><th>v</th></tr><tr><td><img src="/t.png" alt="t">one</td>'
        "<td>2</td></tr></table>"
        '<pre><img src="/p.png" alt="p">code line</pre><p>After.</p>'
    )
    markdown = fit_text(page, IMAGES).markdown
    assert not images_of(markdown)
    assert "| k | v |\n| --- | --- |\n| one | 2 |" in markdown
    assert "code line\n```\n\nAfter." in markdown


@PROFILE
@given(
    st.lists(
        st.tuples(words, st.text(alphabet=MARKDOWN_CHARS, max_size=12)), min_size=1, max_size=4
    )
)
def test_images_parse_back_with_their_alt_and_src(parts: list[tuple[str, str]]) -> None:
    body = "".join(
        f'<p>word {esc(text)} <img src="/{number} (x).png" alt="{html.escape(alt)}"></p>'
        for number, (text, alt) in enumerate(parts)
    )
    fit = fit_text(body + "<p>after</p>", IMAGES, url="https://e.org/")
    found = [(alt, src.replace("%20", " ").replace("%28", "(").replace("%29", ")"))
             for alt, src in images_of(fit.markdown)]  # fmt: skip
    assert found == [
        (" ".join(alt.split()), f"https://e.org/{number} (x).png")
        for number, (_, alt) in enumerate(parts)
    ]
