"""Where each block of a segmented page sits in the page's structure.

The walk (blockdensity._walk) keeps, for a few C stores per element, an
element table (segment.Page.elements): the boundary elements it opened,
<body> first, in document order, each with the entry it sits in and a
signature of its class attribute's first token (the component it is an
instance of); the entry each block sits in (that of its first visible
text); and the classes of each <pre> and of its code child.
`Structure` answers from it what Markdown output and the page-kind rules
ask: a block's ancestors, its heading level, its list item (depth, ordering,
place, continuation), its table cell (row, cell, th, header row), its <pre>'s
language, its blockquote depth; a table's shape; the sibling containers that
repeat a tag and class signature (item cards, forum posts). All of it is
worked out here, on demand, once per page: the fit, which never asks, does
not pay for it.

The table holds the elements the configuration makes boundaries: by default
docs/spec.md section 2's list, which names every element read here (the lists and
their items, tables, rows and cells, pre, blockquote, the headings). An
element that does not end blocks under the configuration is not in it (tbody,
thead and tfoot are not: a row's table is the nearest table around it).
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass
from typing import Final

from blockdensity.elements import HEADING_LEVELS
from blockdensity.segment import Page

__all__ = ["Cell", "ListItem", "Repeat", "Structure", "TableShape", "cell_blocks", "item_blocks"]

_LISTS: Final = frozenset({"ul", "ol", "menu"})
_CELLS: Final = frozenset({"td", "th"})
_ITEMS: Final = frozenset({"li"})
_TABLE: Final = frozenset({"table"})
_ROW: Final = frozenset({"tr"})
# The entries counted in a container: list items, rows, cells.
_COUNTED: Final = _CELLS | {"li", "tr"}
# A class token naming a code block's language (highlight.js, Prism, the
# CommonMark spec's own output: language-x; Google's prettify: lang-x).
_LANGUAGE: Final = re.compile(r"(?:language|lang)-(.+)", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class ListItem:
    """The list item a block sits in."""

    item: int  # the <li>'s entry
    list: int  # the entry of the list around it (ul, ol or menu); -1: none
    ordered: bool  # that list is an <ol>
    depth: int  # the lists around the item: 1 in a list that is in no other
    index: int  # its place among its list's items, from 0
    continues: bool  # an earlier block sits in the same item (e.g. its second <p>)


@dataclass(frozen=True, slots=True)
class Cell:
    """The table cell a block sits in."""

    table: int  # the entry of the table around it; -1: none
    row: int  # the entry of its row (<tr>); -1: none
    row_index: int  # the row's place among its table's rows, from 0; -1: no row
    index: int  # the cell's place in its row, from 0
    header: bool  # a <th>
    header_row: bool  # every cell of its row is a <th>


@dataclass(frozen=True, slots=True)
class TableShape:
    """What tells a data table from a layout table."""

    rows: int
    columns: int  # the most cells in one of its rows
    header_rows: int  # rows of <th> only
    nested: bool  # another table inside it
    containers: int  # cells holding other boundary elements (div, p, lists...)


def cell_blocks(page: Page) -> list[int]:
    """The blocks in a table cell (in a <td> or <th>, or in an element inside one), in
    order: read off the element table in C, without building a Structure, so that a
    page without a table costs next to nothing (decide.tables asks on every page)."""
    elements = page.elements
    return elements.blocks_within(_CELLS) if elements is not None else []


def item_blocks(page: Page) -> list[int]:
    """The blocks in a list item (in an <li>, or in an element inside one), in order:
    read off the element table in C, as cell_blocks."""
    elements = page.elements
    return elements.blocks_within(_ITEMS) if elements is not None else []


@dataclass(frozen=True, slots=True)
class Repeat:
    """Sibling entries with one tag and one class signature: cards, posts, items."""

    parent: int
    tag: str
    signature: int  # 0: no class
    entries: tuple[int, ...]


class Structure:
    """The element table of a segmented page, and what follows from it.

    Entries are numbered in document order from 0 (<body>); blocks as in
    Page.blocks. Every method takes a block, except where it says entry.
    """

    def __init__(self, page: Page) -> None:
        elements = self._elements = page.elements
        tags, parents = elements.columns() if elements is not None else ([], [])
        self.tags: list[str] = tags
        self.parents: list[int] = parents
        self.block_entries = elements.blocks() if elements is not None else []
        self._pres = elements.pres() if elements is not None else {}
        self._signatures: list[int] | None = None
        self._ends: list[int] | None = None
        self._spans: dict[int, range] | None = None
        self._places: tuple[list[int], list[int]] | None = None

    @property
    def signatures(self) -> list[int]:
        """Each entry's class signature (read when first asked: only repeats need them)."""
        if self._signatures is None:
            elements = self._elements
            self._signatures = elements.signatures_list() if elements is not None else []
        return self._signatures

    def __len__(self) -> int:
        """The entries."""
        return len(self.tags)

    # ------------------------------------------------------------- entries

    def entry(self, block: int) -> int:
        """The entry the block sits in (its boundary element, Page.blocks' element)."""
        return self.block_entries[block]

    def lineage(self, entry: int) -> list[int]:
        """The entry and the entries around it, innermost first, <body> last."""
        found = []
        while entry >= 0:
            found.append(entry)
            entry = self.parents[entry]
        return found

    def ancestors(self, block: int) -> list[int]:
        """The block's entry and those around it, innermost first, <body> last."""
        return self.lineage(self.block_entries[block])

    def nearest(self, entry: int, tags: Collection[str]) -> int:
        """The innermost of the entry and those around it with one of `tags`; -1: none."""
        while entry >= 0 and self.tags[entry] not in tags:
            entry = self.parents[entry]
        return entry

    def children(self, entry: int) -> list[int]:
        """The entries whose parent is `entry`, in order."""
        return [
            child for child in range(entry + 1, self._end(entry)) if self.parents[child] == entry
        ]

    def descendants(self, entry: int) -> range:
        """The entries inside `entry`, in order."""
        return range(entry + 1, self._end(entry))

    def blocks_of(self, entry: int) -> range:
        """The blocks inside `entry` (a subtree's blocks follow each other)."""
        if self._spans is None:
            spans: dict[int, list[int]] = {}
            for block, inner in enumerate(self.block_entries):
                for outer in self.lineage(inner):
                    span = spans.setdefault(outer, [block, block])
                    span[1] = block
            self._spans = {outer: range(first, last + 1) for outer, (first, last) in spans.items()}
        return self._spans.get(entry, range(0))

    def _end(self, entry: int) -> int:
        # The first entry after `entry`'s subtree.
        if self._ends is None:
            ends = [len(self.tags)] * len(self.tags)
            open_entries: list[int] = []
            for index, parent in enumerate(self.parents):
                while open_entries and open_entries[-1] != parent:
                    ends[open_entries.pop()] = index
                open_entries.append(index)
            self._ends = ends
        return self._ends[entry]

    # ------------------------------------------------------------- blocks

    def element(self, block: int) -> str:
        """The block's boundary element's name."""
        return self.tags[self.block_entries[block]]

    def heading_level(self, block: int) -> int | None:
        """1 to 6 for a block in <h1> to <h6>; None for one in no heading."""
        heading = self.nearest(self.block_entries[block], HEADING_LEVELS)
        return HEADING_LEVELS[self.tags[heading]] if heading >= 0 else None

    def quote_depth(self, block: int) -> int:
        """The <blockquote> elements around the block (0: none)."""
        return sum(self.tags[entry] == "blockquote" for entry in self.ancestors(block))

    def language(self, block: int) -> str | None:
        """The language a block in <pre> is code in, as a language-x or lang-x class on the
        <pre> or on its code child names it; None: not in a <pre>, or none named."""
        return self.pre_language(self.nearest(self.block_entries[block], ("pre",)))

    def pre_language(self, pre: int) -> str | None:
        """The language the <pre> at entry `pre` is code in, as `language` says; None: none
        named, or not a <pre>."""
        if pre < 0 or pre not in self._pres:
            return None
        pre_class, code_class = self._pres[pre]
        for value in (pre_class, code_class or ""):
            for token in value.split():
                named = _LANGUAGE.fullmatch(token)
                if named is not None:
                    return named[1]
        return None

    def list_item(self, block: int) -> ListItem | None:
        """The list item the block sits in (the innermost); None: none."""
        item = self.nearest(self.block_entries[block], ("li",))
        if item < 0:
            return None
        containers, places = self._item_places()
        around = containers[item]
        return ListItem(
            item=item,
            list=around,
            ordered=around >= 0 and self.tags[around] == "ol",
            depth=sum(self.tags[entry] in _LISTS for entry in self.lineage(item)),
            index=places[item],
            continues=self.blocks_of(item).start < block,
        )

    def places(self) -> tuple[list[int], list[int]]:
        """Per entry, where an <li>, <tr> or cell is counted: the entry of its list, table
        or row (-1: none), and its place there from 0 (-1, -1 for any other entry)."""
        return self._item_places()

    def cell(self, block: int) -> Cell | None:
        """The table cell the block sits in (the innermost); None: none."""
        cell = self.nearest(self.block_entries[block], _CELLS)
        if cell < 0:
            return None
        containers, places = self._item_places()
        row = containers[cell]
        table = self._table_of_cell(cell)
        return Cell(
            table=table,
            row=row,
            row_index=places[row] if row >= 0 else -1,
            index=places[cell],
            header=self.tags[cell] == "th",
            header_row=row >= 0 and self._header_row(row),
        )

    def table_of(self, block: int) -> int:
        """The table of the cell the block sits in (the innermost), as `cell(block).table`
        has it, without the rest of the cell's record (whose header row reads every cell of
        its row); -1: in no cell, or in a cell outside a table."""
        cell = self.nearest(self.block_entries[block], _CELLS)
        return self._table_of_cell(cell) if cell >= 0 else -1

    def _table_of_cell(self, cell: int) -> int:
        # The table of the cell at entry `cell`: its row's, or the nearest around it.
        containers, _ = self._item_places()
        row = containers[cell]
        return containers[row] if row >= 0 else self.nearest(self.parents[cell], ("table",))

    # ------------------------------------------------------------- tables

    def table_shape(self, table: int) -> TableShape:
        """The rows, columns, header rows and nesting of the table at entry `table`."""
        containers, _ = self._item_places()
        rows = [row for row in self.descendants(table) if containers[row] == table]
        cells = [self._cells(row) for row in rows]
        inside = self.descendants(table)
        return TableShape(
            rows=len(rows),
            columns=max(map(len, cells), default=0),
            header_rows=sum(self._header_row(row) for row in rows),
            nested=any(self.tags[entry] == "table" for entry in inside),
            containers=sum(
                1 for row_cells in cells for cell in row_cells if self._end(cell) > cell + 1
            ),
        )

    def row_cells(self, row: int) -> int:
        """The cells of the row at entry `row`."""
        return len(self._cells(row))

    def _cells(self, row: int) -> list[int]:
        containers, _ = self._item_places()
        return [
            entry
            for entry in self.descendants(row)
            if containers[entry] == row and self.tags[entry] in _CELLS
        ]

    def _header_row(self, row: int) -> bool:
        cells = self._cells(row)
        return bool(cells) and all(self.tags[cell] == "th" for cell in cells)

    def _item_places(self) -> tuple[list[int], list[int]]:
        # Per entry, the entry it is counted in and its place there, from 0
        # (-1, -1 for the rest): an <li> in the nearest list around it, a
        # <tr> in the nearest table, a cell in the nearest row.
        if self._places is None:
            tags, parents = self.tags, self.parents
            containers = [-1] * len(tags)
            places = [-1] * len(tags)
            counts: dict[int, int] = {}
            for entry, tag in enumerate(tags):
                if tag not in _COUNTED:
                    continue
                # The nearest list, table or row around it (as `nearest` finds it).
                wanted = _LISTS if tag == "li" else _TABLE if tag == "tr" else _ROW
                container = parents[entry]
                while container >= 0 and tags[container] not in wanted:
                    container = parents[container]
                containers[entry] = container
                places[entry] = counts.get(container, 0)
                counts[container] = places[entry] + 1
            self._places = (containers, places)
        return self._places

    # ------------------------------------------------------------- repeats

    def repeated(self, least: int = 3) -> list[Repeat]:
        """The sibling entries that share a tag and a class signature, at least `least` of
        them under one parent, by the document order of their first."""
        groups: dict[tuple[int, str, int], list[int]] = {}
        tags, parents, signatures = self.tags, self.parents, self.signatures
        for entry in range(1, len(tags)):
            key = (parents[entry], tags[entry], signatures[entry])
            groups.setdefault(key, []).append(entry)
        found = [
            Repeat(parent, tag, signature, tuple(entries))
            for (parent, tag, signature), entries in groups.items()
            if len(entries) >= least
        ]
        return sorted(found, key=lambda repeat: repeat.entries[0])
