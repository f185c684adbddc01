"""The article profile's rules: after the published tree, what the page says about its article.

The published fit (docs/spec.md) judges each block by its words and links alone. On
a modern article page what it keeps that readers did not mark is mostly
structure the page names (blockdensity.article finds it): user comments
under the article, the boxes around it, what lies outside the container the
page declares as its main content, and what lies inside that container but
outside a container declared in it that holds most of its text (a role=main
page wrapper around the <article> and a sidebar). What it drops that readers
marked is mostly prose with many links: inside the trusted container, a
block the tree rejected for its links is kept when it reads as prose
(linked_prose, the one region rule that keeps). Where no declared main
container is trusted, the first content container the page's CMS names
holding enough of the kept text bounds it (content_container), with the main
container's share test. A boxes region that holds nearly all the kept text
is no box (a box word on a wrapper of the whole article). Two rules read the
sequence of blocks instead: the short heading of a link list is dropped
(list_headings), a short line between kept text is kept (between_text).

Each rule is a `Rule` of blockdensity.conf, switchable on its own; each
overrides the tree's outcome of the blocks it acts on (the tree's leaf stays
on the block; its reason becomes the rule's). The thresholds were chosen on
the development corpus (BENCHMARKS.md, "What chose each threshold").
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from blockdensity.article import (
    BOXES_SCOPE,
    COMMENTS_SCOPE,
    CONSENT_SCOPE,
    CONTENT_SCOPE,
    MAIN_SCOPE,
    is_region,
)
from blockdensity.conf import ARTICLE_RULES, Rule
from blockdensity.decide.board import Board
from blockdensity.decide.outcome import KEPT_OUTCOMES, RULE_OUTCOMES, Outcome
from blockdensity.decide.tree import LEAVES, LINK_DENSE_LEAF
from blockdensity.result import Reason

__all__ = [
    "GUARDED",
    "HEADING_WORDS",
    "INNER_SHARE",
    "MAIN_SHARE",
    "PROSE_WORDS",
    "REGION_RULES",
    "REGION_SHARE",
    "SEQUENCE_RULES",
    "apply_regions",
    "apply_sequence",
    "is_prose",
    "regions",
    "sequence",
]

# The rules that act on the regions the page names, and those that read the
# sequence of blocks.
SEQUENCE_RULES: Final[frozenset[Rule]] = frozenset((Rule.LIST_HEADINGS, Rule.BETWEEN_TEXT))
REGION_RULES: Final[frozenset[Rule]] = frozenset(
    (
        Rule.COMMENTS,
        Rule.BOXES,
        Rule.CONSENT_NOTICES,
        Rule.MAIN_CONTAINER,
        Rule.INNER_CONTAINER,
        Rule.LINKED_PROSE,
        Rule.CONTENT_CONTAINER,
    )
)
_SHORT_ISOLATED: Final = LEAVES.index(Reason.SHORT_ISOLATED)
_KEPT: Final = Outcome.KEPT
_MAJORITY: Final = Outcome.MAJORITY
_BOILERPLATE: Final = Outcome.BOILERPLATE


def apply_regions(board: Board, outcomes: list[Outcome]) -> None:
    """The region rules (comments, boxes, the containers, linked prose) on `outcomes`.

    They act on what the tree and the semantic drop kept, and on the blocks of
    linked prose the tree rejected; only on a page where the walk met a region.
    """
    labels = board.labels
    if not any(is_region(label) for label in labels):
        return
    rules = board.rules
    words, links, leaves = board.words, board.links, board.leaves
    kept = [outcome is _KEPT or outcome is _MAJORITY for outcome in outcomes]
    prose = (
        [
            index
            for index, leaf in enumerate(leaves)
            if leaf == LINK_DENSE_LEAF
            and outcomes[index] is _BOILERPLATE
            and is_prose(words[index], links[index])
        ]
        if Rule.LINKED_PROSE in rules
        else []
    )
    overrides = regions(labels, board.parents, board.scopes, words, kept, rules, prose)
    for index, rule in enumerate(overrides):
        if rule is not None:
            outcomes[index] = RULE_OUTCOMES[rule]


def apply_sequence(board: Board, outcomes: list[Outcome]) -> None:
    """list_headings and between_text on `outcomes`, judged on what the other rules left."""
    leaves = board.leaves
    overrides = sequence(
        board.words,
        [outcome in KEPT_OUTCOMES for outcome in outcomes],
        [leaf == LINK_DENSE_LEAF for leaf in leaves],
        [
            outcome is _BOILERPLATE and leaf == _SHORT_ISOLATED
            for outcome, leaf in zip(outcomes, leaves, strict=True)
        ],
        board.rules,
    )
    for index, rule in enumerate(overrides):
        if rule is not None:
            outcomes[index] = RULE_OUTCOMES[rule]


# Per kind of container: the rule that removes what lies outside the trusted
# one, and what lies inside it but outside the inner one.
_CONTAINER_KINDS: Final = {
    MAIN_SCOPE: (Rule.MAIN_CONTAINER, Rule.INNER_CONTAINER),
    CONTENT_SCOPE: (Rule.CONTENT_CONTAINER, Rule.CONTENT_CONTAINER),
}
# The regions whose blocks a rule removes outright (the container rules
# remove what lies outside the container instead).
_REGION_RULES: Final = {
    COMMENTS_SCOPE: Rule.COMMENTS,
    BOXES_SCOPE: Rule.BOXES,
    CONSENT_SCOPE: Rule.CONSENT_NOTICES,
}

# The main container is trusted when it holds at least this share of what the
# tree kept: measured on the development corpus (BENCHMARKS.md), F1 is flat
# from 0 to 0.3 and falls above; the top of the plateau is the safer choice.
MAIN_SHARE: Final = 0.3
# A container declared inside the trusted one takes its place when it holds
# at least this share of what the trusted one holds: the same test, one level
# down. Measured (BENCHMARKS.md): F1 is flat from 0.2 to 0.38 on both sets,
# loses a page above 0.38 (a role=main page wrapper around its <article> and a
# live-blog sidebar) and the whole gain at 0.
INNER_SHARE: Final = MAIN_SHARE
# Linked prose: a block the tree rejected as link-dense is prose when it has
# more than the tree's words_curr_short (16) words and at most half of them in
# links. Measured (BENCHMARKS.md): F1 is flat from 10 to 20 words and falls
# above (40: half the gain); over both sets it is flat for a link share from
# a half to 0.8, of which a half is the least eager end, and falls at 1
# (scrapinghub -0.27 points): the blocks that cost precision are link runs
# with two thirds to all of their words in links, the ones that gain a third
# to a half (an encyclopedia's or a news report's linked sentences).
PROSE_WORDS: Final = 17

# A boxes region is not one when its blocks hold more than this share of the
# words the tree kept: a box word on a wrapper of the whole article
# ("node-promoted", "js-dynamic-advertorial", "sharingcontainer", a WordPress
# "category-social-media"). Measured on the three development sets
# (BENCHMARKS.md): trafilatura-eval gains 0.77 F1 points anywhere from 0.8
# to 0.85 (0.67 at 0.9, 0.32 at 0.95), scrapinghub and readability are flat
# down to 0.8; at 0.75 and below readability loses a 50-slide gallery inside
# an article that holds 79% of the kept words (-0.56). 0.85: the plateau's
# end furthest from that page. Comments are not guarded: a discussion often
# holds most of a page's words (guarding them at 0.8 costs scrapinghub 0.44
# points and trafilatura-eval 0.11).
REGION_SHARE: Final = 0.85
GUARDED: Final = frozenset((BOXES_SCOPE,))

# list_headings: a kept block of at most this many words that leads a block
# the tree rejected for its links, or stands between blocks not kept, is the
# heading of a link list ("Most read", "More on this topic:"). Measured on
# the three development sets (BENCHMARKS.md), F1 points scrapinghub /
# readability / trafilatura-eval: at most 8 words +0.16 / +0.11 / +1.19, flat
# from 6 to 10 words (6: +0.13 / 0 / +1.19; 10: +0.15 / +0.12 / +1.13), less
# at 4 (+0.07 / +0.01 / +0.98) and at 15 (0 / 0 / +1.10: the first lines of
# paragraphs). Either test alone gains less: leading links +0.13 / +0.15 /
# +1.08, standing between +0.11 / +0.08 / +0.47.
HEADING_WORDS: Final = 8

_OUTSIDE: Final = -1


def is_prose(words: int, link_words: int) -> bool:
    """Whether a block the tree rejected as link-dense reads as prose (linked_prose)."""
    return words >= PROSE_WORDS and 2 * link_words <= words


def regions(  # noqa: PLR0913, PLR0917 - the columns of one table, and the rules
    labels: list[str], parents: list[int], scopes: list[int], words: list[int],
    kept: list[bool], rules: frozenset[Rule] = ARTICLE_RULES,
    prose: Sequence[int] = (),
) -> list[Rule | None]:  # fmt: skip
    """Per block, the rule that overrides the tree's verdict on it, or None: a rule
    that removes a kept block, or linked_prose, which keeps a rejected one.

    `scopes` is each block's innermost scope (-1 for none), `kept` whether
    the tree and the semantic drop kept it, `rules` the article rules that
    run (the scan marks only the regions of those), `prose` the blocks the
    tree rejected as link-dense though they read as prose (is_prose).
    """
    region_of = _region_rules(labels, parents, scopes, words, kept)
    removed = [
        region_of[scope] if kept[block] and scope >= 0 else None
        for block, scope in enumerate(scopes)
    ]
    still = [kept[block] and removed[block] is None for block in range(len(scopes))]
    # The declared main container first; where none is trusted, the content
    # container the page's CMS names (content_container).
    kinds = [MAIN_SCOPE, CONTENT_SCOPE] if Rule.CONTENT_CONTAINER in rules else [MAIN_SCOPE]
    for label in [kind for kind in kinds if kind in labels]:
        containers, chains, around = _containers(labels, parents, scopes, label)
        trusted = _trusted(containers, chains, around, still, words, first=label == CONTENT_SCOPE)
        if trusted is None:
            continue
        best, per_main = trusted
        inner = best
        if label == MAIN_SCOPE and Rule.INNER_CONTAINER in rules:
            inner = _inner_container(best, per_main, around)
        outside_rule, inner_rule = _CONTAINER_KINDS[label]
        for block, innermost in enumerate(containers):
            if still[block]:
                chain = chains[innermost]
                if best not in chain:
                    if outside_rule in rules:
                        removed[block] = outside_rule
                elif inner not in chain:
                    removed[block] = inner_rule
        if Rule.LINKED_PROSE in rules:
            for block in prose:  # never inside a comments or boxes region
                scope = scopes[block]
                if _outside_regions(scope, region_of) and inner in chains[containers[block]]:
                    removed[block] = Rule.LINKED_PROSE
        break
    return removed


def _outside_regions(scope: int, region_of: list[Rule | None]) -> bool:
    return scope < 0 or region_of[scope] is None


def _containers(
    labels: list[str], parents: list[int], scopes: list[int], label: str
) -> tuple[list[int], dict[int, tuple[int, ...]], dict[int, int]]:
    """The containers with `label`: per block, the innermost it is in (or -1); per
    innermost one, it and those around it; per container, the one around it."""
    container_of: list[int] = []
    around: dict[int, int] = {}
    for index, scope_label in enumerate(labels):
        parent = parents[index]
        inherited = container_of[parent] if parent >= 0 else _OUTSIDE
        if scope_label == label:
            around[index] = inherited
            container_of.append(index)
        else:
            container_of.append(inherited)
    containers = [container_of[scope] if scope >= 0 else _OUTSIDE for scope in scopes]
    chains = {innermost: _chain(innermost, around) for innermost in set(containers)}
    return containers, chains, around


def _region_rules(
    labels: list[str], parents: list[int], scopes: list[int], words: list[int],
    kept: list[bool],
) -> list[Rule | None]:  # fmt: skip
    """Per scope, the rule of the outermost comments or boxes region it is in (or None).

    A boxes region that holds nearly all of what the tree kept is not one
    (REGION_SHARE): a class word on a wrapper of the whole article (the
    guard the semantic drop has, docs/spec.md section 5); the regions inside it are
    read instead.
    """
    regions_above: list[tuple[int, ...]] = []  # per scope, outermost first
    for index, label in enumerate(labels):
        parent = parents[index]
        above = regions_above[parent] if parent >= 0 else ()
        regions_above.append((*above, index) if label in _REGION_RULES else above)
    region_words: dict[int, int] = {}
    kept_total = 0
    for block, scope in enumerate(scopes):
        if kept[block]:
            kept_total += words[block]
            if scope >= 0:
                for region in regions_above[scope]:
                    region_words[region] = region_words.get(region, 0) + words[block]
    guarded = {
        region
        for region, count in region_words.items()
        if labels[region] in GUARDED and count > REGION_SHARE * kept_total
    }
    region_of: list[Rule | None] = []
    for above in regions_above:
        outermost = next((region for region in above if region not in guarded), -1)
        region_of.append(_REGION_RULES[labels[outermost]] if outermost >= 0 else None)
    return region_of


def _trusted(  # noqa: PLR0913 - the container columns, the page's, and the choice
    containers: list[int], chains: dict[int, tuple[int, ...]], around: dict[int, int],
    still: list[bool], words: list[int], *, first: bool = False,
) -> tuple[int, dict[int, int]] | None:  # fmt: skip
    """The main container: of the outermost declared ones, the one holding most of
    what is still kept, if that is at least MAIN_SHARE of it (else None); and the
    words each container holds, its nested ones' included.

    With `first` (content containers): the first in document order holding at
    least MAIN_SHARE. Measured (BENCHMARKS.md): a discussion whose entries a
    CMS names like text containers can hold more than the article before it
    (readability F1 +0.43 points with the first, -0.07 with the largest; the
    other two sets the same either way).
    """
    kept_words = 0
    per_main: dict[int, int] = {}
    for block, innermost in enumerate(containers):
        if still[block]:
            kept_words += words[block]
            for container in chains[innermost]:
                per_main[container] = per_main.get(container, 0) + words[block]
    outermost = [container for container in per_main if around[container] == _OUTSIDE]
    if not outermost or not kept_words:
        return None
    if first:
        enough = [c for c in sorted(outermost) if per_main[c] >= MAIN_SHARE * kept_words]
        return (enough[0], per_main) if enough else None
    best = max(outermost, key=lambda container: per_main[container])
    return (best, per_main) if per_main[best] >= MAIN_SHARE * kept_words else None


def _inner_container(best: int, per_main: dict[int, int], around: dict[int, int]) -> int:
    """The container nested deepest in `best` down a line of containers that each
    hold at least INNER_SHARE of the one around them (the largest at each level)."""
    while True:
        nested = [container for container in per_main if around[container] == best]
        if not nested:
            return best
        largest = max(nested, key=lambda container: per_main[container])
        if per_main[largest] < INNER_SHARE * per_main[best]:
            return best
        best = largest


def _chain(container: int, around: dict[int, int]) -> tuple[int, ...]:
    """`container` and the containers around it, innermost first (empty for none)."""
    chain = []
    while container != _OUTSIDE:
        chain.append(container)
        container = around[container]
    return tuple(chain)


def sequence(
    words: list[int], kept: list[bool], link_dense: list[bool],
    isolated: list[bool], rules: frozenset[Rule] = ARTICLE_RULES,
) -> list[Rule | None]:  # fmt: skip
    """Per block, list_headings or between_text where it overrides the verdict, or None.

    The rules over the sequence of blocks with words, both judged on what the
    other rules left (`kept`: a heading dropped here does not make the next
    one stand between dropped blocks); `link_dense` is the tree's leaf,
    `isolated` a block the tree rejected as short and isolated.

    - list_headings: a kept block of at most HEADING_WORDS words that leads a
      link-dense block not kept, or stands between blocks not kept, is the
      heading of a link list;
    - between_text: a short isolated block whose neighbours with words are
      both kept is kept.
    """
    with_words = [index for index, count in enumerate(words) if count]
    headings = Rule.LIST_HEADINGS in rules
    between = Rule.BETWEEN_TEXT in rules
    overrides: list[Rule | None] = [None] * len(words)
    last = len(with_words) - 1
    for at, index in enumerate(with_words):
        heading = headings and kept[index] and words[index] <= HEADING_WORDS
        if not heading and not (between and isolated[index]):
            continue  # most blocks: neither rule reads the neighbours
        before = at > 0 and kept[with_words[at - 1]]
        after = at < last and kept[with_words[at + 1]]
        if heading:
            leads_links = at < last and not after and link_dense[with_words[at + 1]]
            if leads_links or not (before or after):
                overrides[index] = Rule.LIST_HEADINGS
        elif before and after:
            overrides[index] = Rule.BETWEEN_TEXT
    return overrides
