"""The kept blocks as Markdown: CommonMark, with GitHub's pipe tables (Fit.markdown).

The same blocks as the text, each rendered as the element it sits in says
(blockdensity.structure reads the walk's element table): a heading as an ATX
heading of its level, a list item behind a `-` or `1.` marker, nested as the
page nests its lists, a data table's cells as a pipe table, a <pre> as a
fenced code block, a blockquote behind `>`, anything else as a paragraph; a
blank line between them. Where a page uses an element for layout, its blocks
render as WCXB's Markdown writes them (measured on its dev pages): a list item
holding a heading or a <div> is a card or a grid's cell, not a list item (a
card's heading that is a link end to end is its title, a line); a blockquote
holding a list, heading, table or <pre> is a box, not a quotation; and lines
of text begun by bullets are a list's items; a heading in a <summary> (a
disclosure widget's label) and one that is a link from end to end heading
nothing (a list of linked titles) are lines, and so, on a page read as a
collection or a product, is a heading over fewer than 20 words (an item's
name, a shop widget's title). Its words are the text's words:
the lines are `render.block_lines`' lines (a code block keeps its blank lines
too), and the characters Markdown would read as markup are escaped, so that a
parser gives back what the page says.

A table is rendered as a table when it is a data table as the data_tables
rule has it (two rows and two columns or more, no table inside) and no cell
holds a heading (but in its first row, a title over its columns, or alone in
its row, a group's label), a <pre> or a blockquote: a layout table's cells are
the page's blocks, rendered as they are; so are a table's whose kept text lies
in one column (a list of lines, no grid). Rendered on first access
(Fit.markdown): a caller who never reads it never pays for it, nor for the
structure.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator, Sequence
from typing import Final

from blockdensity import _text
from blockdensity.decide.tables import is_data_shape
from blockdensity.elements import HEADING_LEVELS, HEADINGS
from blockdensity.mdimages import Image, Images
from blockdensity.mdlinks import Links
from blockdensity.pagetype import PageType
from blockdensity.render import block_lines
from blockdensity.segment import (
    ANCHOR_MARK,
    BLOCK_END,
    BREAK_MARK,
    PRE,
    BlockInfo,
    Page,
    unmarked,
)
from blockdensity.structure import Structure

__all__ = ["escape_cell", "escape_heading", "escape_line", "render_markdown"]

_CELLS: Final = frozenset({"td", "th"})
# The containers a block's lines are prefixed for.
_CONTAINERS: Final = frozenset({"li", "blockquote"})
# What makes a table a layout table even when it has the shape of a data one.
_NOT_IN_CELLS: Final = HEADINGS | {"pre", "blockquote"}

# Inline: what opens code spans, emphasis, links, raw HTML and autolinks,
# strikethrough and entity references, and the escape itself. An underscore
# between two letters or digits opens and closes nothing (CommonMark's
# flanking rules), so snake_case stays as it is. Escaped without a callback
# per match (half of the escaping's cost when it was one regex with a
# callback): str.replace for each character always escaped, the backslash
# first (str.translate is slower still on non-ASCII text), then two literal
# substitutions where an underscore or an ampersand is present. `[^\W_]` is
# a letter or digit as str.isalnum says; an inserted backslash stands only
# before a character that is neither, so the passes do not disturb each other.
_ALWAYS: Final = tuple((char, "\\" + char) for char in "`*[]<~")
# (An underscore first, then what is around it: the search skips to each one.)
_UNDERSCORE: Final = re.compile(r"_(?:(?<![^\W_]_)|(?![^\W_]))")
_ENTITY: Final = re.compile(r"&(?=#?[0-9A-Za-z]+;)")
# At a line's start: a heading, a blockquote, a list marker, a thematic
# break, a setext underline or a table's delimiter row (the first character
# escaped is enough), an ordered list marker (its dot or parenthesis).
_LINE_START: Final = re.compile(
    r"^(?:[>|]|:(?=.*\|)|#(?=#*(?:[ \t]|$))|=(?==*[ \t]*$)|[-+](?=[ \t\-|:]|$))", re.MULTILINE
)
_ORDERED: Final = re.compile(r"^(\d{1,9})([.)])(?=[ \t]|$)", re.MULTILINE)
# The first characters of the lines the two patterns above may escape.
_STARTS: Final = frozenset(">|:#=-+0123456789")
# A heading's closing sequence: a run of # at its end.
_CLOSING: Final = re.compile(r"(?<!#)#(?=#*$)", re.MULTILINE)
_BACKTICKS: Final = re.compile(r"`+")
_LANGUAGE: Final = re.compile(r"[\w+#.-]+")


def escape_line(line: str) -> str:
    """One line of text (no newline, no leading or trailing whitespace) as Markdown that
    parses back as the same text: inline markup escaped, and what would start a block."""
    return escape_lines([line])[0]


def _inline(text: str) -> str:
    """`text` with its inline markup escaped."""
    if "\\" in text:
        text = text.replace("\\", "\\\\")
    for char, escaped in _ALWAYS:
        if char in text:
            text = text.replace(char, escaped)
    if "_" in text:
        text = _UNDERSCORE.sub(r"\\_", text)
    if "&" in text:
        text = _ENTITY.sub(r"\\&", text)
    return text


def escape_lines(lines: list[str]) -> list[str]:
    """`escape_line` of each line (escaped together: one pass of each pattern)."""
    escaped = _inline("\n".join(lines)).split("\n")
    for place, line in enumerate(escaped):
        if line[:1] in _STARTS:
            escaped[place] = _ORDERED.sub(r"\1\\\2", _LINE_START.sub(_escaped, line))
    return escaped


def _escaped(found: re.Match[str]) -> str:
    return "\\" + found[0]


def escape_heading(text: str) -> str:
    """A heading's text as an ATX heading's content (its trailing # kept as text)."""
    return escape_headings([text])[0]


def escape_headings(texts: list[str]) -> list[str]:
    """`escape_heading` of each text (escaped together)."""
    joined = _inline("\n".join(texts))
    return (_CLOSING.sub(r"\\#", joined) if "#" in joined else joined).split("\n")


def escape_cell(text: str) -> str:
    """A table cell's text as a pipe table's cell: its inline markup and its pipes escaped."""
    return _inline(text).replace("|", r"\|")


# _Context and _Unit are plain classes, not NamedTuples: compiled, their
# attributes are read as C fields (a NamedTuple's go through a lookup), on
# every block.
class _Context:
    """Where an entry sits: what its blocks render as."""

    __slots__ = ("cell", "chain", "level", "pre")

    def __init__(self, chain: tuple[int, ...], level: int, cell: int, pre: int) -> None:
        self.chain = chain  # the li and blockquote entries around it and it, outermost first
        self.level = level  # the heading it is in: 1-6; 0: none; _LABEL: in a <summary>
        self.cell = cell  # the innermost table cell around it or it; -1: none
        self.pre = pre  # the innermost <pre> around it or it; -1: none


_OUTSIDE: Final = _Context((), 0, -1, -1)
# The level inside a <summary>: a disclosure widget's label (an FAQ's question, a
# collapsed section's name), a line of its own even when the page puts it in a
# heading. WCXB's Markdown writes it so: on its dev pages 5 of the 215 headings in a
# <summary> the fit rendered as headings were headings there (8 of the 9 sites none).
_LABEL: Final = -1
_CONTEXT_TAGS: Final = _CONTAINERS | _CELLS | HEADINGS | {"pre", "summary"}


class _Unit:
    """What one or more consecutive kept blocks render as."""

    __slots__ = ("chain", "key", "kind", "lines")

    def __init__(self, kind: str, key: int, chain: tuple[int, ...], lines: list[str]) -> None:
        # "paragraph", "heading", "code", "table"; "done": escaped already; "image" (done
        # too); "title", "linked title", "linked heading": headings until _titles says
        self.kind = kind
        self.key = key  # the block (paragraph), the level (heading), the <pre> or the table
        self.chain = chain  # the li and blockquote entries around it, outermost first
        self.lines = lines  # its Markdown lines, without the containers' prefixes


class _Table:
    """A pipe table's cells as they come: (row order, row entry) -> cell place -> texts."""

    def __init__(self) -> None:
        self.rows: dict[tuple[int, int], dict[int, list[str]]] = {}
        self.header: set[tuple[int, int]] = set()
        # Its blocks as they came: (block, lines, whether the lines are Markdown already).
        self.blocks: list[tuple[int, list[str], bool]] = []

    def add(self, row: tuple[int, int], place: int, text: str, *, header_row: bool) -> None:
        self.rows.setdefault(row, {}).setdefault(place, []).append(text)
        if header_row:
            self.header.add(row)

    def words(self) -> int:
        """How many words its cells hold."""
        return sum(
            len(text.split())
            for cells in self.rows.values()
            for texts in cells.values()
            for text in texts
        )

    def one_column(self) -> bool:
        """Whether all its text lies in one column."""
        places = {place for cells in self.rows.values() for place in cells}
        return len(places) == 1

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
    def __init__(
        self,
        page: Page,
        images: Images | None = None,
        kind: PageType | None = None,
        structure: Structure | None = None,
    ) -> None:
        self.page = page
        self.images = images
        self.kind = kind  # the kind of page whose rules kept the blocks
        self.structure = structure if structure is not None else Structure(page)
        self.tags = self.structure.tags
        self.data_tables: dict[int, bool] = {}
        self.contexts: dict[int, _Context] = {}
        self.parents = self.structure.parents
        self.header_rows: dict[int, bool] = {}
        # The kept blocks that are links from end to end (set by units).
        self.titles: set[int] = set()
        self.cards = _card_items(self.tags, self.parents)
        # The list items and blockquotes that add no level: cards (and grid cells), boxes.
        self.flat = self.cards | _boxes(self.tags, self.parents)

    def context(self, entry: int) -> _Context:
        """Where the entry sits: worked out once per entry, from its parent's."""
        contexts = self.contexts
        known = contexts.get(entry)
        if known is not None:
            return known
        # The entries around it not yet known, innermost first; then down from there.
        path = []
        parents = self.parents
        while entry >= 0 and entry not in contexts:
            path.append(entry)
            entry = parents[entry]
        outer = contexts[entry] if entry >= 0 else _OUTSIDE
        tags, flat = self.tags, self.flat
        for inner in reversed(path):
            tag = tags[inner]
            if tag in _CONTEXT_TAGS:
                level = outer.level
                if tag == "summary":
                    level = _LABEL
                elif level != _LABEL:
                    level = HEADING_LEVELS.get(tag, level)
                outer = _Context(
                    (*outer.chain, inner)
                    if tag in _CONTAINERS and inner not in flat
                    else outer.chain,
                    level,
                    inner if tag in _CELLS else outer.cell,
                    inner if tag == "pre" else outer.pre,
                )
            contexts[inner] = outer
        return outer

    def _heading_context(self, entry: int, context: _Context, linked: bool) -> _Context:
        """The context of a block in a heading, in `entry`; `linked`: the block is a link
        from end to end. Such a heading in a card (a list item holding a heading) is the
        card's title, a line of its own as a listing's entries are (WCXB's Markdown writes
        such titles as link lines: on its dev pages 23% of them are headings there,
        against 85% of other headings)."""
        if not linked or self.structure.nearest(entry, ("li",)) not in self.cards:
            return context
        return _Context(context.chain, 0, context.cell, context.pre)

    def is_data_table(self, table: int) -> bool:
        """Whether the table at entry `table` renders as a pipe table: a data table's
        shape, no heading (but a title over its columns or a group's label), <pre> or
        blockquote in a cell.
        A table in a <form> is one too: on WCXB's dev pages such tables were never
        tables in the truth, but 1,191 of their 1,444 cells are on one template's pages,
        and an ASP.NET page wraps its whole body, data tables and all, in a <form>."""
        known = self.data_tables.get(table)
        if known is None:
            tags = self.tags
            structure = self.structure
            known = is_data_shape(structure.table_shape(table)) and not any(
                tags[e] in _NOT_IN_CELLS and not self._heads_table(e, table)
                for e in structure.descendants(table)
            )
            self.data_tables[table] = known
        return known

    def units(self, kept: Sequence[int], links: Links, rendered: str | None) -> list[_Unit]:
        page, structure = self.page, self.structure
        blocks = page.blocks
        # The blocks that are links from end to end: a card's title when in a heading.
        texts, card_titles_at = _kept_texts(page.text, kept)
        self.titles = card_titles_at
        entries = structure.block_entries
        # The one-line blocks' lines: those of the text render made of these blocks when
        # given, else collapsed in one pass as render_blocks does.
        plain = [
            index for index in kept if not blocks[index][PRE] and BREAK_MARK not in texts[index]
        ]
        one_line = _rendered_lines(kept, plain, blocks, texts, rendered) if rendered else None
        if one_line is None:
            collapsed = (
                _text.collapse([texts[index] for index in plain]).split("\n") if plain else []
            )
            one_line = (
                dict(zip(plain, collapsed, strict=True)) if len(collapsed) == len(plain) else {}
            )
        units: list[_Unit] = []
        tables: dict[int, _Table] = {}
        images = self.images
        previous = -1
        for index in kept:
            info, text = blocks[index], texts[index]
            context = self.context(entries[index])
            if images is not None:
                self._add_images(units, images, previous, index)
                previous = index
            if info[PRE]:
                self._add_code(units, context.pre if context.pre >= 0 else entries[index], text)
                continue
            if context.level > 0:
                context = self._heading_context(entries[index], context, index in card_titles_at)
            linked = links.get(index)
            if linked is not None:
                self._add_linked(units, tables, index, context, linked)
                continue
            line = one_line.get(index)
            text_lines = [line] if line is not None else block_lines(info, text)
            if not text_lines:
                continue
            if context.cell >= 0 and self._add_cell(units, tables, index, context.cell, text_lines):
                continue
            if context.level > 0:
                kind = "title" if index in card_titles_at else "heading"
                units.append(_Unit(kind, context.level, context.chain, [" ".join(text_lines)]))
            else:
                units.extend(_paragraphs(index, context.chain, text_lines))
        if images is not None and previous >= 0:
            self._add_images(units, images, previous, -1)
        return self._laid_out(units, tables)

    def _laid_out(self, units: list[_Unit], tables: dict[int, _Table]) -> list[_Unit]:
        """The units as the page lays them out (tables of one column as blocks, items'
        names and linked titles as lines), escaped."""
        if tables:
            units = _unstacked(units, tables)
        if self.kind in _NAMED_ITEMS:
            _item_names(units, tables)
        _titles(units)
        self._escape(units, tables)
        return units

    def _heads_table(self, entry: int, table: int) -> bool:
        """Whether the entry is a heading in the first row of `table` (a title over its
        columns, which WCXB's Markdown writes as the table's header cell) or in a row of
        one cell (a group's label over the rows below it, "Vegetables" in a shopping
        list, which the truth writes as a row's first cell)."""
        if self.tags[entry] not in HEADINGS:
            return False
        structure = self.structure
        containers, places = structure.places()
        cell = structure.nearest(entry, _CELLS)
        row = containers[cell] if cell >= 0 else -1
        if row < 0 or containers[row] != table:
            return False
        return places[row] == 0 or structure.row_cells(row) == 1

    def _add_code(self, units: list[_Unit], pre: int, text: str) -> None:
        """Add a block of the <pre> at entry `pre` to its code unit."""
        lines = _code_lines(text)
        last = units[-1] if units else None
        if last is not None and last.kind == "code" and last.key == pre:
            last.lines.extend(lines)
        elif lines:
            units.append(_Unit("code", pre, self.context(pre).chain, lines))

    def _add_images(self, units: list[_Unit], images: Images, previous: int, index: int) -> None:
        """The images between the kept blocks `previous` and `index` (-1: none), as units of
        their own: those after `previous`, those between the two, those before `index`."""
        entries = self.structure.block_entries
        if previous >= 0:
            before = self._image_chain(entries[previous])
            found = [*images.after.get(previous, ()), *images.between.get((previous, previous), ())]
            if found and before is not None:
                units.extend(_image_unit(image, previous, before) for image in found)
            between = images.between.get((previous, index)) if index >= 0 else None
            after = self._image_chain(entries[index]) if between else None
            if between and before is not None and after is not None:
                common = 0
                while common < min(len(before), len(after)) and before[common] == after[common]:
                    common += 1
                units.extend(_image_unit(image, index, before[:common]) for image in between)
        ahead = images.before.get(index) if index >= 0 else None
        if ahead:
            chain = self._image_chain(entries[index])
            if chain is not None:
                units.extend(_image_unit(image, index, chain) for image in ahead)

    def _image_chain(self, entry: int) -> tuple[int, ...] | None:
        """The containers an image beside a block in `entry` renders in; None: none renders
        there (a <pre>, or a data table's cell: the code and the table render whole)."""
        context = self.context(entry)
        if context.pre >= 0 or (context.cell >= 0 and self._data_table(context.cell) >= 0):
            return None
        return context.chain

    def _escape(self, units: list[_Unit], tables: dict[int, _Table]) -> None:
        """The units' lines as Markdown: all paragraphs' lines escaped at once, then all
        headings'; the tables' rows."""
        escaped = iter(
            escape_lines(
                [line for unit in units if unit.kind in _ESCAPED_AS_TEXT for line in unit.lines]
            )
        )
        headings = iter(
            escape_headings([unit.lines[0] for unit in units if unit.kind == "heading"])
        )
        for unit in units:
            kind, unit_lines = unit.kind, unit.lines
            if kind == "paragraph":
                if len(unit_lines) == 1:
                    unit_lines[0] = next(escaped)
                else:
                    # A <br> inside a paragraph: a hard line break (a backslash at the end).
                    count = len(unit_lines)
                    unit_lines[:] = [next(escaped) + "\\" for _ in range(count - 1)]
                    unit_lines.append(next(escaped))
            elif kind == "items":
                unit_lines[:] = ["- " + next(escaped) for _ in range(len(unit_lines))]
            elif kind == "heading":
                unit_lines[0] = "#" * unit.key + " " + next(headings)
            elif kind == "table":
                unit_lines[:] = tables[unit.key].lines()

    def write(self, units: list[_Unit]) -> str:
        structure, tags = self.structure, self.tags
        out: list[str] = []
        widths: dict[int, int] = {}  # each list item begun: its marker's width
        previous: tuple[int, ...] | None = None
        for unit in units:
            chain = unit.chain
            if not chain and not previous:  # the common case: in no list and no quote
                if previous is not None:
                    out.append("")
                if unit.kind == "code":
                    out.extend(_fence(unit.lines, structure.pre_language(unit.key)))
                else:
                    out.extend(unit.lines)
                previous = chain
                continue
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

    def _add_linked(
        self,
        units: list[_Unit],
        tables: dict[int, _Table],
        index: int,
        context: _Context,
        linked: tuple[str, list[str]],
    ) -> None:
        """Add the block `index`, which has links (`linked`: its raw text and their targets),
        rendered and escaped at once."""
        lines = _linked_lines(*linked)
        if not lines:
            return
        if context.cell >= 0 and self._add_cell(
            units, tables, index, context.cell, lines, escaped=True
        ):
            return
        if context.level > 0:
            heading = _CLOSING.sub(r"\\#", " ".join(lines))
            kind = "linked title" if index in self.titles else "linked heading"
            level = context.level
            units.append(_Unit(kind, level, context.chain, ["#" * level + " " + heading]))
        else:
            units.extend(_linked_paragraphs(index, context.chain, lines))

    def _add_cell(  # noqa: PLR0913 - the units so far, and where the block goes
        self,
        units: list[_Unit],
        tables: dict[int, _Table],
        index: int,
        cell: int,
        text_lines: list[str],
        *,
        escaped: bool = False,
    ) -> bool:
        """Add the block `index`, in the cell at entry `cell`, to its table's unit, if its
        table is a data table; else False. `escaped`: its lines are Markdown already."""
        table = self._data_table(cell)
        if table < 0:
            return False
        containers, places = self.structure.places()
        row = containers[cell]
        last = units[-1] if units else None
        if last is None or last.kind != "table" or last.key != table:
            tables[table] = _Table()
            units.append(_Unit("table", table, self.context(table).chain, []))
        header_row = self.header_rows.get(row)
        if header_row is None:
            found = self.structure.cell(index)
            header_row = self.header_rows[row] = found is not None and found.header_row
        tables[table].blocks.append((index, text_lines, escaped))
        tables[table].add(
            (places[row] if row >= 0 else -1, row),
            places[cell],
            "<br>".join(
                line.replace("|", r"\|") if escaped else escape_cell(line) for line in text_lines
            ),
            header_row=header_row,
        )
        return True

    def _data_table(self, cell: int) -> int:
        """The table of the cell at entry `cell`, if it is a data table; else -1."""
        containers = self.structure.places()[0]
        row = containers[cell]
        table = (
            containers[row] if row >= 0 else self.structure.nearest(self.parents[cell], ("table",))
        )
        return table if table >= 0 and self.is_data_table(table) else -1

    def _marker(self, item: int) -> str:
        containers, places = self.structure.places()
        around, place = containers[item], places[item]
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
        containers, places = self.structure.places()
        around, place = containers[chain[-1]], places[chain[-1]]
        if any(containers[item] == around for item in items):
            return chain[:-1] == previous[: len(chain) - 1]
        # The first item of a list nested in the previous item: an ordered list must
        # start at 1 to interrupt the paragraph before it.
        ordered = around >= 0 and self.tags[around] == "ol"
        return chain[:-1] == previous and (not ordered or place == 0)


# The bullets a page begins lines with, besides Markdown's own "*" and "-": a list
# written as lines of text.
_BULLETS: Final = "\u2022\u00b7\u25aa\u25e6\u25cf\u2023\u2043\u25a0\u25ba\u25b8"
_BULLET: Final = re.compile(f"[{_BULLETS}*-] (?=\\S)")
_ESCAPED_AS_TEXT: Final = frozenset({"paragraph", "items"})


def _first_item(bulleted: list[bool]) -> int:
    """Which of a block's lines its list begins with: 0 when every line is bulleted, 1
    when every line but the first is (three lines or more: a line, then two items or
    more); -1 when the block is no list."""
    if all(bulleted):
        return 0
    return 1 if len(bulleted) > 2 and all(bulleted[1:]) else -1


def _paragraphs(index: int, chain: tuple[int, ...], lines: list[str]) -> list[_Unit]:
    """A block of text as a paragraph; as a list's items when its lines are bulleted as
    _first_item says (a paragraph before them when the first is not), the bullet gone:
    it is no word."""
    if _BULLET.match(lines[-1]) is None:
        return [_Unit("paragraph", index, chain, lines)]
    first = _first_item([_BULLET.match(line) is not None for line in lines])
    if first < 0:
        return [_Unit("paragraph", index, chain, lines)]
    items = _Unit("items", index, chain, [line[2:] for line in lines[first:]])
    return [_Unit("paragraph", index, chain, lines[:first]), items] if first else [items]


def _unstacked(units: list[_Unit], tables: dict[int, _Table]) -> list[_Unit]:
    """`units` with each table whose text lies in one column as its blocks, rendered as
    they would be outside it: a table of one column (or of one column kept) is a list
    of lines, no grid (WCXB's Markdown writes them so: on its dev pages 20 of the 145
    cells the fit rendered in such tables, on 19 pages, were cells there)."""
    out: list[_Unit] = []
    for unit in units:
        table = tables.get(unit.key) if unit.kind == "table" else None
        if table is None or not table.one_column():
            out.append(unit)
            continue
        for index, lines, escaped in table.blocks:
            if escaped:
                out.extend(_linked_paragraphs(index, unit.chain, list(lines)))
            else:
                out.extend(_paragraphs(index, unit.chain, lines))
    return out


_HEADING_KINDS: Final = frozenset({"heading", "title", "linked title", "linked heading"})
_TITLES: Final = frozenset({"title", "linked title", "linked heading"})


def _titles(units: list[_Unit]) -> None:
    """The headings that are links from end to end (a "title" unit) and head nothing:
    the next unit, images aside, is a heading of their level or above, or none. Such a
    heading is an entry of a list of links (a listing's titles without their teasers,
    related posts), a line as a card's title is (WCXB's Markdown writes them so: on its
    dev pages 15% of them are headings there, on 45 pages, against 67% of all the
    headings the fit renders). They become paragraphs; the others headings ("done"
    when rendered with their links)."""
    for place, unit in enumerate(units):
        kind = unit.kind
        if kind not in _TITLES:
            continue
        heads_nothing = all(later.kind == "image" for later in _under(units, place))
        if heads_nothing and kind != "linked heading":
            _as_line(unit)
        elif kind == "title":
            unit.kind = "heading"
        else:
            unit.kind = "done"


def _under(units: list[_Unit], place: int) -> Iterator[_Unit]:
    """The units the heading at `place` heads: those after it up to the next heading of
    its level or above."""
    level = units[place].key
    for later in itertools.islice(units, place + 1, None):
        if later.kind in _HEADING_KINDS and later.key <= level:
            return
        yield later


def _as_line(unit: _Unit) -> None:
    """A heading unit rendered as a line of text instead (one rendered with its links,
    escaped already, loses its # marks)."""
    if unit.kind in {"heading", "title"}:
        unit.kind = "paragraph"
    else:
        unit.kind = "done"
        unit.lines = [_start_escaped(unit.lines[0][unit.key + 1 :])]


# The kinds of page whose headings over a few words name items (see _item_names).
_NAMED_ITEMS: Final = frozenset({PageType.COLLECTION, PageType.PRODUCT})
# The words under a heading from which it heads a section of its own.
_SECTION_WORDS: Final = 20


def _item_names(units: list[_Unit], tables: dict[int, _Table]) -> None:
    """On a page read as a collection or a product, the headings over fewer than 20 words
    (up to the next heading of their level or above, subsections included): an item's
    name over its price or its line, a tile's label, a shop's widget's title ("Recently
    viewed", "Select a size"), not a section of the page. They become lines, as WCXB's
    Markdown writes them: on its dev pages 28% of them are headings there (299 of 1,086,
    on 139 pages), against 72% of the other headings the fit renders. On other kinds of
    page such headings are mostly headings there (an FAQ's questions, a service's
    features)."""
    for place, unit in enumerate(units):
        if unit.kind not in _HEADING_KINDS:
            continue
        words = 0
        for later in _under(units, place):
            if later.kind == "table":
                words += tables[later.key].words()
            elif later.kind != "image":
                words += sum(len(line.split()) for line in later.lines)
            if words >= _SECTION_WORDS:
                break
        else:
            _as_line(unit)


# What makes a list item a card (see _card_items).
_GRID: Final = HEADINGS | {"div"}
# A bullet, begun as _linked_lines escapes it.
_ESCAPED_BULLET: Final = re.compile(f"(?:\\\\[*-]|[{_BULLETS}]) (?=\\S)")


def _linked_paragraphs(index: int, chain: tuple[int, ...], lines: list[str]) -> list[_Unit]:
    """_paragraphs of a block with links, its `lines` escaped already (_linked_lines)."""
    marked = [_ESCAPED_BULLET.match(line) for line in lines]
    first = _first_item([bullet is not None for bullet in marked])
    if first < 0:
        lines[:-1] = [line + "\\" for line in lines[:-1]]
        return [_Unit("done", index, chain, lines)]
    items = [
        "- " + _start_escaped(line[bullet.end() :])
        for line, bullet in zip(lines[first:], marked[first:], strict=True)
        if bullet is not None
    ]
    units = [_Unit("done", index, chain, lines[:first])] if first else []
    units.append(_Unit("done", index, chain, items))
    return units


# What a blockquote that is a box holds (see _boxes).
_STRUCTURED: Final = HEADINGS | {"li", "table", "pre"}


def _boxes(tags: list[str], parents: list[int]) -> set[int]:
    """The blockquotes holding a list, a heading, a table or a <pre>: boxes of a page
    (an example, a note, a post's code) rather than quotations; their blocks render
    unquoted, as WCXB's Markdown writes them (on its dev pages, of the lines the fit
    renders in such quotes and the truth holds as lines, it quotes no list item, 12 of
    41 headings and no code)."""
    boxes: set[int] = set()
    if "blockquote" not in tags:
        return boxes
    seen: set[int] = set()  # entries whose ancestors were all walked
    for entry, tag in enumerate(tags):
        if tag in _STRUCTURED:
            around = parents[entry]
            while around >= 0 and around not in seen:
                seen.add(around)
                if tags[around] == "blockquote":
                    boxes.add(around)
                around = parents[around]
    return boxes


def _card_items(tags: list[str], parents: list[int]) -> set[int]:
    """The innermost list item around each heading or <div>: cards and cells of a grid
    (a listing's entries, a product's features, a menu's panels), whose blocks render as
    blocks rather than as one list item. WCXB's Markdown writes them so: on its dev
    pages none of the other blocks of items holding a heading is a list item there, and
    1% of the blocks in a <div> in an item; and a heading inside a list item does not
    read as one of the page's headings."""
    found: set[int] = set()
    # Each entry's innermost list item, itself included (-1: none): entries come in
    # document order, a parent before its children.
    items: list[int] = []
    for entry, tag in enumerate(tags):
        parent = parents[entry]
        around = items[parent] if parent >= 0 else -1
        items.append(entry if tag == "li" else around)
        if around >= 0 and tag in _GRID:
            found.add(around)
    return found


def _rendered_lines(
    kept: Sequence[int],
    plain: list[int],
    blocks: list[BlockInfo],
    texts: dict[int, str],
    rendered: str,
) -> dict[int, str] | None:
    """The one-line blocks' (`plain`'s) lines, read from `rendered`, render_blocks' text
    of the blocks `kept` (the fit's text): a one-line block is one line there, another
    block its block_lines. None when the lines do not add up (a one-line block without
    a visible character makes no line): collapse them again."""
    lines = rendered.split("\n")
    found: dict[int, str] = {}
    plain_set = set(plain)
    cursor = 0
    for index in kept:
        if index in plain_set:
            if cursor >= len(lines):
                return None
            found[index] = lines[cursor]
            cursor += 1
        else:
            cursor += len(block_lines(blocks[index], texts[index]))
    return found if cursor == len(lines) else None


def _kept_texts(text: str, kept: Sequence[int]) -> tuple[dict[int, str], set[int]]:
    """The kept blocks' texts, as Page.block_texts() has them (anchor and sup/sub marks
    gone), without making the other blocks' texts (a split of the page's text makes
    every block's up to the last kept one: a seventh of the Markdown's cost); and the
    kept blocks that are links from end to end."""
    texts = {}
    linked: set[int] = set()
    for index, part in zip(kept, _text.parts_at(text, BLOCK_END, list(kept)), strict=True):
        # The marks open and close a link in turn: every other piece is outside one.
        # Linked from end to end: no text outside (two links with words between them
        # are not).
        if ANCHOR_MARK in part and not any(
            outside.replace(BREAK_MARK, "").strip() for outside in part.split(ANCHOR_MARK)[::2]
        ):
            linked.add(index)
        texts[index] = unmarked(part)
    return texts, linked


def _image_unit(image: Image, block: int, chain: tuple[int, ...]) -> _Unit:
    """An image as a paragraph of its own: ![alt](src)."""
    return _Unit("image", block, chain, [f"![{_inline(image.alt)}]({_destination(image.src)})"])


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


def _linked_lines(raw: str, targets: list[str]) -> list[str]:
    """A block's lines, escaped, its links as Markdown links: `raw` is its text with the
    anchor marks, `targets` its links' targets in order (mdlinks.link_targets)."""
    out: list[str] = []
    hrefs = iter(targets)
    for place, part in enumerate(raw.split(ANCHOR_MARK)):
        if place % 2 == 0:
            out.append(_inline(part))
            continue
        text = " ".join(part.replace(BREAK_MARK, " ").split())
        if not text:
            out.append(part)
            continue
        href = next(hrefs, "")
        inner = _inline(text)
        lead = " " if part[:1].isspace() else ""
        trail = " " if part[-1:].isspace() else ""
        out.append(f"{lead}[{inner}]({_destination(href)}){trail}" if href else _inline(part))
    lines = [" ".join(line.split()) for line in "".join(out).split(BREAK_MARK)]
    return [_start_escaped(line) for line in lines if line]


def _start_escaped(line: str) -> str:
    """A line of escaped inline Markdown with what would start a block escaped too."""
    if line[:1] in _STARTS:
        return _ORDERED.sub(r"\1\\\2", _LINE_START.sub(_escaped, line))
    return line


def _destination(href: str) -> str:
    """A link's target as a Markdown link destination: what would end it or escape in it
    percent-encoded (a % stays: the target may be encoded already)."""
    for char, code in _DESTINATION:
        if char in href:
            href = href.replace(char, code)
    return href


_DESTINATION: Final = (
    (" ", "%20"),
    ("(", "%28"),
    (")", "%29"),
    ("<", "%3C"),
    (">", "%3E"),
    ("\\", "%5C"),
)


def render_markdown(  # noqa: PLR0913 - the blocks, and what renders beside them
    page: Page,
    kept: Sequence[int],
    links: Links | None = None,
    images: Images | None = None,
    rendered: str | None = None,
    *,
    kind: PageType | None = None,
    structure: Structure | None = None,
) -> str:
    """The blocks `kept` (indexes into page.blocks, in order) as Markdown; `links`, the
    targets of the blocks' links (mdlinks.link_targets), renders them as links; `images`,
    the page's images placed among its blocks (mdimages.image_targets), renders those
    beside the kept blocks as images. `rendered`, the text render.render_blocks made of
    the same blocks (the fit's text), saves collapsing their whitespace again. `kind`,
    the kind of page whose rules kept them: a collection's or a product's headings over
    a few words are items' names, lines (see _item_names). `structure`, the page's
    Structure where one was built (the decide stage's), saves building it again."""
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
    renderer = _Renderer(page, images, kind, structure)
    return renderer.write(renderer.units(kept, links or {}, rendered))
