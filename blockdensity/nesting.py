"""The bound on nesting: what a page may ask of the tree builder before lexbor sees it.

HTML5 tree construction is quadratic in nesting depth: for every block start
tag lexbor looks for "a p element in button scope" by walking the stack of
open elements, so 50,000 nested divs (550 KB) cost it 10 s. It is worse for
formatting elements: every unclosed `<b id=N>` stays in the list of active
formatting elements and is re-created in every later paragraph, so 8,000 of
them (118 KB) build a tree of 32 million nodes and cost a minute.

Before the page is parsed, one linear scan over its tags follows the tree
builder closely enough to know the depth of its stack of open elements (and
the length of its list of active formatting elements): void and raw-text
elements, comments, the elements that close a `<p>`, `<li>`, `<dd>`, a table
cell or a heading, end tags matched within their scope, the markers of table
cells, the tbody and tr the tree builder inserts around a row or a cell put
straight into a table (`<td><table>` repeated nests four elements a pair, not
two), foreign content and its self-closing tags. Where the scan cannot follow
the tree builder exactly, it errs on the deep side (a `<table>` straight in a
table closes it, which the scan does not model): it may take out a tag the
bound would have allowed, never leave lexbor a deeper tree. A start tag that would open
an element deeper than DEPTH_LIMIT, or a formatting element beyond
FORMATTING_LIMIT since the last marker, is taken out of the page with its end
tag; the text between stays. What the tag did for the page stays too: a
block boundary's tags become `<hr>` (void, it ends the block as the element
did), an inline element's go without a trace (they never separated words),
and any other's become one space (SPEC: no word spans a non-inline element).
A raw-text element (script, style, ...) is never taken out, since its content
would then be parsed as markup, nor is `<a>`: a new one closes the one before,
so they cannot pile up, and link words stay link words at any depth. A page
within both bounds (every page of the development corpus: the deepest nests
49 elements, tests/test_nesting.py) is returned unchanged, as the same object.

The scan is compiled (`blockdensity._nesting`, Cython); `_scan_python` below
is the same algorithm in Python, the reference the compiled one is tested
against and the path used where the package was built without a compiler.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from blockdensity.elements import (
    ARTICLE_TYPES,
    BOX_TOKENS,
    COMMENT_TOKENS,
    DEFAULT_BOUNDARIES,
    INLINE,
)

__all__ = [
    "DEPTH_LIMIT",
    "ELEMENT_FLAGS",
    "FORMATTING_LIMIT",
    "REGION_ATTRIBUTE",
    "bound_nesting",
    "compiled",
    "cuts",
    "declares_article",
]

# Chromium's HTML parser stops nesting the DOM at 512 elements
# (kMaximumHTMLParserDOMTreeDepth); here the bound is on the tree builder's
# stack, where the cost is, and half that: 50,000 nested divs then cost a
# fit 40% less than at 512 (BENCHMARKS.md), and it is still five times the
# deepest page of the development corpus (49).
DEPTH_LIMIT: Final = 256
# Active formatting elements since the last marker, each of which the tree
# builder re-creates in every later block. Real pages stay far below (the
# development corpus: at most 3 at once, counted as the scan counts them).
FORMATTING_LIMIT: Final = 8
# How far up the stack a search for an end tag's element, or for the element
# a start tag implicitly closes, goes: as deep as the stack lexbor is left
# with (the tree builder's own searches stop at scope boundaries, which real
# pages reach long before this).
SEARCH_LIMIT: Final = DEPTH_LIMIT

# Tree-builder categories of element names (HTML Living Standard, 13.2.6).
VOID: Final = 1 << 0  # never on the stack
IGNORED: Final = 1 << 1  # html, head, body: merged into the one element, never nested
RAW: Final = 1 << 2  # raw text or RCDATA: no tags inside until its end tag
PLAINTEXT: Final = 1 << 3  # everything after is text
FORMATTING: Final = 1 << 4  # goes to the list of active formatting elements
SINGLE: Final = 1 << 5  # a, nobr: a new one closes the one before
CLOSES_P: Final = 1 << 6  # closes a p element in button scope
SCOPE: Final = 1 << 7  # ends the default scope
MARKER: Final = 1 << 8  # puts a marker on the list of active formatting elements
TABLE: Final = 1 << 9
TABLE_PART: Final = 1 << 10  # ignored outside a table
SPECIAL: Final = 1 << 11  # ends the search for an open li, dd or dt
LI: Final = 1 << 12
DDDT: Final = 1 << 13
HEADING: Final = 1 << 14
OPTION: Final = 1 << 15  # option, optgroup: each closes an open option
CELL: Final = 1 << 16  # td, th
ROW: Final = 1 << 17  # tr
SECTION: Final = 1 << 18  # tbody, thead, tfoot
BUTTON: Final = 1 << 19
P: Final = 1 << 20
FOREIGN: Final = 1 << 21  # svg, math: foreign content begins
INTEGRATION: Final = 1 << 22  # inside foreign content, HTML again (foreignObject, mi, ...)
BREAKOUT: Final = 1 << 23  # an HTML start tag that ends foreign content
INLINE_ELEMENT: Final = 1 << 24  # SPEC's inline: its tags never separate words
LIST_PASS: Final = 1 << 25  # address, div, p: special, but the search for an li goes past
BOUNDARY_ELEMENT: Final = 1 << 26  # SPEC's default block boundaries: taken out, they become <hr>
# The flags a search looks for: the scan counts the entries with each, so
# that a search for one that is not open costs nothing.
SOUGHT: Final = (P, LI, DDDT, CELL, ROW, SECTION, BUTTON)
# Stack-entry bits, beside the name's own (the scan sets them).
ENTRY_FOREIGN: Final = 1 << 28  # in the SVG or MathML namespace
ENTRY_DROPPED: Final = 1 << 29  # taken out of the page
ENTRY_REGION: Final = 1 << 30  # marked as a comments or boxes region (the article profile)


def _flags(names: str, flag: int) -> dict[str, int]:
    return dict.fromkeys(names.split(), flag)


def _element_flags() -> dict[str, int]:
    groups = [
        _flags(
            "area base basefont bgsound br col embed frame hr image img input keygen link meta"
            " param source track wbr",
            VOID,
        ),
        _flags("html head body", IGNORED),
        _flags("script style xmp iframe noembed noframes textarea title", RAW),
        _flags("plaintext", PLAINTEXT | CLOSES_P),
        _flags("b big code em font i s small strike strong tt u", FORMATTING),
        _flags("a nobr", FORMATTING | SINGLE),
        # Not table: a table closes an open p only in no-quirks mode; a page
        # without a doctype nests it inside the p, so the scan keeps the p open.
        _flags(
            "address article aside blockquote center details dialog dir div dl fieldset"
            " figcaption figure footer form header hgroup hr listing main menu nav ol p pre"
            " search section summary ul xmp h1 h2 h3 h4 h5 h6 li dd dt",
            CLOSES_P,
        ),
        _flags("applet caption html table td th marquee object template", SCOPE),
        _flags("applet caption marquee object template td th", MARKER),
        _flags("table", TABLE),
        _flags("caption col colgroup tbody td tfoot th thead tr", TABLE_PART),
        _flags(
            "address applet area article aside base basefont bgsound blockquote body br button"
            " caption center col colgroup dd details dir div dl dt embed fieldset figcaption"
            " figure footer form frame frameset h1 h2 h3 h4 h5 h6 head header hgroup hr html"
            " iframe img input keygen li link listing main marquee menu meta nav noembed"
            " noframes noscript object ol p param plaintext pre script search section select"
            " source style summary table tbody td template textarea tfoot th thead title tr"
            " track ul wbr xmp",
            SPECIAL,
        ),
        _flags("li", LI),
        _flags("dd dt", DDDT),
        _flags("h1 h2 h3 h4 h5 h6", HEADING),
        _flags("option optgroup", OPTION),
        _flags("td th", CELL),
        _flags("tr", ROW),
        _flags("tbody thead tfoot", SECTION),
        _flags("button", BUTTON),
        _flags("p", P),
        _flags("svg math", FOREIGN),
        _flags("foreignobject desc title mi mo mn ms mtext annotation-xml", INTEGRATION),
        _flags(
            "b big blockquote body br center code dd div dl dt em embed h1 h2 h3 h4 h5 h6 head"
            " hr i img li listing menu meta nobr ol p pre ruby s small span strong strike sub"
            " sup table tt u ul var",
            BREAKOUT,
        ),
        _flags("address div p", LIST_PASS),
        dict.fromkeys(INLINE, INLINE_ELEMENT),
        dict.fromkeys(DEFAULT_BOUNDARIES, BOUNDARY_ELEMENT),
    ]
    table: dict[str, int] = {}
    for group in groups:
        for name, flag in group.items():
            table[name] = table.get(name, 0) | flag
    return table


ELEMENT_FLAGS: Final = _element_flags()

# A cut: (start, end, replacement) of a tag taken out of the page; or, with
# start == end, a region mark inserted (the article profile).
Cut = tuple[int, int, bytes]

# The attribute the scan adds to the start tag of a region, for the article
# profile to find it after the parse with one selector query (article.py).
REGION_ATTRIBUTE: Final = "data-blockdensity-region"
MAIN_LABEL: Final = "main"
COMMENTS_LABEL: Final = "comments"
BOXES_LABEL: Final = "boxes"
# The attributes a region is recognised by.
_REGION_ATTRIBUTES: Final = frozenset(
    (b"class", b"id", b"role", b"itemprop", b"property", b"content", b"type")
)
_MAIN_ELEMENTS: Final = (b"main", b"article")
_MAIN: Final = MAIN_LABEL.encode()
_COMMENT_TOKENS: Final = tuple(token.encode() for token in COMMENT_TOKENS)
_BOX_TOKENS: Final = tuple(token.encode() for token in BOX_TOKENS)
_ARTICLE_TYPES: Final = tuple(f'"{name}"'.encode() for name in ARTICLE_TYPES)

_WHITESPACE: Final = frozenset(b"\t\n\f\r ")
_NAME_END: Final = frozenset(b"\t\n\f\r />")
_ATTRIBUTE_NAME_END: Final = frozenset(b"\t\n\f\r />=")
_VALUE_END: Final = frozenset(b"\t\n\f\r >")


def _is_letter(byte: int) -> bool:
    return 65 <= byte <= 90 or 97 <= byte <= 122


class _Scan:
    """The reference scan: the stack of open elements and the formatting list, as data."""

    def __init__(self, data: bytes, *, regions: bool = False) -> None:
        self.data = data
        self.regions = regions  # find the article profile's regions too
        self.structure = False  # the page declares an article (regions only)
        # Per marked start tag: where the mark goes, its labels, and the index of
        # the mark of the nearest marked element around it (-1 for none).
        self.marks: list[tuple[int, list[bytes], int]] = []
        self.mark_of: list[int] = []  # per stack entry: its mark's index, or -1
        self.names: list[bytes] = []  # the stack of open elements, bottom first
        self.flags: list[int] = []
        self.kept = 0  # entries of the stack not taken out of the page
        self.tables = 0  # kept table elements on the stack
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
        self, name: bytes, start: int, end: int, self_closing: bool, labels: list[bytes]
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

    def open(self, name: bytes, flags: int, start: int, end: int, labels: list[bytes]) -> None:
        # A raw-text element is never taken out: its content, which the scan
        # skips, would then be parsed as markup.
        if self.depth() >= DEPTH_LIMIT and not flags & (RAW | PLAINTEXT):
            self.cut(start, end, flags)
            self.push(name, flags | ENTRY_DROPPED)
            return
        mark = -1
        if self.regions and (name == b"h1" or MAIN_LABEL.encode() in labels):
            self.unmark_around()  # a region holding the article's headline or container is none
        if labels:
            if MAIN_LABEL.encode() in labels:
                self.structure = True
            mark = len(self.marks)
            outer = next((m for m in reversed(self.mark_of) if m >= 0), -1)
            self.marks.append((start + 1 + len(name), labels, outer))
            if len(labels) > 1 or labels[0] != MAIN_LABEL.encode():
                flags |= ENTRY_REGION
        self.push(name, flags, mark)

    def unmark_around(self) -> None:
        """Take the comments and boxes labels off every region open around this point."""
        for index, flags in enumerate(self.flags):
            if flags & ENTRY_REGION:
                where, labels, outer = self.marks[self.mark_of[index]]
                kept = [b"main"] if b"main" in labels else []
                self.marks[self.mark_of[index]] = (where, kept, outer)
                self.flags[index] = flags & ~ENTRY_REGION

    def labels(self, name: bytes, attributes: dict[bytes, bytes]) -> list[bytes]:
        """The region labels of a start tag (the article profile): main, comments, boxes."""
        labels = []
        role = attributes.get(b"role", b"").lower().split()
        itemprop = attributes.get(b"itemprop", b"").lower().split()
        if name in _MAIN_ELEMENTS or b"main" in role or b"articlebody" in itemprop:
            labels.append(MAIN_LABEL.encode())
        named = attributes.get(b"class", b"").lower() + b" " + attributes.get(b"id", b"").lower()
        if any(token in named for token in _COMMENT_TOKENS):
            labels.append(COMMENTS_LABEL.encode())
        elif any(token in named for token in _BOX_TOKENS):
            labels.append(BOXES_LABEL.encode())
        return labels

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

    def run(self) -> list[Cut]:  # noqa: C901, PLR0912 - one branch per kind of markup
        data = self.data
        size = len(data)
        at = 0
        attributes: dict[bytes, bytes] | None = {} if self.regions else None
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
            if attributes is not None:
                attributes.clear()
            at, self_closing = _attributes_end(data, name_end, attributes)
            if at > size:
                break
            name = data[lt + 1 : name_end].lower()
            labels = self.labels(name, attributes) if attributes is not None else []
            self.start_tag(name, lt, at, self_closing, labels)
            flags = ELEMENT_FLAGS.get(name.decode("latin-1"), 0)
            if attributes is not None and name == b"meta":
                content = attributes.get(b"content", b"").strip().lower()
                if attributes.get(b"property", b"").lower() == b"og:type" and content == b"article":
                    self.structure = True
            if flags & (RAW | PLAINTEXT) and not self.in_foreign_content():
                if flags & PLAINTEXT:
                    break
                end = _raw_text_end(data, at, name)
                if (
                    attributes is not None
                    and name == b"script"
                    and attributes.get(b"type", b"").strip().lower() == b"application/ld+json"
                    and any(data.find(kind, at, end) >= 0 for kind in _ARTICLE_TYPES)
                ):
                    self.structure = True
                at = end
        return self.result()

    def result(self) -> list[Cut]:
        """The cuts, and the region marks among them if the page declares an article."""
        if not self.structure or not self.marks:
            return self.cuts
        # A comments or boxes label inside an element that keeps the same label
        # adds nothing (the article profile reads the outermost of each): it is
        # left out, so fewer regions are wrapped after the parse. A main label
        # always stays: the inner_container rule reads the containers nested in
        # the main one.
        kept: list[list[bytes]] = []
        above: list[set[bytes]] = []  # per mark, the labels kept around it
        marks = []
        for where, labels, outer in self.marks:
            around = (above[outer] | set(kept[outer])) if outer >= 0 else set()
            own = [label for label in labels if label == _MAIN or label not in around]
            kept.append(own)
            above.append(around)
            if own:
                text = f' {REGION_ATTRIBUTE}="{b" ".join(own).decode()}"'.encode()
                marks.append((where, where, text))
        return sorted([*self.cuts, *marks], key=lambda cut: cut[0])


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
    data: bytes, at: int, attributes: dict[bytes, bytes] | None = None
) -> tuple[int, bool]:
    """Just past the ">" that ends a start tag's attributes, and whether it self-closes.

    With `attributes`, the values of the region attributes go in it (the first
    of each name, as HTML keeps).
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
            if name in _REGION_ATTRIBUTES and name not in attributes:
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


def _scan_python(data: bytes, regions: bool = False) -> list[Cut]:
    return _Scan(data, regions=regions).run()


# The flag bits by name, for the compiled scan's configure().
_BITS: Final = (
    "VOID", "IGNORED", "RAW", "PLAINTEXT", "FORMATTING", "SINGLE", "CLOSES_P", "SCOPE",
    "MARKER", "TABLE", "TABLE_PART", "SPECIAL", "LI", "DDDT", "HEADING", "OPTION", "CELL",
    "ROW", "SECTION", "BUTTON", "P", "FOREIGN", "INTEGRATION", "BREAKOUT", "INLINE_ELEMENT",
    "LIST_PASS", "BOUNDARY_ELEMENT", "ENTRY_FOREIGN", "ENTRY_DROPPED", "ENTRY_REGION",
)  # fmt: skip

_compiled_scan: Callable[[bytes, bool], list[Cut]] | None
try:
    from blockdensity._nesting import configure, scan
except ImportError:  # built without a compiler: the reference does the work
    _compiled_scan = None
else:
    configure(
        ELEMENT_FLAGS,
        {name: globals()[name] for name in _BITS},
        DEPTH_LIMIT,
        FORMATTING_LIMIT,
        SEARCH_LIMIT,
        _COMMENT_TOKENS,
        _BOX_TOKENS,
        _ARTICLE_TYPES,
        REGION_ATTRIBUTE.encode(),
    )
    _compiled_scan = scan

compiled: Final = _compiled_scan is not None


def cuts(data: bytes, *, regions: bool = False) -> list[Cut]:
    """The tags `bound_nesting` takes out of `data`: (start, end, replacement), in order;
    with `regions`, also the marks it inserts (start == end)."""
    if _compiled_scan is not None:
        return _compiled_scan(data, regions)
    return _scan_python(data, regions)


def declares_article(data: bytes) -> bool:
    """Whether the scan finds article structure in `data`: a main container
    (main, article, role=main, itemprop=articleBody), og:type article, or a
    JSON-LD article type."""
    scan = _Scan(data, regions=True)
    scan.run()
    return scan.structure


def bound_nesting(data: bytes, *, regions: bool = False) -> bytes:
    """`data` (UTF-8 HTML) with the tags that would nest too deep taken out; itself if none.

    With `regions` (the article profile), the start tags of the regions it
    recognises (main containers, comments, boxes: blockdensity.article) get a
    REGION_ATTRIBUTE naming them, when the page declares an article.
    """
    found = cuts(data, regions=regions)
    if not found:
        return data
    pieces: list[bytes] = []
    at = 0
    for start, end, replacement in found:
        pieces += (data[at:start], replacement)
        at = end
    pieces.append(data[at:])
    return b"".join(pieces)
