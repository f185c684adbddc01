"""The article profile's regions: what the page itself names as its parts, found in its tree.

The published fit (docs/spec.md) judges each block by its words and links alone. On
a modern article page what it keeps that readers did not mark is mostly
structure the page names: user comments under the article, the boxes around
it (share buttons, newsletter sign-ups, related stories, cookie notices,
bylines, promotions, photo galleries), the container it declares as its main
content (an <article>, <main>, role=main or itemprop=articleBody element) and
the content container its CMS names (`entry-content`, `post-body`,
`article-body`, `story-body`, ...). This module finds those regions; the
rules that act on them are the decide stage's (blockdensity.decide.article).

The scan that runs before the parse anyway (blockdensity.nesting) reads
every start tag's attributes at C speed: it marks the regions' start tags,
and the walk opens a scope for each marked element (`region_scopes` gives
each label's scope label), so that every block knows the regions it sits in.
Main containers and boxes are marked only on a page with article structure
(has_article_structure); comments, content containers and cookie-consent
notices on every page.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

from blockdensity import dom
from blockdensity.conf import Rule
from blockdensity.nesting import (
    BOXES_LABEL,
    COMMENTS_LABEL,
    CONSENT_LABEL,
    CONTENT_LABEL,
    MAIN_LABEL,
    REGION_ATTRIBUTE,
    declares_article,
)

__all__ = [
    "BOXES_SCOPE",
    "COMMENTS_SCOPE",
    "CONSENT_SCOPE",
    "CONTAINER_SCOPES",
    "CONTENT_SCOPE",
    "MAIN_SCOPE",
    "has_article_structure",
    "is_region",
    "region_scopes",
    "regions",
]

# Scope labels of the regions (Page.drop_scopes); never an element's name.
COMMENTS_SCOPE: Final = "article:comments"
BOXES_SCOPE: Final = "article:boxes"
CONSENT_SCOPE: Final = "article:consent"
MAIN_SCOPE: Final = "article:main"
CONTENT_SCOPE: Final = "article:content"
# The containers the rules trust the text of: the declared main one, the CMS's content one.
CONTAINER_SCOPES: Final = frozenset((MAIN_SCOPE, CONTENT_SCOPE))
_PREFIX: Final = "article:"
_CONTAINER_RULES: Final = frozenset((Rule.MAIN_CONTAINER, Rule.INNER_CONTAINER, Rule.LINKED_PROSE))
# Per label the scan marks: the rules it serves and its scope label.
_LABELS: Final = {
    MAIN_LABEL: (_CONTAINER_RULES, MAIN_SCOPE),
    COMMENTS_LABEL: (frozenset((Rule.COMMENTS,)), COMMENTS_SCOPE),
    BOXES_LABEL: (frozenset((Rule.BOXES,)), BOXES_SCOPE),
    CONSENT_LABEL: (frozenset((Rule.CONSENT_NOTICES,)), CONSENT_SCOPE),
    CONTENT_LABEL: (frozenset((Rule.CONTENT_CONTAINER,)), CONTENT_SCOPE),
}


def has_article_structure(html: str | bytes) -> bool:
    """Whether the page declares an article (a main container, OpenGraph or JSON-LD),
    as the scan before the parse judges it; the article rules but comments and
    content_container run only then."""
    return declares_article(html.encode("utf-8", "ignore") if isinstance(html, str) else html)


def regions(doc: dom.Document, rules: frozenset[Rule]) -> Iterator[tuple[dom.Node, str]]:
    """The regions the scan marked (blockdensity.nesting) for `rules`, each with its scope label.

    The scan marks main containers and boxes only on a page that declares an
    article (comments and content containers on every page), and never a
    comments or boxes region around the page's h1 or main container: a
    "comment" (or "share", ...) word on the wrapper of the whole article
    names the page or a theme of it, not a region.
    """
    body = doc.body
    if body is None:
        return
    wanted = region_scopes(rules)
    for node in dom.select(body, f"[{REGION_ATTRIBUTE}]"):
        for label in (node.attrs.get(REGION_ATTRIBUTE) or "").split():
            if label in wanted:
                yield node, wanted[label]


def region_scopes(rules: frozenset[Rule]) -> dict[str, str]:
    """The scope label of each region label the scan writes that `rules` act on."""
    return {label: scope for label, (served, scope) in _LABELS.items() if served & rules}


def is_region(label: str) -> bool:
    """Whether a scope label is an article region (not an element the published fit drops)."""
    return label.startswith(_PREFIX)
