"""The rule of data tables, on every kind of page: a data table is kept whole.

A table's cells are short blocks, which the published tree rejects unless a
long block stands next to them: a table of figures loses half its words. A
data table (at least two rows and two columns, no table nested in it) one of
whose cells is kept, or that stands inside the kept text (after its first
kept block and before its last), is kept whole, its linked cells too (a
list's names, a schedule's teams: the truth of WCXB's listings holds them),
but for the cells in a dropped element or region (a table of links in a nav
or a footer is navigation). The second case is a table the tree kept
nothing of because a short heading or caption, not a long paragraph, stands
next to it (a shopping list under "Amounts per person", a ranking under its
h3): measured on the four development sets, it gains on each (BENCHMARKS.md,
"Rules by kind of page"). A layout table (one row or column, or tables
nested for the page's grid) is left to the tree: its cells are the page's
blocks, not a table's.
"""

from __future__ import annotations

from typing import Final

from blockdensity.article import CONTAINER_SCOPES
from blockdensity.decide.board import Board
from blockdensity.decide.container import kept_span
from blockdensity.decide.outcome import KEPT_OUTCOMES, Outcome
from blockdensity.structure import TableShape, cell_blocks

__all__ = ["MIN_COLUMNS", "MIN_ROWS", "apply", "is_data_shape"]

MIN_ROWS: Final = 2
MIN_COLUMNS: Final = 2


def is_data_shape(shape: TableShape) -> bool:
    """Whether a table of `shape` may be a data table: two rows and two columns at least,
    no table nested in it (blockdensity.markdown's pipe tables follow it too)."""
    return not shape.nested and shape.rows >= MIN_ROWS and shape.columns >= MIN_COLUMNS


def apply(board: Board, outcomes: list[Outcome]) -> None:
    """data_tables: every cell of a data table with a kept cell, or inside the kept text,
    is kept (but in a dropped element or region)."""
    # The blocks in cells, whatever their own element: a cell's text is often in a
    # <p> or a <div> block of its own (a word processor's table), which counting only
    # the blocks whose element is the cell missed (52 development pages move).
    cells = cell_blocks(board.page)
    kept = sum(1 for index in cells if outcomes[index] in KEPT_OUTCOMES)
    if kept == len(cells):
        return  # no cell left out (or none at all): nothing to keep
    first, last = kept_span(outcomes)
    if not kept and not any(first < index < last for index in cells):
        # No table has a kept cell or stands inside the kept text: nothing to
        # change, and no structure to build.
        return
    structure = board.structure()
    tables: dict[int, list[int]] = {}
    for index in cells:
        table = structure.table_of(index)
        if table >= 0:
            tables.setdefault(table, []).append(index)
    labels = board.labels
    for table, blocks in tables.items():
        inside = first < blocks[0] and blocks[-1] < last
        if not inside and not any(outcomes[index] in KEPT_OUTCOMES for index in blocks):
            continue
        if not is_data_shape(structure.table_shape(table)):
            continue
        for index in blocks:
            scope = board.scopes[index]
            if outcomes[index] not in KEPT_OUTCOMES and (
                scope < 0 or labels[scope] in CONTAINER_SCOPES
            ):
                outcomes[index] = Outcome.TABLE
