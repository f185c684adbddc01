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
so they cannot pile up, and link words stay link words at any depth. One
exception is for the page's sake: a `<noscript>` never closed would make the
rest of the page raw text (the page is parsed with scripting on), so its start
tag is taken out (one space) and what follows is read as the page. A page
within both bounds (every page of the development corpus: the deepest nests
49 elements, tests/test_nesting.py) is returned unchanged, as the same object.

This module holds the rules: the tree builder's categories of element names,
the limits, the words that name the article profile's regions. The scan is
`blockdensity._nesting` (Cython), configured with the first two at import;
the regions it finds as it reads the page are `blockdensity._regions`'s,
configured with the words. The same written plainly in Python is
tests/reference/scan.py and tests/reference/regions.py, which the tests
compare them with.
"""

from __future__ import annotations

from typing import Final, NamedTuple

from blockdensity import _nesting, _regions
from blockdensity._nesting import BUDGET_CUT
from blockdensity.elements import (
    ARTICLE_TYPES,
    BOX_TOKENS,
    COMMENT_TOKENS,
    CONSENT_TOKENS,
    CONTENT_OWNERS,
    CONTENT_PARTS,
    DEFAULT_BOUNDARIES,
    INLINE,
)

__all__ = [
    "ATTRIBUTE_LIMIT",
    "BUDGET_CUT",
    "DEPTH_LIMIT",
    "ELEMENT_FLAGS",
    "FORMATTING_LIMIT",
    "NODE_LIMIT",
    "REGION_ATTRIBUTE",
    "Bounded",
    "bound",
    "bound_nesting",
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
# The work one page may cause, in elements: its start tags, and its attributes
# at half an element each (lexbor's tree costs about 0.55 KB an element and
# 0.27 KB an attribute), counted as the scan reads them (an 8 MiB page, the
# worker's body limit, holds up to 2 million). Past it the rest of the page
# goes, tags and text, as a browser's limits end a page. Chosen by
# measurement (bench.page_memory, RELIABILITY.md "Memory"): 200,000 cost a
# fit at most about 110 MiB and half a second, whatever they are made of, and
# are twenty times the development corpus's largest page (9,893 elements).
NODE_LIMIT: Final = 200_000
# Attributes of one start tag: lexbor checks each new one against those
# before it (quadratic: 32,000 on one element, 250 KB, took 7 s). Past the
# bound the rest of the tag's attributes go. The corpus's most: 70.
ATTRIBUTE_LIMIT: Final = 256
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
        # noscript too: the page is parsed with scripting on (blockdensity.dom),
        # where the tree builder makes its content raw text.
        _flags("script style xmp iframe noembed noframes noscript textarea title", RAW),
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
# A cookie-consent notice (CONSENT_TOKENS): marked on every page.
CONSENT_LABEL: Final = "consent"
# A content container a CMS names (CONTENT_OWNERS then CONTENT_PARTS): marked
# on every page, as comments are; main containers and boxes only on a page
# that declares an article.
CONTENT_LABEL: Final = "content"
_COMMENT_TOKENS: Final = tuple(token.encode() for token in COMMENT_TOKENS)
_BOX_TOKENS: Final = tuple(token.encode() for token in BOX_TOKENS)
_CONSENT_TOKENS: Final = tuple(token.encode() for token in CONSENT_TOKENS)
_ARTICLE_TYPES: Final = tuple(f'"{name}"'.encode() for name in ARTICLE_TYPES)

# The flag bits by name, for the compiled scan's configure().
_BITS: Final = (
    "VOID", "IGNORED", "RAW", "PLAINTEXT", "FORMATTING", "SINGLE", "CLOSES_P", "SCOPE",
    "MARKER", "TABLE", "TABLE_PART", "SPECIAL", "LI", "DDDT", "HEADING", "OPTION", "CELL",
    "ROW", "SECTION", "BUTTON", "P", "FOREIGN", "INTEGRATION", "BREAKOUT", "INLINE_ELEMENT",
    "LIST_PASS", "BOUNDARY_ELEMENT", "ENTRY_FOREIGN", "ENTRY_DROPPED",
)  # fmt: skip

_nesting.configure(
    ELEMENT_FLAGS,
    {name: globals()[name] for name in _BITS},
    DEPTH_LIMIT,
    FORMATTING_LIMIT,
    SEARCH_LIMIT,
    NODE_LIMIT,
    ATTRIBUTE_LIMIT,
)
_regions.configure(
    _COMMENT_TOKENS,
    _BOX_TOKENS,
    _CONSENT_TOKENS,
    _ARTICLE_TYPES,
    REGION_ATTRIBUTE.encode(),
    tuple(word.encode() for word in CONTENT_OWNERS),
    tuple(word.encode() for word in CONTENT_PARTS),
)


def cuts(data: bytes, *, regions: bool = False) -> list[Cut]:
    """The tags `bound_nesting` takes out of `data`: (start, end, replacement), in order;
    with `regions`, also the marks it inserts (start == end)."""
    return _nesting.scan(data, regions)


def declares_article(data: bytes) -> bool:
    """Whether the scan finds article structure in `data`: a main container
    (main, article, role=main, itemprop=articleBody), og:type article, or a
    JSON-LD article type."""
    return _nesting.declares_article(data)


def bound_nesting(data: bytes, *, regions: bool = False) -> bytes:
    """`data` (UTF-8 HTML) with the tags that would nest too deep taken out; itself if none.

    With `regions` (the article profile), the start tags of the regions it
    recognises (main containers, content containers, comments, boxes:
    blockdensity.article) get a REGION_ATTRIBUTE naming them: comments and
    content containers on every page, the others when the page declares an
    article.
    """
    return bound(data, regions=regions).data


class Bounded(NamedTuple):
    """A page within the bounds, and whether its end went for the element budget."""

    data: bytes
    truncated: bool  # past NODE_LIMIT elements, the rest of the page went


def bound(data: bytes, *, regions: bool = False) -> Bounded:
    """`bound_nesting`, also saying whether the page was cut short by the element budget."""
    found = cuts(data, regions=regions)
    if not found:
        return Bounded(data, truncated=False)
    # The spans between the cuts as views of `data`, not slices: join copies each
    # byte once, where slices would copy the page twice (on the article profile, whose
    # region marks cut every page, a tenth of the scan's cost).
    view = memoryview(data)
    pieces: list[bytes | memoryview] = []
    at = 0
    for start, end, replacement in found:
        pieces += (view[at:start], replacement)
        at = end
    pieces.append(view[at:])
    return Bounded(b"".join(pieces), truncated=found[-1][2] is BUDGET_CUT)
