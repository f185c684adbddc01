"""Where the fit loses on WCXB's page types: words missed and added, by block, and the ceilings.

For every page of WCXB's development split, the fit (DEFAULT_CONF, the page's
URL given) is run once and its blocks are kept (bench/out/wcxb-blocks.pkl, a
cache the rule simulation bench/pagetype_rules.py reads too). Then, per
page type:
- the F1 of the fit, its loss (the sum over pages of 1 - F1), and the share
  of that loss on pages whose output is empty;
- the words the fit missed and added, by the block's element, its reason
  (the leaf or the rule) and its scope. Attribution: the kept blocks take
  their tokens out of the ground truth's multiset first, in page order (a
  kept token not in what is left is "added"); then each dropped block, in
  page order, takes what it can of what is left ("missed": a token of the
  truth the fit had in a block and dropped). Tokens of the truth that no
  block holds are "absent" (text the walk never sees: noscript, attributes,
  script-rendered content, or the truth's own wording);
- ceilings: the mean F1 if every dropped block of one element class whose
  tokens are mostly in the truth (an oracle: more than half of them left
  in the truth's multiset) were kept: tables (td, th), list items (li, dt,
  dd), code (pre), headings, paragraphs, other; and the F1 if every empty
  output were perfect.

    python -m bench.pagetype_losses [--refresh] [--top 12]
"""

from __future__ import annotations

import argparse
import pickle
import statistics
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from bench.wcxb import TYPES, tokens, wcxb_score
from blockdensity import Block, Decision, fit_text
from devkit.corpus import PAGE_TYPE_SETS, load_pages

CACHE = Path("bench/out/wcxb-blocks.pkl")

ELEMENT_CLASSES = {
    "td": "table",
    "th": "table",
    "li": "list",
    "dt": "list",
    "dd": "list",
    "pre": "code",
    "p": "paragraph",
    **{f"h{level}": "heading" for level in range(1, 7)},
}


def element_class(element: str) -> str:
    return ELEMENT_CLASSES.get(element, "other")


@dataclass(frozen=True, slots=True)
class FitPage:
    page_id: str
    page_type: str
    url: str
    truth: str
    text: str  # the fit's
    comments: str  # the fit's comments (apart from its text by default)
    blocks: tuple[Block, ...]
    fallback: bool


def fit_pages(refresh: bool = False) -> list[FitPage]:
    """Every WCXB page with the fit's blocks (cached on disk)."""
    if CACHE.exists() and not refresh:
        with open(CACHE, "rb") as stored:
            rows = pickle.load(stored)  # noqa: S301 - this script's own cache
        return [FitPage(*row) for row in rows]
    pages = []
    for page in load_pages(sets=PAGE_TYPE_SETS):
        fit = fit_text(page.html, url=page.url)
        pages.append(
            FitPage(
                page.page_id,
                page.page_type or "",
                page.url or "",
                page.truth,
                fit.text,
                fit.comments or "",
                tuple(fit.blocks),
                fit.fallback,
            )
        )
    CACHE.parent.mkdir(parents=True, exist_ok=True)
    with open(CACHE, "wb") as out:
        # Plain tuples: a pickled class would be named by the module that made it
        # (__main__ when this script runs), and other scripts could not load it.
        pickle.dump([_row(page) for page in pages], out)
    return pages


def _row(page: FitPage) -> tuple[object, ...]:
    """The page's fields, in order (not dataclasses.astuple: that would take the blocks
    apart too)."""
    return tuple(getattr(page, field) for field in FitPage.__dataclass_fields__)


def kept(block: Block) -> bool:
    return block.decision is Decision.CONTENT


def attribute(
    page: FitPage, keep: Iterable[bool] | None = None
) -> tuple[list[Counter[str]], list[Counter[str]], Counter[str]]:
    """Per block: the tokens it adds (kept, not in the truth) and the tokens it misses
    (dropped, in the truth); and the truth's tokens no block holds."""
    flags = list(keep) if keep is not None else [kept(block) for block in page.blocks]
    left = Counter(tokens(page.truth))
    added: list[Counter[str]] = [Counter() for _ in page.blocks]
    missed: list[Counter[str]] = [Counter() for _ in page.blocks]
    for index, block in enumerate(page.blocks):
        if flags[index]:
            mine = Counter(tokens(block.text))
            found = mine & left
            left -= found
            added[index] = mine - found
    for index, block in enumerate(page.blocks):
        if not flags[index]:
            found = Counter(tokens(block.text)) & left
            left -= found
            missed[index] = found
    return added, missed, left


def text_of(page: FitPage, keep: Iterable[bool]) -> str:
    return "\n".join(block.text for block, flag in zip(page.blocks, keep, strict=True) if flag)


def oracle_keep(page: FitPage, classes: set[str]) -> list[bool]:
    """The fit's decisions, plus every dropped block of `classes` whose tokens are mostly
    in the truth (counted against what the kept blocks left of it)."""
    flags = [kept(block) for block in page.blocks]
    _, missed, _ = attribute(page, flags)
    for index, block in enumerate(page.blocks):
        if flags[index] or element_class(block.element) not in classes:
            continue
        count = len(tokens(block.text))
        if count and sum(missed[index].values()) > count / 2:
            flags[index] = True
    return flags


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--refresh", action="store_true", help="run the fit again")
    parser.add_argument("--top", type=int, default=12)
    args = parser.parse_args(argv)
    pages = fit_pages(args.refresh)
    by_type: dict[str, list[FitPage]] = defaultdict(list)
    for page in pages:
        by_type[page.page_type].append(page)

    print("## F1, loss, and the empty outputs\n")
    print("| type | pages | F1 | P | R | loss | empty outputs | their loss | share |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for kind in (*TYPES, "all"):
        members = pages if kind == "all" else by_type[kind]
        scores = [wcxb_score(page.text, page.truth) for page in members]
        loss = sum(1 - f1 for _, _, f1 in scores)
        empty = [
            1 - score[2]
            for page, score in zip(members, scores, strict=True)
            if not tokens(page.text)
        ]
        print(
            f"| {kind} | {len(members)} | {statistics.mean(s[2] for s in scores):.3f}"
            f" | {statistics.mean(s[0] for s in scores):.3f}"
            f" | {statistics.mean(s[1] for s in scores):.3f} | {loss:.1f} | {len(empty)}"
            f" | {sum(empty):.1f} | {sum(empty) / loss:.1%} |"
        )

    print("\n## Ceilings: mean F1 with an oracle keeping one class of dropped blocks\n")
    classes = ("table", "list", "code", "heading", "paragraph", "other")
    print("| type | fit | " + " | ".join(classes) + " | all classes | empty fixed |")
    print("|---|---:|" + "---:|" * (len(classes) + 2))
    for kind in (*TYPES, "all"):
        members = pages if kind == "all" else by_type[kind]
        base = statistics.mean(wcxb_score(page.text, page.truth)[2] for page in members)
        cells = []
        for chosen in (*[{name} for name in classes], set(classes)):
            f1 = statistics.mean(
                wcxb_score(text_of(page, oracle_keep(page, chosen)), page.truth)[2]
                for page in members
            )
            cells.append(f"{f1 - base:+.3f}")
        fixed = statistics.mean(
            1.0 if not tokens(page.text) else wcxb_score(page.text, page.truth)[2]
            for page in members
        )
        cells.append(f"{fixed - base:+.3f}")
        print(f"| {kind} | {base:.3f} | " + " | ".join(cells) + " |")

    print("\n## Words missed and added, by element class, reason and scope\n")
    for kind in TYPES:
        members = by_type[kind]
        missed_by: Counter[tuple[str, str, str]] = Counter()
        added_by: Counter[tuple[str, str, str]] = Counter()
        truth_words = absent_words = 0
        for page in members:
            added, missed, absent = attribute(page)
            truth_words += len(tokens(page.truth))
            absent_words += sum(absent.values())
            for block, plus, minus in zip(page.blocks, added, missed, strict=True):
                key = (element_class(block.element), block.reason.value, block.scope or "-")
                missed_by[key] += sum(minus.values())
                added_by[key] += sum(plus.values())
        total_missed = sum(missed_by.values())
        total_added = sum(added_by.values())
        print(
            f"### {kind}: truth {truth_words} words; missed in dropped blocks {total_missed}"
            f" ({total_missed / truth_words:.1%}), in no block {absent_words}"
            f" ({absent_words / truth_words:.1%}); added {total_added}\n"
        )
        print(
            "| missed: element, reason, scope | words | | added: element, reason, scope | words |"
        )
        print("|---|---:|---|---|---:|")
        top_missed = missed_by.most_common(args.top)
        top_added = added_by.most_common(args.top)
        for row in range(max(len(top_missed), len(top_added))):
            left = top_missed[row] if row < len(top_missed) else None
            right = top_added[row] if row < len(top_added) else None
            left_cells = f"{', '.join(left[0])} | {left[1]}" if left else " | "
            right_cells = f"{', '.join(right[0])} | {right[1]}" if right else " | "
            print(f"| {left_cells} | | {right_cells} |")
        print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
