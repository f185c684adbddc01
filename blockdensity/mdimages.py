"""The images of a page's kept content, for Markdown's images (Conf.markdown_images).

The walk keeps no image: an <img> has no text. Asked for images, the page
is walked again with a trace (mdlinks.traced_walk: which block each text
node went to), and its tree read in document order: each image sits
between the text before it and the text after it. Which block it belongs
to follows from its nearest boundary element (the element that makes it a
part of a block, Conf.boundaries), which is never <body>:

- the text after it is in that element (a <figure> and its caption, an
  image at the start of a paragraph): it renders just before that block;
- else the text before it is (an image at the end of a paragraph): just
  after that block;
- else (an image alone in its <p>, <figure>, <div>): between the blocks
  before and after it, rendered only when both are kept, as the content
  around it is.

So an image renders only in the kept content, where its block or the
blocks around it are kept: not in a dropped header, sidebar or footer.
Each renders as a paragraph of its own, `![alt](src)`, its src resolved
against the page's URL. Images in a table cell or in a <pre> are left out
(the table and the code block render whole); so are images without a
usable source (none, or a data: URI) and images inside <noscript>
(the lazy-loading copy of an image the page shows anyway).
"""

from __future__ import annotations

from typing import Final, NamedTuple

from blockdensity import dom
from blockdensity.mdlinks import resolve
from blockdensity.segment import Trace

__all__ = ["Image", "Images", "image_targets"]

_IMG: Final = dom.tag_id("img")
_NOSCRIPT: Final = dom.tag_id("noscript")
_OUTER: Final = frozenset({dom.tag_id("body"), dom.tag_id("html")})
# Where a lazily loaded image keeps its source when src is a placeholder.
_LAZY: Final = ("data-src", "data-lazy-src", "data-original")


class Image(NamedTuple):
    """An image as Markdown: its alt text (raw) and its resolved source."""

    alt: str
    src: str


class Images(NamedTuple):
    """Per block, the images that render before it and after it; and those between two
    blocks ((before, after) -> images), which render when both are kept."""

    before: dict[int, list[Image]]
    after: dict[int, list[Image]]
    between: dict[tuple[int, int], list[Image]]


NO_IMAGES: Final = Images({}, {}, {})


def image_targets(
    document: dom.Document, trace: Trace, boundaries: frozenset[str], url: str | None
) -> Images:
    """The images of `document` placed among the blocks its walk made (`trace`, the block
    of every text node); `boundaries` the element names that end blocks."""
    root = document.root
    if root is None or not trace:
        return NO_IMAGES
    blocks = {node.mem_id: block for block, node in trace}
    boundary_ids = frozenset(dom.tag_id(name) for name in boundaries) - _OUTER
    found = Images({}, {}, {})
    previous: tuple[int, dom.Node] | None = None  # the last text node with a block
    pending: list[tuple[Image, dom.Node | None, tuple[int, dom.Node] | None]] = []
    for node in root.traverse(include_text=True):
        block = blocks.get(node.mem_id) if node.tag_id == dom.TEXT_ID else None
        if block is not None:
            for waiting, boundary, before in pending:
                _place(found, waiting, boundary, before, (block, node))
            pending.clear()
            previous = (block, node)
        elif node.tag_id == _IMG:
            image = _image(node, url)
            if image is not None:
                pending.append((image, _boundary(node, boundary_ids), previous))
    for image, boundary, before in pending:
        _place(found, image, boundary, before, None)
    return found


def _place(
    found: Images,
    image: Image,
    boundary: dom.Node | None,
    before: tuple[int, dom.Node] | None,
    after: tuple[int, dom.Node] | None,
) -> None:
    if boundary is not None and after is not None and _inside(after[1], boundary):
        found.before.setdefault(after[0], []).append(image)
    elif boundary is not None and before is not None and _inside(before[1], boundary):
        found.after.setdefault(before[0], []).append(image)
    elif before is not None and after is not None:
        found.between.setdefault((before[0], after[0]), []).append(image)


def _boundary(node: dom.Node, boundary_ids: frozenset[int]) -> dom.Node | None:
    """The nearest boundary element around `node` (not <body>); None: none."""
    parent = node.parent
    while parent is not None and parent.tag_id not in _OUTER:
        if parent.tag_id in boundary_ids:
            return parent
        parent = parent.parent
    return None


def _inside(node: dom.Node, ancestor: dom.Node) -> bool:
    target = ancestor.mem_id
    parent = node.parent
    while parent is not None:
        if parent.mem_id == target:
            return True
        parent = parent.parent
    return False


def _image(node: dom.Node, url: str | None) -> Image | None:
    """The image's alt text and source; None: no usable source, or in <noscript>."""
    parent = node.parent
    while parent is not None:
        if parent.tag_id == _NOSCRIPT:
            return None
        parent = parent.parent
    attrs = node.attrs
    src = (attrs.get("src") or "").strip()
    if not src or src.lower().startswith("data:"):
        src = next(
            (value.strip() for name in _LAZY if (value := attrs.get(name)) and value.strip()), ""
        )
    if not src or src.lower().startswith("data:"):
        return None
    alt = " ".join((attrs.get("alt") or "").split())
    return Image(alt, resolve(url, src))
