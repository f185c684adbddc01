"""The one tag table: which elements are inline, which end a block, which are never text.

The renderer and the block scorer both read this table (through
`flags_for`), so a tag can never be a word separator for one and glue for the
other. Flags are small integers indexed by lexbor tag id so the walk does one
list lookup per element.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable
from functools import lru_cache
from typing import Final

from blockdensity import dom
from blockdensity.elements import (
    BLOCK_DISPLAY_EXTRA,
    DEFAULT_BOUNDARIES,
    INLINE,
    REMOVED,
    SEED_BOUNDARIES,
    VOID,
)

# The element name sets are blockdensity.elements'; two stay here for bench.accuracy.
__all__ = ["BLOCK_DISPLAY_EXTRA", "SEED_BOUNDARIES", "TagTable", "flags_for", "tag_id"]

# Flag bits. A plain inline element (b, span, ...) has flags 0: the walk
# descends into it and does nothing at its open or close.
BOUNDARY: Final = 1  # open and close end the current block
ANCHOR: Final = 2  # words beginning inside are link words
SUPSUB: Final = 4  # words beginning inside are not counted
PRE: Final = 8  # whitespace inside is kept verbatim
DROP: Final = 16  # a semantic element the configuration drops
SEPARATOR: Final = 32  # neither inline nor boundary: separates words, renders as a space
SKIP: Final = 64  # never descended into (removed, or void)
BREAK: Final = 128  # <br>: a line break inside the block
IGNORE: Final = 256  # comments, doctype, processing instructions: nothing at all
TITLE: Final = 512  # the document title (removed from the body text, reported apart)
# The bits the compiled walk reads (blockdensity._walk.configure).
WALK_BITS: Final = (
    "BOUNDARY", "ANCHOR", "SUPSUB", "PRE", "DROP", "SEPARATOR", "SKIP", "BREAK", "TITLE",
)  # fmt: skip


class TagTable:
    """Flags per lexbor tag id for one (boundary set, dropped set) pair."""

    __slots__ = ("custom", "flags", "names", "packed")

    def __init__(self, flags: list[int], names: dict[int, str]) -> None:
        self.flags = flags
        self.names = names
        # The flags as native 16-bit integers, for the compiled walk
        # (blockdensity._walk): made once per table, not per page.
        self.packed = array("H", flags).tobytes()
        # Custom elements and tags lexbor does not know: non-inline, so they
        # separate words but never end a block.
        self.custom = SEPARATOR


def tag_id(name: str) -> int:
    """The lexbor tag id of an HTML element name; ValueError if lexbor does not know it."""
    return dom.tag_id(name)


def _ids(names: Iterable[str]) -> dict[int, str]:
    return {dom.tag_id(name): name for name in names}


@lru_cache(maxsize=32)
def flags_for(boundaries: frozenset[str], drops: frozenset[str]) -> TagTable:
    """The tag table for a boundary set and a set of dropped semantic elements.

    Raises ValueError for a name lexbor does not know.
    """
    inline = _ids(INLINE)
    groups = {
        "boundaries": _ids(boundaries),
        "drops": _ids(drops),
        "removed": _ids(REMOVED),
        "void": _ids(VOID),
    }
    known = {**inline, **_ids(DEFAULT_BOUNDARIES | {"br", "pre"})}
    for group in groups.values():
        known.update(group)
    size = max(known) + 1
    flags = [SEPARATOR] * size
    for node_id in inline:
        flags[node_id] = 0
    for node_id in groups["boundaries"]:
        flags[node_id] = BOUNDARY
    for node_id in groups["drops"]:
        flags[node_id] |= DROP
    flags[dom.tag_id("a")] |= ANCHOR
    flags[dom.tag_id("sup")] |= SUPSUB
    flags[dom.tag_id("sub")] |= SUPSUB
    flags[dom.tag_id("pre")] |= PRE
    for node_id in groups["void"]:
        flags[node_id] |= SKIP
    br = dom.tag_id("br")
    if not flags[br] & BOUNDARY:
        flags[br] = BREAK | SKIP
    for node_id in groups["removed"]:
        # A removed element still separates words ("foo<script/>bar" is two).
        flags[node_id] = SEPARATOR | SKIP
    flags[dom.tag_id("title")] |= TITLE
    for node_id in (dom.COMMENT_ID, dom.DOCTYPE_ID, dom.UNDEF_ID):
        flags[node_id] = IGNORE | SKIP
    return TagTable(flags, known)
