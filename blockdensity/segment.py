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
Python object or call per node. Asked for a trace (--highlight), it also notes
which block every text node went to. tests/reference/walk.py is the same walk
written plainly over selectolax's nodes; tests/test_walk.py compares the two
on every corpus page, the fuzz corpus and random tag soup.
"""

from __future__ import annotations

from typing import Final, TypeAlias

from blockdensity import _text, article, dom, tags
from blockdensity import _walk as compiled_walk
from blockdensity.conf import Conf, Rule
from blockdensity.decode import Source
from blockdensity.nesting import REGION_ATTRIBUTE
from blockdensity.parse import Parsed, Reading
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
    "unmarked",
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
        "_texts",
        "blocks",
        "declarations",
        "declared_ids",
        "drop_scopes",
        "elements",
        "hidden_text",
        "in_page_links",
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
        elements: compiled_walk.Elements | None = None,
        hidden_text: int = 0,
        in_page_links: list[int] | None = None,
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
        # Where each block sits in the page's structure: the element table the
        # walk made (read through blockdensity.structure); None without a body.
        self.elements = elements
        # The characters of text (script's too) in the hidden elements the walk
        # replaced, when the hidden_text rule runs and the reading is not the
        # hidden one (else 0): at least the words they would show, for
        # blockdensity.read to weigh against those shown.
        self.hidden_text = hidden_text
        # The blocks whose links all lead to a place in the page (href "#name"),
        # at least one, in order: a table of contents' entries are such blocks
        # (blockdensity.decide.contents). Sought only under that rule; else empty.
        self.in_page_links = in_page_links or []
        self._texts: list[str] | None = None

    def block_texts(self) -> list[str]:
        """Each block's text as the renderer reads it: markers but <br> removed.

        Made once, when first asked (the render stage, and on some kinds of page
        several of the decide stage's rules, read it), and shared: read-only, as
        the page is."""
        texts = self._texts
        if texts is None:
            texts = self._texts = unmarked(self.text).split(BLOCK_END)[:-1]
        return texts

    def texts_at(self, indexes: list[int]) -> list[str]:
        """The texts of the blocks at `indexes` (increasing), as block_texts() has them:
        where block_texts() was not made, without making the other blocks' texts (the
        render stage reads the kept blocks', a rule a few candidates': a split of the
        page's text makes every block's, for four times the cost on the speed corpora)."""
        texts = self._texts
        if texts is not None:
            return [texts[index] for index in indexes]
        return [unmarked(part) for part in _text.parts_at(self.text, BLOCK_END, indexes)]


def unmarked(part: str) -> str:
    """A block's part of Page.text as Page.block_texts() has it: its anchor and sup/sub
    marks gone (each block's marks pair up, so a part is read alone)."""
    if ANCHOR_MARK in part:
        part = part.replace(ANCHOR_MARK, "")
    if SUB_OPEN in part:
        part = part.replace(SUB_OPEN, "")
    if SUB_CLOSE in part:
        part = part.replace(SUB_CLOSE, "")
    return part


def segment(html: str | bytes, conf: Conf) -> Page:
    """Parse `html` (bytes: UTF-8) and split its body into blocks under `conf`'s tag sets."""
    return trace_segment(html, conf, None)[0]


# Which block each text node went to: (block index, text node), in order.
Trace: TypeAlias = list[tuple[int, dom.Node]]


def trace_segment(html: str | bytes, conf: Conf, trace: Trace | None) -> tuple[Page, dom.Document]:
    """`segment`, also returning the parsed tree; when `trace` is a list, the walk fills
    it with the block of every text node (for --highlight). The page is read as the
    fit reads it under `conf` (blockdensity.read: read again when it shows almost no
    text)."""
    # read walks with this module's walk: imported here, where it is needed.
    from blockdensity.read import read  # noqa: PLC0415

    reading = read(Source(html, None), conf, trace)
    return reading.page, reading.parsed.document


def walk(parsed: Parsed, conf: Conf, trace: Trace | None = None) -> Page:
    """The walk stage: the parsed page as a sequence of text blocks under `conf`'s tag sets;
    with `trace`, the walk fills it with the block of every text node (for --highlight)."""
    return _walk(parsed.document, conf, trace, shown=parsed.reading is Reading.HIDDEN)


_ITEMPROP: Final = compiled_walk.DECLARED_ATTRIBUTES.index("itemprop")
_HREF: Final = compiled_walk.DECLARED_ATTRIBUTES.index("href")
_PUBDATE: Final = compiled_walk.DECLARED_ATTRIBUTES.index("pubdate")
_DECLARED: Final = len(compiled_walk.DECLARED_ATTRIBUTES)
# What the closed_popups rule reads: the popover attribute, a <dialog>'s open.
_POPUP_ATTRIBUTES: Final = ("popover", "open")
_DIALOG_ID: Final = dom.tag_id("dialog")
# The elements that declare metadata and that the walk skips (void or removed).
_DECLARING: Final = ("meta", "link", "base", "script")

compiled_walk.configure(
    dom.TEXT_ID,
    dom.tag_id("img"),
    dom.tag_id("code"),
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


def _walk(doc: dom.Document, conf: Conf, trace: Trace | None, *, shown: bool = False) -> Page:
    """The walk of `doc`; `shown`: every hidden element but a pop-up is walked as shown
    (the hidden reading)."""
    lang = _declared_language(doc)
    title = _document_title(doc)
    body = doc.body
    if body is None:
        return Page([], "", "", title or "", lang, [], [], [])
    # The walk reads attributes by the ids lexbor gives their names in this
    # document, which an element made here shows. The same element shows the
    # ids of the attributes the metadata reads: one more element made in the
    # document costs more than its attributes.
    # The closed_popups rule reads two attributes more: sought only under it.
    popups = Rule.CLOSED_POPUPS in conf.rules
    hidden_id, role_id, region_id, class_id, *declared = attribute_ids(
        doc,
        (
            "hidden",
            "role",
            REGION_ATTRIBUTE,
            "class",
            *compiled_walk.DECLARED_ATTRIBUTES,
            *(_POPUP_ATTRIBUTES if popups else ()),
        ),
    )
    popover_id, open_id = declared[_DECLARED:] if popups else (0, 0)
    del declared[_DECLARED:]
    table = conf.table
    # The tab_panels rule and the hidden reading read a hidden element's role:
    # sought for them too.
    tab_panels = Rule.TAB_PANELS in conf.rules
    # The table_of_contents rule reads where links lead: sought only under it.
    contents = Rule.TABLE_OF_CONTENTS in conf.rules
    settings = compiled_walk.Settings(
        table.packed,
        table.custom,
        table.names,
        conf.walk_roles,
        article.region_scopes(conf.rules),
        hidden_id=hidden_id,
        role_id=role_id if conf.walk_roles or tab_panels or shown else 0,
        region_id=region_id if conf.rules else 0,
        class_id=class_id,
        itemprop_id=declared[_ITEMPROP],
        pubdate_id=declared[_PUBDATE],
        popover_id=popover_id,
        open_id=open_id,
        dialog_id=_DIALOG_ID if popups else 0,
        tab_panels=tab_panels,
        show_hidden=shown,
        href_id=declared[_HREF] if contents else 0,
    )
    walked = compiled_walk.walk(body, settings, title, trace)
    (
        blocks,
        text,
        linked,
        title,
        drop_scopes,
        parents,
        declarations,
        hidden,
        microdata,
        elements,
        in_page_links,
    ) = walked
    # Weighed by blockdensity.read against the words shown; not on the hidden
    # reading itself, whose hidden elements are pop-ups.
    hidden_text = (
        sum(len(node.text()) for node in hidden)
        if Rule.HIDDEN_TEXT in conf.rules and not shown
        else 0
    )
    # The tree as docs/spec.md has it, for what reads it after the walk
    # (blockdensity.metadata, --highlight): hidden elements replaced.
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
        elements,
        hidden_text,
        in_page_links,
    )
