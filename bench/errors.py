"""Where the fit's errors are: false positives and negatives by block reason, leaf and page kind.

For each page of the development corpus the fit runs with a configuration
(DEFAULT_CONF unless `--published`), and what it got wrong is attributed to
the blocks that hold it:
- on the ROUGE sets, tokens: a kept block's tokens that the ground truth
  does not hold (in document order, each truth token matched once) are
  false positives; a dropped block's tokens that the truth still wants after
  the kept text took its own are false negatives;
- on the segment set, passages: a `without` passage found in the output is
  a false positive of the kept block that holds its start; a `with`
  passage missed is a false negative of the block that holds its start.
Each error is counted under the block's reason (its leaf after a slash when
a rule overrode the tree) and under whether the page declares an article
(the article rules run only there). The point is to see which kinds of
error are worth a rule, and on which pages.

    python -m bench.errors [--published] [--sets ...] [--top 25]
"""

from __future__ import annotations

import argparse
from collections import Counter
from collections.abc import Sequence

from blockdensity import DEFAULT_CONF, PUBLISHED_CONF, Block, Decision, fit_text
from blockdensity.article import has_article_structure
from devkit.corpus import ALL_SETS, DEFAULT_DATA, Page, load_pages

_KEPT = (Decision.CONTENT,)


def label(block: Block) -> str:
    return str(block.reason) if block.reason == block.leaf else f"{block.reason}/{block.leaf}"


def _collapse(text: str) -> str:
    return " ".join(text.split())


def rouge_errors(page: Page, blocks: Sequence[Block]) -> tuple[Counter[str], Counter[str]]:
    wanted = Counter(page.truth.split())
    false_positive: Counter[str] = Counter()
    for block in blocks:
        if block.decision in _KEPT:
            for token in block.text.split():
                if wanted[token] > 0:
                    wanted[token] -= 1
                else:
                    false_positive[label(block)] += 1
    false_negative: Counter[str] = Counter()
    for block in blocks:
        if block.decision not in _KEPT:
            for token in block.text.split():
                if wanted[token] > 0:
                    wanted[token] -= 1
                    false_negative[label(block)] += 1
    return false_positive, false_negative


def _holder(passage: str, blocks: Sequence[Block], kept_only: bool) -> Block | None:
    start = _collapse(passage)[:40]
    for block in blocks:
        if kept_only and block.decision not in _KEPT:
            continue
        if start and start in _collapse(block.text):
            return block
    return None


def segment_errors(
    page: Page, blocks: Sequence[Block], text: str
) -> tuple[Counter[str], Counter[str], list[str]]:
    output = _collapse(text)
    false_positive: Counter[str] = Counter()
    false_negative: Counter[str] = Counter()
    notes: list[str] = []
    for passage in page.without_passages:
        if _collapse(passage) in output:
            block = _holder(passage, blocks, kept_only=True)
            name = label(block) if block else "(spans blocks)"
            false_positive[name] += 1
            notes.append(f"FP {name} [{block.element if block else '-'}]: {passage[:70]!r}")
    for passage in page.with_passages:
        if _collapse(passage) not in output:
            block = _holder(passage, blocks, kept_only=False)
            name = label(block) if block else "(not in any block)"
            if block is not None and block.decision in _KEPT:
                name = "(kept, spans blocks)"
            false_negative[name] += 1
            notes.append(f"FN {name}: {passage[:70]!r}")
    return false_positive, false_negative, notes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--published", action="store_true", help="the published profile")
    parser.add_argument("--sets", default=",".join(ALL_SETS))
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--pages", action="store_true", help="print each page's errors")
    args = parser.parse_args()
    conf = PUBLISHED_CONF if args.published else DEFAULT_CONF
    for set_name in args.sets.split(","):
        pages = load_pages(DEFAULT_DATA, (set_name,))
        fp: dict[bool, Counter[str]] = {True: Counter(), False: Counter()}
        fn: dict[bool, Counter[str]] = {True: Counter(), False: Counter()}
        declared = Counter[bool]()
        for page in pages:
            fit = fit_text(page.html, conf)
            declares = has_article_structure(page.html)
            declared[declares] += 1
            if page.segmented:
                false_positive, false_negative, notes = segment_errors(page, fit.blocks, fit.text)
                if args.pages and notes:
                    print(f"== {page.page_id[:12]} {page.url} declares={declares}")
                    for note in notes:
                        print("   ", note)
            else:
                false_positive, false_negative = rouge_errors(page, fit.blocks)
            fp[declares].update(false_positive)
            fn[declares].update(false_negative)
        unit = "passages" if pages and pages[0].segmented else "tokens"
        print(f"# {set_name}: {len(pages)} pages, {declared[True]} declare an article")
        for kind, table in (("false positives", fp), ("false negatives", fn)):
            for declares in (True, False):
                total = sum(table[declares].values())
                where = "declaring" if declares else "not declaring"
                print(f"## {kind}, pages {where} an article: {total} {unit}")
                for name, count in table[declares].most_common(args.top):
                    print(f"   {count:6d} {count / max(total, 1):6.1%} {name}")
        print()


if __name__ == "__main__":
    main()
