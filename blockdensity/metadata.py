"""What a page says about itself: read from the tree the fit has parsed (no second parse).

Three places declare it: `<meta>` and `<link>` elements (OpenGraph, Twitter
cards, Dublin Core, the plain HTML names, and the names of the big
publishing systems: parsely, sailthru), schema.org microdata (`itemprop`),
and JSON-LD script blocks (blockdensity.jsonld). Each field of Metadata
takes the first source, in the order of its list below, that gives a
usable value. The orders put the most specific declaration first (what a
page declares for its article before what its template declares for every
page) and were checked on the readability set against the metadata that
Mozilla's Readability.js test suite expects (bench/metadata.py).

The head's children are read directly; the body's <meta>, <link> and
JSON-LD elements are those the fit's walk met on its way (it skips them);
their attributes are read from lexbor's records (blockdensity._walk.declared).
A CSS query over the tree (about 5% of a fit) runs only for microdata
(itemprop dates and authors), only when the other sources gave no
published time, and only when an element of the tree has an itemprop or a
pubdate attribute at all (a loop in C finds out, _walk.has_microdata).
Values are whitespace-collapsed, capped in length and number (a page
cannot make the record large), and URLs are resolved against the page's
URL (or its <base href>); a URL that does not resolve to http(s) is none.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Iterable
from typing import Final, NamedTuple
from urllib.parse import urljoin, urlsplit

from blockdensity import _walk as compiled_walk
from blockdensity import dom, jsonld
from blockdensity.result import Metadata
from blockdensity.segment import attribute_ids
from blockdensity.times import rfc3339

__all__ = [
    "MAX_ITEM",
    "MAX_ITEMS",
    "MAX_TEXT",
    "NO_DECLARED",
    "Declared",
    "read_declared",
    "read_metadata",
]

MAX_TEXT: Final = 2_000  # characters kept of one value
MAX_ITEMS: Final = 32  # authors or keywords kept
MAX_ITEM: Final = 200  # an author or keyword longer than this is a paragraph: left out

# Microdata on elements other than <meta>: read only when the page has no
# published time yet (one more walk of the tree, 5% of a fit: on the
# development corpus the other sources leave the time missing on a third of
# the pages, and microdata adds nothing to them, so it is worth its cost
# only where a declared time would otherwise be missed; and only on a tree
# with an itemprop or pubdate attribute somewhere, which the query needs).
# It is last in the lists of the fields it gives, so reading it later
# changes no other value.
_MICRODATA: Final = ", ".join(
    ("[itemprop~=datePublished]", "[itemprop~=dateModified]", "[itemprop~=author]", "time[pubdate]")
)

# Where each field comes from, in order. Keys are lower-cased <meta>
# property/name/itemprop values; "ld:" keys are the JSON-LD main entity's
# (the article: jsonld.main_entity) or the site's ("ld:site"); "link:" keys
# are <link rel>; "micro:" keys are microdata elements other than <meta>.
_TITLE: Final = (
    "ld:headline", "og:title", "dc.title", "dc:title", "dcterms.title", "twitter:title",
    "parsely-title", "sailthru.title", "title", "ld:name", "headline",
)  # fmt: skip
_DESCRIPTION: Final = (
    "og:description", "ld:description", "description", "twitter:description",
    "dc.description", "dc:description", "dcterms.description", "sailthru.description",
)  # fmt: skip
_SITE_NAME: Final = ("ld:publisher", "og:site_name", "ld:site")
_TYPE: Final = ("og:type", "ld:@type")
_IMAGE: Final = (
    "og:image", "og:image:url", "og:image:secure_url", "ld:image", "twitter:image",
    "twitter:image:src", "link:image_src", "image", "thumbnail",
)  # fmt: skip
_PUBLISHED: Final = (
    "ld:datepublished", "article:published_time", "og:published_time", "datepublished",
    "micro:datepublished", "parsely-pub-date", "sailthru.date", "dc.date.issued",
    "dcterms.issued", "dcterms.created", "dc.date", "dc:date", "date", "pubdate",
    "publishdate", "publish-date", "publish_date", "article.published", "published_time",
    "ld:datecreated", "micro:datepublished", "micro:pubdate",
)  # fmt: skip
_MODIFIED: Final = (
    "ld:datemodified", "article:modified_time", "og:updated_time", "datemodified",
    "dcterms.modified", "dc.date.modified", "last-modified", "article.updated", "lastmod",
    "micro:datemodified",
)  # fmt: skip
_AUTHORS: Final = (
    "ld:author", "dc.creator", "dc:creator", "dcterms.creator", "author", "article:author",
    "parsely-author", "sailthru.author", "byl", "ld:creator", "micro:author",
)  # fmt: skip
_KEYWORDS: Final = ("keywords", "news_keywords", "article:tag", "ld:keywords", "parsely-tags")
_CANONICAL: Final = ("link:canonical", "og:url")
# Read for the page-type classifier (Declared), not for a Metadata field.
_GENERATOR: Final = "generator"
_LD_TYPES: Final = "ld:types"
# Every key a field reads: a declaration under another name (viewport, robots,
# twitter:card, <link rel=stylesheet>, ...: most of a page's) is not kept.
_READ: Final = frozenset(
    _TITLE + _DESCRIPTION + _SITE_NAME + _TYPE + _IMAGE + _PUBLISHED + _MODIFIED + _AUTHORS
    + _KEYWORDS + _CANONICAL + (_GENERATOR,)
)  # fmt: skip

_CONTROLS: Final = dict.fromkeys([*range(0x20), 0x7F], " ")
# The kinds of _walk.declared's records, as plain ints (no attribute lookup per record).
_META: Final[int] = compiled_walk.META
_LINK: Final[int] = compiled_walk.LINK
_JSONLD: Final[int] = compiled_walk.JSONLD
# The meta attributes that name what `content` declares.
_NAME_ATTRIBUTES: Final = ("property", "name", "itemprop", "http-equiv")


class Declared(NamedTuple):
    """What a page declares about its kind, besides Metadata: the evidence the page-type
    classifier reads (blockdensity.evidence)."""

    schema_types: frozenset[str]  # every JSON-LD entity's @type, and its mainEntity's
    og_type: str  # the first <meta property=og:type>
    generator: str  # every <meta name=generator>, joined by spaces


NO_DECLARED: Final = Declared(frozenset(), "", "")


def read_metadata(
    doc: dom.Document,
    body: list[dom.Node],
    url: str | None = None,
    names: tuple[int, ...] = (),
    microdata: bool | None = None,
) -> Metadata:
    """The metadata `doc` declares; URLs in it resolved against `url` (else kept as given).

    `body`: the body's <meta>, <link>, <base> and <script> elements, as the
    fit's walk met them (segment.Page.declarations: not those inside an
    element the walk skips, such as <template> or <noscript>). `names`: the
    ids of blockdensity._walk.DECLARED_ATTRIBUTES in `doc` where the walk
    found them (segment.Page.declared_ids), else found here. `microdata`:
    whether the body's elements have microdata attributes, where the walk
    found out (segment.Page.microdata), else None.
    """
    return read_declared(doc, body, url, names, microdata)[0]


def read_declared(
    doc: dom.Document,
    body: list[dom.Node],
    url: str | None = None,
    names: tuple[int, ...] = (),
    microdata: bool | None = None,
) -> tuple[Metadata, Declared]:
    """`read_metadata`'s Metadata, and what the same reading found of the page's kind."""
    root = doc.root
    if root is None:
        return Metadata(), NO_DECLARED
    values: dict[str, list[str]] = {}
    scripts: list[str] = []
    names = names or attribute_ids(doc, compiled_walk.DECLARED_ATTRIBUTES)
    base_href = _read_declarations(doc, body, names, values, scripts)
    if scripts:
        _read_jsonld(scripts, values)
    published = _first(values, _PUBLISHED, rfc3339)
    if published is None and _may_hold_microdata(doc, names, microdata):
        for node in dom.select(root, _MICRODATA):
            _read_microdata(node, node.attributes, values)
    base = (_resolve(url, base_href) if base_href else None) or url
    # The published time found before the microdata stands (it is read only
    # when there was none, and it comes last in the list): not read twice.
    og_types = values.get("og:type")
    declared = Declared(
        frozenset(values.get(_LD_TYPES, ())),
        og_types[0] if og_types else "",
        " ".join(values.get(_GENERATOR, ())),
    )
    return _metadata(values, base, published), declared


def _may_hold_microdata(doc: dom.Document, names: tuple[int, ...], body: bool | None) -> bool:
    """Whether an element of the tree has an itemprop or pubdate attribute (the microdata
    query finds nothing otherwise): what the walk found below <body>, then <html>, <body>
    and the head; the whole tree when the walk did not look."""
    root = doc.root
    if root is None:
        return False
    if body is None:
        return compiled_walk.has_microdata(root, names)
    if body or compiled_walk.has_microdata(root, names, deep=False):
        return True
    head, body_node = doc.head, doc.body
    return (head is not None and compiled_walk.has_microdata(head, names)) or (
        body_node is not None and compiled_walk.has_microdata(body_node, names, deep=False)
    )


def _read_declarations(
    doc: dom.Document,
    body: list[dom.Node],
    names: tuple[int, ...],
    values: dict[str, list[str]],
    scripts: list[str],
) -> str | None:
    """Read the head's and `body`'s <meta> and <link> into `values`, JSON-LD texts into
    `scripts`; the first <base href> (the one that counts, as in browsers).

    The compiled walk's module reads the elements' attributes from lexbor's
    records, by the ids `names` (a Python node and an attribute dict per
    element cost more than the rest of the metadata together).
    """
    base_href = None
    for kind, first, second, third, fourth, fifth in compiled_walk.declared(doc.head, body, names):
        if kind == _META:
            if first:
                # Its content under each name (_NAME_ATTRIBUTES' order).
                _read_meta(first, second, values)
                _read_meta(first, third, values)
                _read_meta(first, fourth, values)
                _read_meta(first, fifth, values)
        elif kind == _LINK:
            if first:
                for rel in first.lower().split():
                    key = f"link:{rel}"
                    if key in _READ:
                        _add(values, key, second)
        elif kind == _JSONLD:
            if first is not None:
                scripts.append(first)
        elif base_href is None:  # BASE
            base_href = first
    return base_href


def _read_meta(content: str, attribute: str | None, values: dict[str, list[str]]) -> None:
    """A <meta>'s content under the names one of its name attributes gives."""
    if attribute:
        # Space-separated: <meta property="dc:title og:title" ...> declares both.
        for name in attribute.lower().split():
            if name in _READ:
                _add(values, name, content)


def _read_microdata(
    node: dom.Node, attributes: dict[str, str | None], values: dict[str, list[str]]
) -> None:
    if "pubdate" in attributes:
        _add(values, "micro:pubdate", attributes.get("datetime"))
    for prop in (attributes.get("itemprop") or "").lower().split():
        if prop in {"datepublished", "datemodified"}:
            # <time datetime>, <meta content>, <abbr title>, else the text.
            value = (
                attributes.get("datetime")
                or attributes.get("content")
                or attributes.get("title")
                or node.text()
            )
            _add(values, f"micro:{prop}", value)
        elif prop == "author":
            names = dom.select(node, "[itemprop~=name]")
            named = names[0] if names else node
            value = named.attributes.get("content") or named.text(deep=True, separator=" ")
            _add(values, "micro:author", value)


def _read_jsonld(scripts: list[str], values: dict[str, list[str]]) -> None:
    blocks, salvaged = jsonld.decode_blocks(scripts)
    declared_types = values.setdefault(_LD_TYPES, [])
    for each in jsonld.entities(blocks):
        declared_types.extend(jsonld.types_of(each))
        main = each.get("mainEntity")
        for inner in main if isinstance(main, list) else (main,):
            if isinstance(inner, dict):
                declared_types.extend(jsonld.types_of(inner))
    entity = jsonld.main_entity(blocks)
    if entity is not None:
        for key in ("headline", "name", "description", "datePublished", "dateModified",
                    "dateCreated"):  # fmt: skip
            _add(values, f"ld:{key.lower()}", _string(entity.get(key)))
        types = entity.get("@type")
        first = types[0] if isinstance(types, list) and types else types
        _add(values, "ld:@type", _string(first))
        for key in ("author", "creator"):
            for name in _names(entity.get(key)):
                _add(values, f"ld:{key}", name)
        for name in _names(entity.get("publisher")):
            _add(values, "ld:publisher", name)
        _add(values, "ld:image", _url_of(entity.get("image")))
        for keyword in _keywords(entity.get("keywords")):
            _add(values, "ld:keywords", keyword)
    for key, date in salvaged.items():
        _add(values, f"ld:{key.lower()}", date)
    site = jsonld.site_entity(blocks)
    if site is not None:
        _add(values, "ld:site", _string(site.get("name")))


def _add(values: dict[str, list[str]], key: str, value: str | None) -> None:
    if value:
        values.setdefault(key, []).append(value)


def _metadata(values: dict[str, list[str]], base: str | None, published: str | None) -> Metadata:
    return Metadata(
        canonical_url=_first(values, _CANONICAL, lambda value: _resolve(base, value)),
        title=_first(values, _TITLE, _text),
        description=_first(values, _DESCRIPTION, _text),
        site_name=_first(values, _SITE_NAME, _text),
        type=_first(values, _TYPE, _text),
        image=_first(values, _IMAGE, lambda value: _resolve(base, value)),
        published=published or _first(values, _PUBLISHED, rfc3339),
        modified=_first(values, _MODIFIED, rfc3339),
        authors=_all_texts(values, _AUTHORS, names=True),
        keywords=_all_texts(values, _KEYWORDS, split=True),
    )


def _first(
    values: dict[str, list[str]], keys: Iterable[str], read: Callable[[str], str | None]
) -> str | None:
    """The first value, in the order of `keys`, that `read` makes something of."""
    for key in keys:
        for value in values.get(key, ()):
            result = read(value)
            if result:
                return result
    return None


def _text(value: str) -> str | None:
    return _clean(value) or None


def _all_texts(
    values: dict[str, list[str]],
    keys: Iterable[str],
    *,
    names: bool = False,
    split: bool = False,
) -> tuple[str, ...]:
    """The values of the first key that gives any (a page's authors are one source's list,
    not a union of its template's and its article's), de-duplicated, capped."""
    for key in keys:
        found: dict[str, None] = {}
        for value in values.get(key, ()):
            for part in value.split(",") if split else (value,):
                text = _clean(part)
                if names:
                    text = _name(text) if _is_name(text) else ""
                if text and len(text) <= MAX_ITEM:
                    found.setdefault(text, None)
        if found:
            return tuple(found)[:MAX_ITEMS]
    return ()


def _is_name(text: str) -> bool:
    # article:author is often the author's profile URL; a handle is not a name.
    return not text.startswith(("http://", "https://", "@", "/"))


def _name(text: str) -> str:
    """An author's name without the "By " a byline puts before it."""
    return text[3:].lstrip() if text[:3].lower() == "by " else text


def _clean(value: str) -> str:
    if "&" in value:
        # JSON-LD and some <meta> content arrive with their references still escaped.
        value = html.unescape(value)
    text = " ".join(value.split())
    if not text.isprintable():
        # Control characters (which JSON would write as six bytes each) are no text.
        text = " ".join(text.translate(_CONTROLS).split())
    return text[:MAX_TEXT]


def _resolve(base: str | None, value: str | None) -> str | None:
    if not value:
        return None
    value = value.strip()
    # Most are absolute already: urljoin (slow) only for the others.
    absolute = value.startswith(("https://", "http://"))
    try:
        resolved = urljoin(base, value) if base and not absolute else value
        parts = urlsplit(resolved)
    except ValueError:  # an invalid IPv6 host, say
        return None
    if parts.scheme not in {"http", "https"} or not parts.netloc:
        return value if not base and not parts.scheme else None
    return resolved[:MAX_TEXT]


def _string(value: object) -> str | None:
    if isinstance(value, str):
        return value
    if isinstance(value, list) and value and isinstance(value[0], str):
        return value[0]
    return None


def _names(value: object) -> list[str]:
    """The names of a JSON-LD person or organisation value: a name, an object with one,
    or a list of either."""
    items = value if isinstance(value, list) else [value]
    names = []
    for item in items[:MAX_ITEMS]:
        name = _string(item.get("name")) if isinstance(item, dict) else _string(item)
        if name:
            names.append(name)
    return names


def _url_of(value: object) -> str | None:
    """A JSON-LD image: a URL, an ImageObject with one, or a list of either (the first)."""
    item = value[0] if isinstance(value, list) and value else value
    if isinstance(item, dict):
        item = item.get("url") or item.get("contentUrl")
    return item if isinstance(item, str) else None


def _keywords(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [item for item in value[:MAX_ITEMS] if isinstance(item, str)]
    return []
