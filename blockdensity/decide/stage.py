"""The decide stage: every block's outcome, the blocks the text keeps, and the fallback.

In order: the published tree classifies every block by its words and link
density (blockdensity.decide.tree, docs/spec.md section 4); the semantic drop
removes what lies in nav, footer, aside and their roles (decide.semantic,
docs/spec.md section 5); then each family of rules that the configuration
runs overrides the outcomes it acts on (PASSES: the article profile's rules,
decide.article; then the rules by kind of page, which decide.kinds runs on
the kinds of page they serve: decide.container, decide.forum, decide.posts,
decide.facets, decide.listing, decide.grid, decide.title, decide.related,
decide.sections, decide.chrome, decide.contents, decide.prose, decide.code,
decide.headings, decide.controls, decide.notices, decide.duplicates). Where
they keep under SCANT_WORDS words, the rules of other kinds read the page
again (decide.kinds' second_looks: its likeliest kind where the classifier
was unsure of it, then a page of items), and a verdict that keeps more
stands; an uncertain article that may be a listing is read as one too, and
the listing's verdict stands where it keeps three times the words
(decide.kinds' listing_look). Where the rules took everything the tree
kept, the published verdict stands (but for a cookie-consent notice); where
nothing with words is left, the whole page is kept (but for such a notice,
where the rest holds words) and the verdict says why (the fallback,
docs/spec.md section 6).

A family of rules is one module of this package with a pass that reads the
Board and changes the outcomes of the blocks it acts on, and is listed in
PASSES with the rules it serves: adding one touches nothing else here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from blockdensity.conf import Conf, Rule
from blockdensity.decide import (
    article,
    chrome,
    code,
    container,
    contents,
    controls,
    duplicates,
    facets,
    forum,
    grid,
    headings,
    listing,
    notices,
    posts,
    prose,
    related,
    sections,
    semantic,
    tables,
    title,
)
from blockdensity.decide.board import Board
from blockdensity.decide.kinds import (
    LISTING_GAIN,
    SCANT_WORDS,
    judged_kind,
    listing_look,
    rules_of_kind,
    second_looks,
)
from blockdensity.decide.outcome import KEPT_OUTCOMES, Outcome
from blockdensity.decide.tree import CONTENT_LEAVES, classify
from blockdensity.measure import Measures
from blockdensity.pagetype import PageType
from blockdensity.result import FallbackReason
from blockdensity.segment import DROP, ELEMENT, Page
from blockdensity.structure import Structure

__all__ = ["PASSES", "Verdict", "decide"]

Pass = Callable[[Board, list[Outcome]], None]
# The families of rules after the tree and the semantic drop, in the order
# they run: each runs when the configuration runs one of the rules it serves.
PASSES: Final[tuple[tuple[frozenset[Rule], Pass], ...]] = (
    (article.REGION_RULES, article.apply_regions),
    (article.SEQUENCE_RULES, article.apply_sequence),
    # The rules by kind of page (decide.kinds says which kinds each runs on).
    (frozenset((Rule.FOOTER_MAJORITY,)), container.apply_footer),
    (frozenset((Rule.BOX_MAJORITY,)), container.apply_boxes),
    (frozenset((Rule.DATA_TABLES,)), tables.apply),
    (frozenset((Rule.FORUM_POSTS,)), forum.apply),
    (frozenset((Rule.POST_BODIES,)), posts.apply),
    (frozenset((Rule.CONTAINER_TEXT,)), container.apply_container),
    # After container_text, whose blocks it reads; before the item rules, which
    # bring back the links of the item grid.
    (frozenset((Rule.SHOP_LINKS,)), facets.apply),
    (frozenset((Rule.SPAN_TEXT,)), container.apply_span),
    (frozenset((Rule.CONTAINER_ITEMS,)), container.apply_items),
    (frozenset((Rule.INTRODUCED_LISTS,)), container.apply_introduced),
    (frozenset((Rule.ITEM_CARDS,)), listing.apply),
    (frozenset((Rule.ITEM_GRID,)), grid.apply),
    (frozenset((Rule.TITLE_REGION,)), title.apply),
    (frozenset((Rule.RELATED_ITEMS,)), related.apply),
    (frozenset((Rule.REVIEW_SECTIONS,)), sections.apply_reviews),
    (frozenset((Rule.RELATED_SECTIONS,)), sections.apply_related),
    (frozenset((Rule.PAGE_CHROME,)), chrome.apply),
    # After every rule that keeps a list (container_text, introduced_lists); before
    # section_headings, so that a heading over a dropped table of contents stays out.
    (frozenset((Rule.TABLE_OF_CONTENTS,)), contents.apply),
    # After the rules that keep text, whose kept blocks they read; code_blocks
    # and after_links_text first, so that a heading over what they keep is kept too.
    (frozenset((Rule.AFTER_LINKS_TEXT,)), prose.apply),
    (frozenset((Rule.CODE_BLOCKS,)), code.apply),
    (frozenset((Rule.SECTION_HEADINGS,)), headings.apply),
    # After every rule that keeps text: they drop what those kept (a control's
    # caption, a copyright notice).
    (frozenset((Rule.FORM_CONTROLS,)), controls.apply),
    (frozenset((Rule.COPYRIGHT_NOTICES,)), notices.apply),
    # Last: it compares what every other rule kept.
    (frozenset((Rule.DUPLICATE_TEXT,)), duplicates.apply),
)
_KEPT: Final = Outcome.KEPT
_BOILERPLATE: Final = Outcome.BOILERPLATE
_COMMENTS: Final = Outcome.COMMENTS
_CONSENT: Final = Outcome.CONSENT


class Verdict:
    """What the decide stage settled for a page."""

    __slots__ = (
        "comments",
        "fallback",
        "kept",
        "kind",
        "leaves",
        "outcomes",
        "structure",
        "words_kept",
    )

    def __init__(  # noqa: PLR0913 - the stage's figures, built in one place
        self,
        *,
        leaves: list[int],
        outcomes: list[Outcome],
        kept: list[int],
        words_kept: int,
        comments: list[int],
        fallback: FallbackReason | None,
        kind: PageType | None,
        structure: Structure | None = None,
    ) -> None:
        self.leaves = leaves  # each block's leaf of the published tree
        self.outcomes = outcomes  # each block's outcome
        self.kept = kept  # the blocks the text holds, in order (every block on fallback)
        self.words_kept = words_kept  # their words
        # The blocks the comments rule took from the article, whose text goes to
        # Fit.comments (none on fallback).
        self.comments = comments
        self.fallback = fallback  # why the whole page is kept, or None
        # The kind of page whose rules ran (decide.kinds); None: no rules ran.
        self.kind = kind
        # The page's structure, where the rules built one: Fit.markdown reads it too,
        # rather than building it again (a tenth of the Markdown's cost).
        self.structure = structure


def decide(  # noqa: PLR0913 - the page, its measures, the configuration and its kind
    page: Page,
    measures: Measures,
    conf: Conf,
    page_type: PageType = PageType.ARTICLE,
    type_confidence: float = 0.0,
    *,
    classified: bool = True,
    runner_up: PageType | None = None,
) -> Verdict:
    """Every block's outcome under `conf` on a page of `page_type` (as sure of it as
    `type_confidence`), the blocks kept, and the fallback. `classified`: the kind is the
    classifier's call, which a second look may look past (decide.kinds: a scant reading,
    second_looks; an uncertain article whose `runner_up`, the classifier's next likeliest
    kind, is a listing, listing_look); a caller's kind is followed as given."""
    words, links = measures
    blocks = page.blocks
    kind = judged_kind(page_type, type_confidence)
    scopes = [block[DROP] for block in blocks]
    parents = page.scope_parents
    in_control = None
    if conf.rules and (
        lifted := controls.lift(scopes, page.drop_scopes, parents, conf.control_labels)
    ):
        scopes, parents, in_control = lifted
    board = Board(
        words=words,
        links=links,
        leaves=classify(words, links, conf),
        elements=[block[ELEMENT] for block in blocks],
        scopes=scopes,
        labels=page.drop_scopes,
        parents=parents,
        rules=rules_of_kind(conf.rules, kind) if conf.rules else conf.rules,
        kind=kind,
        page=page,
        controls=in_control,
    )
    outcomes = _judge(board)
    kept = _kept(outcomes)
    if board.rules and classified:
        board, outcomes, kept = _looked_again(
            board,
            outcomes,
            kept,
            conf.rules,
            page_type=page_type,
            type_confidence=type_confidence,
            runner_up=runner_up,
        )
    kept_words = [words[index] for index in kept]
    if board.rules and not any(kept_words):
        # The rules took all the tree kept (a page whose whole text sits in a
        # region named like comments, or is only short headings): the
        # published verdict stands, rather than the whole page.
        published = _judge(board.with_rules(frozenset(), board.kind))
        if _CONSENT in outcomes:
            published = _without_notices(published, outcomes)
        verdict = _kept(published)
        if any(words[index] for index in verdict):
            outcomes, kept = published, verdict
            kept_words = [words[index] for index in kept]

    fallback = _fallback(words, kept_words)
    if fallback is not None:
        # A filter that can return an empty page is worse than no filter; a
        # cookie-consent notice stays out of it where the rest holds words.
        kept = list(range(len(words)))
        if _CONSENT in outcomes:
            rest = [index for index in kept if outcomes[index] is not _CONSENT]
            if any(words[index] for index in rest):
                kept = rest
        kept_words = [words[index] for index in kept]
    comments = (
        [index for index, outcome in enumerate(outcomes) if outcome is _COMMENTS]
        if fallback is None
        else []
    )
    return Verdict(
        leaves=board.leaves,
        outcomes=outcomes,
        kept=kept,
        words_kept=sum(kept_words),
        comments=comments,
        fallback=fallback,
        kind=board.kind if board.rules else None,
        structure=board.built_structure(),
    )


def _looked_again(  # noqa: PLR0913 - the reading, the rules, and the classifier's call
    board: Board,
    outcomes: list[Outcome],
    kept: list[int],
    rules: frozenset[Rule],
    *,
    page_type: PageType,
    type_confidence: float,
    runner_up: PageType | None,
) -> tuple[Board, list[Outcome], list[int]]:
    """The board, outcomes and kept blocks that stand after the second looks at a page
    the classifier called `page_type` (as sure of it as `type_confidence`, `runner_up`
    its next likeliest kind), `outcomes` its rules' verdict and `kept` the blocks it
    keeps (decide.kinds): a scant verdict gives way to another kind's that keeps more
    (second_looks), and an uncertain article's to a listing's that keeps LISTING_GAIN
    times its words (listing_look)."""
    words = board.words
    kept_words = _words_of(words, kept)
    for other in second_looks(page_type, type_confidence):
        if kept_words >= SCANT_WORDS:
            break
        # (Almost) empty as read: another kind's rules may find what these do not
        # (decide.kinds); their verdict stands where it keeps more.
        look = board.with_rules(rules_of_kind(rules, other), other)
        again = _judge(look)
        again_kept = _kept(again)
        if (again_words := _words_of(words, again_kept)) > kept_words:
            board, outcomes, kept, kept_words = look, again, again_kept, again_words
    if not listing_look(page_type, type_confidence, runner_up):
        return board, outcomes, kept
    # A verdict keeps at most the page's words: where those are under LISTING_GAIN times
    # the kept ones, no listing's reading can stand, and none is judged.
    if LISTING_GAIN * kept_words > sum(words):
        return board, outcomes, kept
    # An uncertain article that may be a listing: its entries, which the article's rules
    # reject as link-dense, are its text where a listing's rules find them.
    look = board.with_rules(rules_of_kind(rules, PageType.LISTING), PageType.LISTING)
    again = _judge(look)
    listed_kept = _kept(again)
    listed = _words_of(words, listed_kept)
    if listed > kept_words and listed >= LISTING_GAIN * kept_words:
        return look, again, listed_kept
    return board, outcomes, kept


def _words_of(words: list[int], blocks: list[int]) -> int:
    """The words of `blocks`."""
    return sum(words[index] for index in blocks)


def _without_notices(published: list[Outcome], outcomes: list[Outcome]) -> list[Outcome]:
    """The published verdict but for the cookie-consent notices the rules dropped: a
    notice is no page's text, whatever else the rules took (a listing whose items the
    tree rejected, its consent platform's notice all that the tree kept)."""
    return [
        _CONSENT if outcome is _CONSENT else verdict
        for verdict, outcome in zip(published, outcomes, strict=True)
    ]


def _judge(board: Board) -> list[Outcome]:
    """The tree's outcomes, the semantic drop, then the rules' passes."""
    outcomes = [_KEPT if leaf < CONTENT_LEAVES else _BOILERPLATE for leaf in board.leaves]
    semantic.apply(board, outcomes)
    rules = board.rules
    if rules:
        for served, apply in PASSES:
            if served & rules:
                apply(board, outcomes)
    return outcomes


def _kept(outcomes: list[Outcome]) -> list[int]:
    """The blocks whose outcome keeps them, in order."""
    return [index for index, outcome in enumerate(outcomes) if outcome in KEPT_OUTCOMES]


def _fallback(words: list[int], kept_words: list[int]) -> FallbackReason | None:
    """Why the page is kept whole (docs/spec.md section 6), or None."""
    if not any(words):
        return FallbackReason.NO_TEXT
    if len(words) - words.count(0) <= 1:
        return FallbackReason.SINGLE_BLOCK
    if not any(kept_words):
        return FallbackReason.NOTHING_KEPT
    return None
