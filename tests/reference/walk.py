"""The walk of blockdensity.segment written plainly over selectolax's nodes: the reference for
tests/test_walk.py.

blockdensity._walk (Cython) is the walk the fit runs, one loop over lexbor's
records that reads the attributes it needs on its way. This one says the same
rules an event at a time (an element opens, its children are walked, it
closes; a text node is taken), after rewriting the tree where an attribute
changes what an element is (`_apply_attributes`). Both must make the same
Page, the same trace (the block each text node went to) and the same element
table (the boundary elements opened, where each block sits: `Table`), on
every page the tests give them. It reads the rules (the tag table, the marks, the scopes) from
blockdensity, as the compiled one does. It is not shipped and not compiled.
"""

from __future__ import annotations

import re
from typing import Final

from blockdensity import article, dom, tags
from blockdensity.conf import Conf, Profile, Rule
from blockdensity.decode import Source
from blockdensity.measure import measure
from blockdensity.parse import (
    Reading,
    closed_titles,
    deferred_content,
    hidden_content,
    noscript_content,
    parse,
)
from blockdensity.read import REREAD_WORDS
from blockdensity.segment import (
    ANCHOR_MARK,
    BLOCK_END,
    BREAK_MARK,
    SUB_CLOSE,
    SUB_OPEN,
    BlockInfo,
    Page,
    Trace,
    _declared_language,
    _document_title,
)

__all__ = ["Table", "is_marker", "segment", "signature"]

# Elements that are neither inline nor boundaries separate words.
_SPACE: Final = " "
# The elements that declare metadata and that the walk skips (void or removed).
_DECLARING_IDS: Final = frozenset(dom.tag_id(name) for name in ("meta", "link", "base", "script"))
# The kinds of link a block holds: to a place in the page (href "#name"), or elsewhere.
_IN_PAGE: Final = 1
_ELSEWHERE: Final = 2


def _link_kind(node: dom.Node) -> int:
    """A link to a place in the page: "#" and a name, not "#!" (a script's route)."""
    href = node.attrs.get("href")
    if href and len(href.encode("utf-8", "surrogatepass")) >= 2 and href[0] == "#":
        return _ELSEWHERE if href[1] == "!" else _IN_PAGE
    return _ELSEWHERE


class Table:
    """The element table of _walk.Elements, as lists: what Elements.rows(), blocks()
    and pres() give."""

    def __init__(self) -> None:
        self.rows: list[tuple[str, int, int]] = []  # (element name, parent entry, signature)
        self.blocks: list[int] = []  # the entry each block sits in
        self.pres: dict[int, tuple[str, str | None]] = {}  # (pre's class, code child's)


def segment(
    html: str | bytes, conf: Conf, trace: Trace, *, shown: bool = False
) -> tuple[Page, dom.Document, Table | None]:
    """segment.trace_segment's page of `html`, made by this walk, filling `trace`; and
    the page's element table (None without a body). `shown`: the page's hidden
    reading (every hidden element but a pop-up shown), whatever it shows."""
    parsed = parse(Source(html, None), conf)
    page, table = _walk(parsed.document, conf, trace, shown)
    if shown:
        return page, parsed.document, table
    if not page.blocks and (closed := closed_titles(parsed)) is not None:
        # segment.trace_segment's reading of a page whose titles hold markup.
        trace.clear()
        parsed = closed
        page, table = _walk(closed.document, conf, trace)
    if conf.profile is not Profile.ARTICLE:
        return page, parsed.document, table
    # blockdensity.read's other readings, in its order, each walked here; the hidden
    # reading whenever the hidden_text rule runs (read weighs the text under the
    # hidden elements first, which only spares it readings it would not take).
    words = sum(measure(page).words)
    others = [noscript_content(parsed), deferred_content(parsed)] if words < REREAD_WORDS else []
    if Rule.HIDDEN_TEXT in conf.rules:
        others.append(hidden_content(parsed))
    for other in others:
        if other is None:
            continue
        other_trace: Trace = []
        other_page, other_table = _walk(
            other.document, conf, other_trace, other.reading is Reading.HIDDEN
        )
        if sum(measure(other_page).words) >= max(REREAD_WORDS, 2 * words):
            trace[:] = other_trace
            return other_page, other.document, other_table
    return page, parsed.document, table


def _walk(
    doc: dom.Document, conf: Conf, trace: Trace, shown: bool = False
) -> tuple[Page, Table | None]:
    lang = _declared_language(doc)
    title = _document_title(doc)
    body = doc.body
    if body is None:
        return Page([], "", "", title or "", lang, [], [], []), None
    openers, drop_close = _apply_attributes(doc, conf, shown)
    walk = _Walk(conf, trace, title, openers, drop_close)
    return walk.page(body, lang), walk.table


# HTML's ASCII whitespace, which separates the tokens of a class attribute.
_CLASS_SPACE: Final = re.compile("[ \t\n\f\r]+")


def signature(value: str | None) -> int:
    """A class attribute's signature: FNV-1a (32 bits) over the code points of its first
    token; 0 for no token, 1 where the hash is 0."""
    tokens = [token for token in _CLASS_SPACE.split(value or "") if token]
    if not tokens:
        return 0
    hashed = 2166136261
    for character in tokens[0]:
        hashed = ((hashed ^ ord(character)) * 16777619) & 0xFFFFFFFF
    return hashed or 1


def _code_class(pre: dom.Node) -> str | None:
    """The class of a <pre>'s first element child when that is a <code> ("" for none)."""
    for node in pre.iter():
        if not node.is_element_node or is_marker(node):  # iter() yields comments too
            continue
        if node.tag != "code":
            return None
        return node.attrs.get("class") or ""
    return None


# Custom elements put around an element dropped for its ARIA role, or marked
# as a region by the article profile: one opener name per scope label (so the
# walk tells them apart by tag id, without reading attributes), and one
# closer. Each name holds a space, which ends a tag name in HTML's tokenizer:
# no element of the page can share their tag ids.
_DROP_OPEN: Final = "blockdensity scope-"
_DROP_CLOSE: Final = "blockdensity drop-end"
_NOT_NAME: Final = re.compile(r"[^a-z0-9]+")


def is_marker(node: dom.Node) -> bool:
    """Whether `node` is one of the marker elements this walk puts in the tree."""
    return (node.tag or "").startswith((_DROP_OPEN, _DROP_CLOSE))


def _wrap(doc: dom.Document, node: dom.Node, label: str, openers: dict[int, str]) -> int:
    """Put scope markers around `node`, noting the opener's label; the closer's tag id."""
    opener = doc.create_node(_DROP_OPEN + _NOT_NAME.sub("-", label))
    closer = doc.create_node(_DROP_CLOSE)
    node.insert_before(opener, move=True)
    node.insert_after(closer, move=True)
    openers[opener.tag_id] = label
    return closer.tag_id


def _has_role(role: str, names: frozenset[str]) -> bool:
    """Whether [role~="name" i] matches `role` for one of `names`: a token split on
    HTML's ASCII whitespace, ASCII case folded."""
    return any(token.isascii() and token.lower() in names for token in _ASCII_SPACE.split(role))


def _shown(role: str, conf: Conf, shown: bool) -> bool:
    """Whether a hidden element with `role` is walked as shown: under the hidden reading
    (`shown`) all but a pop-up's; else, under the tab_panels rule, a tab panel."""
    if shown:
        return not _has_role(role, _POPUP_ROLES)
    return Rule.TAB_PANELS in conf.rules and _has_role(role, frozenset({"tabpanel"}))


_ASCII_SPACE: Final = re.compile("[ \t\n\f\r]+")
_POPUP_ROLES: Final = frozenset({"dialog", "alertdialog", "menu", "listbox", "tooltip"})


def _apply_attributes(
    doc: dom.Document, conf: Conf, shown: bool = False
) -> tuple[dict[int, str], int]:
    """Rewrite the tree where an attribute changes what an element is.

    A hidden element is replaced by an empty <img>: no text, but words do not
    join across it (docs/spec.md section 2); under the tab_panels rule, not one
    whose role is a tab panel ([role~="tabpanel" i]), and under the hidden
    reading (`shown`) none but a pop-up's (dialog, menu...); under the closed_popups
    rule, an element with a popover attribute and a <dialog> without open. An element with a
    dropped ARIA role, and each of the article profile's regions, gets marker
    elements before and after it. Returns the openers' labels by tag id, and the closer's tag id
    (-1 when there are no markers).
    """
    # role is a list of tokens, of which the first is the element's role
    # (WAI-ARIA): the query finds any token, the loop keeps the first.
    roles_read = conf.walk_roles
    selectors = ["[hidden]"] + [f'[role~="{role}" i]' for role in sorted(roles_read)]
    popups = Rule.CLOSED_POPUPS in conf.rules
    if popups:
        selectors += ["[popover]", "dialog"]
    openers: dict[int, str] = {}
    close_id = -1
    body = doc.body
    if body is None:
        return openers, close_id
    seen: set[int] = set()
    for node in dom.select(body, ",".join(selectors)):
        # lexbor lists an element once for each selector it matches.
        if node.mem_id in seen:
            continue
        seen.add(node.mem_id)
        attrs = node.attrs
        if popups and ("popover" in attrs or (node.tag == "dialog" and "open" not in attrs)):
            # The closed_popups rule: hidden as a browser hides a closed pop-up.
            node.replace_with(doc.create_node("img"))
            continue
        if "hidden" in attrs and not _shown(attrs.get("role") or "", conf, shown):
            node.replace_with(doc.create_node("img"))
            continue
        roles = (attrs.get("role") or "").lower().split()
        if not roles or roles[0] not in roles_read:
            continue
        close_id = _wrap(doc, node, f"role={roles[0]}", openers)
    if conf.rules:
        for node, label in article.regions(doc, conf.rules):
            close_id = _wrap(doc, node, label, openers)
    return openers, close_id


class _Walk:
    """The walk, noting where each text node went.

    A boundary's open and close each end the current block (`end_block`).
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
        # The blocks whose links all lead within the page (sought under the
        # table_of_contents rule), and the kinds of link the current block holds
        # and the open link is of.
        self.seek_links = Rule.TABLE_OF_CONTENTS in conf.rules
        self.in_page: list[int] = []
        self.link_kinds = 0
        self.open_kind = 0
        # What the walk is inside of.
        self.anchors = 0  # open <a> elements
        self.subs = 0  # open sup and sub elements
        self.pres = 0  # open <pre> elements: whitespace-only text nodes count there
        self.boundaries = [dom.tag_id("body")]  # the open boundary elements' tag ids
        self.table = Table()  # the boundary elements opened, and where each block sits
        self.entries = [0]  # the open boundary elements as entries of the table
        self.block_entry = 0  # the current block's
        self.scopes: list[int] = []  # the open scopes, as indices into drop_scopes
        # The last text node, while nothing but inline elements follows it:
        # a text node after it glues to it, unless whitespace lay between.
        self.glue: dom.Node | None = None
        self.glue_text = ""

    def page(self, body: dom.Node, lang: str | None) -> Page:
        self.table.rows.append(("body", -1, signature(body.attrs.get("class"))))
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
            in_page_links=self.in_page,
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
            self.entries.append(len(self.table.rows))
            self.table.rows.append(
                (self.names[node_id], self.entries[-2], signature(node.attrs.get("class")))
            )
            if flags & tags.PRE:
                self.table.pres[self.entries[-1]] = (
                    node.attrs.get("class") or "",
                    _code_class(node),
                )
            self.open(flags, node)
            self.end_block()
            self.children(node)
            self.close(flags)
            self.boundaries.pop()
            self.entries.pop()
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
                    self.open_link(node)
                self.text(child, whole_link=bool(flags))
                return
        elif flags & tags.SEPARATOR:
            self.separate(_SPACE)
        self.open(flags, node)
        self.children(node)
        self.close(flags)
        if flags & tags.SEPARATOR and not flags & tags.BOUNDARY:
            self.separate(_SPACE)

    def open_link(self, node: dom.Node) -> None:
        """A link opens (the outermost): its kind counts for the block it is in, and
        for the blocks it goes on into."""
        self.open_kind = _link_kind(node) if self.seek_links else _ELSEWHERE
        self.link_kinds |= self.open_kind

    def open(self, flags: int, node: dom.Node) -> None:
        if flags & tags.ANCHOR:
            self.anchors += 1
            if self.anchors == 1:
                self.pieces.append(ANCHOR_MARK)
                self.links.append(_SPACE)
                self.open_link(node)
        if flags & tags.SUPSUB:
            self.subs += 1
            if self.subs == 1:
                self.pieces.append(SUB_OPEN)
        if flags & tags.PRE:
            self.pres += 1
        if flags & tags.DROP:
            self.open_scope(self.names[node.tag_id])

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
            self.block_entry = self.entries[-1]
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
            if self.link_kinds == _IN_PAGE:
                self.in_page.append(len(self.blocks))
            self.blocks.append((self.block_element, self.block_pre, self.block_drop))
            self.table.blocks.append(self.block_entry)
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
        self.link_kinds = self.open_kind if self.anchors else 0
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
