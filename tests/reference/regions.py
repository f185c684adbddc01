"""The article profile's regions written plainly in Python: the reference for tests/test_nesting.py.

blockdensity._regions (Cython) finds the regions as the compiled scan reads
a page; this finds them as the reference scan (tests/reference/scan.py)
reads it, over Python lists and dicts, from the same calls: the labels of a
start tag that opens an element, its mark, the marks kept at the end. It
reads the region words from blockdensity.elements and the labels from
blockdensity.nesting, as the compiled one is configured with them. It is
not shipped and not compiled.
"""

from __future__ import annotations

from typing import Final

from blockdensity.elements import (
    ARTICLE_TYPES,
    BOX_TOKENS,
    COMMENT_TOKENS,
    CONSENT_TOKENS,
    CONTENT_TOKENS,
    INLINE,
)
from blockdensity.nesting import (
    BOXES_LABEL,
    COMMENTS_LABEL,
    CONSENT_LABEL,
    CONTENT_LABEL,
    MAIN_LABEL,
    REGION_ATTRIBUTE,
)

__all__ = ["REGION_ATTRIBUTES", "Labels", "Regions"]

Cut = tuple[int, int, bytes]
Labels = list[bytes]

# The attributes a region is recognised by.
REGION_ATTRIBUTES: Final = frozenset(
    (b"class", b"id", b"role", b"itemprop", b"property", b"content", b"type")
)
_MAIN_ELEMENTS: Final = (b"main", b"article")
_MAIN: Final = MAIN_LABEL.encode()
_CONTENT: Final = CONTENT_LABEL.encode()
_COMMENTS: Final = COMMENTS_LABEL.encode()
_BOXES: Final = BOXES_LABEL.encode()
_CONSENT: Final = CONSENT_LABEL.encode()
# Containers: their marks always stay (only a main container, or the h1,
# unmarks the comments and boxes regions around it).
_CONTAINERS: Final = (_MAIN, _CONTENT)
# The labels marked on a page that declares no article (the rest need one).
_UNDECLARED: Final = (_CONTENT, _COMMENTS, _CONSENT)
_CONTENT_TOKENS: Final = tuple(token.encode() for token in CONTENT_TOKENS)
_COMMENT_TOKENS: Final = tuple(token.encode() for token in COMMENT_TOKENS)
_BOX_TOKENS: Final = tuple(token.encode() for token in BOX_TOKENS)
_CONSENT_TOKENS: Final = tuple(token.encode() for token in CONSENT_TOKENS)
_ARTICLE_TYPES: Final = tuple(f'"{name}"'.encode() for name in ARTICLE_TYPES)


class Regions:
    """The regions of one page, as the reference scan reads it."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.structure = False  # the page declares an article
        # Per marked start tag: where the mark goes, its labels, and the index of
        # the mark of the nearest marked element around it (-1 for none).
        self.marks: list[tuple[int, Labels, int]] = []

    def labels(self, name: bytes, attributes: dict[bytes, bytes]) -> Labels:
        """The region labels of a start tag (the article profile): main, comments, boxes."""
        labels = []
        role = attributes.get(b"role", b"").lower().split()
        itemprop = attributes.get(b"itemprop", b"").lower().split()
        if name in _MAIN_ELEMENTS or b"main" in role or b"articlebody" in itemprop:
            labels.append(_MAIN)
        named = attributes.get(b"class", b"").lower() + b" " + attributes.get(b"id", b"").lower()
        if not labels and any(token in named.translate(None, b"-_") for token in _CONTENT_TOKENS):
            labels.append(_CONTENT)
        if any(token in named for token in _COMMENT_TOKENS):
            if name.decode() not in INLINE:  # a highlighter's token, a count: no region
                labels.append(_COMMENTS)
        elif any(token in named for token in _CONSENT_TOKENS):
            labels.append(_CONSENT)
        elif any(token in named for token in _BOX_TOKENS):
            labels.append(_BOXES)
        return labels

    def open(self, name: bytes, labels: Labels, where: int, mark_of: list[int]) -> int:
        """An element opens with `labels` (its mark goes at `where`), above the stack's
        entries whose marks are `mark_of` (-1: none): its mark, or -1 for none."""
        if name == b"h1" or _MAIN in labels:
            self.unmark(mark_of)  # a region holding the article's headline or container is none
        if not labels:
            return -1
        if _MAIN in labels:
            self.structure = True
        outer = next((mark for mark in reversed(mark_of) if mark >= 0), -1)
        self.marks.append((where, labels, outer))
        return len(self.marks) - 1

    def unmark(self, mark_of: list[int]) -> None:
        """Take the comments and boxes labels off every region open around this point."""
        for mark in mark_of:
            if mark >= 0:
                where, labels, outer = self.marks[mark]
                kept = [label for label in labels if label in _CONTAINERS]
                self.marks[mark] = (where, kept, outer)

    def end_of_start_tag(self, name: bytes, attributes: dict[bytes, bytes]) -> None:
        """The start tag of `name` has been read: an og:type meta declares an article."""
        if name == b"meta":
            content = attributes.get(b"content", b"").strip().lower()
            if attributes.get(b"property", b"").lower() == b"og:type" and content == b"article":
                self.structure = True

    def read_raw_text(self, name: bytes, attributes: dict[bytes, bytes], at: int, end: int) -> None:
        """A raw-text element's content: a JSON-LD block with an article type declares one."""
        if (
            name == b"script"
            and attributes.get(b"type", b"").strip().lower() == b"application/ld+json"
            and any(self.data.find(kind, at, end) >= 0 for kind in _ARTICLE_TYPES)
        ):
            self.structure = True

    def marked(self, cuts: list[Cut]) -> list[Cut]:
        """`cuts`, and the marks among them if the page declares an article."""
        if not self.marks:
            return cuts
        # A comments or boxes label inside an element that keeps the same label
        # adds nothing (the article profile reads the outermost of each): it is
        # left out, so fewer regions are wrapped after the parse. A main label
        # always stays: the inner_container rule reads the containers nested in
        # the main one.
        kept: list[Labels] = []
        above: list[set[bytes]] = []  # per mark, the labels kept around it
        marks = []
        for where, labels, outer in self.marks:
            around = (above[outer] | set(kept[outer])) if outer >= 0 else set()
            own = [
                label
                for label in labels
                if (label in _CONTAINERS or label not in around)
                and (self.structure or label in _UNDECLARED)
            ]
            kept.append(own)
            above.append(around)
            if own:
                text = f' {REGION_ATTRIBUTE}="{b" ".join(own).decode()}"'.encode()
                marks.append((where, where, text))
        return sorted([*cuts, *marks], key=lambda cut: cut[0])
