"""The bound on nesting's scan written plainly in Python: the reference for tests/test_nesting.py.

blockdensity._nesting (Cython) is the scan the fit runs; this is the same
algorithm over Python lists and dicts, step for step, kept here to be read
and to be compared with: both must find the same cuts and region marks on
every page the tests give them. It reads the rules (the element categories,
the limits) from blockdensity.nesting, as the compiled one does; the
regions it finds as it reads are tests/reference/regions.py's, as the
compiled scan's are blockdensity._regions'. It is not shipped and not compiled.
"""

from __future__ import annotations

from typing import Final

from blockdensity.nesting import (
    ATTRIBUTE_LIMIT,
    BOUNDARY_ELEMENT,
    BREAKOUT,
    BUDGET_CUT,
    BUTTON,
    CELL,
    CLOSES_P,
    DDDT,
    DEPTH_LIMIT,
    ELEMENT_FLAGS,
    ENTRY_DROPPED,
    ENTRY_FOREIGN,
    FOREIGN,
    FORMATTING,
    FORMATTING_LIMIT,
    HEADING,
    IGNORED,
    INLINE_ELEMENT,
    INTEGRATION,
    LI,
    LIST_PASS,
    MARKER,
    NODE_LIMIT,
    OPTION,
    PLAINTEXT,
    RAW,
    ROW,
    SCOPE,
    SEARCH_LIMIT,
    SECTION,
    SINGLE,
    SOUGHT,
    SPECIAL,
    TABLE,
    TABLE_PART,
    VOID,
    P,
)
from tests.reference.regions import REGION_ATTRIBUTES, Labels, Regions

__all__ = ["scan", "scan_regions"]

Cut = tuple[int, int, bytes]

_WHITESPACE: Final = frozenset(b"\t\n\f\r ")
_NAME_END: Final = frozenset(b"\t\n\f\r />")
_ATTRIBUTE_NAME_END: Final = frozenset(b"\t\n\f\r />=")
_VALUE_END: Final = frozenset(b"\t\n\f\r >")


def _is_letter(byte: int) -> bool:
    return 65 <= byte <= 90 or 97 <= byte <= 122


class _Scan:
    """The stack of open elements and the formatting list, as data."""

    def __init__(self, data: bytes, *, regions: bool = False) -> None:
        self.data = data
        # the article profile's regions, found as the page is read (None: not sought)
        self.regions = Regions(data) if regions else None
        self.mark_of: list[int] = []  # per stack entry: its region mark's index, or -1
        self.names: list[bytes] = []  # the stack of open elements, bottom first
        self.flags: list[int] = []
        self.kept = 0  # entries of the stack not taken out of the page
        self.tables = 0  # kept table elements on the stack
        self.nodes = 0  # the page's budget used, in half elements (an attribute is one)
        self.formatting: list[bytes] = []  # active formatting elements; b"" is a marker
        self.formatting_elements = 0  # entries that are not markers
        self.open_with: dict[int, int] = dict.fromkeys(SOUGHT, 0)  # entries by sought flag
        self.cuts: list[Cut] = []

    # -- the stack -------------------------------------------------------

    def depth(self) -> int:
        return self.kept + self.formatting_elements

    def push(self, name: bytes, flags: int, mark: int = -1) -> None:
        self.names.append(name)
        self.flags.append(flags)
        self.mark_of.append(mark)
        self.count(flags, 1)
        if not flags & ENTRY_DROPPED:
            self.kept += 1
            if flags & TABLE:
                self.tables += 1
            if flags & MARKER:
                self.formatting.append(b"")

    def pop(self) -> None:
        self.names.pop()
        self.mark_of.pop()
        flags = self.flags.pop()
        self.count(flags, -1)
        if not flags & ENTRY_DROPPED:
            self.kept -= 1
            if flags & TABLE:
                self.tables -= 1
            if flags & MARKER:
                self.clear_to_marker()

    def count(self, flags: int, change: int) -> None:
        for flag in SOUGHT:
            if flags & flag:
                self.open_with[flag] += change

    def pop_to(self, index: int) -> None:
        while len(self.names) > index:
            self.pop()

    def find(self, wanted: int, stop: int, passing: int = 0) -> int:
        """The index of the topmost entry with a `wanted` flag; -1 if an entry with a
        `stop` flag (and no `passing` flag) comes first, or none is near enough."""
        if not self.open_with[wanted]:
            return -1
        bottom = max(0, len(self.names) - SEARCH_LIMIT)
        for index in range(len(self.names) - 1, bottom - 1, -1):
            flags = self.flags[index]
            if flags & wanted:
                return index
            if flags & stop and not flags & passing:
                return -1
        return -1

    def implied_parents(self, flags: int) -> list[bytes]:
        """The parents the tree builder inserts for this row or cell: a tbody for a row
        or cell straight in a table, a tr for a cell straight in a table or section."""
        bottom = max(0, len(self.names) - SEARCH_LIMIT)
        for index in range(len(self.names) - 1, bottom - 1, -1):
            entry = self.flags[index]
            if entry & ENTRY_DROPPED:
                continue
            if entry & ROW:
                return []
            if entry & SECTION:
                return [b"tr"] if flags & CELL else []
            if entry & TABLE:
                return [b"tbody", b"tr"] if flags & CELL else [b"tbody"]
        return []

    def in_foreign_content(self) -> bool:
        return bool(self.flags) and self.flags[-1] & (ENTRY_FOREIGN | INTEGRATION) == ENTRY_FOREIGN

    # -- the list of active formatting elements ---------------------------

    def clear_to_marker(self) -> None:
        while self.formatting:
            name = self.formatting.pop()
            if not name:
                return
            self.formatting_elements -= 1

    def since_marker(self) -> int:
        count = 0
        for name in reversed(self.formatting):
            if not name:
                break
            count += 1
        return count

    def remove_formatting(self, name: bytes) -> None:
        for index in range(len(self.formatting) - 1, -1, -1):
            entry = self.formatting[index]
            if not entry:
                return
            if entry == name:
                del self.formatting[index]
                self.formatting_elements -= 1
                return

    # -- the page --------------------------------------------------------

    def cut(self, start: int, end: int, flags: int) -> None:
        self.cuts.append((start, end, _replacement(flags)))

    def start_tag(  # noqa: C901, PLR0911, PLR0912 - one branch per rule of the tree builder
        self, name: bytes, start: int, end: int, self_closing: bool, labels: Labels
    ) -> None:
        flags = ELEMENT_FLAGS.get(name.decode("latin-1"), 0)
        if self.in_foreign_content():
            if not flags & BREAKOUT:
                if not self_closing:
                    self.open(name, (flags & INTEGRATION) | ENTRY_FOREIGN, start, end, [])
                return
            while self.in_foreign_content():
                self.pop()
        if flags & IGNORED or (flags & TABLE_PART and not self.tables):
            return
        if flags & CLOSES_P:
            self.close(self.find(P, SCOPE | BUTTON | INTEGRATION))
        if flags & LI:
            self.close(self.find(LI, SPECIAL, LIST_PASS))
        if flags & DDDT:
            self.close(self.find(DDDT, SPECIAL, LIST_PASS))
        if flags & HEADING and self.flags and self.flags[-1] & HEADING:
            self.pop()
        if flags & OPTION and self.names and self.names[-1] == b"option":
            self.pop()  # an option or optgroup closes an open option (not an optgroup)
        if flags & CELL:
            self.close(self.find(CELL, ROW | TABLE))
        if flags & ROW:
            self.close(self.find(ROW, SECTION | TABLE))
        if flags & SECTION:
            self.close(self.find(SECTION, TABLE))
        if flags & BUTTON:
            self.close(self.find(BUTTON, SCOPE))
        if flags & VOID:
            return
        if flags & FORMATTING:
            # A new a (or nobr) closes the one before, so they never pile up;
            # kept at any depth, the link words in deep markup stay link words.
            if flags & SINGLE:
                self.remove_formatting(name)
            elif self.since_marker() >= FORMATTING_LIMIT or self.depth() >= DEPTH_LIMIT:
                self.cut(start, end, flags)
                return
            self.formatting.append(name)
            self.formatting_elements += 1
            return
        if flags & FOREIGN:
            if not self_closing:
                self.open(name, (flags & ~INTEGRATION) | ENTRY_FOREIGN, start, end, [])
            return
        if flags & (ROW | CELL):
            # A row or cell put straight into a table gets a tbody (and a tr) from
            # the tree builder: they nest as deep as the page's own elements.
            implied = self.implied_parents(flags)
            if implied and self.depth() + len(implied) >= DEPTH_LIMIT:
                self.cut(start, end, flags)  # the start tag goes, and its parents with it
                self.push(name, flags | ENTRY_DROPPED)
                return
            for parent in implied:
                self.push(parent, ELEMENT_FLAGS[parent.decode()])
        self.open(name, flags & ~INTEGRATION, start, end, labels)

    def open(self, name: bytes, flags: int, start: int, end: int, labels: Labels) -> None:
        # A raw-text element is never taken out: its content, which the scan
        # skips, would then be parsed as markup.
        if self.depth() >= DEPTH_LIMIT and not flags & (RAW | PLAINTEXT):
            self.cut(start, end, flags)
            self.push(name, flags | ENTRY_DROPPED)
            return
        mark = -1
        if self.regions is not None:
            mark = self.regions.open(name, labels, start + 1 + len(name), self.mark_of)
        self.push(name, flags, mark)

    def close(self, index: int) -> None:
        if index >= 0:
            self.pop_to(index)

    def end_tag(self, name: bytes, start: int, end: int) -> None:
        flags = ELEMENT_FLAGS.get(name.decode("latin-1"), 0)
        if flags & (IGNORED | VOID):
            return
        if flags & FORMATTING:
            self.remove_formatting(name)
            return
        # A table's own end tags close what is open inside it; any other end
        # tag is ignored when a scope boundary comes before its element.
        stop = 0 if flags & (SCOPE | TABLE_PART) else SCOPE | INTEGRATION
        bottom = max(0, len(self.names) - SEARCH_LIMIT)
        for index in range(len(self.names) - 1, bottom - 1, -1):
            if self.names[index] == name:
                if self.flags[index] & ENTRY_DROPPED:
                    self.cut(start, end, self.flags[index])
                self.pop_to(index)
                return
            if self.flags[index] & stop:
                return

    def run(self) -> list[Cut]:  # noqa: C901, PLR0912, PLR0915 - a branch per kind of markup
        data = self.data
        size = len(data)
        at = 0
        regions = self.regions
        # the region attributes of each start tag (with regions)
        attributes: dict[bytes, bytes] = {}
        while True:
            lt = data.find(b"<", at)
            if lt < 0 or lt + 1 >= size:
                break
            byte = data[lt + 1]
            if byte == 0x21:  # "<!": a comment, a doctype, CDATA
                at = _comment_end(data, lt)
                continue
            if byte == 0x3F:  # "<?": a bogus comment
                at = _tag_end(data, lt + 2)
                continue
            if byte == 0x2F:  # "</"
                if lt + 2 < size and _is_letter(data[lt + 2]):
                    name_end = _name_end(data, lt + 2)
                    at = _tag_end(data, name_end)
                    if at > size:
                        break  # a tag cut off by the end of the page is no tag
                    self.end_tag(data[lt + 2 : name_end].lower(), lt, at)
                else:
                    at = _tag_end(data, lt + 2)
                continue
            if not _is_letter(byte):
                at = lt + 1
                continue
            name_end = _name_end(data, lt + 1)
            attributes.clear()
            starts: list[int] = []
            at, self_closing = _attributes_end(
                data, name_end, attributes if regions is not None else None, starts
            )
            if at > size:
                break
            self.nodes += 2 + min(len(starts), ATTRIBUTE_LIMIT)
            if self.nodes > 2 * NODE_LIMIT:  # past the budget: the rest of the page goes
                self.cuts.append((lt, size, BUDGET_CUT))
                break
            name = data[lt + 1 : name_end].lower()
            if (
                name == b"noscript"
                and not self.in_foreign_content()
                and _raw_text_end(data, at, name) >= size
            ):  # an unclosed noscript's start tag goes: what follows is the page
                self.cuts.append((lt, at, b" "))
                continue
            labels = regions.labels(name, attributes) if regions is not None else []
            cut_before = len(self.cuts)
            self.start_tag(name, lt, at, self_closing, labels)
            if len(starts) > ATTRIBUTE_LIMIT and not (
                len(self.cuts) > cut_before and self.cuts[-1][0] == lt
            ):  # the attributes past the limit go, unless the whole tag did
                self.cuts.append((starts[ATTRIBUTE_LIMIT], at - (2 if self_closing else 1), b""))
            flags = ELEMENT_FLAGS.get(name.decode("latin-1"), 0)
            if regions is not None:
                regions.end_of_start_tag(name, attributes)
            if flags & (RAW | PLAINTEXT) and not self.in_foreign_content():
                if flags & PLAINTEXT:
                    break
                end = _raw_text_end(data, at, name)
                if regions is not None:
                    regions.read_raw_text(name, attributes, at, end)
                at = end
        return self.result()

    def result(self) -> list[Cut]:
        """The cuts, and the region marks among them (with regions)."""
        if self.regions is None:
            return self.cuts
        return self.regions.marked(self.cuts)


def _name_end(data: bytes, at: int) -> int:
    size = len(data)
    while at < size and data[at] not in _NAME_END:
        at += 1
    return at


def _tag_end(data: bytes, at: int) -> int:
    """Just past the next ">" from `at`; past the end of the page if there is none."""
    gt = data.find(b">", at)
    return len(data) + 1 if gt < 0 else gt + 1


def _comment_end(data: bytes, lt: int) -> int:
    if data.startswith(b"<!--", lt):
        if data.startswith(b">", lt + 4):
            return lt + 5
        if data.startswith(b"->", lt + 4):
            return lt + 6
        close = data.find(b"-->", lt + 4)
        return len(data) if close < 0 else close + 3
    return _tag_end(data, lt + 2)


def _attributes_end(  # noqa: C901, PLR0912 - the tokenizer's attribute states
    data: bytes,
    at: int,
    attributes: dict[bytes, bytes] | None = None,
    starts: list[int] | None = None,
) -> tuple[int, bool]:
    """Just past the ">" that ends a start tag's attributes, and whether it self-closes.

    With `attributes`, the values of the region attributes go in it (the first
    of each name, as HTML keeps); with `starts`, where each attribute begins.
    """
    size = len(data)
    while True:
        while at < size and data[at] in _WHITESPACE:
            at += 1
        if at >= size:
            return size + 1, False
        byte = data[at]
        if byte == 0x3E:
            return at + 1, False
        if byte == 0x2F:
            if at + 1 < size and data[at + 1] == 0x3E:
                return at + 2, True
            at += 1
            continue
        name_start = at
        if starts is not None:
            starts.append(name_start)
        at += 1  # an attribute's name (its first character may be "=")
        while at < size and data[at] not in _ATTRIBUTE_NAME_END:
            at += 1
        name_end = at
        while at < size and data[at] in _WHITESPACE:
            at += 1
        value_start = value_end = at
        if at < size and data[at] == 0x3D:
            at += 1
            while at < size and data[at] in _WHITESPACE:
                at += 1
            if at < size and data[at] in (0x22, 0x27):
                close = data.find(data[at : at + 1], at + 1)
                if close < 0:
                    return size + 1, False
                value_start, value_end = at + 1, close
                at = close + 1
            else:
                value_start = at
                while at < size and data[at] not in _VALUE_END:
                    at += 1
                value_end = at
        if attributes is not None:
            name = data[name_start:name_end].lower()
            if name in REGION_ATTRIBUTES and name not in attributes:
                attributes[name] = data[value_start:value_end]


def _raw_text_end(data: bytes, at: int, name: bytes) -> int:
    """Where the end tag of a raw-text element begins (or the end of the page)."""
    size = len(data)
    while True:
        lt = data.find(b"</", at)
        if lt < 0:
            return size
        end = lt + 2 + len(name)
        if data[lt + 2 : end].lower() == name and (end >= size or data[end] in _NAME_END):
            return lt
        at = lt + 2


def _replacement(flags: int) -> bytes:
    """What a tag taken out becomes: what keeps the words and the blocks of the page apart."""
    if flags & BOUNDARY_ELEMENT:
        return b"<hr>"  # a void element that ends a block as the element did
    return b"" if flags & INLINE_ELEMENT else b" "


def scan(data: bytes, regions: bool = False) -> list[Cut]:
    """What blockdensity.nesting.cuts(data, regions=regions) must return."""
    return _Scan(data, regions=regions).run()


def scan_regions(data: bytes) -> tuple[list[Cut], bool]:
    """What blockdensity.nesting.cuts(data, regions=True) and declares_article(data) must
    return: the cuts and region marks, and whether the page declares an article."""
    reference = _Scan(data, regions=True)
    found = reference.run()
    assert reference.regions is not None
    return found, reference.regions.structure
