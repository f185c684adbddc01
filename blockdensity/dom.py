"""The HTML5 parser: the only Python module that imports selectolax.

Everything the rest of the package needs from lexbor is here: parsing a
string into a tree, the numeric tag ids that make the hot loop cheap, and the
node type the walk iterates over. (The compiled walk, blockdensity/_walk.pyx,
reads the same tree through lexbor's own records.)
"""

from __future__ import annotations

import re
from functools import cache
from typing import Final, TypeAlias

from selectolax.lexbor import (
    LexborDocumentOptions,
    LexborHTMLParser,
    LexborNode,
    SelectolaxError,
)

from blockdensity._growing_references import has_growing_reference
from blockdensity.nesting import bound

__all__ = [
    "COMMENT_ID",
    "DOCTYPE_ID",
    "TEXT_ID",
    "UNDEF_ID",
    "Document",
    "Node",
    "is_static_tag_id",
    "parse",
    "parse_page",
    "select",
    "tag_id",
]

Document: TypeAlias = LexborHTMLParser
Node: TypeAlias = LexborNode

# Lexbor gives every tag it knows a small static id; a name it does not know
# (a custom element, an SVG-only name) gets a per-document id that is the
# address of an interned name, so it is always far above the static range.
_STATIC_LIMIT = 4096


# lexbor (selectolax 1.0.2) writes past a heap buffer when it decodes "&nGt;"
# or "&nLt;", the only two of HTML's named references whose replacement (6
# bytes of UTF-8) is longer than the reference (5 bytes): it copies the
# replacement over the reference without checking the room left, so one of
# them that ends where lexbor's buffer ends overflows it, and a run of a few
# thousand aborts the process (RELIABILITY.md). They never reach it: each
# becomes the two characters it stands for, which is what lexbor would have
# put in the tree (in text and attribute values alike). The search runs over
# the UTF-8 bytes, which a str page is encoded to here exactly as selectolax
# would have (lone surrogates dropped): one pass in C, cheaper than a search
# over a str of wide characters; blockdensity._growing_references finds them
# (memchr to each "&"), the expression replaces them where there are any.
_GROWING_REFERENCE: Final = re.compile(rb"&n([GL])t;")
_REPLACEMENT: Final = {b"G": "\u226b\u20d2".encode(), b"L": "\u226a\u20d2".encode()}


def _replacement(match: re.Match[bytes]) -> bytes:
    return _REPLACEMENT[match[1]]


def parse(html: str | bytes, *, regions: bool = False) -> Document:
    """`parse_page`'s tree."""
    return parse_page(html, regions=regions)[0]


def parse_page(html: str | bytes, *, regions: bool = False) -> tuple[Document, bool]:
    """Parse `html` (bytes are UTF-8) with lexbor's HTML5 tree builder, as a browser would.

    With scripting on, as in every browser a reader uses (docs/spec.md section 2): the
    content of a <noscript> is one raw text node up to its end tag, never
    elements, so `<noscript><div></noscript>` cannot pull the rest of the page
    into the noscript (with scripting off, lexbor's default, it does: the div
    keeps the noscript open to the end of the page). The walk never enters a
    noscript, so its text is never the page's.

    Without DOM mutation events: faster, and <selectedcontent> then does not
    copy an <option>'s text into the page (option text is never page text).
    Tags that would nest deeper than a browser's tree builder can afford are
    taken out first (blockdensity.nesting), so the parse is linear in the page;
    with `regions`, the same scan marks the article profile's regions.
    Also returns whether the page was cut short by the element budget
    (nesting.NODE_LIMIT).
    """
    data = html.encode("utf-8", "ignore") if isinstance(html, str) else html
    if has_growing_reference(data):
        data = _GROWING_REFERENCE.sub(_replacement, data)
    data, truncated = bound(data, regions=regions)
    try:
        document = LexborHTMLParser(data, options=LexborDocumentOptions.WO_EVENTS, scripting=True)
    except SelectolaxError as error:
        # lexbor fails a parse only when it cannot allocate: the process is at
        # its memory limit (a fit process's, worker.stage.fitproc). Said as such,
        # so that the caller can tell it from a bug.
        raise MemoryError(f"the HTML parser ran out of memory ({error})") from None
    return document, truncated


@cache
def tag_id(name: str) -> int:
    """The lexbor tag id of an element name; raise ValueError if lexbor does not know it."""
    node_id = LexborHTMLParser("").create_node(name).tag_id
    if not is_static_tag_id(node_id):
        raise ValueError(f"unknown HTML element name {name!r}: not in lexbor's tag table")
    return node_id


def select(root: Node, selector: str) -> list[Node]:
    """The elements under `root` that match a CSS selector, in document order."""
    return root.css(selector)


def is_static_tag_id(node_id: int) -> bool:
    """True when `node_id` is one of lexbor's fixed tag ids (not a custom element)."""
    return node_id < _STATIC_LIMIT


def _non_element_ids() -> tuple[int, int, int, int]:
    doc = LexborHTMLParser("<!DOCTYPE html><!--c--><?pi x?><p>t</p>")
    ids: dict[str, int] = {}
    for node in doc.root.parent.traverse(include_text=True) if doc.root and doc.root.parent else ():
        ids.setdefault(node.tag or "", node.tag_id)
    return ids["-text"], ids["-comment"], ids["-doctype"], ids[""]


TEXT_ID, COMMENT_ID, DOCTYPE_ID, UNDEF_ID = _non_element_ids()
