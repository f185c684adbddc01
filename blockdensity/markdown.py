"""The kept blocks as Markdown: CommonMark, with GitHub's pipe tables (Fit.markdown).

The same blocks as the text, each rendered as the element it sits in says
(blockdensity.structure reads the walk's element table): a heading as an ATX
heading of its level, a list item behind a `-` or `1.` marker, nested as the
page nests its lists, a data table's cells as a pipe table, a <pre> as a
fenced code block, a blockquote behind `>`, anything else as a paragraph; a
blank line between them. Its words are the text's words: the lines are
`render.block_lines`' lines (a code block keeps its blank lines too), and
the characters Markdown would read as markup are escaped, so that a parser
gives back what the page says.

A table is rendered as a table when it is a data table as the data_tables
rule has it (two rows and two columns or more, no table inside) and no cell
holds a heading, a <pre> or a blockquote: a layout table's cells are the
page's blocks, rendered as they are. Rendered on first access (Fit.markdown):
a caller who never reads it never pays for it, nor for the structure.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final, NamedTuple

from blockdensity.render import block_lines
from blockdensity.segment import BREAK_MARK, PRE, Page
from blockdensity.structure import Structure

__all__ = ["escape_cell", "escape_heading", "escape_line", "render_markdown"]

_HEADINGS: Final = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
_CELLS: Final = frozenset({"td", "th"})
# The containers a block's lines are prefixed for.
_CONTAINERS: Final = frozenset({"li", "blockquote"})
# What makes a table a layout table even when it has the shape of a data one.
_NOT_IN_CELLS: Final = _HEADINGS | {"pre", "blockquote"}
_MIN_ROWS: Final = 2  # blockdensity.decide.tables: a data table's shape
_MIN_COLUMNS: Final = 2

# Inline: what opens code spans, emphasis, links, raw HTML and autolinks,
# strikethrough and entity references, and the escape itself. An underscore
# between two letters or digits opens and closes nothing (CommonMark's
# flanking rules), so snake_case stays as it is.
_INLINE: Final = re.compile(r"[\\`*\[\]<~]|&(?=#?[0-9A-Za-z]+;)|(?<![^\W_])_|_(?![^\W_])")
# At a line's start: a heading, a blockquote, a list marker, a thematic
# break, a setext underline or a table's delimiter row (the first character
# escaped is enough), an ordered list marker (its dot or parenthesis).
_LINE_START: Final = re.compile(
    r"^(?:[>|]|:(?=.*\|)|#(?=#*(?:\s|$))|=(?==*\s*$)|[-+](?=[\s\-|:]|$))"
)
_ORDERED: Final = re.compile(r"^(\d{1,9})([.)])(?=\s|$)")
# A heading's closing sequence: a run of # at its end.
_CLOSING: Final = re.compile(r"(?<!#)#(?=#*$)")
_BACKTICKS: Final = re.compile(r"`+")
_LANGUAGE: Final = re.compile(r"[\w+#.-]+")


def escape_line(line: str) -> str:
    """One line of text (no newline, no leading or trailing whitespace) as Markdown that
    parses back as the same text: inline markup escaped, and what would start a block."""
    line = _INLINE.sub(r"\\\g<0>", line)
    line = _LINE_START.sub(r"\\\g<0>", line)
    return _ORDERED.sub(r"\1\\\2", line)


def escape_heading(text: str) -> str:
    """A heading's text as an ATX heading's content (its trailing # kept as text)."""
    return _CLOSING.sub(r"\\#", _INLINE.sub(r"\\\g<0>", text))


def escape_cell(text: str) -> str:
    """A table cell's text as a pipe table's cell: its inline markup and its pipes escaped."""
    return _INLINE.sub(r"\\\g<0>", text).replace("|", r"\|")


class _Unit(NamedTuple):
    """What one or more consecutive kept blocks render as."""

    kind: str  # "paragraph", "heading", "code", "table"
    key: int  # the block (paragraph, heading), the <pre> or the table entry
    chain: tuple[int, ...]  # the li and blockquote entries around it, outermost first
    lines: list[str]  # its Markdown lines, without the containers' prefixes


class _Table:
    """A pipe table's cells as they come: (row order, row entry) -> cell place -> texts."""

    def __init__(self) -> None:
        self.rows: dict[tuple[int, int], dict[int, list[str]]] = {}
        self.header: set[tuple[int, int]] = set()

    def add(self, row: tuple[int, int], place: int, text: str, *, header_row: bool) -> None:
        self.rows.setdefault(row, {}).setdefault(place, []).append(text)
        if header_row:
            self.header.add(row)

    def lines(self) -> list[str]:
        rows = sorted(self.rows)
        # The header: the first row of <th> cells, else the first row.
        head = next((row for row in rows if row in self.header), rows[0])
        rows.remove(head)
        columns = max(max(cells) + 1 for cells in self.rows.values())

        def line(row: tuple[int, int]) -> str:
            cells = self.rows[row]
            texts = ["<br>".join(cells.get(place, ())) for place in range(columns)]
            return "| " + " | ".join(texts) + " |"

        return [line(head), "|" + " --- |" * columns, *map(line, rows)]


class _Renderer:
    def __init__(self, page: Page) -> None:
        self.page = page
        self.structure = Structure(page)
        self.tags = self.structure.tags
        self.data_tables: dict[int, bool] = {}

    def chain(self, entry: int) -> tuple[int, ...]:
        tags = self.tags
        return tuple(reversed([e for e in self.structure.lineage(entry) if tags[e] in _CONTAINERS]))

    def is_data_table(self, table: int) -> bool:
        known = self.data_tables.get(table)
        if known is None:
            shape = self.structure.table_shape(table)
            tags = self.tags
            known = (
                not shape.nested
                and shape.rows >= _MIN_ROWS
                and shape.columns >= _MIN_COLUMNS
                and not any(tags[e] in _NOT_IN_CELLS for e in self.structure.descendants(table))
            )
            self.data_tables[table] = known
        return known

    def units(self, kept: Sequence[int]) -> list[_Unit]:
        page, structure = self.page, self.structure
        blocks, texts = page.blocks, page.block_texts()
        units: list[_Unit] = []
        tables: dict[int, _Table] = {}
        for index in kept:
            info, text = blocks[index], texts[index]
            entry = structure.entry(index)
            if info[PRE]:
                pre = structure.nearest(entry, ("pre",))
                key = pre if pre >= 0 else entry
                lines = _code_lines(text)
                last = units[-1] if units else None
                if last is not None and last.kind == "code" and last.key == key:
                    last.lines.extend(lines)
                elif lines:
                    units.append(_Unit("code", key, self.chain(key), lines))
                continue
            cell = structure.cell(index)
            if cell is not None and cell.table >= 0 and self.is_data_table(cell.table):
                text_lines = block_lines(info, text)
                if not text_lines:
                    continue
                last = units[-1] if units else None
                if last is None or last.kind != "table" or last.key != cell.table:
                    tables[cell.table] = _Table()
                    units.append(_Unit("table", cell.table, self.chain(cell.table), []))
                tables[cell.table].add(
                    (cell.row_index, cell.row),
                    cell.index,
                    "<br>".join(map(escape_cell, text_lines)),
                    header_row=cell.header_row,
                )
                continue
            text_lines = block_lines(info, text)
            if not text_lines:
                continue
            level = structure.heading_level(index)
            if level is not None:
                line = "#" * level + " " + escape_heading(" ".join(text_lines))
                units.append(_Unit("heading", index, self.chain(entry), [line]))
            else:
                escaped = [escape_line(line) for line in text_lines]
                # A <br> inside a paragraph: a hard line break (a backslash at the end).
                lines = [line + "\\" for line in escaped[:-1]] + escaped[-1:]
                units.append(_Unit("paragraph", index, self.chain(entry), lines))
        return [
            unit._replace(lines=tables[unit.key].lines()) if unit.kind == "table" else unit
            for unit in units
        ]

    def write(self, units: list[_Unit]) -> str:
        structure, tags = self.structure, self.tags
        out: list[str] = []
        widths: dict[int, int] = {}  # each list item begun: its marker's width
        previous: tuple[int, ...] | None = None
        for unit in units:
            chain = unit.chain
            if previous is not None and not self._tight(previous, chain, widths):
                # A blank line, inside the quotes the two units share.
                common = 0
                while common < min(len(previous), len(chain)) and previous[common] == chain[common]:
                    common += 1
                out.append(">" * sum(tags[e] == "blockquote" for e in chain[:common]))
            first = rest = ""
            for entry in chain:
                if tags[entry] == "blockquote":
                    first += "> "
                    rest += "> "
                elif entry in widths:
                    first += " " * widths[entry]
                    rest += " " * widths[entry]
                else:
                    marker = self._marker(entry)
                    widths[entry] = len(marker)
                    first += marker
                    rest += " " * len(marker)
            lines = unit.lines
            if unit.kind == "code":
                lines = _fence(lines, structure.pre_language(unit.key))
            out.append((first + lines[0]).rstrip())
            out.extend((rest + line).rstrip() for line in lines[1:])
            previous = chain
        return "\n".join(out)

    def _marker(self, item: int) -> str:
        around, place = self.structure.place(item)
        if around >= 0 and self.tags[around] == "ol":
            return f"{place + 1}. "
        return "- "

    def _tight(
        self, previous: tuple[int, ...], chain: tuple[int, ...], begun: dict[int, int]
    ) -> bool:
        """Whether `chain`'s unit begins a list item right below the previous unit's item,
        without a blank line: a sibling or a first nested item, which no lazy line or
        list that cannot interrupt a paragraph could swallow."""
        if not chain or chain[-1] in begun or self.tags[chain[-1]] != "li":
            return False
        items = [e for e in previous if self.tags[e] == "li"]
        if not items:
            return False
        around, place = self.structure.place(chain[-1])
        if any(self.structure.place(item)[0] == around for item in items):
            return chain[:-1] == previous[: len(chain) - 1]
        # The first item of a list nested in the previous item: an ordered list must
        # start at 1 to interrupt the paragraph before it.
        ordered = around >= 0 and self.tags[around] == "ol"
        return chain[:-1] == previous and (not ordered or place == 0)


def _code_lines(text: str) -> list[str]:
    lines = [line.rstrip() for line in text.replace(BREAK_MARK, "\n").split("\n")]
    while lines and not lines[-1]:
        lines.pop()
    start = 0
    while start < len(lines) and not lines[start]:
        start += 1
    return lines[start:]


def _fence(lines: list[str], language: str | None) -> list[str]:
    """A fenced code block: a fence longer than any run of backticks inside."""
    longest = max((len(run) for line in lines for run in _BACKTICKS.findall(line)), default=0)
    fence = "`" * max(3, longest + 1)
    info = language if language is not None and _LANGUAGE.fullmatch(language) else ""
    return [fence + info, *lines, fence]


def render_markdown(page: Page, kept: Sequence[int]) -> str:
    """The blocks `kept` (indexes into page.blocks, in order) as Markdown."""
    if not kept:
        return ""
    if page.elements is None or len(page.elements.blocks()) != len(page.blocks):
        # No element table (no body): each block a paragraph.
        texts = page.block_texts()
        paragraphs = [
            "\\\n".join(map(escape_line, lines))
            for index in kept
            if (lines := block_lines(page.blocks[index], texts[index]))
        ]
        return "\n\n".join(paragraphs)
    renderer = _Renderer(page)
    return renderer.write(renderer.units(kept))
