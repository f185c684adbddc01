"""The article profile: rules after the published tree, from what the page says about its article.

The published fit (SPEC) judges each block by its words and links alone. On
a modern article page what it keeps that readers did not mark is mostly
structure the page names: user comments under the article, the boxes around
it (share buttons, newsletter sign-ups, related stories, cookie notices,
bylines, promotions), and what lies outside the container the page declares
as its main content. Each rule here is a `Rule` of blockdensity.conf,
switchable on its own; it runs only on a page with article structure
(has_article_structure), so a page that says nothing about its article gets
the published fit, block for block.

The scan that runs before the parse anyway (blockdensity.nesting) reads
every start tag's attributes at C speed: it marks the regions' start tags,
one selector query finds them after the parse, and each is wrapped in scope
markers; the walk records which region each block sits in, and `apply`
overrides the tree's decision for the kept blocks a rule removes (the tree's
leaf stays on the block; its reason becomes the rule's). The thresholds were
chosen on the development corpus (BENCHMARKS.md, "The article profile").
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Final

from blockdensity import dom
from blockdensity.conf import Rule
from blockdensity.nesting import (
    BOXES_LABEL,
    COMMENTS_LABEL,
    MAIN_LABEL,
    REGION_ATTRIBUTE,
    declares_article,
)

__all__ = [
    "BOXES_SCOPE",
    "COMMENTS_SCOPE",
    "MAIN_SCOPE",
    "MAIN_SHARE",
    "apply",
    "has_article_structure",
    "is_region",
    "region_scopes",
    "regions",
]

# Scope labels of the regions (Page.drop_scopes); never an element's name.
COMMENTS_SCOPE: Final = "article:comments"
BOXES_SCOPE: Final = "article:boxes"
MAIN_SCOPE: Final = "article:main"
_PREFIX: Final = "article:"
# Per label the scan marks: the rule it serves and its scope label.
_LABELS: Final = {
    MAIN_LABEL: (Rule.MAIN_CONTAINER, MAIN_SCOPE),
    COMMENTS_LABEL: (Rule.COMMENTS, COMMENTS_SCOPE),
    BOXES_LABEL: (Rule.BOXES, BOXES_SCOPE),
}
# The regions whose blocks a rule removes outright (the main container's
# rule removes what lies outside it instead).
_REGION_RULES: Final = {
    scope: rule for rule, scope in _LABELS.values() if rule is not Rule.MAIN_CONTAINER
}

# The main container is trusted when it holds at least this share of what the
# tree kept: measured on the development corpus (BENCHMARKS.md), F1 is flat
# from 0 to 0.3 and falls above; the top of the plateau is the safer choice.
MAIN_SHARE: Final = 0.3

_OUTSIDE: Final = -1


def has_article_structure(html: str | bytes) -> bool:
    """Whether the page declares an article (a main container, OpenGraph or JSON-LD),
    as the scan before the parse judges it; the article rules run only then."""
    return declares_article(html.encode("utf-8", "ignore") if isinstance(html, str) else html)


def regions(doc: dom.Document, rules: frozenset[Rule]) -> Iterator[tuple[dom.Node, str]]:
    """The regions the scan marked (blockdensity.nesting) for `rules`, each with its scope label.

    The scan marks them only on a page that declares an article, and never a
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
    return {label: scope for label, (rule, scope) in _LABELS.items() if rule in rules}


def is_region(label: str) -> bool:
    """Whether a scope label is an article region (not an element the published fit drops)."""
    return label.startswith(_PREFIX)


def semantic_scopes(labels: Sequence[str], parents: Sequence[int]) -> list[int]:
    """Per scope, the nearest scope at or above it that is a semantic drop, or -1."""
    nearest: list[int] = []
    for index, label in enumerate(labels):
        if not is_region(label):
            nearest.append(index)
        else:
            parent = parents[index]
            nearest.append(nearest[parent] if parent >= 0 else -1)
    return nearest


def apply(
    labels: Sequence[str], parents: Sequence[int], scopes: Sequence[int], words: Sequence[int],
    kept: Sequence[bool],
) -> list[Rule | None]:  # fmt: skip
    """Per block, the rule that removes it from the kept text, or None.

    `scopes` is each block's innermost scope (-1 for none), `kept` whether
    the tree and the semantic drop kept it.
    """
    # Per scope: the outermost region rule it is under, and the outermost
    # main container it is in.
    region_of: list[Rule | None] = []
    main_of: list[int] = []
    for index, label in enumerate(labels):
        parent = parents[index]
        outer = region_of[parent] if parent >= 0 else None
        region_of.append(outer or _REGION_RULES.get(label))
        inherited = main_of[parent] if parent >= 0 else _OUTSIDE
        main_of.append(index if label == MAIN_SCOPE and inherited == _OUTSIDE else inherited)
    removed = [
        region_of[scope] if kept[block] and scope >= 0 else None
        for block, scope in enumerate(scopes)
    ]
    containers = [main_of[scope] if scope >= 0 else _OUTSIDE for scope in scopes]
    # The main container: the declared one holding most of what is still kept.
    still = [kept[block] and removed[block] is None for block in range(len(scopes))]
    kept_words = 0
    per_main: dict[int, int] = {}
    for block, container in enumerate(containers):
        if still[block]:
            kept_words += words[block]
            if container != _OUTSIDE:
                per_main[container] = per_main.get(container, 0) + words[block]
    if per_main and kept_words:
        best = max(per_main, key=lambda container: per_main[container])
        if per_main[best] >= MAIN_SHARE * kept_words:
            for block, container in enumerate(containers):
                if still[block] and container != best:
                    removed[block] = Rule.MAIN_CONTAINER
    return removed
