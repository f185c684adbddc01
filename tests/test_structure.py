"""Where each block sits in the page's structure (blockdensity.structure), on hand-made pages.

Each structural fact Markdown output and the page-kind rules read: a heading's
level, list items nested as the page nests them (ordered or not, their place,
a second paragraph continuing an item), tables as rows and cells (th, header
rows, nested tables, the shape of a table), a <pre>'s language, blockquote
paragraphs, and sibling containers repeating a tag and a class (cards). That
the walk's element table is the reference walk's on every corpus page and on
random tag soup is tests/test_walk.py's.
"""

from __future__ import annotations

from blockdensity import DEFAULT_CONF
from blockdensity.segment import segment
from blockdensity.structure import (
    Cell,
    ListItem,
    Repeat,
    Structure,
    TableShape,
    cell_blocks,
    item_blocks,
)
from tests.helpers import page
from tests.reference.walk import signature


def structure(body: str) -> tuple[Structure, list[str]]:
    """The structure of the page around `body`, and its blocks' texts (whitespace collapsed)."""
    segmented = segment(page(body), DEFAULT_CONF)
    return Structure(segmented), [" ".join(text.split()) for text in segmented.block_texts()]


def block(texts: list[str], text: str) -> int:
    return texts.index(text)


# --------------------------------------------------------------------------- entries


def test_a_blocks_ancestors_are_the_boundary_elements_around_it_innermost_first() -> None:
    found, texts = structure("<main><section><p>a01 <b>b01</b></p></section></main><p>c01</p>")
    assert [found.tags[entry] for entry in found.ancestors(0)] == ["p", "section", "main", "body"]
    assert found.element(0) == "p"
    assert texts == ["a01 b01", "c01"]
    assert [found.tags[entry] for entry in found.ancestors(1)] == ["p", "body"]
    # Inline elements (b) are not entries; <body> is entry 0.
    assert found.tags == ["body", "main", "section", "p", "p"]
    assert found.parents == [-1, 0, 1, 2, 0]


def test_text_after_a_nested_boundary_sits_in_the_element_around_it() -> None:
    found, texts = structure("<div>a01<p>b01</p>c01</div><p>d01</p>")
    assert texts == ["a01", "b01", "c01", "d01"]
    assert [found.element(index) for index in range(4)] == ["div", "p", "div", "p"]
    div = found.entry(0)
    assert found.blocks_of(div) == range(3)
    assert found.children(div) == [found.entry(1)]
    assert found.blocks_of(found.entry(3)) == range(3, 4)
    assert found.blocks_of(0) == range(4)


def test_an_element_without_visible_text_is_an_entry_with_no_blocks() -> None:
    found, texts = structure("<div><p> </p><hr><p>a01</p></div>")
    assert texts == ["a01"]
    assert found.tags == ["body", "div", "p", "p"]  # <hr> opens nothing
    assert found.blocks_of(2) == range(0)
    assert found.entry(0) == 3


def test_a_page_without_text_has_its_body_alone() -> None:
    found, texts = structure("")
    assert texts == []
    assert found.tags == ["body"]
    assert found.repeated() == []


# --------------------------------------------------------------------------- headings


def test_a_heading_gives_its_level_to_the_blocks_in_it() -> None:
    found, texts = structure(
        "<h1>t01</h1><h3><span>t02</span></h3><h2><div>t03</div></h2><p>p01</p><h6>t04</h6>"
    )
    levels = {text: found.heading_level(block(texts, text)) for text in texts}
    assert levels == {"t01": 1, "t02": 3, "t03": 2, "p01": None, "t04": 6}


# --------------------------------------------------------------------------- lists


NESTED_LISTS = (
    "<ul><li>a01</li><li>a02<ol><li>b01</li><li><p>b02</p><p>b03</p></li></ol></li>"
    "<li>a03</li></ul><p>after</p><menu><li>m01</li></menu>"
)


def test_list_items_are_nested_as_the_page_nests_them() -> None:
    found, texts = structure(NESTED_LISTS)
    assert texts == ["a01", "a02", "b01", "b02", "b03", "a03", "after", "m01"]
    items = [found.list_item(index) for index in range(len(texts))]
    shapes = [
        None if item is None else (item.ordered, item.depth, item.index, item.continues)
        for item in items
    ]
    assert shapes == [
        (False, 1, 0, False),
        (False, 1, 1, False),
        (True, 2, 0, False),
        (True, 2, 1, False),
        (True, 2, 1, True),  # the item's second paragraph continues it
        (False, 1, 2, False),
        None,
        (False, 1, 0, False),
    ]
    outer, inner = items[0], items[2]
    assert isinstance(outer, ListItem)
    assert isinstance(inner, ListItem)
    assert found.tags[outer.list] == "ul"
    assert found.tags[inner.list] == "ol"
    assert items[1] is not None
    assert found.nearest(inner.list, ("li",)) == items[1].item  # the ol sits in a02's item
    assert items[3] is not None
    assert items[4] == ListItem(
        item=items[3].item, list=inner.list, ordered=True, depth=2, index=1, continues=True
    )
    assert [found.element(index) for index in (3, 4)] == ["p", "p"]


def test_item_blocks_are_the_blocks_a_list_item_holds_read_without_a_structure() -> None:
    found, texts = structure(NESTED_LISTS)
    segmented = segment(page(NESTED_LISTS), DEFAULT_CONF)
    assert item_blocks(segmented) == [
        index for index in range(len(texts)) if found.list_item(index) is not None
    ]
    assert item_blocks(segmented) == [0, 1, 2, 3, 4, 5, 7]
    assert (
        item_blocks(
            segment(page("<div><p>one</p><table><tr><td>two</td></tr></table></div>"), DEFAULT_CONF)
        )
        == []
    )


def test_an_item_outside_any_list_has_depth_zero() -> None:
    found, _ = structure("<div><li>a01</li><li>a02</li></div>")
    assert found.list_item(1) == ListItem(
        item=found.entry(1), list=-1, ordered=False, depth=0, index=1, continues=False
    )


# --------------------------------------------------------------------------- tables


TABLE = (
    "<table><caption>cap01</caption><thead><tr><th>h01</th><th>h02</th></tr></thead>"
    "<tbody><tr><td>c01</td><td><p>c02</p></td></tr><tr><th>r01</th><td>c03</td></tr>"
    "</tbody></table><p>after</p>"
)


def test_a_table_is_rows_and_cells_with_its_header_row() -> None:
    found, texts = structure(TABLE)
    assert texts == ["cap01", "h01", "h02", "c01", "c02", "r01", "c03", "after"]
    table = found.nearest(found.entry(1), ("table",))
    cells = {text: found.cell(block(texts, text)) for text in texts}
    assert cells["cap01"] is None
    assert cells["after"] is None
    shapes = {
        text: (cell.row_index, cell.index, cell.header, cell.header_row)
        for text, cell in cells.items()
        if cell is not None
    }
    assert shapes == {
        "h01": (0, 0, True, True),
        "h02": (0, 1, True, True),
        "c01": (1, 0, False, False),
        "c02": (1, 1, False, False),  # a paragraph in a cell: the cell's
        "r01": (2, 0, True, False),  # a th in a row of tds is no header row
        "c03": (2, 1, False, False),
    }
    assert {cell.table for cell in cells.values() if cell is not None} == {table}
    # table_of: the cell's table alone, -1 outside a cell.
    assert [found.table_of(index) for index in range(len(texts))] == [
        cell.table if cell is not None else -1 for cell in cells.values()
    ]
    first, second = cells["h01"], cells["c01"]
    assert first is not None
    assert second is not None
    assert found.tags[first.row] == "tr"
    assert first.row != second.row
    assert found.table_shape(table) == TableShape(
        rows=3, columns=2, header_rows=1, nested=False, containers=1
    )
    # cell_blocks, read off the element table without a Structure: the same blocks.
    segmented = segment(page(TABLE), DEFAULT_CONF)
    assert cell_blocks(segmented) == [i for i, text in enumerate(texts) if cells[text]]
    assert found.row_cells(first.row) == 2


def test_a_page_without_a_table_has_no_cell_blocks() -> None:
    assert (
        cell_blocks(segment(page("<div><p>one</p><ul><li>two</li></ul></div>"), DEFAULT_CONF)) == []
    )
    # A paragraph inside a div inside a cell is the cell's still.
    assert cell_blocks(
        segment(page("<p>a</p><table><tr><td><div><p>b</p></div></td></tr></table>"), DEFAULT_CONF)
    ) == [1]


def test_a_nested_table_counts_its_own_rows_and_cells() -> None:
    found, texts = structure(
        "<table><tr><td>o01</td><td><table><tr><td>i01</td><td>i02</td><td>i03</td></tr>"
        "</table></td></tr><tr><td>o02</td></tr></table>"
    )
    assert texts == ["o01", "i01", "i02", "i03", "o02"]
    cells = [found.cell(index) for index in range(len(texts))]
    assert all(isinstance(cell, Cell) for cell in cells)
    outer = cells[0].table if cells[0] else -1
    inner = cells[1].table if cells[1] else -1
    assert outer != inner
    assert [found.table_of(index) for index in range(len(texts))] == [
        outer,
        inner,
        inner,
        inner,
        outer,
    ]
    assert [(cell.table, cell.row_index, cell.index) for cell in cells if cell] == [
        (outer, 0, 0),
        (inner, 0, 0),
        (inner, 0, 1),
        (inner, 0, 2),
        (outer, 1, 0),
    ]
    assert found.table_shape(outer) == TableShape(
        rows=2, columns=2, header_rows=0, nested=True, containers=1
    )
    assert found.table_shape(inner) == TableShape(
        rows=1, columns=3, header_rows=0, nested=False, containers=0
    )


# --------------------------------------------------------------------------- code


def test_a_pre_names_its_language_by_its_class_or_its_code_childs() -> None:
    found, texts = structure(
        "<pre class='language-python'>x01</pre>"
        "<pre><code class='hljs lang-js'>x02</code></pre>"
        "<pre class=wide>\n<!-- c --><code class='language-rust x'>x03</code></pre>"
        "<pre class='language-go'><code class='language-c'>x04</code></pre>"
        "<pre>x05</pre>"
        "<pre><b>x06</b><code class='language-c'>x07</code></pre>"
        "<p class='language-x'>x08</p>"
        "<pre class='Language-TypeScript'><span>x09</span></pre>"
    )
    languages = {text: found.language(block(texts, text)) for text in texts}
    assert languages == {
        "x01": "python",
        "x02": "js",
        "x03": "rust",
        "x04": "go",  # the pre's own class first
        "x05": None,
        "x06x07": None,  # its first element is not a code
        "x08": None,  # not in a pre
        "x09": "TypeScript",
    }


def test_a_hidden_code_child_names_nothing() -> None:
    found, texts = structure("<pre><code hidden class=language-c>x</code>y01</pre>")
    assert texts == ["y01"]
    assert found.language(0) is None


# --------------------------------------------------------------------------- quotes


def test_paragraphs_in_a_blockquote_are_quote_paragraphs() -> None:
    found, texts = structure(
        "<blockquote><p>q01</p><blockquote><p>q02</p></blockquote>q03</blockquote><p>n01</p>"
    )
    assert texts == ["q01", "q02", "q03", "n01"]
    assert [found.quote_depth(index) for index in range(4)] == [1, 2, 1, 0]
    assert [found.element(index) for index in range(4)] == ["p", "p", "blockquote", "p"]


# --------------------------------------------------------------------------- repeats


def _card(number: int, extra: str = "") -> str:
    return (
        f"<article class='card{extra}'><h3><a href=/{number}>title{number:02d}</a></h3>"
        f"<p>text{number:02d} of the card</p></article>"
    )


def test_repeated_cards_are_siblings_with_one_tag_and_first_class_token() -> None:
    # The first token names the component; the tokens after it (a modifier, a post's
    # id, as WordPress writes them) do not split the group. A sibling whose first
    # token is another component's is not one of the cards.
    found, texts = structure(
        "<div class=grid>"
        + "".join(_card(number) for number in range(1, 4))
        + _card(4, " promo post-4")
        + "<article class=' card '>"
        + "<h3>title05</h3><p>text05 of the card</p></article>"
        + "<article class='banner card'><h3>title06</h3><p>text06 of the banner</p></article>"
        + "</div>"
        "<ul><li>x01<li>x02</ul>"
    )
    grid = found.nearest(found.entry(0), ("div",))
    cards = found.children(grid)
    assert [found.tags[entry] for entry in cards] == ["article"] * 6
    assert found.repeated(3) == [Repeat(grid, "article", signature("card"), tuple(cards[:5]))]
    assert found.signatures[cards[3]] == signature("card promo post-4") == signature("card")
    assert found.signatures[cards[5]] == signature("banner card") != signature("card")
    # Each card's blocks: its linked title, then its line of text.
    assert [texts[index] for index in found.blocks_of(cards[1])] == [
        "title02",
        "text02 of the card",
    ]
    items = (found.entry(len(texts) - 2), found.entry(len(texts) - 1))
    assert found.repeated(2)[1:] == [Repeat(found.parents[items[0]], "li", 0, items)]


def test_a_class_signature_is_its_first_token_whatever_the_spacing() -> None:
    found, _ = structure(
        "<p class='a b'>x</p><p class=' a\t\nc  '>x</p><p class='b a'>x</p><p class=''>x</p>"
        "<p>x</p><p class='caf\u00e9'>x</p><p class='a caf\u00e9'>x</p><p class='caf\u00e9 a'>x</p>"
    )
    signatures = found.signatures[1:]
    assert signatures[0] == signatures[1] == signature("a") != 0
    assert signatures[2] == signature("b") != signatures[0]
    assert signatures[3] == signatures[4] == 0
    assert signatures[5] == signature("caf\u00e9") not in {0, signatures[0]}
    # A token that is not ASCII after the first does not change it; as the first, it is read.
    assert signatures[6] == signatures[0]
    assert signatures[7] == signatures[5]
