"""JSON-LD script blocks: decoded with msgspec (the only module of the library that imports it),
and the page's main entity found in them.

The web's JSON-LD is often broken: wrapped in HTML comments or CDATA
sections, with raw line breaks inside strings, trailing commas, a stray
semicolon. The few repairs below are the ones that turn such a block into
the JSON its author meant; a block that is still not JSON costs the fields
it would have given, never the page. Nothing here recurses over the
decoded data: the entity search looks one level into arrays and `@graph`,
and a field's value is read by key, so a hostile nesting costs nothing
beyond msgspec's own decode (which refuses one that is too deep).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import Final

import msgspec

from blockdensity.elements import ARTICLE_TYPES

__all__ = [
    "Entity",
    "decode_blocks",
    "entities",
    "main_entity",
    "salvaged_dates",
    "site_entity",
    "types_of",
]

Entity = dict[str, object]

# What pages wrap around a script's JSON, at its start and its end.
_OPENERS: Final = ("<!--", "//<![CDATA[", "<![CDATA[")
_CLOSERS: Final = ("-->", "//]]>", "]]>")
# Control characters are invalid inside JSON strings (and blank outside them).
_CONTROLS: Final = re.compile(r"[\x00-\x1f]")
_TRAILING_COMMA: Final = re.compile(r",(\s*[}\]])")
_ARTICLE_TYPES: Final = frozenset(ARTICLE_TYPES) | {
    "LiveBlogPosting", "SocialMediaPosting", "DiscussionForumPosting", "SatiricalArticle",
    "ReviewNewsArticle", "BackgroundNewsArticle", "MedicalScholarlyArticle", "APIReference",
}  # fmt: skip
_SITE_TYPES: Final = frozenset({"WebSite", "Organization", "NewsMediaOrganization"})
_DATED: Final = frozenset({"datePublished", "headline"})


def decode_blocks(scripts: Iterable[str]) -> tuple[list[object], dict[str, str]]:
    """The decoded value of each script block that is JSON, or can be repaired into it;
    and the dates salvaged from those that cannot (`salvaged_dates`)."""
    values = []
    salvaged: dict[str, str] = {}
    for script in scripts:
        value = _decode(script)
        if value is not None:
            values.append(value)
        else:
            for key, date in salvaged_dates(script).items():
                salvaged.setdefault(key, date)
    return values, salvaged


# A date property written as a plain JSON string: what can still be read from
# a block whose JSON is broken elsewhere (an unescaped quote in a
# description is the usual break). Linear: no nested quantifiers.
_DATE_PROPERTY: Final = re.compile(r'"(datePublished|dateModified)"\s*:\s*"([^"\\]{4,64})"')


def salvaged_dates(script: str) -> dict[str, str]:
    """datePublished and dateModified of a script block that is not JSON, where they are
    written as plain strings (the first of each)."""
    dates: dict[str, str] = {}
    for match in _DATE_PROPERTY.finditer(script):
        dates.setdefault(match[1], match[2])
    return dates


def _decode(script: str) -> object | None:
    text = _unwrapped(script)
    if not text:
        return None
    try:
        value: object = msgspec.json.decode(text)
    except (msgspec.DecodeError, RecursionError):
        pass
    else:
        return value
    try:
        repaired: object = msgspec.json.decode(_repaired(text))
    except (msgspec.DecodeError, RecursionError):
        return None
    return repaired


def _unwrapped(script: str) -> str:
    text = script.strip()
    for opener in _OPENERS:
        if text.startswith(opener):
            text = text[len(opener) :].lstrip()
            break
    for closer in _CLOSERS:
        if text.endswith(closer):
            text = text[: -len(closer)].rstrip()
            break
    return text.rstrip(";").rstrip()


def _repaired(text: str) -> str:
    return _TRAILING_COMMA.sub(r"\1", _CONTROLS.sub(" ", text))


def entities(values: Iterable[object]) -> Iterator[Entity]:
    """Every object of the blocks: the top-level ones, those of a top-level array, and those
    of an object's @graph (one level each: how JSON-LD is written)."""
    for value in values:
        for item in value if isinstance(value, list) else (value,):
            if not isinstance(item, dict):
                continue
            yield item
            graph = item.get("@graph")
            if isinstance(graph, list):
                yield from (node for node in graph if isinstance(node, dict))


def types_of(entity: Entity) -> set[str]:
    """The entity's @type names, without a schema.org prefix."""
    value = entity.get("@type")
    names = value if isinstance(value, list) else [value]
    return {name.rsplit("/", 1)[-1] for name in names if isinstance(name, str)}


def main_entity(values: list[object]) -> Entity | None:
    """The first entity whose type is an article's, as og:type article would say; else the
    first that is dated or headlined like one (a CreativeWork, a ClaimReview, a
    MedicalWebPage: schema.org has hundreds of such types)."""
    fallback = None
    for entity in entities(values):
        types = types_of(entity)
        if types & _ARTICLE_TYPES:
            return entity
        if fallback is None and not types & _SITE_TYPES and _DATED.intersection(entity):
            fallback = entity
    return fallback


def site_entity(values: list[object]) -> Entity | None:
    """The first WebSite or organisation entity: whose name is the site's."""
    for entity in entities(values):
        if types_of(entity) & _SITE_TYPES:
            return entity
    return None
