"""One pass over the parsed tree: the page as a sequence of text blocks.

The walk sees the tree as a stream of element opens, closes and text, in
document order (SPEC section 2). A boundary element's open and close end the
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
from collections.abc import Iterator
from typing import Final, TypeAlias

from blockdensity import _walk as compiled_walk
from blockdensity import article, dom, tags
from blockdensity.conf import Conf
from blockdensity.nesting import REGION_ATTRIBUTE
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
]

BLOCK_END: Final = END
# The edge of an <a>: separates words (SPEC section 3), renders as nothing
# (SPEC section 1: <a> is inline like the others).
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
        "drop_scopes",
        "lang",
        "linked",
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
    the traced one, which fills it with the block of every text node (for --highlight)."""
    doc = dom.parse(html, regions=bool(conf.rules))
    page = _walk(doc, conf, trace)
    if not page.blocks:
        # An unclosed <title> swallows the whole page into the title (HTML5
        # RCDATA), leaving an empty body. End each title that holds markup at
        # its first tag and parse again, which recovers the page as the
        # reference does. (Rare: only pages without visible body text pay.)
        source = html.decode("utf-8", "replace") if isinstance(html, bytes) else html
        repaired = _close_titles(source)
        if repaired is not None:
            if trace is not None:
                trace.clear()
            doc = dom.parse(repaired, regions=bool(conf.rules))
            page = _walk(doc, conf, trace)
    return page, doc


_TITLE_OPEN: Final = re.compile(r"<title\b[^>]*>", re.IGNORECASE)
_TAG_START: Final = re.compile(r"<[A-Za-z!?]|</(?!title\b)", re.IGNORECASE)
_TITLE_CLOSE: Final = re.compile(r"</title\b", re.IGNORECASE)


def _close_titles(html: str) -> str | None:
    """`html` with every <title> whose text holds a tag ended before that tag; None if none does."""
    cuts: list[int] = []
    position = 0
    while (opening := _TITLE_OPEN.search(html, position)) is not None:
        tag = _TAG_START.search(html, opening.end())
        closing = _TITLE_CLOSE.search(html, opening.end())
        if tag is None:
            break
        if closing is None or tag.start() < closing.start():
            cuts.append(tag.start())
            position = tag.start()
        else:
            position = closing.end()
    if not cuts:
        return None
    parts: list[str] = []
    previous = 0
    for cut in cuts:
        parts += (html[previous:cut], "</title>")
        previous = cut
    parts.append(html[previous:])
    return "".join(parts)


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
    join across it (SPEC section 2). An element with a dropped ARIA role gets
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


def _walk(doc: dom.Document, conf: Conf, trace: Trace | None) -> Page:
    lang = _declared_language(doc)
    title = _document_title(doc)
    body = doc.body
    if body is None:
        return Page([], "", "", title or "", lang, [], [], [])
    if trace is not None:
        # The compiled walk keeps no text nodes, so --highlight's trace takes this one.
        openers, drop_close = _apply_attributes(doc, conf)
        return _traced_walk(body, conf, trace, title, lang, openers, drop_close)
    # What _apply_attributes does, the compiled walk does on its way: it reads
    # the attributes by the ids lexbor gives their names in this document,
    # which an element made here shows.
    probe = doc.create_node("div")
    for name in ("hidden", "role", REGION_ATTRIBUTE):
        probe.attrs[name] = ""
    hidden_id, role_id, region_id = compiled_walk.attribute_ids(probe)
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
    )
    blocks, text, linked, title, drop_scopes, parents, declarations, hidden = walked
    # The tree as _apply_attributes leaves it, for what reads it after the walk
    # (blockdensity.metadata): hidden elements replaced.
    for node in hidden:
        node.replace_with(doc.create_node("img"))
    return Page(blocks, text, linked, title or "", lang, drop_scopes, parents, declarations)


def _traced_walk(  # noqa: C901, PLR0912, PLR0913, PLR0915, PLR0917
    body: dom.Node,
    conf: Conf,
    trace: Trace,
    title: str | None,
    lang: str | None,
    openers: dict[int, str],
    drop_close: int,
) -> Page:
    # The walk of blockdensity._walk, step for step, over selectolax's nodes,
    # noting the block of every text node in `trace`. One loop in one frame,
    # as the compiled one: the opens and closes come from a stack of child
    # iterators, and per level the flags of the element whose close is pending.
    table = conf.table
    flags_of = table.flags
    n_flags = len(flags_of)
    custom = table.custom
    names = table.names
    text_id = dom.TEXT_ID
    iter_children = dom.Node.iter
    boundary = tags.BOUNDARY
    anchor = tags.ANCHOR
    supsub = tags.SUPSUB
    pre_flag = tags.PRE
    drop_flag = tags.DROP
    separator = tags.SEPARATOR
    skip = tags.SKIP
    line_break = tags.BREAK
    title_flag = tags.TITLE
    declaring = _DECLARING_IDS

    blocks: list[BlockInfo] = []
    drop_scopes: list[str] = []
    scope_parents: list[int] = []

    pieces: list[str] = []  # the page's text, block after block
    links: list[str] = []  # the page's link text, block after block
    start = link_start = 0  # where the current block began in each
    visible = False  # the current block has non-whitespace text
    element = "body"
    pre = False
    drop = -1
    anchor_depth = sup_depth = pre_depth = 0
    boundary_ids = [dom.tag_id("body")]
    skip_ws = True
    drop_stack: list[int] = []
    declarations: list[dom.Node] = []

    # Whitespace-only text nodes (two in three, on real pages) are skipped by
    # lexbor, except inside <pre>. Skipping one can only matter between two
    # texts that glue (no separator between, no whitespace at their edges);
    # that case is rare and is checked exactly (_whitespace_between).
    glue_node = None  # the last text node, while nothing separates it from what follows
    glue_text = ""
    link_closes = False  # the text being taken is a link's only child: close it after

    # The tree as opens and closes: a stack of child iterators, and per level
    # the flags of the element whose close is pending. Tests are ordered by
    # frequency: boundaries, then links and inline elements, then the rest.
    children = iter_children(body, True, True)  # the children being walked
    closer = boundary  # the flags of the element they belong to, to close after them
    stack: list[tuple[Iterator[dom.Node], int]] = []
    ends_block = False  # a boundary opened or closed since the last look
    finished = False  # <body> closed: end the last block, then stop
    while True:
        if ends_block:
            ends_block = False
            glue_node = None
            if visible:
                if anchor_depth or sup_depth:
                    _end_inside(pieces, anchor_depth, sup_depth)
                else:
                    pieces.append(BLOCK_END)
                links.append(BLOCK_END)
                blocks.append((element, pre, drop))
                visible = False
                start = len(pieces)
                link_start = len(links)
                if anchor_depth or sup_depth:
                    _begin_inside(pieces, anchor_depth, sup_depth)
            elif len(pieces) > start:
                del pieces[start:]
                del links[link_start:]
                if anchor_depth or sup_depth:
                    _begin_inside(pieces, anchor_depth, sup_depth)
                _untrace(trace, len(blocks))
        for node in children:
            node_id = node.tag_id
            if node_id != text_id:
                if node_id < n_flags:
                    flags = flags_of[node_id]
                elif node_id == drop_close:
                    drop_stack.pop()
                    continue
                elif node_id in openers:
                    scope_parents.append(drop_stack[-1] if drop_stack else -1)
                    drop_stack.append(len(drop_scopes))
                    drop_scopes.append(openers[node_id])
                    continue
                else:
                    flags = custom
                if flags & boundary:
                    # The open ends the current block (at the top of the loop).
                    ends_block = True
                    if flags & skip:  # <hr>: a boundary with no content
                        break
                    boundary_ids.append(node_id)
                    if flags == boundary:  # p, div, li, td, ...: nothing else to do
                        stack.append((children, closer))
                        children = iter_children(node, True, skip_ws)
                        closer = boundary
                        break
                elif not flags or (flags == anchor and not anchor_depth):
                    # A plain inline element or a link. Most have one text
                    # child: take it here (falling through to the text code
                    # below) instead of pushing an iterator for it.
                    child = node.first_child
                    if child is None or child.next is not None or child.tag_id != text_id:
                        if flags:
                            anchor_depth = 1
                            pieces.append(ANCHOR_MARK)
                            links.append(_SPACE)
                        stack.append((children, closer))
                        children = iter_children(node, True, skip_ws)
                        closer = flags
                        break
                    if flags:
                        pieces.append(ANCHOR_MARK)
                        link_closes = True
                    node = child  # noqa: PLW2901 - the child's text is handled below
                    node_id = text_id
                elif flags & skip:
                    if node_id in declaring:
                        declarations.append(node)
                    if flags & separator:
                        glue_node = None
                        pieces.append(_SPACE)
                        if anchor_depth:
                            links.append(_SPACE)
                        if flags & title_flag and title is None:
                            title = " ".join(node.text().split())
                    elif flags & line_break:
                        glue_node = None
                        pieces.append(BREAK_MARK)
                        if anchor_depth:
                            links.append(_SPACE)
                    continue
                elif flags & separator:
                    glue_node = None
                    pieces.append(_SPACE)
                    if anchor_depth:
                        links.append(_SPACE)
                if node_id != text_id:
                    # Whatever else an element with content may be: open it.
                    if flags & anchor:
                        anchor_depth += 1
                        if anchor_depth == 1:
                            pieces.append(ANCHOR_MARK)
                            links.append(_SPACE)
                    if flags & supsub:
                        sup_depth += 1
                        if sup_depth == 1:
                            pieces.append(SUB_OPEN)
                    if flags & pre_flag:
                        pre_depth += 1
                        skip_ws = False
                    if flags & drop_flag:
                        scope_parents.append(drop_stack[-1] if drop_stack else -1)
                        drop_stack.append(len(drop_scopes))
                        drop_scopes.append(names[node_id])
                    stack.append((children, closer))
                    children = iter_children(node, True, skip_ws)
                    closer = flags
                    break
            # A text node (lexbor never makes an empty one, and skips the
            # whitespace-only ones outside <pre>).
            text = node.text_content or ""
            if (
                glue_node is not None
                and not glue_text[-1:].isspace()
                and not text[:1].isspace()
                and _whitespace_between(glue_node, node)
            ):
                pieces.append(_SPACE)
                if anchor_depth:
                    links.append(_SPACE)
            pieces.append(text)
            trace.append((len(blocks), node))
            glue_node = node
            glue_text = text
            if anchor_depth:
                links.append(text)
            if not visible and not text.isspace():
                visible = True
                element = names[boundary_ids[-1]]
                pre = pre_depth > 0
                drop = drop_stack[-1] if drop_stack else -1
            if link_closes:
                pieces.append(ANCHOR_MARK)
                links += (_SPACE, text, _SPACE)
                link_closes = False
        else:
            if finished:
                break
            flags = closer
            if stack:
                children, closer = stack.pop()
            else:  # the close of <body>
                finished = True
                children = iter(())
            if not flags:
                continue
            if flags != boundary:
                if flags & anchor:
                    anchor_depth -= 1
                    if anchor_depth == 0:
                        pieces.append(ANCHOR_MARK)
                        links.append(_SPACE)
                if flags & supsub:
                    sup_depth -= 1
                    if sup_depth == 0:
                        pieces.append(SUB_CLOSE)
                if flags & pre_flag:
                    pre_depth -= 1
                    skip_ws = not pre_depth
                if flags & drop_flag:
                    drop_stack.pop()
                if not flags & boundary:
                    if flags & separator:
                        glue_node = None
                        pieces.append(_SPACE)
                        if anchor_depth:
                            links.append(_SPACE)
                    continue
            # The close of a boundary ends the current block (at the top of the loop).
            boundary_ids.pop()
            ends_block = True
    return Page(
        blocks,
        "".join(pieces),
        "".join(links),
        title or "",
        lang,
        drop_scopes,
        scope_parents,
        declarations,
    )


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
