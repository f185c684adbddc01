"""One pass over the parsed tree: the page as a sequence of text blocks.

The walk sees the tree as a stream of element opens, closes and text, in
document order (docs/spec.md section 2). A boundary element's open and close end the
current block; inline elements glue text; other elements separate words;
removed elements are never entered.

The result is one string for the whole page, not one object per block: the
text of every block with visible text, NUL after each, and marker characters
where <a>, sup/sub and <br> stand. NUL and lone surrogates never reach a text
node (the parser drops NUL or makes it U+FFFD, and text is decoded UTF-8, which
cannot hold a surrogate), so markers cannot be confused with text. Counting
and rendering then work on the whole page with a few C-level string
operations, and the renderer and the word counter read exactly the same
characters.

The loop is the fit's hot path (on a typical page, 700 elements and 900 text
nodes): blockdensity._walk (Cython) runs it over lexbor's records, without a
Python object or call per node. `_traced_walk` below is the same walk over
selectolax's nodes, for --highlight, which needs to know which block every
text node went to (the compiled walk keeps no nodes). The two must make the
same page: tests/test_walk.py compares them on every corpus page, the fuzz
corpus and random tag soup.
"""

from __future__ import annotations

import re
from typing import Final, TypeAlias

from blockdensity import _walk as compiled_walk
from blockdensity import article, dom, tags
from blockdensity.conf import Conf
from blockdensity.decode import Source
from blockdensity.nesting import REGION_ATTRIBUTE
from blockdensity.parse import Parsed, closed_titles, parse
from blockdensity.words import END

__all__ = [
    "ANCHOR_MARK",
    "BLOCK_END",
    "BREAK_MARK",
    "DROP",
    "ELEMENT",
    "PRE",
    "SUB_CLOSE",
    "SUB_OPEN",
    "BlockInfo",
    "Page",
    "Trace",
    "segment",
    "trace_segment",
    "walk",
]

BLOCK_END: Final = END
# The edge of an <a>: separates words (docs/spec.md section 3), renders as nothing
# (docs/spec.md section 1: <a> is inline like the others).
ANCHOR_MARK: Final = chr(0xD800)
# A <br>: a line break inside the block.
BREAK_MARK: Final = chr(0xD801)
# The edges of sup and sub: words that begin between them are not counted.
SUB_OPEN: Final = chr(0xD802)
SUB_CLOSE: Final = chr(0xD803)
# Elements that are neither inline nor boundaries separate words.
_SPACE: Final = " "


# Where a block sits, besides its text: (element, pre, drop), a plain tuple
# because the walk makes one per block.
#   element  the boundary element the block's first visible text sits in
#   pre      inside <pre>: whitespace is kept
#   drop     index into Page.drop_scopes of the dropped element in effect at
#            the block's first visible text, or -1
BlockInfo: TypeAlias = tuple[str, bool, int]
ELEMENT: Final = 0
PRE: Final = 1
DROP: Final = 2


class Page:
    """A segmented page: its blocks, their text and link text, title, language."""

    __slots__ = (
        "blocks",
        "declarations",
        "declared_ids",
        "drop_scopes",
        "lang",
        "linked",
        "microdata",
        "scope_parents",
        "text",
        "title",
    )

    def __init__(  # noqa: PLR0913, PLR0917 - a record built in one place
        self,
        blocks: list[BlockInfo],
        text: str,
        linked: str,
        title: str,
        lang: str | None,
        drop_scopes: list[str],
        scope_parents: list[int],
        declarations: list[dom.Node],
        declared_ids: tuple[int, ...] = (),
        microdata: bool | None = None,
    ) -> None:
        self.blocks = blocks
        # Every block's text with its markers, each followed by BLOCK_END.
        self.text = text
        # Every block's link text (anchor edges as spaces), each followed by BLOCK_END.
        self.linked = linked
        self.title = title
        self.lang = lang
        # The scoped elements met on the page: dropped ones, e.g. "nav" or
        # "role=navigation", and the article profile's regions ("article:...").
        self.drop_scopes = drop_scopes
        # Per scope, the index of the scope it sits in, or -1.
        self.scope_parents = scope_parents
        # The <meta>, <link>, <base> and <script> elements of the body, met on
        # the way (they are skipped): where the body declares metadata
        # (blockdensity.metadata), found without another walk of the tree.
        self.declarations = declarations
        # The ids of _walk.DECLARED_ATTRIBUTES in the page's document, as the
        # compiled walk found them (for blockdensity.metadata); () when not found.
        self.declared_ids = declared_ids
        # Whether an element of the body (below it, kept in the tree) has an
        # itemprop or pubdate attribute, as the compiled walk found on its way
        # (for blockdensity.metadata's microdata query); None when not looked for.
        self.microdata = microdata

    def block_texts(self) -> list[str]:
        """Each block's text as the renderer reads it: markers but <br> removed."""
        text = self.text
        if ANCHOR_MARK in text:
            text = text.replace(ANCHOR_MARK, "")
        if SUB_OPEN in text:
            text = text.replace(SUB_OPEN, "").replace(SUB_CLOSE, "")
        return text.split(BLOCK_END)[:-1]


def segment(html: str | bytes, conf: Conf) -> Page:
    """Parse `html` (bytes: UTF-8) and split its body into blocks under `conf`'s tag sets."""
    return trace_segment(html, conf, None)[0]


# Which block each text node went to: (block index, text node), in order.
Trace: TypeAlias = list[tuple[int, dom.Node]]


def trace_segment(html: str | bytes, conf: Conf, trace: Trace | None) -> tuple[Page, dom.Document]:
    """`segment`, also returning the parsed tree; when `trace` is a list, the walk is
    the traced one, which fills it with the block of every text node (for --highlight).
    A page without a block whose titles hold markup is read with them closed
    (blockdensity.parse.closed_titles), as the fit reads it."""
    parsed = parse(Source(html, None), conf)
    page = _walk(parsed.document, conf, trace)
    if not page.blocks and (closed := closed_titles(parsed)) is not None:
        if trace is not None:
            trace.clear()
        parsed = closed
        page = _walk(closed.document, conf, trace)
    return page, parsed.document


def walk(parsed: Parsed, conf: Conf) -> Page:
    """The walk stage: the parsed page as a sequence of text blocks under `conf`'s tag sets."""
    return _walk(parsed.document, conf, None)


# Custom elements the fit puts around an element dropped for its ARIA role,
# or marked as a region by the article profile: one opener name per scope
# label (so the walk tells them apart by tag id, without reading attributes),
# and one closer. Each name holds a space, which ends a tag name in HTML's
# tokenizer: no element of the page can share their tag ids (a page's own
# <blockdensity-drop-end> once closed a scope that was never opened).
_DROP_OPEN: Final = "blockdensity scope-"
_DROP_CLOSE: Final = "blockdensity drop-end"
_NOT_NAME: Final = re.compile(r"[^a-z0-9]+")


def _wrap(doc: dom.Document, node: dom.Node, label: str, openers: dict[int, str]) -> int:
    """Put scope markers around `node`, noting the opener's label; the closer's tag id."""
    opener = doc.create_node(_DROP_OPEN + _NOT_NAME.sub("-", label))
    closer = doc.create_node(_DROP_CLOSE)
    node.insert_before(opener, move=True)
    node.insert_after(closer, move=True)
    openers[opener.tag_id] = label
    return closer.tag_id


def _apply_attributes(doc: dom.Document, conf: Conf) -> tuple[dict[int, str], int]:
    """Rewrite the tree where an attribute changes what an element is.

    A hidden element is replaced by an empty <img>: no text, but words do not
    join across it (docs/spec.md section 2). An element with a dropped ARIA role gets
    marker elements before and after it. Found with one selector query (in
    C), so the walk reads no attributes: reading them element by element from
    Python would cost more than the whole walk. (The compiled walk reads
    the attributes itself instead, on its way.) Returns the openers' labels
    by tag id, and the closer's tag id (-1 when there are no markers).
    """
    # role is a list of tokens, of which the first is the element's role
    # (WAI-ARIA): the query finds any token, the loop keeps the first.
    selectors = ["[hidden]"] + [f'[role~="{role}" i]' for role in sorted(conf.drop_roles)]
    openers: dict[int, str] = {}
    close_id = -1
    body = doc.body
    if body is None:
        return openers, close_id
    for node in dom.select(body, ",".join(selectors)):
        attrs = node.attrs
        if "hidden" in attrs:
            node.replace_with(doc.create_node("img"))
            continue
        roles = (attrs.get("role") or "").lower().split()
        if not roles or roles[0] not in conf.drop_roles:
            continue
        close_id = _wrap(doc, node, f"role={roles[0]}", openers)
    if conf.rules:
        for node, label in article.regions(doc, conf.rules):
            close_id = _wrap(doc, node, label, openers)
    return openers, close_id


_ITEMPROP: Final = compiled_walk.DECLARED_ATTRIBUTES.index("itemprop")
_PUBDATE: Final = compiled_walk.DECLARED_ATTRIBUTES.index("pubdate")
# The elements that declare metadata and that the walk skips (void or removed).
_DECLARING: Final = ("meta", "link", "base", "script")
_DECLARING_IDS: Final = frozenset(dom.tag_id(name) for name in _DECLARING)

compiled_walk.configure(
    dom.TEXT_ID,
    dom.tag_id("img"),
    tuple(dom.tag_id(name) for name in _DECLARING),
    {name: getattr(tags, name) for name in tags.WALK_BITS},
    {
        "BLOCK_END": BLOCK_END,
        "ANCHOR_MARK": ANCHOR_MARK,
        "BREAK_MARK": BREAK_MARK,
        "SUB_OPEN": SUB_OPEN,
        "SUB_CLOSE": SUB_CLOSE,
    },
)


def _document_title(doc: dom.Document) -> str | None:
    head = doc.head
    if head is None:
        return None
    title_id = dom.tag_id("title")
    for node in head.iter():
        if node.tag_id == title_id:
            return " ".join(node.text().split())
    return None


def _declared_language(doc: dom.Document) -> str | None:
    root = doc.root
    if root is None or not root.is_element_node:
        return None
    attrs = root.attrs
    lang = attrs.get("lang") or attrs.get("xml:lang")
    return lang.strip() or None if lang else None


def attribute_ids(doc: dom.Document, names: tuple[str, ...]) -> tuple[int, ...]:
    """The ids lexbor gives the attribute `names` in `doc`, in their order: what an
    element made in the document shows (the compiled walk and the metadata read
    attributes by these ids, not by name)."""
    probe = doc.create_node("div")
    for name in names:
        probe.attrs[name] = ""
    return tuple(compiled_walk.attribute_ids(probe))


def _walk(doc: dom.Document, conf: Conf, trace: Trace | None) -> Page:
    lang = _declared_language(doc)
    title = _document_title(doc)
    body = doc.body
    if body is None:
        return Page([], "", "", title or "", lang, [], [], [])
    if trace is not None:
        # The compiled walk keeps no text nodes, so --highlight's trace takes this one.
        openers, drop_close = _apply_attributes(doc, conf)
        return _TracedWalk(conf, trace, title, openers, drop_close).page(body, lang)
    # What _apply_attributes does, the compiled walk does on its way: it reads
    # the attributes by the ids lexbor gives their names in this document,
    # which an element made here shows.
    # The same element shows the ids of the attributes the metadata reads:
    # one more element made in the document costs more than its attributes.
    hidden_id, role_id, region_id, *declared = attribute_ids(
        doc, ("hidden", "role", REGION_ATTRIBUTE, *compiled_walk.DECLARED_ATTRIBUTES)
    )
    table = conf.table
    walked = compiled_walk.walk(
        body,
        table.packed,
        table.custom,
        table.names,
        title,
        hidden_id,
        role_id if conf.drop_roles else 0,
        conf.drop_roles,
        region_id if conf.rules else 0,
        article.region_scopes(conf.rules),
        declared[_ITEMPROP],
        declared[_PUBDATE],
    )
    blocks, text, linked, title, drop_scopes, parents, declarations, hidden, microdata = walked
    # The tree as _apply_attributes leaves it, for what reads it after the walk
    # (blockdensity.metadata): hidden elements replaced.
    for node in hidden:
        node.replace_with(doc.create_node("img"))
    return Page(
        blocks,
        text,
        linked,
        title or "",
        lang,
        drop_scopes,
        parents,
        declarations,
        tuple(declared),
        microdata,
    )


class _TracedWalk:
    """The walk of blockdensity._walk over selectolax's nodes, noting where each text node went.

    The compiled walk reads the same tree as one loop over lexbor's records;
    this one says the same rules an event at a time, for --highlight: an
    element opens, its children are walked, it closes; a text node is taken.
    A boundary's open and close each end the current block (`end_block`).
    The two must make the same Page (tests/test_walk.py).
    """

    def __init__(
        self, conf: Conf, trace: Trace, title: str | None, openers: dict[int, str], closer: int
    ) -> None:
        table = conf.table
        self.flags_of = table.flags  # by tag id, for lexbor's own tags
        self.custom = table.custom  # for the rest (custom elements)
        self.names = table.names
        self.trace = trace
        self.title = title  # the head's; else the first <title> met in the body
        self.openers = openers  # the tag ids of the scope markers, with their labels
        self.closer = closer  # the tag id of the marker that ends a scope
        # The Page being made.
        self.blocks: list[BlockInfo] = []
        self.pieces: list[str] = []  # the page's text, block after block
        self.links: list[str] = []  # the page's link text, block after block
        self.drop_scopes: list[str] = []
        self.scope_parents: list[int] = []
        self.declarations: list[dom.Node] = []
        # The current block: where it began in pieces and links, whether it
        # has visible text yet, and where its first visible text sits.
        self.start = 0
        self.link_start = 0
        self.visible = False
        self.block_element = "body"
        self.block_pre = False
        self.block_drop = -1
        # What the walk is inside of.
        self.anchors = 0  # open <a> elements
        self.subs = 0  # open sup and sub elements
        self.pres = 0  # open <pre> elements: whitespace-only text nodes count there
        self.boundaries = [dom.tag_id("body")]  # the open boundary elements' tag ids
        self.scopes: list[int] = []  # the open scopes, as indices into drop_scopes
        # The last text node, while nothing but inline elements follows it:
        # a text node after it glues to it, unless whitespace lay between.
        self.glue: dom.Node | None = None
        self.glue_text = ""

    def page(self, body: dom.Node, lang: str | None) -> Page:
        self.children(body)
        self.end_block()  # the close of <body>
        return Page(
            self.blocks,
            "".join(self.pieces),
            "".join(self.links),
            self.title or "",
            lang,
            self.drop_scopes,
            self.scope_parents,
            self.declarations,
        )

    def children(self, parent: dom.Node) -> None:
        # lexbor leaves out the text nodes that are whitespace only (two in three,
        # on real pages) unless asked; inside <pre> they are text.
        for node in parent.iter(True, self.pres == 0):
            if node.tag_id == dom.TEXT_ID:
                self.text(node)
            else:
                self.element(node)

    def element(self, node: dom.Node) -> None:  # noqa: C901, PLR0912 - one branch per kind
        node_id = node.tag_id
        if node_id == self.closer:  # the end of a scope's element
            self.scopes.pop()
            return
        if node_id in self.openers:  # the start of one
            self.open_scope(self.openers[node_id])
            return
        flags = self.flags_of[node_id] if node_id < len(self.flags_of) else self.custom
        if flags & tags.BOUNDARY:
            if flags & tags.SKIP:  # <hr>: a boundary with no content
                self.end_block()
                return
            self.boundaries.append(node_id)
            self.open(flags, node_id)
            self.end_block()
            self.children(node)
            self.close(flags)
            self.boundaries.pop()
            self.end_block()
            return
        if flags & tags.SKIP:  # void or removed: never entered
            if node_id in _DECLARING_IDS:
                self.declarations.append(node)
            if flags & tags.SEPARATOR:
                self.separate(_SPACE)
                if flags & tags.TITLE and self.title is None:
                    self.title = " ".join(node.text().split())
            elif flags & tags.BREAK:
                self.separate(BREAK_MARK)
            return
        if not flags or (flags == tags.ANCHOR and not self.anchors):
            # An inline element or a link around one text node: the text is
            # taken here. (For a link, its edges go in the link text around
            # the text, as the compiled walk makes them.)
            child = node.first_child
            if child is not None and child.next is None and child.tag_id == dom.TEXT_ID:
                if flags:
                    self.pieces.append(ANCHOR_MARK)
                self.text(child, whole_link=bool(flags))
                return
        elif flags & tags.SEPARATOR:
            self.separate(_SPACE)
        self.open(flags, node_id)
        self.children(node)
        self.close(flags)
        if flags & tags.SEPARATOR and not flags & tags.BOUNDARY:
            self.separate(_SPACE)

    def open(self, flags: int, node_id: int) -> None:
        if flags & tags.ANCHOR:
            self.anchors += 1
            if self.anchors == 1:
                self.pieces.append(ANCHOR_MARK)
                self.links.append(_SPACE)
        if flags & tags.SUPSUB:
            self.subs += 1
            if self.subs == 1:
                self.pieces.append(SUB_OPEN)
        if flags & tags.PRE:
            self.pres += 1
        if flags & tags.DROP:
            self.open_scope(self.names[node_id])

    def close(self, flags: int) -> None:
        if flags & tags.ANCHOR:
            self.anchors -= 1
            if self.anchors == 0:
                self.pieces.append(ANCHOR_MARK)
                self.links.append(_SPACE)
        if flags & tags.SUPSUB:
            self.subs -= 1
            if self.subs == 0:
                self.pieces.append(SUB_CLOSE)
        if flags & tags.PRE:
            self.pres -= 1
        if flags & tags.DROP:
            self.scopes.pop()

    def open_scope(self, label: str) -> None:
        self.scope_parents.append(self.scopes[-1] if self.scopes else -1)
        self.scopes.append(len(self.drop_scopes))
        self.drop_scopes.append(label)

    def separate(self, mark: str) -> None:
        """An element that is neither inline nor a boundary: words do not join across it."""
        self.glue = None
        self.pieces.append(mark)
        if self.anchors:
            self.links.append(_SPACE)

    def text(self, node: dom.Node, *, whole_link: bool = False) -> None:
        text = node.text_content or ""
        if (
            self.glue is not None
            and not self.glue_text[-1:].isspace()
            and not text[:1].isspace()
            and _whitespace_between(self.glue, node)
        ):
            # A whitespace-only text node the walk skipped stood between.
            self.pieces.append(_SPACE)
            if self.anchors:
                self.links.append(_SPACE)
        self.pieces.append(text)
        self.trace.append((len(self.blocks), node))
        self.glue = node
        self.glue_text = text
        if self.anchors:
            self.links.append(text)
        if not self.visible and not text.isspace():
            self.visible = True
            self.block_element = self.names[self.boundaries[-1]]
            self.block_pre = self.pres > 0
            self.block_drop = self.scopes[-1] if self.scopes else -1
        if whole_link:
            self.pieces.append(ANCHOR_MARK)
            self.links += (_SPACE, text, _SPACE)

    def end_block(self) -> None:
        """A boundary opened or closed: the block so far ends, if it has visible text."""
        self.glue = None
        pieces = self.pieces
        inside = self.anchors or self.subs
        if self.visible:
            if inside:
                _end_inside(pieces, self.anchors, self.subs)
            else:
                pieces.append(BLOCK_END)
            self.links.append(BLOCK_END)
            self.blocks.append((self.block_element, self.block_pre, self.block_drop))
            self.visible = False
            self.start = len(pieces)
            self.link_start = len(self.links)
        elif len(pieces) > self.start:
            # Only whitespace and marks: they go, with their nodes' trace.
            del pieces[self.start :]
            del self.links[self.link_start :]
            _untrace(self.trace, len(self.blocks))
        else:
            return
        if inside:
            _begin_inside(pieces, self.anchors, self.subs)


def _untrace(trace: Trace, block: int) -> None:
    # The text nodes of a block that turned out to have no visible text.
    while trace and trace[-1][0] == block:
        trace.pop()


def _end_inside(pieces: list[str], anchor_depth: int, sup_depth: int) -> None:
    # A block ends inside a link or sup/sub that goes on in the next one:
    # close the marks here (each block's marks pair up)...
    if anchor_depth:
        pieces.append(ANCHOR_MARK)
    if sup_depth:
        pieces.append(SUB_CLOSE)
    pieces.append(BLOCK_END)


def _begin_inside(pieces: list[str], anchor_depth: int, sup_depth: int) -> None:
    # ...and open them again at the start of the next.
    if anchor_depth:
        pieces.append(ANCHOR_MARK)
    if sup_depth:
        pieces.append(SUB_OPEN)


def _whitespace_between(first: dom.Node, last: dom.Node) -> bool:
    """True when a text node lies strictly between two text nodes, in document order.

    Called only when nothing but inline elements separates them, so any text
    node between is one the walk skipped: whitespace only.
    """
    stop = last.mem_id
    node = first
    while True:
        child = node.first_child
        if child is not None and node is not first:
            node = child
        else:
            while (sibling := node.next) is None:
                parent = node.parent
                if parent is None:
                    return False
                node = parent
            node = sibling
        if node.mem_id == stop:
            return False
        if node.is_text_node:
            return True
