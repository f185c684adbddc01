"""Simulated gains of per-page-type rules, on every development set.

A rule changes which of the fit's blocks are kept (DEFAULT_CONF's blocks,
fit_text(...).blocks); the page's text is then re-rendered from the kept
blocks ("\\n".join of their texts) and scored. Each rule applies only to the
pages of its types, as the classifier (blockdensity.pagetype) calls them:
- on WCXB's development split, by the cross-validated predictions that
  bench/pagetype_train.py wrote (each page judged by a model fitted without
  it; without the URL, the harder case), and also by WCXB's own label (the
  ceiling of the rule with a perfect classifier);
- on scrapinghub, readability and trafilatura-eval (the fit's other
  development sets: articles, shop and institutional pages), by the module
  as written (fitted on WCXB only), with the URL where the set gives one.
A rule that gains on WCXB and costs on another set is fitted to WCXB's
pages, not to the kinds of page.

Reported: per rule, WCXB's mean F1 (all pages and per type) and the ROUGE
sets' mean F1 and trafilatura-eval's F1 (from the summed counts), each as a
change from the fit; and how many pages of each other set the classifier
calls each type.

    python -m bench.pagetype_rules [--refresh] [--only "NAME;NAME"] [--min-confidence 0.7]
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import pickle
import statistics
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from bench.pagetype_losses import FitPage, fit_pages, kept, text_of
from bench.wcxb import TYPES, wcxb_score
from blockdensity import Block, Reason, fit_text
from devkit.corpus import ALL_SETS, Counts, Page, count_segments, load_pages, score, sum_counts

OTHER_CACHE = Path("bench/out/other-blocks.pkl")
PREDICTIONS = Path("bench/out/pagetype-cv.json")

Keep = list[bool]
RuleFn = Callable[[Sequence[Block], Keep], Keep]


@dataclass(frozen=True, slots=True)
class OtherPage:
    set_name: str
    page_id: str
    truth: str
    with_passages: tuple[str, ...]
    without_passages: tuple[str, ...]
    text: str
    blocks: tuple[Block, ...]
    predicted: str
    confidence: float


def _row(page: OtherPage) -> tuple[object, ...]:
    return tuple(getattr(page, field) for field in OtherPage.__dataclass_fields__)


def other_pages(refresh: bool = False) -> list[OtherPage]:
    if OTHER_CACHE.exists() and not refresh:
        with open(OTHER_CACHE, "rb") as stored:
            rows = pickle.load(stored)  # noqa: S301 - this script's own cache
        return [OtherPage(*row) for row in rows]
    pages = []
    for page in load_pages(sets=ALL_SETS):
        fit = fit_text(page.html, url=page.url)
        kind = fit.page_type.value if fit.page_type is not None else "article"
        confidence = fit.page_type_confidence or 0.0
        pages.append(
            OtherPage(
                page.set_name,
                page.page_id,
                page.truth,
                page.with_passages,
                page.without_passages,
                fit.text,
                tuple(fit.blocks),
                kind,
                confidence,
            )
        )
    OTHER_CACHE.parent.mkdir(parents=True, exist_ok=True)
    with open(OTHER_CACHE, "wb") as out:
        pickle.dump([_row(page) for page in pages], out)  # see pagetype_losses
    return pages


def base_keep(blocks: Sequence[Block]) -> Keep:
    """The fit's own choice: its kept blocks, or every block when it kept none (its
    fallback returns the whole page)."""
    keep = [kept(block) for block in blocks]
    return keep if any(keep) else [True] * len(blocks)


# --- the rules ------------------------------------------------------------------------

_MAIN_SCOPES = frozenset({"article:main", "article:content"})
_CHROME_SCOPES = frozenset({"nav", "footer", "aside", "header"})
_CELLS = frozenset({"td", "th"})
_HEADINGS = frozenset(f"h{level}" for level in range(1, 7))
_REJECTING_LEAVES = frozenset(
    {
        Reason.LINK_DENSE,
        Reason.SHORT_ISOLATED,
        Reason.AFTER_LINKS_SHORT,
        Reason.SHORT_BEFORE_TEXT,
        Reason.AFTER_LINKS_BEFORE_TEXT,
    }
)


def _span(keep: Keep) -> tuple[int, int]:
    """The first and last kept block's indices (-1, -1 when none)."""
    indices = [index for index, flag in enumerate(keep) if flag]
    return (indices[0], indices[-1]) if indices else (-1, -1)


def forum_comments(blocks: Sequence[Block], keep: Keep) -> Keep:
    """A thread's replies are its content: keep what the comments rule took out (the
    tree kept those blocks; the rule moved them to Fit.comments)."""
    return [
        flag or block.reason is Reason.ARTICLE_COMMENTS
        for block, flag in zip(blocks, keep, strict=True)
    ]


def forum_comments_all(blocks: Sequence[Block], keep: Keep) -> Keep:
    """As forum_comments, and the comment blocks the tree rejected as short too."""
    return [
        flag
        or (block.reason is Reason.ARTICLE_COMMENTS)
        or (block.scope == "article:comments" and block.link_words * 2 <= block.words)
        for block, flag in zip(blocks, keep, strict=True)
    ]


def no_footer_majority(blocks: Sequence[Block], keep: Keep) -> Keep:
    """A footer is never the content: drop what the semantic-majority rule kept in one."""
    return [
        flag and not (block.reason is Reason.SEMANTIC_MAJORITY and block.scope == "footer")
        for block, flag in zip(blocks, keep, strict=True)
    ]


def table_runs(blocks: Sequence[Block], keep: Keep) -> Keep:
    """A table is kept whole or not at all: a run of consecutive cell blocks that holds a
    kept block keeps its cells (but link-dense ones: a table of links is navigation)."""
    out = list(keep)
    index = 0
    while index < len(blocks):
        if blocks[index].element not in _CELLS:
            index += 1
            continue
        end = index
        while end < len(blocks) and blocks[end].element in _CELLS:
            end += 1
        if any(keep[index:end]):
            for inner in range(index, end):
                block = blocks[inner]
                if block.link_words * 2 <= block.words and block.scope not in _CHROME_SCOPES:
                    out[inner] = True
        index = end
    return out


def code_in_span(blocks: Sequence[Block], keep: Keep) -> Keep:
    """Code between the first and the last kept block is content (short code lines are
    rejected as short blocks)."""
    first, last = _span(keep)
    return [
        flag
        or (
            first <= index <= last
            and block.element == "pre"
            and block.link_words * 2 <= block.words
            and block.scope not in _CHROME_SCOPES
        )
        for index, (block, flag) in enumerate(zip(blocks, keep, strict=True))
    ]


def main_rejected(blocks: Sequence[Block], keep: Keep) -> Keep:
    """Inside the page's declared main (or content) container, every block the tree
    rejected (links, shortness) is kept: on a listing the cards are the content."""
    return [
        flag or (block.scope in _MAIN_SCOPES and block.leaf in _REJECTING_LEAVES)
        for block, flag in zip(blocks, keep, strict=True)
    ]


def main_headings(blocks: Sequence[Block], keep: Keep) -> Keep:
    """Inside the main container, linked headings (card titles) are kept."""
    return [
        flag or (block.scope in _MAIN_SCOPES and block.element in _HEADINGS)
        for block, flag in zip(blocks, keep, strict=True)
    ]


def span_rejected(blocks: Sequence[Block], keep: Keep) -> Keep:
    """Between the first and the last kept block, every block outside nav, footer, aside
    and header is kept."""
    first, last = _span(keep)
    return [
        flag
        or (
            first <= index <= last
            and block.scope not in _CHROME_SCOPES
            and block.leaf in _REJECTING_LEAVES
        )
        for index, (block, flag) in enumerate(zip(blocks, keep, strict=True))
    ]


def span_short(blocks: Sequence[Block], keep: Keep) -> Keep:
    """Between the first and the last kept block, the short blocks with few links (labels,
    headings, table cells, code lines) outside nav, footer, aside and header are kept."""
    first, last = _span(keep)
    return [
        flag
        or (
            first <= index <= last
            and block.scope not in _CHROME_SCOPES
            and block.link_words * 3 < block.words
            and block.leaf is not Reason.LINK_DENSE
        )
        for index, (block, flag) in enumerate(zip(blocks, keep, strict=True))
    ]


def span_cards(blocks: Sequence[Block], keep: Keep) -> Keep:
    """Between the first and the last kept block, linked headings and the short blocks
    right after them (a card: a linked title and a line) are kept."""
    first, last = _span(keep)
    out = list(keep)
    after_title = False
    for index, block in enumerate(blocks):
        inside = first <= index <= last and block.scope not in _CHROME_SCOPES
        if inside and block.element in _HEADINGS:
            out[index] = True
            after_title = True
        elif inside and after_title and block.words <= 60 and block.leaf is not Reason.LINK_DENSE:
            out[index] = True
        else:
            after_title = False
    return out


Applier = Callable[[Sequence[Block], Keep, str], Keep]  # blocks, the fit's keep, page type


def only(types: frozenset[str], *rules: RuleFn) -> Applier:
    """`rules`, in turn, on the pages of `types`; the fit's choice elsewhere."""

    def apply(blocks: Sequence[Block], keep: Keep, kind: str) -> Keep:
        if kind in types:
            for rule in rules:
                keep = rule(blocks, keep)
        return keep

    return apply


def proposed(blocks: Sequence[Block], keep: Keep, kind: str) -> Keep:
    """The proposed set: two rules for every page, and each type's own."""
    keep = no_footer_majority(blocks, keep)
    keep = table_runs(blocks, keep)
    if kind == "forum":
        keep = forum_comments(blocks, keep)
    if kind in {"listing", "collection", "documentation", "service"}:
        keep = main_rejected(blocks, keep)
    if kind in {"listing", "collection", "documentation", "service", "product"}:
        keep = span_short(blocks, keep)
    return keep


ALL = frozenset(TYPES)
NON_ARTICLE = ALL - {"article"}
LISTS = frozenset({"listing", "collection"})
DOCS_SERVICE = frozenset({"documentation", "service"})
RULES: dict[str, Applier] = {
    "forum_comments@forum": only(frozenset({"forum"}), forum_comments),
    "forum_comments_all@forum": only(frozenset({"forum"}), forum_comments_all),
    "forum_comments@all": only(ALL, forum_comments),
    "no_footer_majority@product,collection": only(
        frozenset({"product", "collection"}), no_footer_majority
    ),
    "no_footer_majority@all": only(ALL, no_footer_majority),
    "table_runs@all": only(ALL, table_runs),
    "table_runs@non-article": only(NON_ARTICLE, table_runs),
    "code_in_span@documentation": only(frozenset({"documentation"}), code_in_span),
    "code_in_span@all": only(ALL, code_in_span),
    "main_rejected@listing,collection": only(LISTS, main_rejected),
    "main_rejected@listing": only(frozenset({"listing"}), main_rejected),
    "main_headings@listing,collection": only(LISTS, main_headings),
    "span_rejected@listing,collection": only(LISTS, span_rejected),
    "span_cards@listing,collection": only(LISTS, span_cards),
    "span_short@documentation": only(frozenset({"documentation"}), span_short),
    "span_short@service": only(frozenset({"service"}), span_short),
    "span_short@product": only(frozenset({"product"}), span_short),
    "span_short@non-article": only(NON_ARTICLE, span_short),
    "main_rejected+span_short@listing,collection": only(LISTS, main_rejected, span_short),
    "main_rejected@documentation,service": only(DOCS_SERVICE, main_rejected),
    "main_rejected+span_short@documentation,service": only(DOCS_SERVICE, main_rejected, span_short),
    # every page: no_footer_majority, table_runs; forum: forum_comments; listing,
    # collection, documentation, service: main_rejected; those and product: span_short
    "proposed": proposed,
}


# --- scoring --------------------------------------------------------------------------


def wcxb_figures(
    pages: Sequence[FitPage], kinds: dict[str, str], apply: Callable[[FitPage, str], Keep]
) -> dict[str, float]:
    per_type: dict[str, list[float]] = {kind: [] for kind in TYPES}
    for page in pages:
        text = text_of(page, apply(page, kinds[page.page_id]))
        per_type[page.page_type].append(wcxb_score(text, page.truth)[2])
    figures = {kind: statistics.mean(values) for kind, values in per_type.items()}
    figures["all"] = statistics.mean(v for values in per_type.values() for v in values)
    return figures


def other_figures(
    pages: Sequence[OtherPage], apply: Callable[[OtherPage, str], Keep]
) -> dict[str, float]:
    figures: dict[str, float] = {}
    for set_name in ALL_SETS:
        members = [page for page in pages if page.set_name == set_name]
        texts = [
            "\n".join(
                b.text
                for b, flag in zip(page.blocks, apply(page, page.predicted), strict=True)
                if flag
            )
            for page in members
        ]
        if set_name == "trafilatura-eval":
            counts: Counts = sum_counts(
                count_segments(text, _segment_page(page))
                for text, page in zip(texts, members, strict=True)
            )
            figures[set_name] = counts.f1
        else:
            figures[set_name] = statistics.mean(
                score(text, page.truth).f1 for text, page in zip(texts, members, strict=True)
            )
    return figures


def _segment_page(page: OtherPage) -> Page:
    return Page(page.set_name, page.page_id, b"", "", "", page.with_passages, page.without_passages)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--refresh", action="store_true")
    parser.add_argument("--only", default="")
    parser.add_argument(
        "--min-confidence",
        type=float,
        default=0.0,
        help="a page the classifier is less sure of than this is taken as an article",
    )
    args = parser.parse_args(argv)
    wcxb = fit_pages()
    others = other_pages(args.refresh)
    predictions = json.loads(PREDICTIONS.read_text(encoding="utf-8"))
    floor = args.min_confidence
    predicted = {
        page_id: row["no_url"] if row["no_url_confidence"] >= floor else "article"
        for page_id, row in predictions.items()
    }
    others = [
        page if page.confidence >= floor else dataclasses.replace(page, predicted="article")
        for page in others
    ]
    labelled = {page.page_id: page.page_type for page in wcxb}

    print("Pages of the other sets by predicted type:")
    for set_name in ALL_SETS:
        found = Counter(page.predicted for page in others if page.set_name == set_name)
        print(f"  {set_name}: {dict(found.most_common())}")

    def base_wcxb(page: FitPage, _kind: str) -> Keep:
        return base_keep(page.blocks)

    def base_other(page: OtherPage, _kind: str) -> Keep:
        return base_keep(page.blocks)

    base = wcxb_figures(wcxb, predicted, base_wcxb)
    base_others = other_figures(others, base_other)
    header = ["all", *TYPES, *ALL_SETS]
    print("\n| rule | applied by | " + " | ".join(h[:11] for h in header) + " |")
    print("|---|---|" + "---:|" * len(header))
    print(
        "| the fit | | "
        + " | ".join(f"{base[h]:.3f}" for h in ("all", *TYPES))
        + " | "
        + " | ".join(f"{base_others[s]:.3f}" for s in ALL_SETS)
        + " |"
    )
    chosen = [name for name in RULES if not args.only or name in args.only.split(";")]
    for name in chosen:
        rule = RULES[name]

        def apply(page: FitPage | OtherPage, kind: str, rule: Applier = rule) -> Keep:
            return rule(page.blocks, base_keep(page.blocks), kind)

        for label, kinds in (("predicted", predicted), ("label", labelled)):
            figures = wcxb_figures(wcxb, kinds, apply)
            cells = " | ".join(f"{figures[h] - base[h]:+.3f}" for h in ("all", *TYPES))
            if label == "predicted":
                other = other_figures(others, apply)
                other_cells = " | ".join(f"{other[s] - base_others[s]:+.4f}" for s in ALL_SETS)
            else:
                other_cells = " | ".join("" for _ in ALL_SETS)
            print(f"| {name} | {label} | {cells} | {other_cells} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
